//! The published results about Dobutsu shogi that `verify` confirms (see `docs/DOBUTSU.md`).

use nana_engine::{Dtm, Value};

use crate::types::Rules;

/// A published claim about the start position.
#[derive(Debug, Clone, Copy)]
pub struct Claim {
    pub rules: Rules,
    pub text: &'static str,
    /// The start's value for the first player (to move).
    pub value: Value,
}

/// Tanaka (2009), under his reading of the try: the second player wins, in 78 plies.
pub const CLAIMS: [Claim; 1] = [Claim {
    rules: Rules::TANAKA,
    text: "Tanaka (2009): the second player wins in 78 plies",
    value: Value::Loss(Dtm(78)),
}];

/// Tanaka's (2009) counts over the reachable positions (side to move normalised, mirror images
/// folded), under his reading of the try ([`Rules::TANAKA`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Reachable positions.
    pub reachable: u64,
    /// Of those, positions where the game goes on.
    pub non_terminal: u64,
    /// Of the non-terminal ones, wins, draws and losses for the side to move.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win, in plies.
    pub longest_win: u64,
    /// The most legal moves of a position.
    pub most_moves: u64,
}

/// Tanaka (2009), as quoted in `docs/DOBUTSU.md`.
pub const TANAKA_COUNTS: Counts = Counts {
    reachable: 246_803_167,
    non_terminal: 99_485_568,
    wins: 56_474_473,
    draws: 2_682_700,
    losses: 40_328_395,
    longest_win: 173,
    most_moves: 38,
};
