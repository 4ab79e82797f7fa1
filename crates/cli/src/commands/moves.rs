use nana_shogi::{hodges, usi, Rules};

use crate::args::PositionArg;
use crate::commands::query::game_over;

pub fn run(rules: &Rules, position: &PositionArg) -> Result<(), String> {
    let pos = position.position(rules)?;
    // No moves is a correct (empty) list, not an error; stderr says why it is empty.
    if let Some(over) = game_over(&pos, rules) {
        eprintln!("the game is over: {over}");
    }
    for mv in pos.legal_moves(rules) {
        println!("{}\t{}", usi::format(mv), hodges::format(&pos, rules, mv));
    }
    Ok(())
}
