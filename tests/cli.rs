//! End-to-end tests of the `nana` binary.
//!
//! Every rule set the tests need is solved once per test binary into a temporary directory (the
//! shared fixture below, both solves running side by side); the tests point `--tablebase` at
//! those files and run the binary in a fresh empty directory, so the default `tablebase/` folder
//! of the working tree is never picked up by accident. Only the in-memory-fallback test runs
//! without a table.
//!
//! Known results checked here: under the current rules the start is a draw; under the original
//! rules Black wins, the game ending on ply 31 (DTM 31 plies).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value as Json;
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------

/// What one run of `nana` produced.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Asserts exit status 0 and no panic; returns `self` for chaining.
    #[track_caller]
    fn success(&self) -> &Run {
        assert_eq!(self.code, Some(0), "expected success, got {self:#?}");
        assert_no_panic(self);
        self
    }

    fn json(&self) -> Json {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {self:#?}"))
    }

    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `nana ARGS` in `cwd` with `stdin` as standard input.
fn nana_at(cwd: &Path, args: &[&str], stdin: &str) -> Run {
    let out = Command::cargo_bin("nana")
        .expect("the nana binary is built for integration tests")
        .args(args)
        .current_dir(cwd)
        .write_stdin(stdin)
        .timeout(Duration::from_secs(300))
        .output()
        .expect("nana runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `nana ARGS` in a fresh empty directory (so no default `tablebase/` folder exists).
fn nana(args: &[&str]) -> Run {
    nana_stdin(args, "")
}

fn nana_stdin(args: &[&str], stdin: &str) -> Run {
    let cwd = tempfile::tempdir().expect("temp dir");
    nana_at(cwd.path(), args, stdin)
}

#[track_caller]
fn assert_no_panic(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "the binary panicked: {run:#?}");
    assert_ne!(run.code, Some(101), "exit code 101 is Rust's panic exit code: {run:#?}");
}

/// A failure reported the way `main` reports errors: exit 1, exactly one stderr line starting
/// with `error: `, containing every needle.
#[track_caller]
fn assert_error(run: &Run, needles: &[&str]) {
    assert_no_panic(run);
    assert_eq!(run.code, Some(1), "expected exit code 1: {run:#?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected a single stderr line: {run:#?}");
    assert!(lines[0].starts_with("error: "), "stderr must start with `error: `: {run:#?}");
    for n in needles {
        assert!(lines[0].contains(n), "stderr should mention {n:?}: {run:#?}");
    }
}

/// A command-line usage error reported by the argument parser: exit 2, first line `error: ...`.
#[track_caller]
fn assert_usage_error(run: &Run, needles: &[&str]) {
    assert_no_panic(run);
    assert_eq!(run.code, Some(2), "expected the usage-error exit code 2: {run:#?}");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("error: "), "stderr must start with `error: `: {run:#?}");
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "a usage error is one line: {run:#?}");
    for n in needles {
        assert!(run.stderr.contains(n), "stderr should mention {n:?}: {run:#?}");
    }
    assert!(run.stdout.is_empty(), "nothing on stdout: {run:#?}");
}

// ---------------------------------------------------------------------------------------------
// The shared fixture: both rule sets solved once
// ---------------------------------------------------------------------------------------------

struct Tables {
    /// Keeps the directory alive for the whole test binary.
    _dir: TempDir,
    current: PathBuf,
    original: PathBuf,
    /// What `nana solve` printed, per rule set.
    solve_current: String,
    solve_original: String,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        // The two solves are independent: run them side by side.
        let children: Vec<_> = ["current", "original"]
            .iter()
            .map(|rules| {
                std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
                    .args(["solve", "--rules", rules, "--out"])
                    .arg(dir.path())
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("nana solve starts")
            })
            .collect();
        let mut outputs = Vec::new();
        for child in children {
            let out = child.wait_with_output().expect("nana solve runs");
            let stdout = String::from_utf8(out.stdout).expect("UTF-8");
            let stderr = String::from_utf8(out.stderr).expect("UTF-8");
            assert!(out.status.success(), "nana solve failed:\n{stdout}\n{stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            outputs.push(stdout);
        }
        let current = dir.path().join("nana-current.tb");
        let original = dir.path().join("nana-original.tb");
        assert!(current.is_file() && original.is_file(), "solve writes nana-<rules>.tb into --out");
        let solve_original = outputs.pop().expect("two solves");
        let solve_current = outputs.pop().expect("two solves");
        Tables { _dir: dir, current, original, solve_current, solve_original }
    })
}

fn table(rules: &str) -> &'static str {
    let t = tables();
    let path = match rules {
        "current" => &t.current,
        "original" => &t.original,
        other => panic!("no fixture for {other}"),
    };
    path.to_str().expect("temp paths are UTF-8")
}

/// `nana query --rules RULES --tablebase <fixture> ARGS`.
fn query(rules: &str, args: &[&str]) -> Run {
    let mut all = vec!["query", "--rules", rules, "--tablebase", table(rules)];
    all.extend_from_slice(args);
    nana(&all)
}

/// `nana query --json` of the position reached by `moves` from `position` (start if `None`).
fn query_json(rules: &str, position: Option<&str>, moves: &[&str]) -> Json {
    let mut args = vec!["--json"];
    args.extend(position);
    if !moves.is_empty() {
        args.push("--moves");
        args.extend_from_slice(moves);
    }
    let run = query(rules, &args);
    run.success();
    run.json()
}

/// A temporary copy of a fixture table, to damage.
fn copy_of(rules: &str) -> (TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("nana-{rules}.tb"));
    let bytes = std::fs::read(table(rules)).expect("fixture readable");
    (dir, path, bytes)
}

/// CRC-32 (IEEE), as the file format uses.
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *slot = c;
    }
    !data.iter().fold(!0u32, |crc, &b| table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8))
}

// ---------------------------------------------------------------------------------------------
// JSON helpers
// ---------------------------------------------------------------------------------------------

fn s(v: &Json) -> &str {
    v.as_str().unwrap_or_else(|| panic!("expected a string, got {v}"))
}

fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| s(x).to_string())
        .collect()
}

fn keys(v: &Json) -> BTreeSet<String> {
    v.as_object().unwrap_or_else(|| panic!("expected an object, got {v}")).keys().cloned().collect()
}

fn key_set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|k| k.to_string()).collect()
}

/// The rank of a move for the player making it, from the JSON `category`/`dtm` of the position
/// after it (the opponent's point of view): fastest win, then draws, then slowest loss.
fn mover_rank(m: &Json) -> (u8, i64) {
    let dtm = m["dtm"].as_i64();
    match s(&m["category"]) {
        "loss" => (0, dtm.expect("a loss has a dtm")),
        "draw" => {
            assert!(m["dtm"].is_null(), "a draw has no dtm: {m}");
            (1, 0)
        }
        "win" => (2, -dtm.expect("a win has a dtm")),
        other => panic!("unknown category {other:?} in {m}"),
    }
}

/// Checks the JSON shape of a single query and the order of its moves.
#[track_caller]
fn check_query_shape(q: &Json) {
    assert_eq!(
        keys(q),
        key_set(&["fen", "category", "dtm", "checkmate", "stalemate", "best_move", "moves", "mainline"])
    );
    let moves = q["moves"].as_array().expect("moves is an array");
    for m in moves {
        assert_eq!(keys(m), key_set(&["uci", "san", "category", "dtm", "checkmate", "stalemate"]), "{m}");
        // A move ends the game exactly when it leaves the opponent a loss in 0.
        let ends = m["category"] == "loss" && m["dtm"] == 0;
        assert_eq!(ends, m["checkmate"].as_bool().unwrap() || m["stalemate"].as_bool().unwrap(), "{m}");
        assert!(!(m["checkmate"].as_bool().unwrap() && m["stalemate"].as_bool().unwrap()), "{m}");
    }
    // Best first; among equals checkmates before stalemates, then USI order.
    let ranks: Vec<((u8, i64), bool, &str)> =
        moves.iter().map(|m| (mover_rank(m), m["stalemate"] == true, s(&m["uci"]))).collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "moves must be sorted best first, checkmate before stalemate, then USI order");
    match moves.first() {
        None => {
            assert!(q["best_move"].is_null());
            assert_eq!(q["category"], "loss");
            assert_eq!(q["dtm"], 0);
            assert!(q["checkmate"].as_bool().unwrap() ^ q["stalemate"].as_bool().unwrap());
        }
        Some(best) => {
            assert_eq!(q["best_move"], best["uci"]);
            assert_eq!(q["checkmate"], false);
            assert_eq!(q["stalemate"], false);
            // The position's value is the best move's value seen from the mover, one ply longer.
            let (cat, dtm) = match s(&best["category"]) {
                "loss" => ("win", Some(best["dtm"].as_u64().unwrap() + 1)),
                "win" => ("loss", Some(best["dtm"].as_u64().unwrap() + 1)),
                _ => ("draw", None),
            };
            assert_eq!(q["category"], cat, "{q}");
            assert_eq!(q["dtm"].as_u64(), dtm, "{q}");
            assert_eq!(q["mainline"][0], best["uci"], "the mainline starts with the best move");
        }
    }
}

/// `nana moves` as (USI, Hodges) pairs.
fn legal_moves(rules: &str, position: Option<&str>) -> Vec<(String, String)> {
    let mut args = vec!["moves", "--rules", rules];
    if let Some(p) = position {
        args.extend(["--position", p]);
    }
    let run = nana(&args);
    run.success();
    run.lines()
        .into_iter()
        .map(|l| {
            let (u, h) = l.split_once('\t').unwrap_or_else(|| panic!("USI<TAB>Hodges expected: {l:?}"));
            assert!(!h.contains('\t'));
            (u.to_string(), h.to_string())
        })
        .collect()
}

/// The original rules' winning line from the start, in USI.
fn original_mainline() -> Vec<String> {
    strings(&query_json("original", None, &[])["mainline"])
}

