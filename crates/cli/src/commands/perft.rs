use nana_shogi::{perft, Rules};
use rayon::prelude::*;

use crate::args::PositionArg;

pub fn run(rules: &Rules, position: &PositionArg, depth: u32) -> Result<(), String> {
    let pos = position.position(rules)?;
    crate::pool::start()?;
    if depth == 0 {
        // The tree of depth 0 is the position itself: one leaf, as perft counts it.
        println!("0\t{}", perft(&pos, rules, 0));
    }
    for d in 1..=depth {
        // Split the first ply across threads.
        let n: u64 = if d == 1 {
            perft(&pos, rules, 1)
        } else {
            let moves = pos.legal_moves(rules);
            moves.par_iter().map(|&m| perft(&pos.play_unchecked(m), rules, d - 1)).sum()
        };
        println!("{d}\t{n}");
    }
    Ok(())
}
