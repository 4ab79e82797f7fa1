//! `nana verify`: the published results, checked against our own solution.

use std::path::Path;

use nana_probe::table::TableGame;

use crate::games::{dobutsu::Dobutsu, nana::Nana, CliGame};
use crate::table;

/// What `verify` does before it confirms the claims.
#[derive(Debug, Clone, Copy)]
pub struct Steps {
    /// Solve the claimed rule sets and write their tables (`--solve`).
    pub solve: bool,
    /// Re-check every entry of each claimed table against the rules (`--check`).
    pub check: bool,
}

/// `verify` of one game.
type Verify = fn(&Path, Steps) -> Result<(), String>;

/// Every game in turn, each under a heading; the claims of every game are checked even when
/// one fails.
pub fn run_all(dir: &Path, steps: Steps) -> Result<(), String> {
    let games: [(&str, Verify); 2] = [("nana", run::<Nana>), ("dobutsu", run::<Dobutsu>)];
    let mut failed = Vec::new();
    for (i, (name, verify)) in games.into_iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!("== {name} ==");
        if let Err(e) = verify(dir, steps) {
            eprintln!("error: {name}: {e}");
            failed.push(name);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("not every game's claims were confirmed: {}", failed.join(", ")))
    }
}

/// `verify` for one game (with `--solve`: its claimed rule sets solved and written first; with
/// `--check`: their files re-checked entry by entry, as `check-table` does).
pub fn run<G: CliGame>(dir: &Path, steps: Steps) -> Result<(), String> {
    if steps.solve {
        super::solve::run::<G>(&G::claimed_rule_sets(), dir)?;
        println!();
    }
    if steps.check {
        for rules in G::claimed_rule_sets() {
            super::check::run::<G>(&dir.join(rules.file_name()))?;
        }
        println!();
    }
    check::<G>(dir)
}

fn check<G: CliGame>(dir: &Path) -> Result<(), String> {
    // Load (and check) every table before printing anything, so that a damaged file gives the
    // error alone, not half a report followed by it.
    let tables = G::claimed_rule_sets()
        .into_iter()
        .map(|rules| table::load_or_solve(rules, None, dir))
        .collect::<Result<Vec<_>, _>>()?;
    let report = G::verify(&tables)?;
    print!("{}\n{}", report.table, report.summary);
    if report.failed > 0 {
        return Err(format!(
            "{} of {} published claims not confirmed (see docs/RESULTS.md for the analysis)",
            report.failed, report.claims
        ));
    }
    Ok(())
}
