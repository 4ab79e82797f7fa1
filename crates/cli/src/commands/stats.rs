//! `nana stats`: the index size, the states reachable from the start, and a table's counts.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use nana_probe::table::TableRules;
use nana_probe::ProbeRules;

use crate::error::CliError;
use crate::out::outln;
use crate::progress::bar;
use crate::table;
use nana_front::{Claims, Game};

pub fn run<G: Game + Claims>(
    rules: &G::Rules,
    tablebase: Option<&Path>,
    dir: &Path,
    reachable: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // Open the table and check every block's checksum before printing anything (its counts
    // come from the header, which a damaged block leaves intact), so that a missing or damaged
    // table is one error line, not an error after half the output, nor counts of a table that
    // cannot answer.
    let default = dir.join(rules.file_name());
    let path = tablebase.unwrap_or(&default);
    let table = if tablebase.is_some() || path.exists() {
        let t = table::open::<G>(path, *rules)?;
        t.check_blocks().map_err(|e| table::user_error::<G>(rules, e))?;
        let start = t.probe().value(&rules.start()).map_err(|e| table::probe_error::<G>(&t, e))?;
        Some((t, start))
    } else {
        None
    };

    outln!(out, "rules: {}", rules.describe());
    if reachable {
        crate::pool::start()?;
        let start = Instant::now();
        let progress = bar(0, format!("{}: reachable states", rules.rule_set_name()));
        let lines = G::reachable_stats(rules, &|n| {
            progress.inc_length(n);
            progress.inc(n);
        });
        progress.finish_and_clear();
        for line in lines {
            outln!(out, "{line}");
        }
        outln!(out, "time: {:.2} s", start.elapsed().as_secs_f64());
    }

    if let Some((t, start_value)) = table {
        let s = t.stats();
        outln!(out, "tablebase: {}", t.origin());
        outln!(
            out,
            "entries: wins {}, losses {}, draws {}, unused {}; longest {} {} plies",
            s.wins,
            s.losses,
            s.draws,
            s.illegal,
            G::WIN_NAME,
            s.max_dtm
        );
        outln!(out, "start: {start_value}");
    }
    Ok(())
}
