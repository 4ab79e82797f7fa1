//! `nana moves`: the legal moves of a position, machine and human notation.

use nana_probe::ProbeGame;

use crate::games::CliGame;

pub fn run<G: CliGame>(rules: &G::Rules, position: Option<&str>) -> Result<(), String> {
    let pos = super::position::<G>(rules, position)?;
    // No moves is a correct (empty) list, not an error; stderr says why it is empty.
    if let Some(over) = G::game_over(rules, &pos) {
        eprintln!("the game is over: {over}");
    }
    rules.for_each_move(&pos, |mv, _| {
        println!("{}\t{}", rules.machine_notation(&pos, mv), rules.human_notation(&pos, mv));
    });
    Ok(())
}
