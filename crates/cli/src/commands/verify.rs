//! `nana verify`: the published results, checked against our own solution.

use std::path::Path;

use nana_engine::Value;
use nana_shogi::claims::CLAIMS;
use nana_shogi::{usi, Position, Rules};

use super::query::hodges_line;
use crate::table::{self, Table};
use nana_probe::table::TableGame;

/// The rule sets the published claims are about: the tables `report` needs.
pub fn claimed_rules() -> impl Iterator<Item = Rules> {
    CLAIMS.iter().map(|c| c.rules)
}

/// Black's value, with the ply of the mate counted from the start (`plies_before` plies have
/// been played to reach the position whose distance `v` holds).
pub fn show(v: Value, plies_before: u16) -> String {
    match v {
        Value::Win(d) => format!("win, Black mates on ply {}", d.0 + plies_before),
        Value::Loss(d) => format!("loss, Black is mated on ply {}", d.0 + plies_before),
        Value::Draw => "draw".to_string(),
    }
}

/// What `verify` prints, in two parts so that `nana results` can set the second in a code block.
pub struct Report {
    /// The Markdown table of the start and every first move, per claimed rule set.
    pub table: String,
    /// The CONFIRMED / NOT CONFIRMED lines and the principal variation of every win.
    pub summary: String,
    /// How many claims the solution contradicts.
    pub failed: usize,
}

/// Checks the published claims against `tables`, which must hold the table of every rule set
/// in `claimed_rules`. Nothing is printed: the caller prints only once every table has loaded.
pub fn report(tables: &[Table<Rules>]) -> Result<Report, String> {
    let start = Position::start();
    let mut results = Vec::new();
    let mut table = String::from(
        "| rules | position | value for Black | distance to mate from there (plies) |\n|---|---|---|---|\n",
    );
    for claim in &CLAIMS {
        let probe = tables
            .iter()
            .find(|t| (*t.game()) == claim.rules)
            .ok_or_else(|| format!("no table for {} was loaded", claim.rules.describe()))?
            .probe();
        let value = probe.value(&start).map_err(|e| e.to_string())?;
        let dtm = |v: Value| v.dtm().map_or("-".to_string(), |d| d.0.to_string());
        let name = claim.rules.variant.name();
        table += &format!("| {name} | start | {} | {} |\n", show(value, 0), dtm(value));
        for m in probe.ranked_moves(&start).map_err(|e| e.to_string())? {
            // Black's value after its first move; the distance is White's, from ply 2 on.
            let v = m.value();
            table += &format!("| {name} | after {} | {} | {} |\n", usi::format(m.mv), show(v, 1), dtm(v));
        }
        let line = probe.mainline(&start, 12).map_err(|e| e.to_string())?;
        results.push((claim, value, hodges_line(&start, &claim.rules, &line)));
    }
    let mut summary = String::new();
    let mut failed = 0;
    for (claim, value, _) in &results {
        let ok = *value == claim.value;
        failed += usize::from(!ok);
        summary += &format!(
            "{} {} (solver: {})\n",
            if ok { "CONFIRMED    " } else { "NOT CONFIRMED" },
            claim.text,
            show(*value, 0)
        );
    }
    for (claim, value, line) in &results {
        if matches!(value, Value::Win(_)) {
            summary += &format!(
                "\nprincipal variation, {} rules ({}):\n{line}\n",
                claim.rules.variant.name(),
                show(*value, 0)
            );
        }
    }
    Ok(Report { table, summary, failed })
}

pub fn run(dir: &Path) -> Result<(), String> {
    // Load (and check) every table before printing anything, so that a damaged file gives the
    // error alone, not half a report followed by it.
    let tables =
        claimed_rules().map(|rules| table::load_or_solve(rules, None, dir)).collect::<Result<Vec<_>, _>>()?;
    let report = report(&tables)?;
    print!("{}\n{}", report.table, report.summary);
    if report.failed > 0 {
        return Err(format!(
            "{} of {} published claims not confirmed (see docs/RESULTS.md for the analysis)",
            report.failed,
            CLAIMS.len()
        ));
    }
    Ok(())
}
