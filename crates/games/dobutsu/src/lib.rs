//! Dobutsu shogi: the rules with two readings of the try, Fairy-Stockfish's position and move
//! strings (its FEN and UCI forms in [`fen`], its SFEN and USI forms in [`usi`]), a combinatorial position index and the game description the retrograde solver works
//! on. See `docs/DOBUTSU.md`.
//!
//! ```
//! use dobutsu_shogi::{fen, perft, Position, Rules};
//!
//! let start = Position::start();
//! assert_eq!(start.to_string(), "gle/1c1/1C1/ELG[-] w 0 1");
//! assert_eq!(perft(&start, &Rules::SAFE_TRY, 2), 17);
//! let pos = fen::parse_position("gle/1C1/3/ELG[C] b 0 1")?;
//! assert_eq!(pos.legal_moves(&Rules::TANAKA).len(), 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod claims;
pub mod dense;
pub mod fen;
pub mod front;
pub mod game;
pub mod index;
pub mod kif;
mod position;
pub mod probe;
pub mod reach;
pub mod san;
#[cfg(feature = "parallel")]
pub mod self_check;
pub mod survey;
pub mod tablebase;
mod types;
pub mod usi;
pub mod wide;

pub use front::Dobutsu;
pub use game::DobutsuGame;
pub use position::{diagram, End, Exposure, IllegalMove, Move, Outcome, Position, PositionError, Setup};
pub use types::{Piece, Role, Rules, Side, Square, TryRule, UnknownRules};

/// Counts the leaf nodes of the move tree of depth `depth`, as Fairy-Stockfish's perft does: no
/// moves are generated where the game is over under `rules` ([`Position::outcome`]).
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome(rules).is_some() {
        return 0;
    }
    let mut n = 0;
    pos.for_each_move(|mv| {
        n += if depth == 1 { 1 } else { perft(&pos.play_unchecked(mv), rules, depth - 1) };
    });
    n
}
