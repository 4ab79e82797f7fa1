//! Dobutsu's move readers (Fairy-Stockfish's UCI form, which also reads the human notation the
//! game prints, and USI's form): any text is read or refused without a panic in an arbitrary
//! position, and a move accepted is one of the position's legal moves.
//!
//! The input: a byte choosing the rule set and the first position (the start or one of a few
//! fixed positions), a byte giving how many moves to play from it, one byte per move choosing
//! among the legal moves, then the move text.
#![no_main]

use dobutsu_shogi::{fen, san, usi, Position, Rules};
use libfuzzer_sys::fuzz_target;

/// Positions besides the start: pieces in hand, a hen, a chick about to promote, a lion
/// captured.
const POSITIONS: [&str; 4] =
    ["3/1l1/1L1/3[GCEgce] w", "g1l/1Ce/3/EL1[Gc] w", "1l1/C2/3/L2[GGEEc] w", "1+C1/1l1/3/L2[GEgec] b"];

fuzz_target!(|data: &[u8]| {
    let [choice, plies, rest @ ..] = data else { return };
    let rules = Rules::all()[usize::from(choice % 2)];
    let mut pos = match usize::from(choice / 2) % (POSITIONS.len() + 1) {
        0 => Position::start(),
        i => match fen::parse_position(POSITIONS[i - 1]) {
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
    if let Err(e) = fen::parse_move_text(text) {
        drop(e.to_string());
    }
    for read in [fen::parse_move, usi::parse_move] {
        match read(&pos, &rules, text) {
            Ok(mv) => assert!(legal.contains(&mv), "{text:?} read as {mv:?}, not legal in {pos}"),
            Err(e) => drop(e.to_string()),
        }
    }
    // Every legal move reads back from the three forms.
    for &mv in &legal {
        assert_eq!(fen::parse_move(&pos, &rules, &mv.to_string()), Ok(mv), "in {pos}");
        assert_eq!(fen::parse_move(&pos, &rules, &san::format(&pos, mv)), Ok(mv), "in {pos}");
        assert_eq!(usi::parse_move(&pos, &rules, &usi::format_move(mv)), Ok(mv), "in {pos}");
    }
});
