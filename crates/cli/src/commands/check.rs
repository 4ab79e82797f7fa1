use std::path::Path;
use std::time::Instant;

use nana_shogi::NanaGame;

use crate::progress::bar;
use crate::table;

pub fn run(file: &Path) -> Result<(), String> {
    let start = Instant::now();
    let table = table::open_any(file)?;
    crate::pool::start()?;
    let game = NanaGame::new(table.rules);
    let entries = table.entries();
    let progress = bar(entries.len() as u64, format!("{}: check", table.rules.variant.name()));
    nana_engine::check(&game, entries, &|n| progress.inc(n))
        .map_err(|e| format!("{}: check failed: {e}", file.display()))?;
    progress.finish_and_clear();
    println!(
        "{}: all {} entries consistent with the forward rules ({}), {:.2} s",
        file.display(),
        entries.len(),
        table::describe(&table.rules),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
