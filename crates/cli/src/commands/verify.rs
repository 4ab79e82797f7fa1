//! `nana verify`: the published results, checked against our own solution.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use nana_front::{Claims, Game, WholeCheck};
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
    /// The self-check (`--self-check`): the solves with the fast paths' cross-checks on, every
    /// table the game ships solved and checked, then the game's whole-space checks.
    pub self_check: bool,
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
    let rule_sets = if steps.self_check { G::self_check_rule_sets() } else { G::claimed_rule_sets() };
    // Before the solve, so that it runs with them.
    nana_engine::cross_check::enable(steps.self_check);
    if steps.solve {
        super::solve::run::<G>(&rule_sets, dir, out)?;
        outln!(out);
    }
    if steps.check {
        for rules in &rule_sets {
            super::check::run::<G>(&dir.join(rules.file_name()), out)?;
        }
        outln!(out);
    }
    if steps.self_check {
        whole_space_checks(G::NAME, G::whole_space_checks(), out)?;
        outln!(out);
    }
    check::<G>(dir, out)
}

/// Runs each check in turn, printing a line for each with what it counted and how long it
/// took; the first that fails ends the run with its error.
pub fn whole_space_checks(game: &str, checks: Vec<WholeCheck>, out: &mut dyn Write) -> Result<(), CliError> {
    for check in checks {
        let spinner = crate::progress::spinner(format!("{game}: {}", check.name));
        let start = Instant::now();
        let result = (check.run)();
        spinner.finish_and_clear();
        let seconds = start.elapsed().as_secs_f64();
        match result {
            Ok(line) => outln!(out, "self-check: {}: {line} ({seconds:.2} s)", check.name),
            Err(e) => return Err(CliError::SelfCheck { check: check.name, failure: e }),
        }
    }
    Ok(())
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
