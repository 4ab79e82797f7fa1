//! A game-agnostic retrograde solver.
//!
//! A game describes itself through the [`Game`] trait: a dense index space `0..size`, the legal
//! successors of every entry and, for the backward pass, the entries that have a legal move into
//! a given one. The solver labels every legal entry win, loss or draw for the side to move, with
//! the distance to mate ([`Dtm`]) in plies. It never sees a board or a piece.
//!
//! The value of each entry is stored in one byte ([`Entry`]): see its documentation for the
//! encoding, which is also the payload of the tablebase files.

mod check;
mod solve;
mod value;

pub use check::{check, CheckError};
pub use solve::{solve, NoProgress, Progress, Solution, SolveError, Stats};
pub use value::{Dtm, Entry, Value};

/// A game as the solver sees it.
///
/// Indices are dense: `0..size()`. An index either stands for one legal position (up to the
/// symmetries the game folds into its index) or is unused. Both relations are over index
/// entries, not moves: the solver removes duplicates, so a game may report the same entry twice.
///
/// Contract (checked by the games' own tests and, at the end of every solve, by [`check`]):
/// `q` is reported by `successors(p)` if and only if `p` is reported by `predecessors(q)`.
pub trait Game: Sync {
    /// The number of index entries.
    fn size(&self) -> u64;

    /// Pushes the entries reached by the legal moves of `index` onto `out`. Returns `false`
    /// (and pushes nothing) when `index` is not a legal position.
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool;

    /// Pushes every legal entry that has a legal move into `index` onto `out`.
    fn predecessors(&self, index: u64, out: &mut Vec<u64>);
}
