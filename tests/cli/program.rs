//! The program as a whole: help, version, the default game, closed and full outputs.

use std::process::Stdio;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::common::*;

#[test]
fn a_closed_stdout_does_not_panic() {
    // A pipe whose read end is already closed: the write end is the stdin of a child that has
    // exited without reading. Every write to it fails with EPIPE, with no timing involved.
    let cwd = tempfile::tempdir().unwrap();
    let mut reader = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let dead_pipe = reader.stdin.take().unwrap();
    assert!(reader.wait().unwrap().success());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(["moves", "--position", "K2/G1b/2k w Rb 1"])
        .current_dir(cwd.path())
        .stdin(Stdio::null())
        .stdout(Stdio::from(dead_pipe))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101));
}

// predicates are used for the simplest output checks.
#[test]
fn version_and_help() {
    let cwd = tempfile::tempdir().unwrap();
    Command::cargo_bin("nana")
        .unwrap()
        .current_dir(cwd.path())
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("query").and(predicate::str::contains("check-table")));
    Command::cargo_bin("nana")
        .unwrap()
        .current_dir(cwd.path())
        .args(["query", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--batch").and(predicate::str::contains("--moves")));
}

/// `nana --help` says what the program solves, every game by its `--game` name, and which game
/// is the default.
#[test]
fn help_names_every_game_and_the_default() {
    let help = nana(&["--help"]).stdout;
    let first = help.lines().next().unwrap_or_default();
    assert!(first.starts_with("Strong solutions of small shogi variants: nana, Nana shogi"), "{help}");
    assert!(first.contains("dobutsu, Dobutsu shogi"), "{help}");
    assert!(help.contains("[default: nana; `serve`: every game]"), "{help}");
}

/// `--game nana` is the default: anywhere on the line, in either spelling, the output is the
/// same as without it; an unknown game is a usage error that lists the games.
#[test]
fn game_nana_is_the_default_and_unknown_games_are_refused() {
    let plain = nana(&["moves", "--position", "1k1/1SC/1K1 b RB 1"]);
    plain.success();
    for args in [
        &["--game", "nana", "moves", "--position", "1k1/1SC/1K1 b RB 1"][..],
        &["moves", "--game=nana", "--position", "1k1/1SC/1K1 b RB 1"][..],
        &["moves", "--position", "1k1/1SC/1K1 b RB 1", "--game", "nana"][..],
    ] {
        let run = nana(args);
        assert_eq!((run.stdout.as_str(), run.code), (plain.stdout.as_str(), Some(0)), "{args:?}");
    }
    let tb = table("original");
    let a = nana(&["query", "--rules", "original", "--tablebase", tb, "--json"]);
    let b = nana(&["--game", "nana", "query", "--rules", "original", "--tablebase", tb, "--json"]);
    assert_eq!(a.success().stdout, b.success().stdout);

    assert_usage_error(&nana(&["--game", "chess", "moves"]), &["chess", "--game", "nana"]);
    assert_usage_error(&nana(&["moves", "--game"]), &["--game"]);
    // A game's rule flags are its own: Nana has no rule set named like another game's.
    assert_usage_error(&nana(&["--game", "nana", "moves", "--rules", "tanaka"]), &["tanaka", "current"]);
}

/// An output that cannot be written (a full disk: `/dev/full`) is one error line and exit 1 for
/// every command that prints, never a panic.
#[test]
fn a_full_output_is_an_error_not_a_panic() {
    let current = table("current");
    let commands: [&[&str]; 8] = [
        &["query", "--tablebase", current],
        &["query", "--tablebase", current, "--json"],
        &["moves"],
        &["perft", "2"],
        &["stats", "--tablebase", current],
        &["check-table", current],
        &["play", "--tablebase", current],
        &["--help"],
    ];
    for args in commands {
        use std::io::Write as _;
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // `play` reads its moves; the others do not read at all.
        let _ = child.stdin.take().unwrap().write_all(b"quit\n");
        let out = child.wait_with_output().unwrap();
        let run = Run {
            code: out.status.code(),
            stdout: String::new(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        };
        assert_error(&run, &["cannot write the output: No space left on device"]);
    }
}