#[test]
fn solve_reports_each_rule_set() {
    let t = tables();
    for (out, rules, path) in [
        (&t.solve_current, "current, drop-stalemate on, hand-stalemate on", &t.current),
        (&t.solve_original, "original, drop-stalemate on, hand-stalemate on", &t.original),
    ] {
        assert_eq!(out.lines().next(), Some(rules), "{out}");
        assert!(out.contains(&format!(" to {}\n", path.display())), "{out}");
        let legal = number_after(out, "  positions (index entries): ");
        let wins = number_after(out, "  wins ");
        assert!(wins > 0 && wins < legal, "{out}");
        assert!(number_after(out, "  longest distance to mate: ") >= 31, "{out}");
        // The header counts one entry per index entry (bytes 24..32); the file stores them
        // compressed, in fewer bytes.
        let line = out.lines().find(|l| l.contains(" legal, ")).unwrap();
        let counts: Vec<u64> =
            line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
        let bytes = std::fs::read(path).unwrap();
        let entries = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
        assert_eq!(entries, counts[0] + counts[1], "{line}");
        assert!((bytes.len() as u64) < 256 + entries / 2, "{line}: {} bytes", bytes.len());
    }
}

// ---------------------------------------------------------------------------------------------
// 1. moves and perft
// ---------------------------------------------------------------------------------------------

