//! `nana verify`: the published results, checked against our own solution.

use std::io::Write;
use std::path::Path;

use nana_front::{Claims, Game};
use nana_probe::table::TableRules;

use crate::error::CliError;
use crate::games::Registered;
use crate::out::{out, outln};
use crate::table;

/// What `verify` does before it confirms the claims.
#[derive(Debug, Clone, Copy)]
pub struct Steps {
    /// Solve the claimed rule sets and write their tables (`--solve`).
    pub solve: bool,
    /// Re-check every entry of each claimed table against the rules (`--check`).
    pub check: bool,
}

/// Every game in turn, each under a heading; the claims of every game are checked even when
/// one fails.
pub fn run_all(
    games: &[&dyn Registered],
    dir: &Path,
    steps: Steps,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut failed = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let name = game.name();
        if i > 0 {
            outln!(out);
        }
        outln!(out, "== {name} ==");
        if let Err(e) = game.verify(dir, steps, out) {
            eprintln!("error: {name}: {e}");
            failed.push(name);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError::GamesNotConfirmed(failed))
    }
}

/// `verify` for one game (with `--solve`: its claimed rule sets solved and written first; with
/// `--check`: their files re-checked entry by entry, as `check-table` does).
pub fn run<G: Game + Claims>(dir: &Path, steps: Steps, out: &mut dyn Write) -> Result<(), CliError> {
    if steps.solve {
        super::solve::run::<G>(&G::claimed_rule_sets(), dir, out)?;
        outln!(out);
    }
    if steps.check {
        for rules in G::claimed_rule_sets() {
            super::check::run::<G>(&dir.join(rules.file_name()), out)?;
        }
        outln!(out);
    }
    check::<G>(dir, out)
}

fn check<G: Game + Claims>(dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    // Load (and check, every block of it) every table before printing anything, so that a
    // damaged file gives the error alone, not half a report followed by it.
    let tables = G::claimed_rule_sets()
        .into_iter()
        .map(|rules| table::load_checked::<G>(rules, dir))
        .collect::<Result<Vec<_>, _>>()?;
    // Counting the figures may walk the whole game again (a minute for Dobutsu): a spinner says
    // what runs, and for how long so far.
    let counting = crate::progress::spinner(format!("{}: counting the published figures", G::NAME));
    let report = G::verify(&tables);
    counting.finish_and_clear();
    let report = report?;
    out!(out, "{}\n{}", report.table, report.summary);
    if report.failed > 0 {
        return Err(CliError::NotConfirmed { failed: report.failed, claims: report.claims });
    }
    Ok(())
}
