//! Nana's move readers (USI-like and Hodges style): any text is read or refused without a panic
//! in an arbitrary position, and a move accepted is one of the position's legal moves.
//!
//! The input: a byte choosing the rule set and the first position (the start or one of a few
//! fixed positions), a byte giving how many moves to play from it, one byte per move choosing
//! among the legal moves, then the move text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nana_shogi::fen::parse_position;
use nana_shogi::{hodges, parse_move, usi, Position, Rules};

/// Positions besides the start: kings placed, pieces in hand, several faces on the board.
const POSITIONS: [&str; 4] = ["K2/3/3 w RBkrb", "k2/3/2K b RBrb", "kT1/1W1/1GK b Rb", "1k1/RCB/1K1 w -"];

fuzz_target!(|data: &[u8]| {
    let [choice, plies, rest @ ..] = data else { return };
    let rules: Vec<Rules> = Rules::all().collect();
    let rules = rules[usize::from(choice % 8)];
    let mut pos = match usize::from(choice / 8) % (POSITIONS.len() + 1) {
        0 => Position::start(),
        i => match parse_position(POSITIONS[i - 1], rules.variant) {
            Ok(pos) => pos,
            Err(_) => return,
        },
    };
    let plies = usize::from(plies % 64).min(rest.len());
    let (walk, text) = rest.split_at(plies);
    for &b in walk {
        let moves = pos.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(&rules, moves[usize::from(b) % moves.len()]).expect("a generated move is legal");
    }
    let Ok(text) = std::str::from_utf8(text) else { return };
    let legal = pos.legal_moves(&rules);
    if let Err(e) = usi::parse(text) {
        drop(e.to_string());
    }
    for read in [parse_move, hodges::parse] {
        match read(&pos, &rules, text) {
            Ok(mv) => assert!(legal.contains(&mv), "{text:?} read as {mv:?}, not legal in {pos}"),
            Err(e) => drop(e.to_string()),
        }
    }
    // Every legal move reads back from both notations.
    for &mv in &legal {
        assert_eq!(parse_move(&pos, &rules, &usi::format(mv)), Ok(mv), "in {pos}");
        assert_eq!(parse_move(&pos, &rules, &hodges::format(&pos, &rules, mv)), Ok(mv), "in {pos}");
    }
});