#[test]
fn moves_at_the_start_are_the_eight_king_drops() {
    for rules in ["current", "original"] {
        let moves = legal_moves(rules, None);
        assert_eq!(moves.len(), 8, "{moves:?}");
        let squares: BTreeSet<String> = moves
            .iter()
            .map(|(u, h)| {
                assert!(u.starts_with("K*"), "{u}");
                assert_eq!(u, h, "a King drop reads the same in both notations");
                u[2..].to_string()
            })
            .collect();
        let expected: BTreeSet<String> =
            ["1a", "2a", "3a", "1b", "3b", "1c", "2c", "3c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(squares, expected, "every square but the centre");
    }
}

#[test]
fn moves_of_a_mid_game_position() {
    // 19 moves, as the independent perft reference counts.
    let moves = legal_moves("current", Some("K2/G1b/2k w Rb 1"));
    assert_eq!(moves.len(), 19, "{moves:?}");
    for pair in
        [("1b2a", "B-2a=TG"), ("1b2c", "B-2c=TG"), ("1c2c", "K-2c"), ("T*2a", "TG*2a"), ("S*3c", "CS*3c")]
    {
        assert!(moves.iter().any(|(u, h)| (u.as_str(), h.as_str()) == pair), "missing {pair:?} in {moves:?}");
    }
    // Nothing lands on the centre by drop, every USI string is distinct.
    assert!(moves.iter().all(|(u, _)| !(u.contains('*') && u.ends_with("2b"))));
    let distinct: BTreeSet<&String> = moves.iter().map(|(u, _)| u).collect();
    assert_eq!(distinct.len(), moves.len());

    // The original rules have a long rook: 20 moves here.
    assert_eq!(legal_moves("original", Some("1K1/W2/Tk1 b Rb 1")).len(), 20);

    // Two pieces of the same face reaching one square get their origin square.
    let moves = legal_moves("current", Some("2k/S1S/K2 b Rr"));
    assert!(moves.contains(&("1b2a".into(), "CS1b-2a=D".into())), "{moves:?}");
    assert!(moves.contains(&("3b2a".into(), "CS3b-2a=D".into())), "{moves:?}");
}

#[test]
fn perft_start_matches_the_reference() {
    let run = nana(&["perft", "3"]);
    run.success();
    assert_eq!(run.stdout, "1\t8\n2\t32\n3\t1292\n");
    let run = nana(&["perft", "--rules", "original", "3"]);
    run.success();
    assert_eq!(run.stdout, "1\t8\n2\t32\n3\t1200\n");
}

#[test]
fn perft_mid_game_positions_match_the_reference() {
    let run = nana(&["perft", "--position", "K2/G1b/2k w Rb 1", "3"]);
    run.success();
    assert_eq!(run.stdout, "1\t19\n2\t222\n3\t1035\n");
    let run = nana(&["perft", "--rules", "original", "--position", "1K1/W2/Tk1 b Rb 1", "3"]);
    run.success();
    assert_eq!(run.stdout, "1\t20\n2\t224\n3\t2098\n");
}

// ---------------------------------------------------------------------------------------------
// 2. query: text and JSON
// ---------------------------------------------------------------------------------------------

#[test]
fn query_text_original_start() {
    let run = query("original", &[]);
    run.success();
    let out = &run.stdout;
    for line in [
        "     3   2   1",
        "   +---+---+---+",
        "   |   |   |   | a",
        "   |   |   |   | c",
        "   black hand: K O D",
        "   white hand: K O D",
        "   black to move",
        "position: 3/3/3 b KRBkrb",
        "value: win, mate in 31 plies for black",
        "best move: K*2a (K*2a)",
        "moves:",
    ] {
        assert!(out.lines().any(|l| l == line), "missing line {line:?} in\n{out}");
    }
    let rules_line = out.lines().find(|l| l.starts_with("rules: ")).expect("rules line");
    assert!(rules_line.contains("original, drop-stalemate on, hand-stalemate on"), "{rules_line}");
    assert!(rules_line.contains(table("original")), "names the table used: {rules_line}");

    // One line per legal move after `moves:`, best first.
    let lines = run.lines();
    let at = lines.iter().position(|l| *l == "moves:").expect("moves header");
    let move_lines: Vec<&str> = lines[at + 1..].iter().take_while(|l| l.starts_with("  ")).copied().collect();
    assert_eq!(move_lines.len(), 8, "{move_lines:?}");
    assert!(move_lines[0].trim_start().starts_with("K*2a"), "{move_lines:?}");
    assert!(move_lines[0].contains("win"), "{move_lines:?}");
    assert!(move_lines.iter().filter(|l| l.ends_with("draw")).count() == 4, "{move_lines:?}");

    // The principal variation runs to the end of the game: 31 numbered plies in Hodges style.
    let pv = out.lines().find_map(|l| l.strip_prefix("principal variation: ")).expect("pv line");
    let plies: Vec<&str> = pv.split_whitespace().filter(|t| !t.ends_with('.')).collect();
    assert_eq!(plies.len(), 31, "{pv}");
    assert!(pv.starts_with("1. K*2a 2. K*2c 3. R*1b 4. R*1c 5. Rx1c=C"), "{pv}");
    assert!(pv.contains(" 31. "), "{pv}");
    assert!(run.stderr.is_empty(), "no notes when a table is given: {run:#?}");
}

#[test]
fn query_text_current_start_is_a_draw() {
    let run = query("current", &[]);
    run.success();
    let out = &run.stdout;
    assert!(out.contains("\nvalue: draw for black\n"), "{out}");
    assert!(out.contains("\nbest move: K*1a (K*1a)\n"), "{out}");
    assert!(!out.contains("principal variation"), "{out}");
    let line = out.lines().find_map(|l| l.strip_prefix("drawing line: ")).expect("drawing line");
    let plies: Vec<&str> = line.split_whitespace().filter(|t| !t.ends_with('.')).collect();
    assert_eq!(plies.len(), 10, "at most 10 plies of a drawing line: {line}");
    assert!(line.starts_with("1. K*1a "), "{line}");
}

#[test]
fn query_text_of_finished_games() {
    // Checkmate: White to move, in check, no legal move.
    let run = query("current", &["K1k/2G/1S1 w RB"]);
    run.success();
    assert!(run.stdout.contains("\nvalue: loss (no legal move) for white\n"), "{run:#?}");
    assert!(run.stdout.contains("\nwhite has no legal move (checkmate) and has lost\n"), "{run:#?}");
    assert!(!run.stdout.contains("best move"), "{run:#?}");
    // The end of the original rules' winning line is a stalemate, which loses as well.
    let run = query("original", &["RCK/3/1Tk w B"]);
    run.success();
    assert!(run.stdout.contains("\nwhite has no legal move (stalemate) and has lost\n"), "{run:#?}");
}

#[test]
fn query_json_original_start() {
    let q = query_json("original", None, &[]);
    check_query_shape(&q);
    assert_eq!(q["fen"], "3/3/3 b KRBkrb");
    assert_eq!(q["category"], "win");
    assert_eq!(q["dtm"], 31);
    assert_eq!(q["checkmate"], false);
    assert_eq!(q["stalemate"], false);
    assert_eq!(q["best_move"], "K*2a");
    let moves = q["moves"].as_array().unwrap();
    // A move's category is for the side to move after it: the winning move leaves White lost.
    assert_eq!(moves[0]["uci"], "K*2a");
    assert_eq!(moves[0]["san"], "K*2a");
    assert_eq!(moves[0]["category"], "loss");
    assert_eq!(moves[0]["dtm"], 30);
    assert_eq!(
        moves.iter().map(|m| s(&m["category"])).collect::<Vec<_>>(),
        ["loss", "loss", "loss", "loss", "draw", "draw", "draw", "draw"]
    );
    // Exactly the legal moves, with the same notation as `nana moves`.
    let from_json: BTreeSet<(String, String)> =
        moves.iter().map(|m| (s(&m["uci"]).to_string(), s(&m["san"]).to_string())).collect();
    let from_moves: BTreeSet<(String, String)> = legal_moves("original", None).into_iter().collect();
    assert_eq!(from_json, from_moves);
    assert_eq!(q["mainline"].as_array().unwrap().len(), 31, "the mate comes on ply 31");
}

#[test]
fn query_json_mainline_replays_to_the_end() {
    let mainline = original_mainline();
    assert_eq!(mainline.len(), 31);
    let moves: Vec<&str> = mainline.iter().map(String::as_str).collect();
    let mut previous: Option<Json> = None;
    for k in 0..=31 {
        let q = query_json("original", None, &moves[..k]);
        check_query_shape(&q);
        let side = q["fen"].as_str().unwrap().split(' ').nth(1).unwrap().to_string();
        assert_eq!(side, if k % 2 == 0 { "b" } else { "w" }, "after {k} plies: {q}");
        assert_eq!(q["dtm"], 31 - k as u64, "after {k} plies: {q}");
        assert_eq!(q["category"], if k % 2 == 0 { "win" } else { "loss" }, "after {k} plies: {q}");
        assert_eq!(strings(&q["mainline"]), mainline[k..], "the rest of the line after {k} plies");
        if let Some(p) = &previous {
            // The previous position's best move led here: its category/dtm are this position's.
            let best = &p["moves"][0];
            assert_eq!(best["uci"], mainline[k - 1]);
            assert_eq!(best["category"], q["category"]);
            assert_eq!(best["dtm"], q["dtm"]);
        }
        previous = Some(q);
    }
    let last = previous.unwrap();
    assert_eq!(last["category"], "loss");
    assert_eq!(last["dtm"], 0);
    assert_eq!(last["moves"].as_array().unwrap().len(), 0);
    assert!(last["best_move"].is_null());
    assert_eq!(last["mainline"].as_array().unwrap().len(), 0);
    // The winning line ends in checkmate: on ply 31 the stalemate Bx2c=TG (first in USI order,
    // a loss for the stalemated side too) is as fast, and ties prefer the checkmate Cx2c=SW.
    assert_eq!(last["checkmate"], true);
    assert_eq!(last["stalemate"], false);
    let before = query_json("original", None, &moves[..30]);
    let mates: Vec<(&str, bool)> = before["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["dtm"] == 0)
        .map(|m| (s(&m["san"]), m["checkmate"] == true))
        .collect();
    assert_eq!(&mates[..2], [("Cx2c=SW", true), ("Bx2c=TG", false)]);
}

#[test]
fn query_json_current_start_is_a_draw() {
    let q = query_json("current", None, &[]);
    check_query_shape(&q);
    assert_eq!(q["category"], "draw");
    assert!(q["dtm"].is_null());
    let moves = q["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[0]["category"], "draw");
    // K*2a loses for Black: White (to move after it) wins.
    let k2a = moves.iter().find(|m| m["uci"] == "K*2a").unwrap();
    assert_eq!(k2a["category"], "win");
    assert_eq!(moves.last().unwrap()["uci"], "K*2a", "the losing move comes last");
    // A drawing line of 10 plies, every position on it drawn.
    let line = strings(&q["mainline"]);
    assert_eq!(line.len(), 10);
    let line: Vec<&str> = line.iter().map(String::as_str).collect();
    for k in 1..=line.len() {
        let q = query_json("current", None, &line[..k]);
        assert_eq!(q["category"], "draw", "after {:?}", &line[..k]);
        assert!(q["dtm"].is_null());
    }
}

#[test]
fn query_json_checkmate() {
    let q = query_json("current", Some("K1k/2G/1S1 w RB"), &[]);
    check_query_shape(&q);
    assert_eq!(q["checkmate"], true);
    assert_eq!(q["stalemate"], false);
    assert_eq!(q["category"], "loss");
    assert_eq!(q["dtm"], 0);
}

// ---------------------------------------------------------------------------------------------
// 3. --moves in both notations, illegal moves
// ---------------------------------------------------------------------------------------------

#[test]
fn query_moves_in_usi_and_hodges_reach_the_same_position() {
    let usi = ["K*2a", "K*2c", "R*1b", "R*1c", "1b1c", "2c1c", "C*3a", "1c2c", "B*1a", "2c1c", "1a2b"];
    let hodges =
        ["K*2a", "K*2c", "R*1b", "R*1c", "Rx1c=C", "Kx1c", "C*3a", "K-2c", "B*1a", "K-1c", "B-2b=TG"];
    let a = query_json("original", None, &usi);
    let b = query_json("original", None, &hodges);
    assert_eq!(a, b);
    assert_eq!(a["dtm"], 31 - 11);
    // Mixed notations, and a position string with a ply number.
    let mixed = ["K*2a", "K*2c", "R*1b", "R*1c", "Rx1c=C", "2c1c"];
    let c = query_json("original", Some("3/3/3 b KRBkrb 1"), &mixed);
    assert_eq!(c, query_json("original", None, &usi[..6]));
    // A drop with a two-letter face: TG*1b in Hodges is T*1b in USI.
    let d = query_json("current", None, &["K*2a", "K*2c", "TG*1b"]);
    let e = query_json("current", None, &["K*2a", "K*2c", "T*1b"]);
    assert_eq!(d, e);
    assert_eq!(d["fen"], "1K1/2T/1k1 w Rrb");
    // Hodges with the origin square where two cubes of one face can reach the square.
    let f = query_json("current", Some("2k/S1S/K2 b Rr"), &["CS1b-2a=D"]);
    let g = query_json("current", Some("2k/S1S/K2 b Rr"), &["1b2a"]);
    assert_eq!(f, g);
}

#[test]
fn query_rejects_illegal_moves() {
    let cases: [(&[&str], &[&str]); 6] = [
        (&["K*2b"], &["bad move \"K*2b\"", "centre"]),
        (&["K*2a", "K*1a"], &["bad move \"K*1a\"", "next to the other king"]),
        (&["xyz"], &["bad move \"xyz\""]),
        (&["K*2a", "K*2c", "R*1b", "R*1c", "B-2b=TG"], &["bad move \"B-2b=TG\"", "no legal move matches"]),
        // The right move with the wrong new face.
        (&["K*2a", "K*2c", "R*1b", "R*1c", "Rx1c=SW"], &["bad move \"Rx1c=SW\""]),
        // A board move before the Kings are placed.
        (&["2a2b"], &["bad move \"2a2b\""]),
    ];
    for (moves, needles) in cases {
        let mut args = vec!["--json", "--moves"];
        args.extend_from_slice(moves);
        let run = query("original", &args);
        assert_error(&run, needles);
        assert!(run.stdout.is_empty(), "{run:#?}");
    }
    // Ambiguous Hodges: two cat swords can reach 2a.
    let run = query("current", &["2k/S1S/K2 b Rr", "--moves", "CS-2a=D"]);
    assert_error(&run, &["ambiguous", "CS1b-2a=D"]);
    // No move at all after the game has ended.
    let mut moves: Vec<String> = original_mainline();
    moves.push("K*3b".into());
    let mut args = vec!["--moves"];
    args.extend(moves.iter().map(String::as_str));
    assert_error(&query("original", &args), &["bad move \"K*3b\""]);
}

// ---------------------------------------------------------------------------------------------
// 4. batch mode
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// 5. bad input everywhere
// ---------------------------------------------------------------------------------------------

#[test]
fn malformed_positions_are_errors() {
    for (position, needle) in [
        ("garbage", "bad position \"garbage\""),
        ("3/3/3 x KRBkrb 1", "side to move"),
        ("4/3/3 b KRBkrb 1", "rank a"),
        ("K2/3/2X b RBrb", "'X'"),
        ("K1k/3/3 w 3RBrb", "count 3"),
        ("K2/3/2k b RBrb 1 extra", "extra"),
        ("Kk1/3/3 b RBrb 1", "illegal position"),
        ("k2/R2/K2 b Brb", "in check but it is not its turn"),
        ("K1k/R2/3 w 2RBb", "3 O cubes"),
    ] {
        assert_error(&query("current", &[position]), &[needle]);
        assert_error(&nana(&["moves", "--position", position]), &[needle]);
        assert_error(&nana(&["perft", "--position", position, "1"]), &[needle]);
    }
}

#[test]
fn unknown_rules_are_a_usage_error() {
    // The argument parser reports it (exit 2) and lists the rule sets.
    for command in ["query", "moves", "play", "stats"] {
        let run = nana(&[command, "--rules", "bogus"]);
        assert_usage_error(&run, &["invalid value 'bogus'", "--rules", "current", "original"]);
    }
    assert_usage_error(&nana(&["--threads", "0", "moves"]), &["--threads", "1..=256"]);
}

#[test]
fn a_table_of_other_rules_is_refused() {
    assert!(query("current", &[]).stdout.contains("value: draw"), "the current table itself works");
    let run = nana(&["query", "--rules", "current", "--tablebase", table("original")]);
    assert_error(
        &run,
        &[
            table("original"),
            "original, drop-stalemate on, hand-stalemate on",
            "current, drop-stalemate on, hand-stalemate on",
        ],
    );
    // Other rule options are other tables too.
    let run =
        nana(&["query", "--rules", "current", "--hand-stalemate", "off", "--tablebase", table("current")]);
    assert_error(&run, &["hand-stalemate off", "hand-stalemate on"]);
    // play and stats check the same way.
    assert_error(
        &nana(&["play", "--rules", "original", "--tablebase", table("current")]),
        &["current, drop"],
    );
    assert_error(
        &nana(&["stats", "--rules", "original", "--tablebase", table("current")]),
        &["current, drop"],
    );
}

/// The index entry of a position under the current rules.
fn entry_of(position: &str) -> u64 {
    use nana_probe::ProbeGame;
    let rules = nana_shogi::Rules::CURRENT;
    rules.index(&rules.parse_position(position).expect("a position"))
}

/// The entries per block of a table file in LZ4 blocks (header bytes 184..188).
fn block_entries(bytes: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes(bytes[184..188].try_into().unwrap()))
}

#[test]
fn damaged_tables_are_refused() {
    let (dir, path, bytes) = copy_of("current");
    let p = path.to_str().unwrap();
    // The batch reads the start, so that a damaged block of the start's is read.
    let check = |needles: &[&str]| {
        assert_error(&nana(&["query", "--tablebase", p]), needles);
        assert_error(&nana_stdin(&["query", "--tablebase", p, "--batch", "-"], "3/3/3 b KRBkrb\n"), needles);
        assert_error(&nana_stdin(&["play", "--tablebase", p], "quit\n"), needles);
    };
    // Damage that a new table cures comes with the command that makes one.
    let hint = "regenerate it with `nana --game nana solve --rules current`";
    // Truncated payload.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    check(&[p, "truncated", hint]);
    // Truncated header.
    std::fs::write(&path, &bytes[..100]).unwrap();
    check(&[p, "truncated", hint]);
    // Empty file.
    std::fs::write(&path, b"").unwrap();
    check(&[p, "truncated", hint]);
    // One flipped byte of the block index.
    let mut flipped = bytes.clone();
    flipped[256 + 1_000] ^= 0x01;
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "corrupted", "payload checksum", hint]);
    // One flipped byte of the block that holds the start's entry: met when the start is looked up.
    let mut flipped = bytes.clone();
    let block = nana_fixture::damage_block_of(&mut flipped, entry_of("3/3/3 b KRBkrb"));
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "corrupted", &format!("checksum mismatch in compressed block {block} "), hint]);
    // One flipped header byte (in the rule set name, `current` at bytes 48..55).
    assert_eq!(&bytes[48..55], b"current");
    let mut flipped = bytes.clone();
    flipped[50] ^= 0x04;
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "header checksum", hint]);
    // A trailing byte.
    let mut longer = bytes.clone();
    longer.push(b'x');
    std::fs::write(&path, &longer).unwrap();
    check(&[p, "corrupted", hint]);
    // A table of the old format (version 1), its header laid out by hand as the old writer did.
    let mut old = vec![0u8; 256];
    old[..8].copy_from_slice(b"NANATB\r\n");
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    old[12..16].copy_from_slice(&256u32.to_le_bytes());
    old[16..26].copy_from_slice(b"nana-shogi");
    old[40..47].copy_from_slice(b"current");
    old[104..112].copy_from_slice(&(bytes.len() as u64 - 256).to_le_bytes());
    old[112..116].copy_from_slice(&1u32.to_le_bytes());
    old[156..160].copy_from_slice(&crc32(&bytes[256..]).to_le_bytes());
    let header_crc = crc32(&old[..252]);
    old[252..256].copy_from_slice(&header_crc.to_le_bytes());
    old.extend_from_slice(&bytes[256..]);
    std::fs::write(&path, &old).unwrap();
    check(&[p, "old tablebase format (version 1)", hint]);
    // Not a tablebase at all: no table to regenerate, so no hint.
    std::fs::write(&path, "hello, not a table\n").unwrap();
    check(&[p, "not a tablebase"]);
    assert!(!nana(&["query", "--tablebase", p]).stderr.contains("nana solve"));
    // Missing file and a directory.
    std::fs::remove_file(&path).unwrap();
    check(&[p, "No such file"]);
    let d = dir.path().to_str().unwrap();
    assert_error(&nana(&["query", "--tablebase", d]), &[d]);
}

