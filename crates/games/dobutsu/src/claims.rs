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
