//! Nana shogi: the rules of both rule sets with their options, the position and move strings,
//! a compact position index and the game description the retrograde solver works on.
//!
//! ```
//! use nana_shogi::{fen, Position, Rules};
//!
//! let start = Position::start();
//! assert_eq!(start.legal_moves(&Rules::CURRENT).len(), 8); // Black drops its King
//! let pos = fen::parse_position("1k1/1SC/1K1 b RB 1", Rules::CURRENT.variant)?;
//! assert_eq!(pos.legal_moves(&Rules::CURRENT).len(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod attacks;
pub mod claims;
mod diagram;
pub mod fen;
pub mod front;
pub mod game;
pub mod hodges;
pub mod index;
mod position;
pub mod probe;
pub mod reach;
#[cfg(feature = "parallel")]
pub mod self_check;
pub mod tablebase;
mod types;
pub mod usi;

pub use diagram::diagram;
pub use front::Nana;
pub use game::NanaGame;
pub use position::{IllegalMove, Move, Position, PositionError, Setup};
pub use types::{Color, Cube, Piece, Role, Rules, Square, Variant};

/// Counts the leaf nodes of the legal-move tree of depth `depth`.
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    let _ = pos.for_each_legal_move(rules, |_, child| {
        n += if depth == 1 { 1 } else { perft(child, rules, depth - 1) };
        std::ops::ControlFlow::Continue(())
    });
    n
}

/// Reads a move in either notation (USI-like first, then Hodges style) and checks it is legal.
pub fn parse_move(pos: &Position, rules: &Rules, input: &str) -> Result<Move, usi::ParseMoveError> {
    let input = input.trim();
    match usi::parse(input) {
        Ok(mv) => match pos.play(rules, mv) {
            Ok(_) => Ok(mv),
            Err(e) => Err(usi::ParseMoveError { input: input.to_string(), reason: e.reason.to_string() }),
        },
        Err(usi_err) => hodges::parse(pos, rules, input).map_err(|h| {
            // Report the Hodges reading's reason when the string looks like Hodges notation.
            if input.contains(['-', 'x', '=']) || input.len() > 4 {
                h
            } else {
                usi_err
            }
        }),
    }
}
