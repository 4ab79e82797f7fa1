//! `nana results`: the generated part of the game's results document (docs/RESULTS.md for
//! Nana), printed as Markdown from the solutions; a test compares the two.

use std::path::Path;

use crate::games::CliGame;

pub fn run<G: CliGame>(dir: &Path) -> Result<(), String> {
    // Everything is loaded (or solved) and computed before the first line is printed, so that
    // a damaged table gives its error alone.
    print!("{}", G::results(dir)?);
    Ok(())
}
