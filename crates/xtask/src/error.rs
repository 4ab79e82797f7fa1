//! Why a task failed: [`XtaskError`], each variant holding what failed (the command, the file,
//! the program's error). Its `Display` is the one line `main` prints after `error: `.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

/// Why `cargo xtask test` or `cargo xtask site` failed.
#[derive(Debug)]
pub enum XtaskError {
    /// The Debian `package` that provides a program could not be installed; `install` is the
    /// command to run as root.
    Install { package: &'static str, install: String },
    /// `program` is not on the `PATH` after its Debian `package` was installed.
    StillMissing { program: &'static str, package: &'static str },
    /// A rustup command (`rustup target add ...`) failed.
    Rustup(String),
    /// rustup is not there to add the `target`.
    NoRustup { target: &'static str },
    /// A Node.js of at least `major` could not be installed with `install`.
    Node { major: u32, install: String },
    /// The `PATH` of the tests could not be put together.
    Path(std::env::JoinPathsError),
    /// `command` could not start.
    Start { command: String, source: io::Error },
    /// `command` ended with `status`.
    Failed { command: String, status: ExitStatus },
    /// The WebAssembly module did not build.
    ModuleBuild,
    /// An operation on `path` failed.
    File { path: PathBuf, source: io::Error },
    /// The tablebase folder `path` could not be listed.
    TablebaseDir { path: PathBuf, source: io::Error },
    /// The table at `path` ended before the size it had when the copy began.
    Shorter(PathBuf),
    /// The page at `path` has no `marker` line, where the static site's tags go.
    NoMarker { path: PathBuf, marker: &'static str },
    /// `option` of `cargo xtask site` has no folder after it; `usage` is the task's usage.
    NeedsFolder { option: String, usage: &'static str },
    /// An argument `cargo xtask site` does not know.
    UnknownArgument { argument: String, usage: &'static str },
    /// `--help`: the usage, printed as the error it is for `cargo xtask site`.
    Help(&'static str),
}

impl fmt::Display for XtaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XtaskError::Install { package, install } => {
                write!(f, "could not install {package}: run `{install}` as root, then this command again")
            }
            XtaskError::StillMissing { program, package } => {
                write!(f, "`{program}` is still missing after installing {package}")
            }
            XtaskError::Rustup(command) => write!(f, "`{command}` failed"),
            XtaskError::NoRustup { target } => {
                write!(f, "rustup is not available to add the {target} target: install it with rustup")
            }
            XtaskError::Node { major, install } => {
                write!(f, "could not install Node.js {major}: `{install}` failed")
            }
            XtaskError::Path(e) => write!(f, "PATH: {e}"),
            XtaskError::Start { command, source } => write!(f, "{command} could not start: {source}"),
            XtaskError::Failed { command, status } => write!(f, "{command} failed ({status})"),
            XtaskError::ModuleBuild => write!(f, "the WebAssembly module did not build"),
            XtaskError::File { path, source } => write!(f, "{}: {source}", path.display()),
            XtaskError::TablebaseDir { path, source } => {
                write!(f, "the tablebase folder {}: {source}", path.display())
            }
            XtaskError::Shorter(path) => write!(f, "{}: shorter than it was", path.display()),
            XtaskError::NoMarker { path, marker } => write!(f, "{} has no line {marker}", path.display()),
            XtaskError::NeedsFolder { option, usage } => write!(f, "{option} needs a folder\n{usage}"),
            XtaskError::UnknownArgument { argument, usage } => {
                write!(f, "unknown argument {argument:?}\n{usage}")
            }
            XtaskError::Help(usage) => write!(f, "{usage}"),
        }
    }
}

impl Error for XtaskError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            XtaskError::Path(e) => Some(e),
            XtaskError::Start { source, .. }
            | XtaskError::File { source, .. }
            | XtaskError::TablebaseDir { source, .. } => Some(source),
            XtaskError::Install { .. }
            | XtaskError::StillMissing { .. }
            | XtaskError::Rustup(_)
            | XtaskError::NoRustup { .. }
            | XtaskError::Node { .. }
            | XtaskError::Failed { .. }
            | XtaskError::ModuleBuild
            | XtaskError::Shorter(_)
            | XtaskError::NoMarker { .. }
            | XtaskError::NeedsFolder { .. }
            | XtaskError::UnknownArgument { .. }
            | XtaskError::Help(_) => None,
        }
    }
}

/// An operation on `path` that failed, as an error.
pub fn file_error(path: &std::path::Path) -> impl Fn(io::Error) -> XtaskError + '_ {
    move |source| XtaskError::File { path: path.to_path_buf(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_what_failed() {
        let install = XtaskError::Install { package: "npm", install: "apt-get install -y npm".to_string() };
        assert_eq!(
            install.to_string(),
            "could not install npm: run `apt-get install -y npm` as root, then this command again"
        );
        let source = io::Error::new(io::ErrorKind::NotFound, "gone");
        let file = XtaskError::File { path: PathBuf::from("site/tables"), source };
        assert_eq!(file.to_string(), "site/tables: gone");
        assert!(file.source().is_some());
        let start = XtaskError::Start { command: "cargo".to_string(), source: io::Error::other("no") };
        assert_eq!(start.to_string(), "cargo could not start: no");
    }
}
