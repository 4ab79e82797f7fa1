//! `nana engine`: the perfect-play engine for GUIs, over UCI or USI on standard input and output
//! (`nana_protocol`; docs/ENGINE-PROTOCOL.md), every game of the registry a value of
//! `UCI_Variant`.

use std::io::{BufRead, Write};
use std::path::Path;

use nana_protocol::Setup;

use crate::error::CliError;
use crate::games::Registered;

/// Runs the engine over `games` until `quit` or the end of `input`, read on a thread of its
/// own (a `quit` during a solve is obeyed at once: the caller ends the process, the solve with
/// it); `default` is the game until a GUI sets one.
pub fn run(
    games: &[&dyn Registered],
    default: &str,
    dir: &Path,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let setup = Setup {
        engines: games.iter().map(|g| g.engine()).collect(),
        default_game: default,
        name: format!("nana {}", env!("CARGO_PKG_VERSION")),
        author: "the nana authors".to_string(),
        tablebase_dir: dir.to_path_buf(),
    };
    nana_protocol::run_concurrent(setup, input, out).map_err(CliError::Output)
}
