use nana_probe::table::TableGame;
use std::path::Path;
use std::time::Instant;

use nana_shogi::{index, reach, Rules};

use crate::progress::bar;
use crate::table;

pub fn run(rules: &Rules, tablebase: Option<&Path>, dir: &Path) -> Result<(), String> {
    // Open and probe the table before printing anything, so that a missing or damaged table is
    // one error line, not an error after half the output (and not after the enumeration).
    let default = dir.join(rules.file_name());
    let path = tablebase.unwrap_or(&default);
    let table = if tablebase.is_some() || path.exists() {
        let t = table::open(path, *rules)?;
        let start = t.probe().value(&nana_shogi::Position::start()).map_err(|e| e.to_string())?;
        Some((t, start))
    } else {
        None
    };

    crate::pool::start()?;
    let start = Instant::now();
    let progress = bar(0, format!("{}: reachable states", rules.variant.name()));
    let reachable = reach::reachable(rules, &|n| {
        progress.inc_length(n);
        progress.inc(n);
    });
    progress.finish_and_clear();
    let c = reachable.counts();
    println!("rules: {}", rules.describe());
    println!("index size: {}", index::SIZE);
    println!(
        "reachable positions: {} (black to move {}, white to move {})",
        c.positions(),
        c.black_positions,
        c.white_positions
    );
    println!("reachable index entries: {}", c.entries);
    println!("time: {:.2} s", start.elapsed().as_secs_f64());

    if let Some((t, start_value)) = table {
        let s = t.stats();
        println!("tablebase: {}", t.origin());
        println!(
            "entries: wins {}, losses {}, draws {}, unused {}; longest mate {} plies",
            s.wins, s.losses, s.draws, s.illegal, s.max_dtm
        );
        println!("start: {start_value}");
    }
    Ok(())
}
