//! Why a command failed: [`CliError`], each variant holding what failed (the input, the file,
//! the table's error). Its `Display` is the one line [`crate::parse_and_run`] prints after
//! `error: `; nothing below `main` turns an error into text.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use nana_engine::{CheckError, SolveError};
#[cfg(feature = "export")]
use nana_export::ExportError;
use nana_front::{CheckFailed, ReportError};
use nana_probe::echo::cut;
use nana_probe::table::TableError;
use nana_probe::ProbeError;

/// A game's error about a position or a move it could not read ([`nana_probe::ProbeRules`]'s
/// `ParseError`, whose type differs from game to game).
pub type ParseError = Box<dyn Error + Send + Sync>;

/// Why a command of the command line failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CliError {
    /// The command's output could not be written.
    Output(io::Error),
    /// The player's input (standard input of `play`) could not be read.
    Input(io::Error),
    /// An operation on a file or folder other than a table failed.
    File { path: PathBuf, source: io::Error },
    /// The worker pool could not start `threads` threads (shared: the pool starts once, and
    /// every later start reports the first one's error).
    Threads { threads: u16, source: Arc<rayon::ThreadPoolBuildError> },
    /// A table could not be opened, solved, written or read; `regenerate` is the command that
    /// makes it again, where making it again cures the error. (Boxed: a table's error is
    /// large, and every command's result carries this type.)
    Table { error: Box<TableError>, regenerate: Option<String> },
    /// A lookup in the table from `origin` (its path, or "solved in memory") failed;
    /// `regenerate` as for [`CliError::Table`].
    Probe { origin: String, error: ProbeError, regenerate: Option<String> },
    /// A solve could not finish.
    Solve(SolveError),
    /// `check-table` found the table at `path` inconsistent with the rules.
    Check { path: PathBuf, error: CheckError },
    /// The tablebase folder exists and is not a folder.
    NotADirectory(PathBuf),
    /// The tablebase folder could not be created.
    CreateDirectory { path: PathBuf, source: io::Error },
    /// No file can be written in the tablebase folder.
    NotWritable { path: PathBuf, source: io::Error },
    /// A folder is where `solve` would write a table's file.
    TableIsDirectory(PathBuf),
    /// `export`'s output is a folder.
    OutputIsDirectory(PathBuf),
    /// A position given is not one of the game's.
    Position { input: String, error: ParseError },
    /// Move `number` (from 1) of the `count` of `--moves` is not a legal move.
    Move { number: usize, count: usize, input: String, error: ParseError },
    /// `export` could not write `path` (a lookup's error is [`CliError::Probe`]).
    #[cfg(feature = "export")]
    Export { path: PathBuf, error: ExportError },
    /// An answer could not be written as JSON.
    Json(serde_json::Error),
    /// The game could not check its claims or make its results document.
    Report(ReportError),
    /// `failed` of the `claims` published claims of a game are contradicted by its solution.
    NotConfirmed { failed: usize, claims: usize },
    /// The games whose claims were not all confirmed (`verify --all-games`).
    GamesNotConfirmed(Vec<&'static str>),
    /// One of a game's whole-space checks failed (`verify --self-check`).
    SelfCheck { check: String, failure: CheckFailed },
    /// `--bind` is not an address or a name that resolves.
    Bind { bind: String, source: io::Error },
    /// `--bind` names a host that has no address.
    NoAddress { bind: String },
    /// Every table `serve` would serve is missing or damaged: a note about each.
    NothingToServe(Vec<String>),
    /// The explorer's server failed.
    #[cfg(feature = "serve")]
    Serve(nana_server::RunError),
}

impl CliError {
    /// A table's error, with the command that makes the table again where that cures it.
    pub fn table(error: TableError, solve_command: impl FnOnce() -> String) -> CliError {
        let regenerate = error.needs_regeneration().then(solve_command);
        CliError::Table { error: Box::new(error), regenerate }
    }

