use nana_probe::table::TableGame;
use std::path::Path;
use std::time::Instant;

use nana_shogi::Rules;

use crate::progress::bar;
use crate::table;

pub fn run(file: &Path) -> Result<(), String> {
    let start = Instant::now();
    let table = table::open_any::<Rules>(file)?;
    crate::pool::start()?;
    let entries = table.entries();
    let progress = bar(entries.len() as u64, format!("{}: check", table.game().rule_set_name()));
    table
        .game()
        .check(entries, table.width(), &|n| progress.inc(n))
        .map_err(|e| format!("{}: check failed: {e}", file.display()))?;
    progress.finish_and_clear();
    println!(
        "{}: all {} entries consistent with the forward rules ({}), {:.2} s",
        file.display(),
        entries.len(),
        table.game().describe(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
