//! `nana verify`: the published results, checked against our own solution.

use std::path::Path;

use crate::games::{dobutsu::Dobutsu, nana::Nana, CliGame};
use crate::table;

/// `verify` of one game.
type Verify = fn(&Path, bool) -> Result<(), String>;

/// Every game in turn, each under a heading; the claims of every game are checked even when
/// one fails.
pub fn run_all(dir: &Path, solve: bool) -> Result<(), String> {
    let games: [(&str, Verify); 2] = [("nana", run::<Nana>), ("dobutsu", run::<Dobutsu>)];
    let mut failed = Vec::new();
    for (i, (name, verify)) in games.into_iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!("== {name} ==");
        if let Err(e) = verify(dir, solve) {
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

/// `verify` for one game (with `--solve`: its claimed rule sets solved and written first).
pub fn run<G: CliGame>(dir: &Path, solve: bool) -> Result<(), String> {
    if solve {
        super::solve::run::<G>(&G::claimed_rule_sets(), dir)?;
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
