//! `nana check-table`: every entry of a table re-checked against the rules.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use nana_probe::table::{TableError, TableRules};

use crate::error::CliError;
use crate::out::outln;
use crate::progress::bar;
use crate::table;
use nana_front::Game;

pub fn run<G: Game>(file: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let start = Instant::now();
    let table = table::open_any::<G>(file)?;
    crate::pool::start()?;
    // A table that stores every win as one value finds each win's distance from its moves as
    // it is read whole: a win that cannot have one fails the check there.
    let entries = table.try_entries().map_err(|e| match e {
        TableError::Restore { error, .. } => CliError::Check { path: file.to_path_buf(), error },
        e => table::user_error::<G>(table.game(), e),
    })?;
    let width = table.width();
    let count = (entries.len() / width.bytes()) as u64;
    // A game may prepare its check before the first entry is done (Dobutsu enumerates the
    // positions reachable from the start first): the bar's time runs from the start.
    let progress = bar(count, format!("{}: check", table.game().rule_set_name()));
    progress.enable_steady_tick(std::time::Duration::from_millis(500));
    table
        .game()
        .check(entries, width, &|n| progress.inc(n))
        .map_err(|error| CliError::Check { path: file.to_path_buf(), error })?;
    progress.finish_and_clear();
    outln!(
        out,
        "{}: all {count} entries consistent with the forward rules ({}), {:.2} s",
        file.display(),
        table.game().describe(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
