//! The Python package (`python/`) against the command line: its pytest tests, run by the
//! virtual environment that `cargo xtask test` makes (`target/xtask-python`, the package and
//! pytest, pyarrow, pandas, DuckDB and cshogi installed there), over this test run's tables of both
//! games (`nana-fixture`) and this build's `nana`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python of the virtual environment: `NANA_PYTHON`, else `target/xtask-python`'s.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("NANA_PYTHON") {
        return PathBuf::from(p);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("the workspace");
    workspace.join("target/xtask-python/bin/python")
}

/// Runs pytest over `python/tests` with the virtual environment's Python, selecting the tests
/// by their marks (`-m MARKS`, `None` for all of them).
fn pytest(marks: Option<&str>) {
    let python = python();
    assert!(
        python.exists(),
        "{} is missing: `cargo xtask test` makes the virtual environment and installs the package \
         (or set NANA_PYTHON to a Python with the package, pytest and pyarrow installed)",
        python.display()
    );
    // Every named rule set of both games, in the run's folder under their own file names.
    nana_fixture::path(nana_shogi::Rules::CURRENT);
    nana_fixture::path(nana_shogi::Rules::ORIGINAL);
    nana_fixture::path(dobutsu_shogi::Rules::TANAKA);
    let dir = nana_fixture::path(dobutsu_shogi::Rules::SAFE_TRY).parent().expect("a folder").to_path_buf();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("the workspace");
    let mut command = Command::new(&python);
    command.args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"]);
    if let Some(marks) = marks {
        command.args(["-m", marks]);
    }
    let status = command
        .current_dir(workspace)
        .env("NANA_BIN", env!("CARGO_BIN_EXE_nana"))
        .env("NANA_TEST_TABLES", &dir)
        .status()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    assert!(status.success(), "pytest failed: {status}");
}

/// The package's tests but those marked `self_check` (`nana export` of a whole table).
#[test]
fn the_python_package_agrees_with_the_command_line() {
    pytest(Some("not self_check"));
}

/// Every test of the package, on the package as a user installs it (`cargo xtask self-check`
/// installs the wheel maturin builds first).
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn every_python_test() {
    pytest(None);
}
