//! `nana query --batch`: from a file and from standard input.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value as Json;

use crate::common::*;

const BATCH: &str =
    "3/3/3 b KRBkrb 1\n\nnot a position\nKk1/3/3 b RBrb 1\n   \nRCK/3/1Tk w B\n  1K1/2R/1k1 w Brb  \n";

fn check_batch_output(run: &Run) {
    run.success();
    assert!(run.stderr.is_empty(), "{run:#?}");
    let lines: Vec<Json> =
        run.lines().iter().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    assert_eq!(lines.len(), 5, "one line per non-empty input line: {run:#?}");
    let ok_keys = key_set(&["fen", "category", "dtm", "checkmate", "stalemate", "best_move"]);
    let err_keys = key_set(&["line", "input", "error"]);

    assert_eq!(keys(&lines[0]), ok_keys);
    assert_eq!(lines[0]["fen"], "3/3/3 b KRBkrb");
    assert_eq!(lines[0]["category"], "win");
    assert_eq!(lines[0]["dtm"], 31);
    assert_eq!(lines[0]["best_move"], "K*2a");

    assert_eq!(keys(&lines[1]), err_keys);
    assert_eq!(lines[1]["input"], "not a position");
    assert_eq!(lines[1]["line"], 3, "input lines are counted from 1, blank ones included");
    assert!(s(&lines[1]["error"]).starts_with("bad position"), "{}", lines[1]);

    assert_eq!(keys(&lines[2]), err_keys);
    assert_eq!(lines[2]["input"], "Kk1/3/3 b RBrb 1");
    assert_eq!(lines[2]["line"], 4);
    assert!(s(&lines[2]["error"]).contains("illegal position"), "{}", lines[2]);
    assert!(s(&lines[2]["error"]).contains("next to each other"), "{}", lines[2]);

    assert_eq!(keys(&lines[3]), ok_keys);
    assert_eq!(lines[3]["category"], "loss");
    assert_eq!(lines[3]["dtm"], 0);
    assert_eq!(lines[3]["stalemate"], true);
    assert!(lines[3]["best_move"].is_null());

    // Surrounding blanks are trimmed; the values agree with a single query.
    let single = query_json("original", Some("1K1/2R/1k1 w Brb"), &[]);
    for k in ["fen", "category", "dtm", "checkmate", "stalemate", "best_move"] {
        assert_eq!(lines[4][k], single[k], "{k}");
    }
    assert_eq!(lines[4]["dtm"], 28);
}

#[test]
fn batch_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, BATCH).unwrap();
    let run = query("original", &["--batch", file.to_str().unwrap()]);
    check_batch_output(&run);
}

#[test]
fn batch_from_stdin() {
    let args = ["query", "--rules", "original", "--tablebase", table("original"), "--batch", "-"];
    let run = nana_stdin(&args, BATCH);
    check_batch_output(&run);
    // The same output as from a file, byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, BATCH).unwrap();
    assert_eq!(run.stdout, query("original", &["--batch", file.to_str().unwrap()]).stdout);
}

#[test]
fn batch_errors() {
    let missing = query("current", &["--batch", "/nonexistent/positions.txt"]);
    assert_error(&missing, &["/nonexistent/positions.txt"]);
    // --batch takes no position and no --moves.
    assert_usage_error(&query("current", &["--batch", "-", "3/3/3 b KRBkrb"]), &["--batch"]);
    assert_usage_error(&query("current", &["--batch", "-", "--moves", "K*2a"]), &["--batch"]);
}

/// The number of threads of a running process, from /proc (Linux).
fn thread_count(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/<pid>/status");
    number_after(&status, "Threads:\t") as usize
}

#[test]
fn batch_from_stdin_answers_each_line_at_once() {
    use std::io::{BufRead, BufReader, Write};
    let cwd = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(["--threads", "8", "query", "--rules", "original", "--tablebase", table("original")])
        .args(["--batch", "-"])
        .current_dir(cwd.path())
        .env_remove("NANA_TABLEBASE_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // Read the answers on another thread, so that a missing answer is a timeout, not a hang.
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut answer = |input: &str| -> Json {
        writeln!(stdin, "{input}").unwrap();
        stdin.flush().unwrap();
        let line = rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|e| {
            panic!("no answer to {input:?} while standard input is still open: {e}");
        });
        serde_json::from_str(&line).unwrap()
    };
    assert_eq!(answer("3/3/3 b KRBkrb 1")["dtm"], 31);
    assert_eq!(answer("nonsense")["line"], 2);
    assert_eq!(answer("K1k/2G/1S1 w RB")["checkmate"], true);
    // Looking positions up uses no worker threads: --threads started no pool.
    assert_eq!(thread_count(child.id()), 1, "only the main thread");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    assert!(rx.try_recv().is_err(), "nothing more after the input ends");
}

#[test]
fn a_line_of_bad_bytes_spoils_only_itself() {
    let args = ["query", "--rules", "original", "--tablebase", table("original"), "--batch", "-"];
    let run = nana_with(&args, &[], b"3/3/3 b KRBkrb 1\n\xff\xfe junk\nK1k/2G/1S1 w RB\n");
    run.success();
    let lines: Vec<Json> = run.lines().iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "{run:#?}");
    assert_eq!(lines[0]["dtm"], 31);
    assert_eq!(keys(&lines[1]), key_set(&["line", "input", "error"]));
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["input"], "\u{fffd}\u{fffd} junk");
    assert!(s(&lines[1]["error"]).contains("not valid UTF-8"), "{}", lines[1]);
    assert_eq!(lines[2]["checkmate"], true);
    // The same from a file.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, b"\xc3\n3/3/3 b KRBkrb 1\n").unwrap();
    let run = query("original", &["--batch", file.to_str().unwrap()]);
    run.success();
    assert_eq!(run.lines().len(), 2, "{run:#?}");
    assert!(run.lines()[0].contains("\"line\":1") && run.lines()[0].contains("UTF-8"), "{run:#?}");
    // play says so and goes on.
    let args = ["play", "--rules", "original", "--tablebase", table("original")];
    let run = nana_with(&args, &[], b"\xff\nK*2a\nquit\n");
    run.success();
    assert!(run.stdout.contains("that line is not valid UTF-8; try again"), "{run:#?}");
    assert_eq!(engine_moves(&run), ["K*2c"], "the game went on");
}
