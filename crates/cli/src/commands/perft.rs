use nana_shogi::{perft, Rules};
use rayon::prelude::*;

use crate::args::PositionArg;

pub fn run(rules: &Rules, position: &PositionArg, depth: u32) -> Result<(), String> {
    let pos = position.position(rules)?;
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
