//! `nana results`: the generated part of the game's results document (docs/RESULTS.md for
//! Nana), printed as Markdown from the solutions; a test compares the two.

use std::io::Write;
use std::path::Path;

use nana_front::{Claims, Game};

use crate::error::CliError;
use crate::out::out;

pub fn run<G: Game + Claims>(dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    // Everything is loaded (or solved), every block of a file checked, and computed before the
    // first line is printed, so that a damaged table gives its error alone.
    let text = G::results(&mut |rules| crate::table::load_checked::<G>(rules, dir))?;
    out!(out, "{text}");
    Ok(())
}
