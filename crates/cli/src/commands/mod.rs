//! One module per subcommand.

pub mod check;
pub mod moves;
pub mod perft;
pub mod play;
pub mod query;
pub mod results;
pub mod solve;
pub mod stats;
pub mod verify;
