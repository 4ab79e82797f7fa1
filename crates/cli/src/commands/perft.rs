//! `nana perft`: the leaf nodes of the legal-move tree, depth by depth, as the game's
//! published perft figures count them.

use std::io::Write;

use rayon::prelude::*;

use nana_front::{Game, Perft};

use crate::error::CliError;
use crate::out::outln;

pub fn run<G: Game + Perft>(
    rules: &G::Rules,
    position: Option<&str>,
    depth: u32,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = super::position::<G>(rules, position)?;
    crate::pool::start()?;
    if depth == 0 {
        // The tree of depth 0 is the position itself: one leaf, as perft counts it.
        outln!(out, "0\t{}", G::perft(rules, &pos, 0));
    }
    let children = G::perft_children(rules, &pos);
    for d in 1..=depth {
        // Split the first ply across threads.
        let n: u64 = children.par_iter().map(|child| G::perft(rules, child, d - 1)).sum();
        outln!(out, "{d}\t{n}");
    }
    Ok(())
}
