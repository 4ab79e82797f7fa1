//! `nana solve`: solve rule sets and write their tables.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use nana_engine::{Solution, Stats};
use nana_probe::table::TableRules;
use nana_probe::ProbeRules;

use crate::error::CliError;
use crate::out::outln;
use crate::table;
use nana_front::Game;

/// A rule set solved, its table being written on a thread of its own.
struct Writing<'scope, R> {
    rules: &'scope R,
    solved: Duration,
    phases: Vec<(String, Duration)>,
    write: ScopedJoinHandle<'scope, Result<Written, CliError>>,
}

/// A table written: where, how long the write took, and the counts of its solution.
struct Written {
    path: PathBuf,
    time: Duration,
    stats: Stats,
}

/// The most index entries a table may have to be written while the next rule set is solved:
/// beyond it (Dobutsu's 259 million), two solutions in memory at once would about double the
/// peak for a write that is a few percent of the solve, so the write ends first.
const OVERLAP_MAX_ENTRIES: u64 = 1 << 26;

/// Solves each rule set in turn and writes its table. A table is written (its blocks compressed
/// on the thread pool) while the next rule set is solved, unless it has more than
/// [`OVERLAP_MAX_ENTRIES`] entries; each rule set is reported once its
/// table is written, in order, and the first error, in the order the work would run one step
/// after another, is the one returned: a failed write stops the solves after it.
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
    std::thread::scope(|scope| -> Result<(), CliError> {
        let mut writing: Option<Writing<'_, G::Rules>> = None;
        for rules in rule_sets {
            let start = Instant::now();
            let solve = table::solve(rules);
            let solved = start.elapsed();
            // The table before was written beside this solve: it is reported (or its error
            // returned) first.
            if let Some(before) = writing.take() {
                report::<G>(before, out)?;
            }
            let (solution, phases) = solve?;
            let write = scope.spawn(move || write::<G>(dir, rules, solution));
            let table = Writing { rules, solved, phases, write };
            if rules.size() > OVERLAP_MAX_ENTRIES {
                report::<G>(table, out)?;
            } else {
                writing = Some(table);
            }
        }
        match writing {
            Some(last) => report::<G>(last, out),
            None => Ok(()),
        }
    })?;
    // A solve's time after the first counts the write before, which shared the threads with it.
    let overlapped = rule_sets
        .split_last()
        .is_some_and(|(_, before)| before.iter().any(|r| r.size() <= OVERLAP_MAX_ENTRIES));
    let overlap = if overlapped { " (each table written while the next rule set was solved)" } else { "" };
    outln!(out, "total time: {:.2} s{overlap}", all.elapsed().as_secs_f64());
    if let Some(kib) = peak_rss_kib() {
        outln!(out, "peak memory (RSS): {} MiB", kib / 1024);
    }
    Ok(())
}

/// Writes a solution's table, timed; the solution is freed once written.
fn write<G: Game>(dir: &Path, rules: &G::Rules, solution: Solution) -> Result<Written, CliError> {
    let start = Instant::now();
    let path = table::write::<G>(dir, rules, &solution)?;
    Ok(Written { path, time: start.elapsed(), stats: solution.stats })
}

/// Waits for a rule set's table to be written, then prints what was solved and written.
fn report<G: Game>(writing: Writing<'_, G::Rules>, out: &mut dyn Write) -> Result<(), CliError> {
    let Writing { rules, solved, phases, write } = writing;
    let written = write.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let s = &written.stats;
    outln!(out, "{}", rules.describe());
    outln!(out, "  positions (index entries): {} legal, {} unused", s.legal(), s.illegal);
    outln!(out, "  wins {}, losses {}, draws {}", s.wins, s.losses, s.draws);
    outln!(out, "  longest distance to {}: {} plies", G::WIN_NAME, s.max_dtm);
    outln!(
        out,
        "  solved in {:.2} s, written in {:.2} s to {}",
        solved.as_secs_f64(),
        written.time.as_secs_f64(),
        written.path.display()
    );
    let phases: Vec<String> = phases.iter().map(|(p, t)| format!("{p} {:.2} s", t.as_secs_f64())).collect();
    outln!(out, "  phases: {}", phases.join(", "));
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
