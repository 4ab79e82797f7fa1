//! `--game dobutsu` (the tests that need its table share the test run's, from `nana-fixture`).

use crate::common::*;

/// Fairy-Stockfish's perft from the start (its reading of the try), and the start's moves in
/// its coordinates.
#[test]
fn dobutsu_moves_and_perft_from_the_start() {
    let run = nana(&["--game", "dobutsu", "perft", "6", "--rules", "safe-try"]);
    assert_eq!(run.success().stdout, "1\t4\n2\t17\n3\t123\n4\t976\n5\t8122\n6\t71677\n");
    let run = nana(&["--game", "dobutsu", "moves", "--position", "gle/1c1/1C1/ELG[-] w 0 1"]);
    let machine: Vec<&str> = run.success().lines().iter().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(machine, ["b1a2", "b1c2", "c1c2", "b2b3"]);
    // A position with no move says once that the game is over, and why.
    let run = nana(&["--game", "dobutsu", "moves", "--position", "GE1/LGE/CCl/3[-] w 0 1"]);
    run.success();
    assert_eq!(run.stderr, "the game is over: the first player has lost (no move)\n");
}

/// `stats` for Dobutsu: the table's counts with the start's value. The census of reachable
/// positions is left out (`--no-reachable`): `stats` prints it with the game's own wording
/// (unit-tested in the game's crate), and its figures are what `nana --game dobutsu verify`
/// checks against Tanaka's (`tests/results_doc.rs`; `reach::count` holds the counts by side to
/// move to the total in test builds); the command's code for it is run with Nana
/// (`stats::stats_counts_reachable_positions`).
#[test]
fn dobutsu_stats_counts_the_table() {
    let run = nana(&["--game", "dobutsu", "stats", "--tablebase", dobutsu_table(), "--no-reachable"]);
    let out = &run.success().stdout;
    for line in [
        "rules: tanaka, a try wins unless the lion is captured at once\n",
        "\nentries: wins 135544702, losses 104739538, draws 3061506, unused 16028594; longest win 173 plies\n",
        "\nstart: loss in 78\n",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
    assert!(!out.contains("reachable"), "{out}");
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
    let over = "\nvalue: loss (the game is over) for the first player\nthe first player has lost (try)\n";
    assert!(out.ends_with(over), "{out}");
    // `--moves` and `play` read the notation the game prints as well as the machine's.
    let printed = nana(&[&query[..], &["--moves", "Cxb3"]].concat());
    let machine = nana(&[&query[..], &["--moves", "b2b3"]].concat());
    assert_eq!(printed.success().stdout, machine.success().stdout);
    let args = ["--game", "dobutsu", "play", "--tablebase", dobutsu_table()];
    let played = nana_stdin(&args, "La2\nquit\n");
    assert_eq!(engine_moves(&played).len(), 1, "{played:#?}");
    assert!(!played.success().stdout.contains("error"), "{played:#?}");
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
    assert!(out.ends_with("\nthe first player has lost (lion captured).\nthe engine wins.\n"), "{out}");
    for run in [&start, &tried, &first, &second, &lost] {
        assert!(!run.stdout.contains("mate") && !run.stdout.contains("no legal move"), "{run:#?}");
    }
}

/// Every legal Dobutsu position has a value, reachable from the start or not: the first
/// player's lion on its far rank with the first player to move (the game had ended a ply
/// before), and two positions that arise only after a player declines to take the lion, whose
/// values the public solver (clausecker/dobutsu) gives as a win in 1 and a loss in 70, and the
/// two positions whose side to move has no move, a loss in 0 that lists no move. Nana's error
/// for an unused entry, where every legal position has a value, blames the table.
#[test]
fn every_legal_dobutsu_position_has_a_value() {
    for (fen, value) in [
        ("L2/3/2l/3[GECgec] w 0 1", "value: win in 1 ply for the first player\nthe first player wins (try)"),
        ("g1e/1l1/L2/EC1[gc] b 0 1", "value: win in 1 ply for the second player\nbest move: b3a2 (Lxa2)"),
        ("g1e/2l/1EG/2L[Cc] b 0 1", "value: loss in 70 plies for the second player\n"),
        (
            "GE1/LGE/CCl/3[-] w 0 1",
            "value: loss (the game is over) for the first player\nthe first player has lost (no move)",
        ),
        (
            "GEl/LGE/CC1/3[-] w 0 1",
            "value: loss (the game is over) for the first player\nthe first player has lost (no move)",
        ),
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
