//! `nana perft`: the leaf nodes of the legal-move tree, depth by depth.

use nana_probe::ProbeGame;
use rayon::prelude::*;

use crate::games::CliGame;

/// The leaf nodes of the legal-move tree of depth `depth` below `pos`.
fn perft<R: ProbeGame>(rules: &R, pos: &R::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    rules.for_each_move(pos, |_, child| n += if depth == 1 { 1 } else { perft(rules, child, depth - 1) });
    n
}

pub fn run<G: CliGame>(rules: &G::Rules, position: Option<&str>, depth: u32) -> Result<(), String> {
    let pos = super::position::<G>(rules, position)?;
    crate::pool::start()?;
    if depth == 0 {
        // The tree of depth 0 is the position itself: one leaf, as perft counts it.
        println!("0\t{}", perft(rules, &pos, 0));
    }
    let mut children = Vec::new();
    rules.for_each_move(&pos, |_, child| children.push(*child));
    for d in 1..=depth {
        // Split the first ply across threads.
        let n: u64 = children.par_iter().map(|child| perft(rules, child, d - 1)).sum();
        println!("{d}\t{n}");
    }
    Ok(())
}
