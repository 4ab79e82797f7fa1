//! `nana moves` and `nana perft`, and the errors of `--moves`.

use std::collections::BTreeSet;

use crate::common::*;

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
