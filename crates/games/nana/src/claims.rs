//! The published results about Nana shogi that a front end confirms against the solution (see `docs/RESULTS.md`).

use nana_engine::{Dtm, Value};

use crate::types::Rules;

/// A published claim about the start position.
#[derive(Debug, Clone, Copy)]
pub struct Claim {
    pub rules: Rules,
    pub text: &'static str,
    /// The start's value for Black.
    pub value: Value,
}

/// The claims, from the independent analysis that reports the game solved (`RULES.md`).
pub const CLAIMS: [Claim; 2] = [
    Claim { rules: Rules::CURRENT, text: "current rules: the start is a draw", value: Value::Draw },
    Claim {
        rules: Rules::ORIGINAL,
        text: "original rules: Black wins, mating on ply 31",
        value: Value::Win(Dtm(31)),
    },
];
