use nana_shogi::{hodges, usi, Rules};

use crate::args::PositionArg;

pub fn run(rules: &Rules, position: &PositionArg) -> Result<(), String> {
    let pos = position.position(rules)?;
    for mv in pos.legal_moves(rules) {
        println!("{}\t{}", usi::format(mv), hodges::format(&pos, rules, mv));
    }
    Ok(())
}
