//! `nana solve`: solve rule sets and write their tables.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use nana_probe::table::TableRules;

use crate::error::CliError;
use crate::out::outln;
use crate::table;
use nana_front::Game;

pub fn run<G: Game>(rule_sets: &[G::Rules], dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    table::check_writable(dir)?;
    // A folder where a table's file goes would fail the write after the whole solve.
    for rules in rule_sets {
        let path = dir.join(rules.file_name());
        if path.is_dir() {
            return Err(CliError::TableIsDirectory(path));
        }
    }
    // The peak printed below is these solves', not that of whatever ran before in the process
    // (another game's, under `verify --all-games`).
    reset_peak_rss();
    let all = Instant::now();
    for rules in rule_sets {
        let start = Instant::now();
        let (solution, phases) = table::solve(rules)?;
        let solved = start.elapsed();
        let path = table::write::<G>(dir, rules, &solution)?;
        let s = &solution.stats;
        outln!(out, "{}", rules.describe());
        outln!(out, "  positions (index entries): {} legal, {} unused", s.legal(), s.illegal);
        outln!(out, "  wins {}, losses {}, draws {}", s.wins, s.losses, s.draws);
        outln!(out, "  longest distance to {}: {} plies", G::WIN_NAME, s.max_dtm);
        outln!(
            out,
            "  solved in {:.2} s, written in {:.2} s to {}",
            solved.as_secs_f64(),
            (start.elapsed() - solved).as_secs_f64(),
            path.display()
        );
        let phases: Vec<String> =
            phases.iter().map(|(p, t)| format!("{p} {:.2} s", t.as_secs_f64())).collect();
        outln!(out, "  phases: {}", phases.join(", "));
    }
    outln!(out, "total time: {:.2} s", all.elapsed().as_secs_f64());
    if let Some(kib) = peak_rss_kib() {
        outln!(out, "peak memory (RSS): {} MiB", kib / 1024);
    }
    Ok(())
}

/// Starts the process's peak resident set size afresh from its present size, where the system
/// allows it (Linux: `5` written to `/proc/self/clear_refs`); elsewhere the peak stays the
/// process's.
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident set size, where the system tells it (Linux), since the last
/// [`reset_peak_rss`].
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
