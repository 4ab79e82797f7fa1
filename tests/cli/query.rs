//! `nana query`: text and JSON, `--moves` in both notations, malformed input, the in-memory fallback.

use std::collections::BTreeSet;

use serde_json::Value as Json;

use crate::common::*;

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
        assert_eq!(
            keys(m),
            key_set(&["uci", "san", "usi", "category", "dtm", "checkmate", "stalemate"]),
            "{m}"
        );
        assert_eq!(m["usi"], m["uci"], "Nana's machine notation is USI's");
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