/// A table with a damaged block answers every position whose lookups read other blocks as the
/// intact table does, and refuses, every time, those that read the damaged one: alone, in a
/// batch (which stops there, after the lines before it), and with the start's moves.
#[test]
fn a_damaged_block_refuses_its_positions_and_no_other() {
    let (_dir, path, mut bytes) = copy_of("current");
    let p = path.to_str().unwrap();
    // A position in a block far from the start's (the last one), its moves' in other blocks too.
    let start = entry_of("3/3/3 b KRBkrb");
    let elsewhere = "R1K/2B/2k b Rb";
    let block = nana_fixture::damage_block_of(&mut bytes, entry_of(elsewhere));
    assert_ne!(block, start / block_entries(&bytes), "{elsewhere} and the start share a block");
    std::fs::write(&path, &bytes).unwrap();
    let intact = query("current", &["--json", "3/3/3 b KRBkrb"]);
    intact.success();
    let run = nana(&["query", "--tablebase", p, "--json", "3/3/3 b KRBkrb"]);
    run.success();
    assert_eq!(run.stdout, intact.stdout);
    let named = format!("checksum mismatch in compressed block {block} ");
    let hint = "regenerate it with `nana --game nana solve --rules current`";
    for _ in 0..2 {
        assert_error(&nana(&["query", "--tablebase", p, elsewhere]), &[p, &named, hint]);
    }
    let lines = "3/3/3 b KRBkrb\nR1K/2B/2k b Rb\n3/3/3 b KRBkrb\n";
    let run = nana_stdin(&["query", "--tablebase", p, "--batch", "-"], lines);
    assert_error(&run, &[p, &named, hint]);
    assert_eq!(run.stdout.lines().count(), 1, "the line before the damaged one answered: {run:#?}");
    assert!(run.stdout.contains("\"fen\":\"3/3/3 b KRBkrb\""), "{run:#?}");
    // `stats` counts from the header, which the damaged block leaves intact: it checks every
    // block first and prints nothing but the error.
    let run = nana(&["stats", "--tablebase", p]);
    assert_error(&run, &[p, &named, hint]);
    assert!(run.stdout.is_empty(), "{run:#?}");
}

/// A table file with its last entry (the start's, under the current rules) set to `value`,
/// written anew by the format's writer with the same header, so that every checksum holds and
/// the file opens.
fn with_last_entry(bytes: &[u8], value: u8) -> Vec<u8> {
    let table = nana_tablebase::Tablebase::from_bytes(bytes.to_vec()).expect("a valid table");
    let mut entries = table.entries().expect("decodable entries").into_owned();
    *entries.last_mut().unwrap() = value;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("resealed.tb");
    // The entries as stored, unused ones filled where they are don't-care. An entry marked
    // unused is written in a table whose unused entries are not don't-care (which would store it
    // filled with its neighbour's value), so that it holds `value`.
    let dont_care = table.header().dont_care && value != 255;
    let header = nana_tablebase::Header { dont_care, ..table.header().clone() };
    nana_tablebase::write(&path, &header, &entries).expect("a table written");
    std::fs::read(&path).expect("the table just written")
}

/// A current-rules table's start entry (the last one), a draw, changed to "win in 1", the file
/// written anew so that it opens.
fn reseal_the_start_as_a_win_in_1(bytes: &mut Vec<u8>) {
    let table = nana_tablebase::Tablebase::from_bytes(bytes.clone()).expect("a valid table");
    let start = table.header().entries - 1;
    assert_eq!(table.entry(start).unwrap(), Some(0), "the start is a draw under the current rules (entry 0)");
    *bytes = with_last_entry(bytes, 2);
}

#[test]
fn a_resealed_wrong_entry_is_an_error_not_a_wrong_answer() {
    // Change the start's entry (the last one) from draw to "win in 1" and fix both checksums, so
    // the file opens: the lookup must notice that the value disagrees with the moves' values, and
    // check-table must find the entry.
    let (_dir, path, mut bytes) = copy_of("current");
    reseal_the_start_as_a_win_in_1(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    assert_error(&nana(&["query", "--tablebase", p]), &["inconsistent", "3/3/3 b KRBkrb"]);
    assert_error(&nana(&["check-table", p]), &[p, "check failed", "win in 1", "draw"]);
}

// ---------------------------------------------------------------------------------------------
// 6. play
// ---------------------------------------------------------------------------------------------

fn play(rules: &str, extra: &[&str], stdin: &str) -> Run {
    let mut args = vec!["play", "--rules", rules, "--tablebase", table(rules)];
    args.extend_from_slice(extra);
    let run = nana_stdin(&args, stdin);
    run.success();
    run
}

fn engine_moves(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("engine plays "))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn play_black_wins_along_the_mainline() {
    let mainline = original_mainline();
    // The same line in Hodges style, from the text output.
    let text = query("original", &[]).stdout;
    let pv = text.lines().find_map(|l| l.strip_prefix("principal variation: ")).unwrap();
    let hodges: Vec<&str> = pv.split_whitespace().filter(|t| !t.ends_with('.')).collect();
    assert_eq!(hodges.len(), mainline.len());

    // hint, an illegal move, undo with nothing to undo, help, then Black's plies of the line,
    // alternately in USI and Hodges notation.
    let mut input = String::from("hint\nK*2b\nundo\nhelp\n\n");
    for (j, i) in (0..mainline.len()).step_by(2).enumerate() {
        let mv = if j % 2 == 0 { mainline[i].as_str() } else { hodges[i] };
        input.push_str(mv);
        input.push('\n');
    }
    let run = play("original", &[], &input);
    let out = &run.stdout;
    assert!(out.starts_with("You play black (original, drop-stalemate on, hand-stalemate on)."), "{out}");
    assert!(out.contains("evaluation: win, mate in 31 plies for black"), "{out}");
    assert!(out.contains("hint: K*2a (K*2a)"), "{out}");
    assert!(out.contains("bad move \"K*2b\": nothing may be dropped on the centre; try again"), "{out}");
    assert!(out.contains("nothing to undo."), "{out}");
    assert!(out.contains("undo, hint, quit"), "help text: {out}");
    // The engine answers along the line.
    let expected: Vec<String> = mainline.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(engine_moves(&run), expected);
    let end: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(
        end[1] == "white has no legal move (stalemate) and has lost."
            || end[1] == "white has no legal move (checkmate) and has lost.",
        "the game ends with Black's win: {end:?}\n{out}"
    );
    assert_eq!(end[0], "you win.", "{out}");
    assert!(out.contains("evaluation: loss (no legal move) for white"), "{out}");
}

#[test]
fn play_quit_undo_and_end_of_input() {
    // quit
    let run = play("original", &[], "K*2a\nquit\nK*2c\n");
    assert_eq!(run.stdout.lines().last().unwrap(), "your move> game abandoned.");
    assert_eq!(engine_moves(&run), ["K*2c"]);
    // undo takes back the engine's reply and the move before it.
    let run = play("original", &[], "K*2a\nundo\nK*2c\nquit\n");
    assert_eq!(engine_moves(&run), ["K*2c", "K*2a"], "after undo, K*2c is answered by K*2a");
    assert_eq!(run.stdout.matches("black hand: K O D").count(), 2, "the start is shown again after undo");
    // end of input
    let run = play("original", &[], "K*2a\n");
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    let run = play("current", &[], "");
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    assert!(run.stdout.contains("evaluation: draw for black"), "{run:#?}");
}

#[test]
fn play_as_white() {
    let mainline = original_mainline();
    let run = play("original", &["--side", "white"], &format!("hint\n{}\n", mainline[1]));
    let out = &run.stdout;
    assert!(out.starts_with("You play white"), "{out}");
    // The engine (Black) moves first, before any prompt.
    let first_engine = out.find("engine plays K*2a (K*2a)").expect("engine opens with K*2a");
    assert!(first_engine < out.find("your move>").unwrap(), "{out}");
    assert!(out.contains("evaluation: loss, mated in 30 plies for white"), "{out}");
    assert!(out.contains(&format!("hint: {} ", mainline[1])), "{out}");
    assert_eq!(engine_moves(&run), mainline[..3].iter().step_by(2).cloned().collect::<Vec<_>>());
    assert!(out.ends_with("end of input: game abandoned.\n"), "{out}");
}

/// Both sides playing the first ranked move under the current rules (a draw) must cycle:
/// returns the line as a function of the ply, with the ply where the cycle starts and its length.
fn drawn_cycle() -> (Vec<String>, usize, usize) {
    let mut line: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    loop {
        let moves: Vec<&str> = line.iter().map(String::as_str).collect();
        let q = query_json("current", None, &moves);
        assert_eq!(q["category"], "draw", "a drawn line stays drawn");
        let fen = s(&q["fen"]).to_string();
        if let Some(&start) = seen.get(&fen) {
            return (line.clone(), start, line.len() - start);
        }
        seen.insert(fen, line.len());
        line.push(s(&q["best_move"]).to_string());
        assert!(line.len() < 400, "no cycle found");
    }
}

#[test]
fn play_repetition_ends_the_game() {
    let (line, start, period) = drawn_cycle();
    let ply =
        |i: usize| if i < line.len() { line[i].clone() } else { line[start + (i - start) % period].clone() };
    // The position at ply `start` occurs for the n-th time at ply start + (n - 1) × period.
    let black_moves = |n: u32| -> String {
        let end = start + (n as usize - 1) * period;
        (0..end).step_by(2).map(|i| ply(i) + "\n").collect()
    };
    for (n, extra) in [(2u32, vec!["--repetition", "2"]), (3, vec!["--repetition", "3"]), (4, vec![])] {
        let run = play("current", &extra, &black_moves(n));
        let last = run.stdout.lines().last().unwrap();
        assert_eq!(
            last,
            format!("the position occurred {n} times: the game is drawn by repetition."),
            "{run:#?}"
        );
    }
    // One occurrence short of the default (4): the game goes on until the input ends.
    let run = play("current", &[], &black_moves(3));
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    // Fewer than 2 is refused.
    let run = nana(&["play", "--repetition", "1"]);
    assert_usage_error(&run, &["--repetition"]);
}

// ---------------------------------------------------------------------------------------------
// 7. stats
// ---------------------------------------------------------------------------------------------

fn number_after(out: &str, prefix: &str) -> u64 {
    let line =
        out.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no {prefix:?} in\n{out}"));
    let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("no number after {prefix:?}: {line:?}"))
}

