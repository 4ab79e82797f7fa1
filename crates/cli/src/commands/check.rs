//! `nana check-table`: every entry of a table re-checked against the rules.

use std::path::Path;
use std::time::Instant;

use nana_probe::table::TableGame;

use crate::games::CliGame;
use crate::progress::bar;
use crate::table;

pub fn run<G: CliGame>(file: &Path) -> Result<(), String> {
    let start = Instant::now();
    let table = table::open_any::<G::Rules>(file)?;
    crate::pool::start()?;
    let entries = table.entries();
    let width = table.width();
    let count = (entries.len() / width.bytes()) as u64;
    let progress = bar(count, format!("{}: check", table.game().rule_set_name()));
    table
        .game()
        .check(entries, width, &|n| progress.inc(n))
        .map_err(|e| format!("{}: check failed: {e}", file.display()))?;
    progress.finish_and_clear();
    println!(
        "{}: all {count} entries consistent with the forward rules ({}), {:.2} s",
        file.display(),
        table.game().describe(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
