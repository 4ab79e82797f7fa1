//! One module per subcommand, each generic over the game ([`crate::games::Game`]).

pub mod check;
pub mod engine;
#[cfg(feature = "export")]
pub mod export;
pub mod moves;
pub mod perft;
pub mod play;
pub mod query;
pub mod results;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod stats;
pub mod verify;

use nana_probe::ProbeRules;

use nana_front::Game;

use crate::error::CliError;

/// The position given (in the game's string form), or the start.
pub fn position<G: Game>(
    rules: &G::Rules,
    input: Option<&str>,
) -> Result<<G::Rules as ProbeRules>::Position, CliError> {
    match input {
        None => Ok(rules.start()),
        Some(s) => rules
            .parse_position(s)
            .map_err(|e| CliError::Position { input: s.to_string(), error: Box::new(e) }),
    }
}