#[test]
fn stats_counts_reachable_positions() {
    let run = nana(&["stats", "--tablebase", table("current")]);
    run.success();
    let out = &run.stdout;
    let size = number_after(out, "index size: ");
    let header = std::fs::read(table("current")).unwrap();
    let entries = u64::from_le_bytes(header[24..32].try_into().unwrap());
    assert_eq!(size, entries, "one entry per index entry");
    let line = out.lines().find(|l| l.starts_with("reachable positions: ")).unwrap();
    assert!(line.contains(" (black to move ") && line.contains(", white to move "), "{line}");
    let counts: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert_eq!(counts.len(), 3, "{line}");
    assert_eq!(counts[0], counts[1] + counts[2], "{line}");
    assert!(counts[0] > 0, "{line}");
    let entries = number_after(out, "reachable index entries: ");
    assert!(entries > 0 && entries <= size, "{out}");
    // The table's counts agree with what solve printed.
    let solved = &tables().solve_current;
    let counts = solved.lines().find_map(|l| l.trim().strip_prefix("wins ")).unwrap();
    assert!(out.contains(&format!("entries: wins {counts}, unused")), "stats:\n{out}\nsolve:\n{solved}");
    assert!(out.contains("\nstart: draw\n"), "{out}");
    // Every reachable position is legal, so at most the legal entries are reachable.
    let legal = number_after(solved, "  positions (index entries): ");
    assert!(entries <= legal, "{entries} reachable > {legal} legal");
}

// ---------------------------------------------------------------------------------------------
// 8. verify
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_confirms_the_published_results() {
    let cwd = tempfile::tempdir().unwrap();
    let dir = cwd.path().join("tablebase");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(table("current"), dir.join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), dir.join("nana-original.tb")).unwrap();
    let run = nana_at(cwd.path(), &["verify"], "");
    run.success();
    assert!(run.stderr.is_empty(), "the tables in tablebase/ are used, nothing solved: {run:#?}");
    let out = &run.stdout;
    assert_eq!(out.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{out}");
    assert!(!out.contains("NOT CONFIRMED"), "{out}");
    assert!(out.contains("| current | start | draw | - |"), "{out}");
    assert!(out.contains("| original | start | win, Black mates on ply 31 | 31 |"), "{out}");
    let lines = run.lines();
    let at =
        lines.iter().position(|l| l.starts_with("principal variation, original rules")).expect("pv header");
    let pv = lines[at + 1];
    assert!(pv.starts_with("1. K*2a 2. K*2c "), "{pv}");
    assert!(pv.contains(" 31. ") && !pv.contains(" 32. "), "{pv}");
    // --dir points elsewhere.
    let run = nana(&["verify", "--dir", cwd.path().join("tablebase").to_str().unwrap()]);
    run.success();
    assert_eq!(run.stdout, *out);
}

/// `verify --check` re-checks every entry of each claimed table before the claims, and stops at
/// a table whose entries disagree with the rules although its checksums hold.
#[test]
fn verify_check_rechecks_every_entry_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), dir.path().join("nana-original.tb")).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = nana(&["verify", "--check", "--dir", d]);
    let out = &run.success().stdout;
    for file in ["nana-current.tb", "nana-original.tb"] {
        let line =
            out.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file} not checked: {out}"));
        assert!(line.contains(": all 18609858 entries consistent with the forward rules"), "{line}");
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{out}");
    let path = dir.path().join("nana-current.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    reseal_the_start_as_a_win_in_1(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let run = nana(&["verify", "--check", "--dir", d]);
    assert_no_panic(&run);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stderr.contains("check failed") && run.stderr.contains("win in 1"), "{run:#?}");
    assert!(!run.stdout.contains("CONFIRMED"), "no claim is confirmed over a table that fails: {run:#?}");
}

// ---------------------------------------------------------------------------------------------
// 9. check-table
// ---------------------------------------------------------------------------------------------

#[test]
fn check_table_accepts_the_solved_table_and_rejects_a_damaged_copy() {
    let run = nana(&["check-table", table("current")]);
    run.success();
    // The entry count, from the header (bytes 24..32).
    let header = std::fs::read(table("current")).unwrap();
    let size = u64::from_le_bytes(header[24..32].try_into().unwrap());
    assert!(
        run.stdout.starts_with(&format!(
            "{}: all {size} entries consistent with the forward rules (current,",
            table("current")
        )),
        "{run:#?}"
    );
    let (_dir, path, mut bytes) = copy_of("current");
    // A byte of a compressed block halfway through the file: the file opens, and the block is
    // refused when the check reads it.
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x80;
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    let hint = "regenerate it with `nana --game nana solve --rules current`";
    assert_error(&nana(&["check-table", p]), &[p, "checksum mismatch in compressed block", hint]);
}

// ---------------------------------------------------------------------------------------------
// In-memory fallback
// ---------------------------------------------------------------------------------------------

#[test]
fn query_without_a_table_solves_in_memory() {
    let run = nana(&["query", "--rules", "original", "--json"]);
    run.success();
    assert!(
        run.stderr.contains("note: no tablebase at tablebase/nana-original.tb; solving original"),
        "{run:#?}"
    );
    assert!(run.stderr.contains("in memory"), "{run:#?}");
    // The hint names the command that writes this very table.
    assert!(run.stderr.contains("Run `nana --game nana solve --rules original` to keep one."), "{run:#?}");
    let q = run.json();
    assert_eq!(q["category"], "win");
    assert_eq!(q["dtm"], 31);
    assert_eq!(q["best_move"], "K*2a");
    // Exactly what the table on disk answers.
    assert_eq!(q, query_json("original", None, &[]));
}

// ---------------------------------------------------------------------------------------------
// Regression tests for bugs found and fixed
// ---------------------------------------------------------------------------------------------

#[test]
fn query_options_after_moves_are_options() {
    let run = nana(&["query", "--tablebase", table("current"), "--moves", "K*2a", "--json"]);
    run.success();
    assert_eq!(run.json()["fen"], "1K1/3/3 w RBkrb");
}

#[test]
fn a_king_on_the_centre_is_not_blamed_on_the_table() {
    for position in ["3/1K1/3 w RBkrb", "3/1k1/3 b KRBrb"] {
        let run = query("current", &["--json", position]);
        assert_no_panic(&run);
        assert!(!run.stderr.contains("inconsistent"), "{run:#?}");
        if run.code == Some(0) {
            // Acceptable alternative: a well-defined position where White cannot drop its King.
            let q = run.json();
            assert_eq!(q["category"], "loss");
            assert_eq!(q["dtm"], 0);
        } else {
            assert_error(&run, &["illegal position"]);
        }
    }
}

#[test]
fn text_move_values_count_from_the_position_shown() {
    let run = query("original", &[]);
    run.success();
    let lines = run.lines();
    let at = lines.iter().position(|l| *l == "moves:").unwrap();
    assert!(lines[at + 1].ends_with("win, mate in 31 plies"), "{}", lines[at + 1]);
    let run = play("original", &[], "hint\n");
    assert!(run.stdout.contains("hint: K*2a (K*2a), win, mate in 31 plies"), "{run:#?}");
}

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

// ---------------------------------------------------------------------------------------------
// 10. Behaviour: threads, streaming batches, bad bytes, undo, early checks, short echoes,
// the tablebase folder, killed solves
// ---------------------------------------------------------------------------------------------

