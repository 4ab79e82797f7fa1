//! Position and move strings: round trips, Fairy-Stockfish's forms, and bad input.

use dobutsu_shogi::probe::ProbeRules;
use dobutsu_shogi::{fen, Position, Rules};

mod common;
use common::XorShift;

#[test]
fn start_is_fairy_stockfish_start() {
    let s = Position::start();
    assert_eq!(s.to_string(), "gle/1c1/1C1/ELG[-] w 0 1");
    for form in ["gle/1c1/1C1/ELG[-] w 0 1", "gle/1c1/1C1/ELG[] w - - 0 1", "gle/1c1/1C1/ELG w"] {
        assert_eq!(fen::parse_position(form), Ok(s), "{form}");
    }
}

#[test]
fn hands_in_fairy_stockfish_order() {
    // Upper case first; giraffe, chick, elephant; a hen read as H too.
    let p = fen::parse_position("l2/3/1H1/2L[ECGeg] b").unwrap();
    assert_eq!(p.to_string(), "l2/3/1+C1/2L[GCEge] b 0 1");
}

#[test]
fn random_positions_round_trip() {
    let mut rng = XorShift(77);
    for rules in Rules::all() {
        for _ in 0..500 {
            let mut pos = Position::start();
            for _ in 0..rng.below(50) {
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                // The move string reads back to the same move.
                assert_eq!(fen::parse_move(&pos, &rules, &mv.to_string()), Ok(mv));
                pos = pos.play(&rules, mv).unwrap();
                assert_eq!(fen::parse_position(&pos.to_string()), Ok(pos));
            }
        }
    }
}

#[test]
fn bad_positions_are_one_line_errors() {
    let long = "x".repeat(500);
    let cases = [
        "",
        "gle/1c1/1C1 w",
        "gle/1c1/1C1/ELG[-] x",
        "gle/1c1/1C1/ELG[-]",
        "gle/1c1/1C1/ELGG[-] w",
        "gle/1c1/1C1/EL1[-] w",
        "gle/1c1/1C1/ELG[C] w",
        "gle/1c1/1C1/ELQ[-] w",
        "gle/1c1/1+G1/ELG[-] w",
        "gle/1c1/1C1/E1G[-] w",
        "gle/1c1/1C1/ELG[H] w",
        "gle/1c1/1C1/ELG[- w",
        "gle/1c1/4/ELG[-] w",
        "gle/1c1/1C1/ELG[-] w 0 1 zz",
        long.as_str(),
    ];
    for c in cases {
        let e = fen::parse_position(c).unwrap_err().to_string();
        assert!(!e.contains('\n') && e.len() < 200, "{c}: {e}");
    }
    // The probe reads a position whose side to move has lost its lion (the game is over), and
    // refuses one where the side that has just moved has none.
    assert!(Rules::TANAKA.parse_position("3/1L1/3/3[LGGEECC] b").is_ok());
    let e = Rules::TANAKA.parse_position("3/1L1/3/3[LGGEECC] w").unwrap_err();
    assert!(e.to_string().contains("no lion"), "{e}");
    // Only the chicks' count names the hens.
    let e = fen::parse_position("lll/3/3/3[-] w").unwrap_err().to_string();
    assert!(e.contains("two giraffes, found 0") && !e.contains("hens"), "{e}");
    let e = fen::parse_position("gle/1c1/3/ELG[-] w").unwrap_err().to_string();
    assert!(e.contains("two chicks (chicks and hens together), found 1"), "{e}");
}

#[test]
fn moves_read_in_the_notation_they_are_printed_in() {
    let rules = Rules::TANAKA;
    let s = Position::start();
    for (san, machine) in [("Cxb3", "b2b3"), ("Cb3", "b2b3"), ("La2", "b1a2"), ("Gc2", "c1c2")] {
        assert_eq!(fen::parse_move(&s, &rules, san), fen::parse_move(&s, &rules, machine), "{san}");
        assert_eq!(rules.parse_move(&s, san).unwrap().to_string(), machine, "{san}");
    }
    let e = fen::parse_move(&s, &rules, "Cxb4").unwrap_err().to_string();
    assert!(e.contains("no legal move is written so"), "{e}");
}

/// Found by the fuzz target `dobutsu_fen`: 256 pieces of a kind in hand overflowed the count.
#[test]
fn a_hand_of_more_pieces_than_exist_is_refused() {
    let many = format!("1l1/C2/3/L2[GGEEc{}] w", "G".repeat(300));
    for input in [many.as_str(), "1l1/C2/3/L2[GGGEEc] w"] {
        let e = fen::parse_position(input).unwrap_err().to_string();
        assert!(e.contains("more than two 'G' in hand"), "{e}");
    }
    let e = dobutsu_shogi::usi::parse_position(&format!("1l1/C2/3/L2 b {} 1", "9G".repeat(30))).unwrap_err();
    assert!(e.to_string().contains("more than two 'G' in hand"), "{e}");
}

#[test]
fn bad_moves_are_one_line_errors() {
    let rules = Rules::TANAKA;
    let s = Position::start();
    for m in
        ["", "b2", "b2b4", "a1a2", "z9a1", "C@b2", "Q@a3", "L@a3", "b1b1", "b2b3+++", "b1a2x", "C*2b", "b*a!"]
    {
        let e = fen::parse_move(&s, &rules, m).unwrap_err().to_string();
        assert!(!e.contains('\n'), "{m}: {e}");
    }
    assert_eq!(fen::parse_move(&s, &rules, "b2b3").unwrap().to_string(), "b2b3");
    // The probe's reader says when the game is over: the lion has been taken.
    let over = fen::parse_position("3/1L1/3/3[LGGEECC] b").unwrap();
    let e = rules.parse_move(&over, "b3b2").unwrap_err();
    assert!(e.to_string().contains("game is over"), "{e}");
}
