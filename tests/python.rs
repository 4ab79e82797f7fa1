//! The Python package (`python/`) against the command line: its pytest tests, run by the
//! virtual environment that `cargo xtask test` makes (`target/xtask-python`, the package and
//! pytest, pyarrow, pandas, DuckDB and cshogi installed there), over this test run's tables of both
//! games (`nana-fixture`) and this build's `nana`.

use std::path::{Path, PathBuf};
use std::process::Command;

use nana_probe::table::TableRules;
use nana_probe::ProbeRules;

/// The Python of the virtual environment: `NANA_PYTHON`, else `target/xtask-python`'s.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("NANA_PYTHON") {
        return PathBuf::from(p);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    workspace.join("target/xtask-python/bin/python")
}

/// Runs pytest over `python/tests` with the virtual environment's Python, selecting the tests
/// by their marks (`-m MARKS`, `None` for all of them), over the tables of `rule_sets` (as
/// `game/rules`).
fn pytest(marks: Option<&str>, rule_sets: &[&str]) {
    let python = python();
    assert!(
        python.exists(),
        "{} is missing: `cargo xtask test` makes the virtual environment and installs the package \
         (or set NANA_PYTHON to a Python with the package, pytest and pyarrow installed)",
        python.display()
    );
    // The rule sets' tables, in the run's folder under their own file names.
    let mut dir = PathBuf::new();
    for rule_set in rule_sets {
        dir = match *rule_set {
            "nana/current" => nana_fixture::path(nana_shogi::Rules::CURRENT),
            "nana/original" => nana_fixture::path(nana_shogi::Rules::ORIGINAL),
            "dobutsu/tanaka" => nana_fixture::path(dobutsu_shogi::Rules::TANAKA),
            "dobutsu/safe-try" => nana_fixture::path(dobutsu_shogi::Rules::SAFE_TRY),
            other => panic!("no rule set {other}"),
        };
    }
    let dir = dir.parent().expect("a folder").to_path_buf();
    // Nana's current table with the block of the start's entry damaged (its checksum no
    // longer matches), alone in a folder: a device's failed read as the package meets it.
    let damaged = tempfile::tempdir().expect("a temporary folder");
    let rules = nana_shogi::Rules::CURRENT;
    let mut bytes = std::fs::read(nana_fixture::path(rules)).expect("the fixture's table");
    nana_fixture::damage_block_of(&mut bytes, rules.file_order().place(rules.index(&rules.start())));
    std::fs::write(damaged.path().join(rules.file_name()), &bytes).expect("written");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut command = Command::new(&python);
    command.args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"]);
    if let Some(marks) = marks {
        command.args(["-m", marks]);
    }
    let status = command
        .current_dir(workspace)
        .env("NANA_BIN", env!("CARGO_BIN_EXE_nana"))
        .env("NANA_TEST_TABLES", &dir)
        .env("NANA_TEST_RULE_SETS", rule_sets.join(","))
        .env("NANA_TEST_DAMAGED_START", damaged.path())
        .status()
        .unwrap_or_else(|e| panic!("{}: {e}", python.display()));
    assert!(status.success(), "pytest failed: {status}");
}

/// Every named rule set but Dobutsu's safe-try reading, whose table is a second whole-game
/// solve (the self-check's tests have it).
const QUICK: [&str; 3] = ["nana/current", "nana/original", "dobutsu/tanaka"];

/// The package's tests but those marked `self_check` (`nana export` of a whole table), over
/// every table but the safe-try reading's.
#[test]
fn the_python_package_agrees_with_the_command_line() {
    pytest(Some("not self_check"), &QUICK);
}

/// Every test of the package, on the package as a user installs it (`cargo xtask self-check`
/// installs the wheel maturin builds first), over every named rule set's table.
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn every_python_test() {
    pytest(None, &[&QUICK[..], &["dobutsu/safe-try"]].concat());
}