/// Runs `nana ARGS` in a fresh empty directory with extra environment variables and raw stdin.
fn nana_with(args: &[&str], env: &[(&str, &Path)], stdin: &[u8]) -> Run {
    let cwd = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::cargo_bin("nana").expect("the nana binary is built for integration tests");
    cmd.args(args).current_dir(cwd.path()).env_remove("NANA_TABLEBASE_DIR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.write_stdin(stdin.to_vec()).timeout(Duration::from_secs(300)).output().expect("nana runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

#[test]
fn threads_are_bounded_and_checked_before_anything_else() {
    for n in ["10000", "4294967296", "257"] {
        let started = std::time::Instant::now();
        let run = nana(&["--threads", n, "query"]);
        assert_usage_error(&run, &["--threads", n, "1..=256"]);
        assert!(started.elapsed() < Duration::from_secs(5), "refused at once: {:?}", started.elapsed());
    }
    assert_usage_error(&nana(&["--threads", "10000", "moves"]), &["1..=256"]);
    // The bound itself is accepted, and `moves` starts no pool at all (see also the batch test).
    let started = std::time::Instant::now();
    let run = nana(&["--threads", "256", "moves"]);
    run.success();
    assert_eq!(run.lines().len(), 8, "{run:#?}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // perft works in parallel and takes the bound too.
    let run = nana(&["--threads", "3", "perft", "2"]);
    run.success();
    assert_eq!(run.stdout, nana(&["perft", "2"]).stdout);
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

#[test]
fn undo_as_white_before_any_move_of_yours_has_nothing_to_undo() {
    let run = play("original", &["--side", "white"], "undo\nquit\n");
    assert!(run.stdout.contains("your move> nothing to undo."), "{run:#?}");
    assert_eq!(engine_moves(&run), ["K*2a"], "the engine's opening move is neither undone nor replayed");
    // After a move of yours, undo goes back to your previous turn (before the reply).
    let mainline = original_mainline();
    let run = play("original", &["--side", "white"], &format!("{}\nundo\nundo\nquit\n", mainline[1]));
    assert_eq!(engine_moves(&run), [mainline[0].as_str(), mainline[2].as_str()]);
    assert_eq!(run.stdout.matches("nothing to undo.").count(), 1, "{run:#?}");
}

#[test]
fn solve_refuses_an_unwritable_output_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let f = file.to_str().unwrap();
    let below = file.join("below");
    for (out, needle) in [(f, "not a directory"), (below.to_str().unwrap(), "cannot create the directory")] {
        let started = std::time::Instant::now();
        let run = nana(&["solve", "--rules", "current", "--out", out]);
        assert_error(&run, &[out, needle]);
        assert!(run.stdout.is_empty(), "{run:#?}");
        assert!(started.elapsed() < Duration::from_secs(5), "nothing solved first: {:?}", started.elapsed());
    }
    // The global folder flag is checked the same way.
    assert_error(&nana(&["--tablebase-dir", f, "solve", "--rules", "original"]), &[f, "not a directory"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
}

#[test]
fn stats_reports_a_bad_table_before_any_result() {
    let (_dir, path, mut bytes) = copy_of("current");
    bytes[256 + 1_000] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    for (table, needle) in [("/nonexistent/nana-current.tb", "No such file"), (p, "checksum")] {
        let run = nana(&["stats", "--tablebase", table]);
        assert_error(&run, &[table, needle]);
        assert!(run.stdout.is_empty(), "no partial result before the error: {run:#?}");
    }
}

#[test]
fn echoes_of_input_are_cut_to_a_readable_length() {
    let huge = "x".repeat(5_000_000);
    let cut = format!("{}…", "x".repeat(60));
    // A batch line.
    let args = ["query", "--rules", "original", "--tablebase", table("original"), "--batch", "-"];
    let run = nana_with(&args, &[], format!("{huge}\n3/3/3 b KRBkrb 1\n").as_bytes());
    run.success();
    assert!(run.stdout.len() < 1_000, "{} bytes of output", run.stdout.len());
    let first: Json = serde_json::from_str(run.lines()[0]).unwrap();
    assert_eq!(first["input"], cut.as_str());
    assert!(s(&first["error"]).contains(&cut), "{first}");
    assert_eq!(run.lines().len(), 2);
    // A position, a move and a Hodges move on the command line (kept below the argument limit).
    let long = "x".repeat(100_000);
    let hodges = format!("{long}-2b=TG");
    for args in
        [vec!["query", long.as_str()], vec!["query", "--moves", &long], vec!["query", "--moves", &hodges]]
    {
        let run = nana(&args);
        assert_error(&run, &[&cut]);
        assert!(run.stderr.len() < 300, "{} bytes: {}", run.stderr.len(), &run.stderr[..300]);
    }
}

#[test]
fn hodges_errors_are_as_specific_as_usi_ones() {
    // Black to drop next to White's King at 1a: these drops would give check.
    for (usi, hodges) in [("G*1b", "GB*1b"), ("W*2a", "SW*2a"), ("R*1b", "R*1b")] {
        for m in [usi, hodges] {
            // The move is read before any table is opened.
            let run = nana(&["query", "2k/3/K2 b RBrb", "--tablebase", "/nonexistent", "--moves", m]);
            assert_error(&run, &[&format!("bad move \"{m}\""), "a drop may not give check"]);
        }
    }
    // A legal move with the wrong marks says which mark.
    let run = nana(&["query", "1k1/3/K1B b 2Rb", "--tablebase", "/nonexistent", "--moves", "B-2b=CS"]);
    assert_error(&run, &["B becomes TG, not CS"]);
}

#[test]
fn moves_errors_say_which_move() {
    let run = nana(&["query", "--tablebase", "/nonexistent", "--moves", "K*2a", "K*1a", "K*2c"]);
    assert_error(&run, &["--moves, move 2 of 3", "bad move \"K*1a\"", "next to the other king"]);
    // After the end of the game: which move, and that the game is over.
    let mut moves: Vec<String> = original_mainline();
    moves.push("K*3b".into());
    let mut args = vec!["--moves"];
    args.extend(moves.iter().map(String::as_str));
    let n = moves.len();
    assert_error(
        &query("original", &args),
        &[&format!("--moves, move {n} of {n}"), "K*3b", "white has no legal move (checkmate) and has lost"],
    );
}

#[test]
fn moves_of_a_finished_game_say_it_is_over() {
    let run = nana(&["moves", "--position", "K1k/2G/1S1 w RB"]);
    run.success();
    assert!(run.stdout.is_empty(), "{run:#?}");
    assert_eq!(run.stderr, "the game is over: white has no legal move (checkmate) and has lost\n");
    let run = nana(&["moves", "--rules", "original", "--position", "RCK/3/1Tk w B"]);
    run.success();
    assert!(run.stderr.contains("(stalemate)"), "{run:#?}");
    // A game in progress says nothing on stderr.
    let run = nana(&["moves"]);
    run.success();
    assert!(run.stderr.is_empty(), "{run:#?}");
}

#[test]
fn perft_zero_counts_the_position_itself() {
    let run = nana(&["perft", "0"]);
    run.success();
    assert_eq!(run.stdout, "0\t1\n");
    let run = nana(&["perft", "0", "--position", "K1k/2G/1S1 w RB"]);
    run.success();
    assert_eq!(run.stdout, "0\t1\n");
}

#[test]
fn the_tablebase_folder_comes_from_the_flag_else_the_environment() {
    let good = tempfile::tempdir().unwrap();
    std::fs::copy(table("current"), good.path().join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), good.path().join("nana-original.tb")).unwrap();
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("nana-current.tb"), "not a table").unwrap();
    let (g, b) = (good.path().to_str().unwrap(), bad.path().to_str().unwrap());
    let env = "NANA_TABLEBASE_DIR";
    // Flag, environment, flag over environment: a table is found, nothing is solved in memory.
    for (args, envs) in [
        (vec!["--tablebase-dir", g, "query", "--json"], vec![]),
        (vec!["query", "--json"], vec![(env, good.path())]),
        (vec!["query", "--json", "--tablebase-dir", g], vec![(env, bad.path())]),
    ] {
        let run = nana_with(&args, &envs, b"");
        run.success();
        assert!(run.stderr.is_empty(), "{run:#?}");
        assert_eq!(run.json()["category"], "draw");
    }
    // The environment is used when no flag is given: its (bad) table is refused.
    let run = nana_with(&["query"], &[(env, bad.path())], b"");
    assert_error(&run, &[b, "not a tablebase"]);
    let run = nana_with(&["stats"], &[(env, bad.path())], b"");
    assert_error(&run, &[b, "not a tablebase"]);
    let run = nana_with(&["play"], &[(env, bad.path())], b"quit\n");
    assert_error(&run, &[b, "not a tablebase"]);
    // verify reads both tables from there.
    let run = nana_with(&["--tablebase-dir", g, "verify"], &[], b"");
    run.success();
    assert!(run.stderr.is_empty(), "{run:#?}");
    assert_eq!(run.stdout.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{run:#?}");
    // --help names both.
    let help = nana(&["--help"]).stdout;
    assert!(help.contains("--tablebase-dir") && help.contains(env), "{help}");
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

/// Every `*.tb` in `dir` and every leftover temporary file that opens must be the complete table.
#[track_caller]
fn only_complete_tables_load(dir: &Path, complete: &[u8]) {
    let mut tables = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let p = path.to_str().unwrap();
        let run = nana(&["query", "--json", "--tablebase", p]);
        if p.ends_with(".tb") {
            tables += 1;
            run.success();
            assert_eq!(run.json()["category"], "draw");
        }
        if run.code == Some(0) {
            assert!(std::fs::read(&path).unwrap() == complete, "{p} loads but is not the complete table");
        } else {
            assert_error(&run, &[p]);
        }
    }
    assert_eq!(tables, 1, "the table written before is still there");
}

#[test]
fn a_killed_solve_leaves_no_partial_table() {
    let complete = std::fs::read(table("current")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    std::fs::write(dir.path().join("nana-current.tb"), &complete).unwrap();
    let spawn = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
            .args(["solve", "--rules", "current", "--out", out])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // While preparing and while solving.
    for after in [Duration::from_millis(500), Duration::from_secs(2)] {
        let mut child = spawn();
        std::thread::sleep(after);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        only_complete_tables_load(dir.path(), &complete);
    }
    // While writing: as soon as the temporary file appears.
    let mut child = spawn();
    loop {
        let mut names = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name());
        if names.any(|n| n.to_string_lossy().contains(".tmp-")) {
            child.kill().unwrap();
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "solve ended before its temporary file was seen");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.wait().unwrap();
    only_complete_tables_load(dir.path(), &complete);

    // The killed writes left their temporary files (on Linux, where a writer can tell that
    // their processes are gone): the next solve of the table removes them.
    if cfg!(target_os = "linux") {
        let temp_files = || {
            let names = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name());
            names.filter(|n| n.to_string_lossy().contains(".tmp-")).count()
        };
        let pid = child.id();
        std::fs::write(dir.path().join(format!("nana-current.tb.tmp-{pid}-1")), b"partial").unwrap();
        assert!(temp_files() >= 1);
        nana(&["solve", "--rules", "current", "--out", out]).success();
        assert_eq!(temp_files(), 0);
        assert_eq!(std::fs::read(dir.path().join("nana-current.tb")).unwrap(), complete);
    }
}

// ---------------------------------------------------------------------------------------------
// Validate first, then print
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_with_a_damaged_table_prints_only_the_error() {
    // The current table is fine and is checked first; the original one is damaged. Every table
    // must load before the first line of the report, so stdout stays empty.
    let (dir, path, mut bytes) = copy_of("original");
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    bytes[256 + 5_000_000] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let run = nana(&["verify", "--dir", dir.path().to_str().unwrap()]);
    assert_error(&run, &[path.to_str().unwrap(), "checksum"]);
    assert!(run.stdout.is_empty(), "nothing but the error: {run:#?}");
}

// ---------------------------------------------------------------------------------------------
// --game
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// serve
// ---------------------------------------------------------------------------------------------

/// One HTTP/1.1 GET on a fresh connection: the status code and the body.
fn http_get(addr: &str, target: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts connections");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a whole response");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// `nana --game nana serve` opens Nana's tables of the folder (only Nana's: the folder has no
/// Dobutsu table), says where it listens, answers the API and the page, and stops cleanly (exit
/// 0) on Ctrl-C (SIGINT).
#[cfg(unix)]
#[test]
fn serve_answers_the_api_and_stops_on_ctrl_c() {
    use std::io::BufRead;
    let dir = Path::new(table("current")).parent().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(["--game", "nana", "serve", "--port", "0", "--no-solve", "--tablebase-dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nana serve starts");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(stderr.read_line(&mut line).unwrap(), 0, "nana serve stopped before listening");
        if let Some(rest) = line.strip_prefix("listening on http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    let (status, body) = http_get(&addr, "/api/health");
    assert_eq!(status, 200, "{body}");
    let (status, body) = http_get(&addr, "/api/nana/original?position=3/3/3_b_KRBkrb_1");
    assert_eq!(status, 200, "{body}");
    let answer: Json = serde_json::from_str(&body).unwrap();
    assert_eq!((s(&answer["category"]), answer["dtm"].as_i64()), ("win", Some(31)));
    // The same answer as `nana query --json`: one source of truth.
    let query = query_json("original", None, &[]);
    assert_eq!(answer["moves"], query["moves"]);
    assert_eq!(answer["mainline"], query["mainline"]);
    assert_eq!(http_get(&addr, "/api/nana/original?position=nonsense").0, 400);
    assert_eq!(http_get(&addr, "/api/chess/standard").0, 404);
    // Only the game asked for is served.
    let (status, body) = http_get(&addr, "/api/dobutsu/tanaka");
    assert!(status == 404 && body.contains("[\"nana\"]"), "{status} {body}");
    let (status, page) = http_get(&addr, "/");
    assert!(status == 200 && page.contains("<html"), "{status} {page:.200}");

    // Safety: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "graceful shutdown on Ctrl-C");
}

/// `nana serve ARGS` started, its standard error read up to "listening on": the child, the
/// address and the lines before it.
#[cfg(unix)]
fn start_serve(args: &[&str]) -> (std::process::Child, String, Vec<String>) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nana serve starts");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut before = Vec::new();
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(
            stderr.read_line(&mut line).unwrap(),
            0,
            "nana serve stopped before listening: {before:?}"
        );
        if let Some(rest) = line.strip_prefix("listening on http://") {
            break rest.split('/').next().unwrap().to_string();
        }
        before.push(line.trim_end().to_string());
    };
    // The log goes on: keep reading it, so that the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    (child, addr, before)
}

/// Stops a server with Ctrl-C (SIGINT): it exits 0.
#[cfg(unix)]
fn stop_serve(mut child: std::process::Child) {
    // Safety: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    assert_eq!(child.wait().unwrap().code(), Some(0), "graceful shutdown on Ctrl-C");
}

/// On an empty folder `nana serve` answers at once (health within 2 s, each rule set's state
/// reported, a rule set being solved a 503 with its progress), answers a query within 30 s once
/// its table is solved in the background, writes each table it solves, and after a restart
/// answers at once from the saved tables.
#[cfg(unix)]
#[test]
fn serve_on_an_empty_folder_answers_at_once_and_saves_what_it_solves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let start = std::time::Instant::now();
    let (child, addr, notes) = start_serve(&["--game", "nana", "serve", "--port", "0", "--tablebase-dir", d]);
    let (status, body) = http_get(&addr, "/api/health");
    assert!(
        status == 200 && start.elapsed() < Duration::from_secs(2),
        "{:?}: {status} {body}",
        start.elapsed()
    );
    let health: Json = serde_json::from_str(&body).unwrap();
    assert!(["solving", "ok"].contains(&s(&health["status"])), "{health}");
    assert!(
        notes.iter().any(|n| n.contains("nana-current.tb") && n.contains("solved in the background")),
        "{notes:?}"
    );
    let (status, body) = loop {
        let (status, body) = http_get(&addr, "/api/nana/original?fen=3/3/3_b_KRBkrb");
        if status == 200 || start.elapsed() > Duration::from_secs(30) {
            break (status, body);
        }
        assert_eq!(status, 503, "{body}");
        let json: Json = serde_json::from_str(&body).unwrap();
        assert!(["queued", "solving"].contains(&s(&json["state"])), "{json}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(status, 200, "no answer within 30 s: {body}");
    let answer: Json = serde_json::from_str(&body).unwrap();
    assert_eq!((s(&answer["category"]), answer["dtm"].as_i64()), ("win", Some(31)));
    loop {
        let (_, body) = http_get(&addr, "/api/health");
        if serde_json::from_str::<Json>(&body).unwrap()["status"] == "ok" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "{body}");
        std::thread::sleep(Duration::from_millis(200));
    }
    stop_serve(child);
    for file in ["nana-current.tb", "nana-original.tb"] {
        assert!(dir.path().join(file).is_file(), "{file} is saved");
    }
    // A restart opens the saved tables: no solve, the answer at once.
    let start = std::time::Instant::now();
    let (child, addr, notes) = start_serve(&["--game", "nana", "serve", "--port", "0", "--tablebase-dir", d]);
    assert!(notes.is_empty(), "{notes:?}");
    let (status, body) = http_get(&addr, "/api/nana/current");
    assert!(status == 200 && start.elapsed() < Duration::from_secs(2), "{status} {body}");
    stop_serve(child);
}

/// A busy port is reported at once, before any table is opened or solved.
#[test]
fn serve_reports_a_busy_port_before_solving() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let empty = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let run = nana(&["serve", "--port", &port, "--tablebase-dir", empty.path().to_str().unwrap()]);
    assert_error(&run, &[&format!("127.0.0.1:{port}"), "in use"]);
    assert!(!run.stderr.contains("note:") && !run.stderr.contains("solv"), "{run:#?}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0, "nothing written");
}

/// With --no-solve, a damaged table and a missing one are both named, each with its command.
#[test]
fn serve_no_solve_names_a_damaged_and_a_missing_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nana-current.tb"), b"not a table").unwrap();
    let run = nana(&[
        "--game",
        "nana",
        "serve",
        "--port",
        "0",
        "--no-solve",
        "--tablebase-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_error(
        &run,
        &[
            "nana-current.tb",
            "make it again with `nana --game nana solve --rules current`",
            "no tablebase at",
            "nana-original.tb",
            "make it with `nana --game nana solve --rules original`",
        ],
    );
}

/// With --no-solve and no tables, `serve` refuses to start and names the missing files: every
/// game's by default, only --game's when it is given, each with the command that makes it.
#[test]
fn serve_without_tables_and_no_solve_names_the_missing_files() {
    let nana_files = [
        "tablebase/nana-current.tb",
        "tablebase/nana-original.tb",
        "`nana --game nana solve --rules current`",
        "`nana --game nana solve --rules original`",
    ];
    let dobutsu_files = [
        "tablebase/dobutsu-tanaka.tb",
        "tablebase/dobutsu-safe-try.tb",
        "`nana --game dobutsu solve --rules tanaka`",
        "`nana --game dobutsu solve --rules safe-try`",
    ];
    let run = nana(&["serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &[nana_files.as_slice(), dobutsu_files.as_slice()].concat());
    let run = nana(&["--game", "nana", "serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &nana_files);
    assert!(!run.stderr.contains("dobutsu"), "{run:#?}");
    let run = nana(&["--game", "dobutsu", "serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &dobutsu_files);
    assert!(!run.stderr.contains("nana-"), "{run:#?}");
    assert_usage_error(&nana(&["serve", "--port", "70000"]), &["70000"]);
    // A host name is looked up at start: one that does not resolve is an error before any table.
    assert_error(&nana(&["serve", "--bind", "not-an-address"]), &["--bind not-an-address"]);
}

// ---------------------------------------------------------------------------------------------
// --game dobutsu (a Dobutsu solve takes minutes: the tests that need a table share the test
// run's, from `nana-fixture`)
// ---------------------------------------------------------------------------------------------

/// The Tanaka table of the test run (`nana-fixture`: solved once per run, by the first test
/// binary that needs it).
fn dobutsu_table() -> &'static str {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    TABLE
        .get_or_init(|| nana_fixture::path(dobutsu_shogi::Rules::TANAKA))
        .to_str()
        .expect("temp paths are UTF-8")
}

/// A table of one game given to a command of the other is refused with the game and rule set
/// the file holds and those asked for, whichever command reads it.
#[test]
fn a_table_of_another_game_is_named_for_what_it_is() {
    let dobutsu = dobutsu_table();
    let holds =
        "the table is of dobutsu-shogi with rules \"tanaka, a try wins unless the lion is captured at once\"";
    let asked = "but nana-shogi with rules \"current, drop-stalemate on, hand-stalemate on\" was asked for";
    for run in [
        nana(&["query", "--tablebase", dobutsu]),
        nana(&["stats", "--tablebase", dobutsu]),
        nana_stdin(&["play", "--tablebase", dobutsu], "quit\n"),
        nana(&["check-table", dobutsu]),
    ] {
        assert_error(&run, &[dobutsu, holds, asked]);
    }
    let nana_table = table("current");
    let holds = "the table is of nana-shogi with rules \"current, drop-stalemate on, hand-stalemate on\"";
    let asked = "but dobutsu-shogi with rules \"tanaka, a try wins unless the lion is captured at once\" was asked for";
    for run in [
        nana(&["--game", "dobutsu", "query", "--tablebase", nana_table]),
        nana(&["--game", "dobutsu", "check-table", nana_table]),
    ] {
        assert_error(&run, &[nana_table, holds, asked]);
    }
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

/// `serve --bind` takes a host name, and a bad one is refused before any table is loaded.
#[test]
fn serve_binds_a_host_name() {
    let run = nana(&["serve", "--bind", "no such host", "--no-solve"]);
    assert_error(&run, &["--bind no such host"]);
    // `localhost` resolves: the error is then the missing tables, not the address.
    let run = nana(&["serve", "--bind", "localhost", "--port", "0", "--no-solve"]);
    assert_error(&run, &["no tablebase at"]);
}

/// `solve --out DIR` where a table's file is a folder fails before solving.
#[test]
fn solve_refuses_a_folder_in_the_way_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("nana-current.tb")).unwrap();
    let run = nana(&["solve", "--rules", "current", "--out", dir.path().to_str().unwrap()]);
    // The check before the solve says so (a write after it would fail with the system's words).
    assert_error(&run, &["nana-current.tb: is a directory, cannot write the table there"]);
}

/// A missing file is named once, by the I/O error that names it.
#[test]
fn a_missing_table_is_named_once() {
    let run = nana(&["query", "--tablebase", "/nonexistent/x.tb"]);
    assert_error(&run, &["I/O error on /nonexistent/x.tb: No such file"]);
    assert_eq!(run.stderr.matches("/nonexistent/x.tb").count(), 1, "{run:#?}");
}

/// Fairy-Stockfish's perft from the start (its reading of the try), and the start's moves in
/// its coordinates.
#[test]
fn dobutsu_moves_and_perft_from_the_start() {
    let run = nana(&["--game", "dobutsu", "perft", "6", "--rules", "safe-try"]);
    assert_eq!(run.success().stdout, "1\t4\n2\t17\n3\t123\n4\t976\n5\t8122\n6\t71677\n");
    let run = nana(&["--game", "dobutsu", "moves", "--position", "gle/1c1/1C1/ELG[-] w 0 1"]);
    let machine: Vec<&str> = run.success().lines().iter().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(machine, ["b1a2", "b1c2", "c1c2", "b2b3"]);
}

/// `stats` for Dobutsu: the reachable positions counted as Tanaka (2009) counts them, the most
/// moves in one, and the table's counts with the start's value.
#[test]
fn dobutsu_stats_counts_reachable_positions_and_the_table() {
    let run = nana(&["--game", "dobutsu", "stats", "--tablebase", dobutsu_table()]);
    let out = &run.success().stdout;
    for line in [
        "rules: tanaka, a try wins unless the lion is captured at once\n",
        "\nindex size: 855232344\n",
        "\nreachable positions: 246803167 (first player to move 246803167, second player to move 246803167)\n",
        "\nterminal: 147317599, not terminal: 99485568\n",
        "\nmost legal moves in a reachable position: 38\n",
        "\nentries: wins 135544702, losses 104739538, draws 3061506, unused 611886598; longest win 173 plies\n",
        "\nstart: loss in 78\n",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
}

/// Bad Dobutsu input: one clear line each, and Nana's rule sets are not Dobutsu's.
#[test]
fn dobutsu_bad_input_gets_a_clear_error() {
    for (position, needle) in [
        ("gle/1c1/1C1/ELG[-] x 0 1", "side to move"),
        ("gle/1c1/1C1 w 0 1", "gle/1c1/1C1"),
        ("3/3/3 b KRBkrb 1", "3/3/3"),
    ] {
        assert_error(&nana(&["--game", "dobutsu", "moves", "--position", position]), &[needle]);
    }
    assert_usage_error(&nana(&["--game", "dobutsu", "moves", "--rules", "current"]), &["tanaka", "safe-try"]);
    assert_usage_error(&nana(&["--game", "dobutsu", "play", "--side", "black"]), &["first", "second"]);
    // `verify --all-games` is every game: naming one as well is a contradiction.
    assert_usage_error(&nana(&["verify", "--all-games", "--game", "nana"]), &["--all-games", "--game"]);
}

/// Dobutsu's values in its own words — its games end by the lion's capture or a try, not by
/// mate — in `query` (a position, its moves, a game won by a try) and `play` (the evaluation and
/// a hint, for either side).
#[test]
fn dobutsu_values_are_worded_for_dobutsu() {
    let query = ["--game", "dobutsu", "query", "--tablebase", dobutsu_table()];
    let start = nana(&query);
    let out = &start.success().stdout;
    assert!(out.contains("\nvalue: loss in 78 plies for the first player\n"), "{out}");
    assert!(out.contains("\n  b1a2   La2        loss in 78 plies\n"), "{out}");
    assert!(out.contains("\n  b2b3   Cxb3       loss in 76 plies\n"), "{out}");
    // The second player's lion on the first player's home rank, unattacked: a try completed.
    let tried = nana(&[&query[..], &["2e/L2/G2/E1l[Ccg] w 0 1"]].concat());
    let out = &tried.success().stdout;
    let over =
        "\nvalue: loss (the game is over) for the first player\nthe game is over (try): the first player has lost\n";
    assert!(out.ends_with(over), "{out}");
    let play = |side: &str| {
        let args = ["--game", "dobutsu", "play", "--side", side, "--tablebase", dobutsu_table()];
        nana_stdin(&args, "hint\nquit\n")
    };
    let (first, second) = (play("first"), play("second"));
    let out = &first.success().stdout;
    assert!(out.contains("\nevaluation: loss in 78 plies for the first player\n"), "{out}");
    assert!(out.contains("hint: b1a2 (La2), loss in 78 plies\n"), "{out}");
    let out = &second.success().stdout;
    assert!(out.contains("\nevaluation: win in 77 plies for the second player\n"), "{out}");
    assert!(out.contains(", win in 77 plies\n"), "{out}");
    // The first player plays its moves of the mainline; the engine answers along it and
    // captures the lion on the 78th ply, the mainline's last.
    let mainline = strings(&nana(&[&query[..], &["--json"]].concat()).success().json()["mainline"]);
    assert_eq!(mainline.len(), 78, "{mainline:?}");
    let input: String = mainline.iter().step_by(2).map(|mv| format!("{mv}\n")).collect();
    let args = ["--game", "dobutsu", "play", "--tablebase", dobutsu_table()];
    let lost = nana_stdin(&args, &input);
    let out = &lost.success().stdout;
    let expected: Vec<String> = mainline.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(engine_moves(&lost), expected);
    assert!(
        out.ends_with("\nthe game is over (lion captured): the first player has lost.\nthe engine wins.\n"),
        "{out}"
    );
    for run in [&start, &tried, &first, &second, &lost] {
        assert!(!run.stdout.contains("mate") && !run.stdout.contains("no legal move"), "{run:#?}");
    }
}

/// Every legal Dobutsu position has a value, reachable from the start or not: the first
/// player's lion on its far rank with the first player to move (the game had ended a ply
/// before), and two positions that arise only after a player declines to take the lion, whose
/// values the public solver (clausecker/dobutsu) gives as a win in 1 and a loss in 70. Nana's
/// error for an unused entry, where every legal position has a value, blames the table.
#[test]
fn every_legal_dobutsu_position_has_a_value() {
    for (fen, value) in [
        ("L2/3/2l/3[GECgec] w 0 1", "value: win in 1 ply for the first player\nthe game is decided (try)"),
        ("g1e/1l1/L2/EC1[gc] b 0 1", "value: win in 1 ply for the second player\nbest move: b3a2 (Lxa2)"),
        ("g1e/2l/1EG/2L[Cc] b 0 1", "value: loss in 70 plies for the second player\n"),
    ] {
        let run = nana(&["--game", "dobutsu", "query", "--tablebase", dobutsu_table(), fen]);
        let out = &run.success().stdout;
        assert!(out.contains(value), "{fen}: {out}");
    }

    // Nana's start, its entry (the last) marked unused in a resealed copy of the table.
    let (_dir, path, bytes) = copy_of("current");
    let entries = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    std::fs::write(&path, with_last_entry(&bytes, 255)).unwrap();
    let run = nana(&["query", "--tablebase", path.to_str().unwrap()]);
    let entry = format!("entry {} of a legal position", entries - 1);
    assert_error(&run, &[&entry, "is marked unused: the table was not built for these rules"]);
}
