//! `nana verify`: the published results, checked against our own solution.

use std::path::Path;

use crate::games::CliGame;
use crate::table;

pub fn run<G: CliGame>(dir: &Path) -> Result<(), String> {
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