    /// A lookup's error in the table from `origin`, with the command that makes the table
    /// again where its file is damaged.
    pub fn probe(origin: String, error: ProbeError, solve_command: impl FnOnce() -> String) -> CliError {
        let regenerate = error.needs_regeneration().then(solve_command);
        CliError::Probe { origin, error, regenerate }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
            CliError::Input(e) => write!(f, "cannot read the input: {e}"),
            CliError::File { path, source } => write!(f, "{}: {source}", path.display()),
            CliError::Threads { threads, source } => write!(f, "cannot start {threads} threads: {source}"),
            CliError::Table { error, regenerate: None } => write!(f, "{error}"),
            CliError::Table { error, regenerate: Some(command) } => {
                write!(f, "{error}; regenerate it with `{command}`")
            }
            // A lookup's own words, unless the file is damaged: then which file, and the cure.
            CliError::Probe { error, regenerate: None, .. } => write!(f, "{error}"),
            CliError::Probe { origin, error, regenerate: Some(command) } => {
                write!(f, "{origin}: {error}; regenerate it with `{command}`")
            }
            CliError::Solve(e) => write!(f, "{e}"),
            CliError::Check { path, error } => write!(f, "{}: check failed: {error}", path.display()),
            CliError::NotADirectory(path) => {
                write!(f, "{}: not a directory, cannot write tablebases there", path.display())
            }
            CliError::CreateDirectory { path, source } => {
                write!(f, "{}: cannot create the directory: {source}", path.display())
            }
            CliError::NotWritable { path, source } => {
                write!(f, "{}: cannot write tablebases there: {source}", path.display())
            }
            CliError::TableIsDirectory(path) => {
                write!(f, "{}: is a directory, cannot write the table there", path.display())
            }
            CliError::OutputIsDirectory(path) => {
                write!(f, "{}: is a directory, not a file to write", path.display())
            }
            CliError::Position { error, .. } => write!(f, "{error}"),
            CliError::Move { number, count, error, .. } => {
                write!(f, "--moves, move {number} of {count}: {error}")
            }
            #[cfg(feature = "export")]
            CliError::Export { path, error } => write!(f, "{}: {error}", path.display()),
            CliError::Json(e) => write!(f, "{e}"),
            CliError::Report(e) => write!(f, "{e}"),
            CliError::NotConfirmed { failed, claims } => write!(
                f,
                "{failed} of {claims} published claims not confirmed (see docs/RESULTS.md for the analysis)"
            ),
            CliError::GamesNotConfirmed(games) => {
                write!(f, "not every game's claims were confirmed: {}", games.join(", "))
            }
            CliError::SelfCheck { check, failure } => write!(f, "self-check failed: {check}: {failure}"),
            CliError::Bind { bind, source } => write!(f, "--bind {}: {source}", cut(bind)),
            CliError::NoAddress { bind } => write!(f, "--bind {}: the name has no address", cut(bind)),
            CliError::NothingToServe(notes) => write!(f, "nothing to serve: {}", notes.join("; ")),
            #[cfg(feature = "serve")]
            CliError::Serve(e) => write!(f, "{e}"),
        }
    }
}

impl Error for CliError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            CliError::Output(e)
            | CliError::Input(e)
            | CliError::File { source: e, .. }
            | CliError::CreateDirectory { source: e, .. }
            | CliError::NotWritable { source: e, .. }
            | CliError::Bind { source: e, .. } => Some(e),
            CliError::Threads { source, .. } => Some(source.as_ref()),
            CliError::Table { error, .. } => Some(error.as_ref()),
            CliError::Probe { error, .. } => Some(error),
            CliError::Solve(e) => Some(e),
            CliError::Check { error, .. } => Some(error),
            CliError::Position { error, .. } | CliError::Move { error, .. } => Some(error.as_ref()),
            #[cfg(feature = "export")]
            CliError::Export { error, .. } => Some(error),
            CliError::Json(e) => Some(e),
            CliError::Report(e) => Some(e),
            #[cfg(feature = "serve")]
            CliError::Serve(e) => Some(e),
            CliError::NotADirectory(_)
            | CliError::TableIsDirectory(_)
            | CliError::OutputIsDirectory(_)
            | CliError::NotConfirmed { .. }
            | CliError::GamesNotConfirmed(_)
            | CliError::SelfCheck { .. }
            | CliError::NoAddress { .. }
            | CliError::NothingToServe(_) => None,
        }
    }
}

impl From<SolveError> for CliError {
    fn from(e: SolveError) -> CliError {
        CliError::Solve(e)
    }
}

#[cfg(feature = "serve")]
impl From<nana_server::RunError> for CliError {
    fn from(e: nana_server::RunError) -> CliError {
        CliError::Serve(e)
    }
}

impl From<ReportError> for CliError {
    fn from(e: ReportError) -> CliError {
        CliError::Report(e)
    }
}

impl From<serde_json::Error> for CliError {
    fn from(e: serde_json::Error) -> CliError {
        CliError::Json(e)
    }
}
