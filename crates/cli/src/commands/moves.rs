//! `nana moves`: the legal moves of a position, machine and human notation.

use std::io::Write;

use nana_probe::ProbeRules;

use nana_front::Game;

use crate::error::CliError;
use crate::out::outln;

pub fn run<G: Game>(rules: &G::Rules, position: Option<&str>, out: &mut dyn Write) -> Result<(), CliError> {
    let pos = super::position::<G>(rules, position)?;
    // No moves is a correct (empty) list, not an error; stderr says why it is empty.
    if let Some(over) = G::game_over(rules, &pos) {
        eprintln!("the game is over: {over}");
    }
    let mut lines = Vec::new();
    rules.for_each_move(&pos, |mv, _| {
        lines.push(format!("{}\t{}", rules.machine_notation(&pos, mv), rules.human_notation(&pos, mv)));
    });
    for line in lines {
        outln!(out, "{line}");
    }
    Ok(())
}
