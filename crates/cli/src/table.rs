//! Tablebases on disk: writing, opening (memory-mapped) and the in-memory fallback when no file
//! is found. The tables' names and header identity are the game's (`nana_shogi::tablebase`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nana_engine::{EntryWidth, Solution, Stats};
use nana_shogi::probe::Probe;
use nana_shogi::tablebase::{expected, header, rules_of};
use nana_shogi::{NanaGame, Rules};
use nana_tablebase::{Counts, Tablebase, TablebaseError};

use crate::progress::Bars;

/// Where `solve` writes and every other command looks.
pub const DEFAULT_DIR: &str = "tablebase";
pub use nana_shogi::tablebase::{describe, file_name};

/// A tablebase error about `path`, for the user: the crate names the problem, and when making
/// the table again cures it we say how.
fn file_error(path: &Path, e: &TablebaseError) -> String {
    if e.needs_regeneration() {
        format!("{}: {e}; regenerate it with `nana solve`", path.display())
    } else {
        format!("{}: {e}", path.display())
    }
}

/// Solves one rule set with progress bars; also returns how long each phase took.
pub fn solve(rules: &Rules) -> Result<(Solution, Vec<(String, Duration)>), String> {
    crate::pool::start()?;
    let bars = Bars::new(rules.variant.name());
    let start = Instant::now();
    let spinner = crate::progress::bar(0, format!("{}: prepare", rules.variant.name()));
    let game = NanaGame::prepared(*rules);
    spinner.finish_and_clear();
    let prepared = start.elapsed();
    let solution = nana_engine::solve(&game, &bars).map_err(|e| e.to_string())?;
    let mut times = vec![("prepare".to_string(), prepared)];
    times.extend(bars.times());
    Ok((solution, times))
}

/// Makes sure `dir` is (or can be made) a folder we can write tables to, so that `solve` fails
/// at once rather than after minutes of solving.
pub fn check_writable(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{shown}: not a directory, cannot write tablebases there"));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{shown}: cannot create the directory: {e}"))?;
    // Permissions alone do not tell (read-only mounts, ACLs): try writing.
    let trial = dir.join(format!(".nana-write-test-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&trial)
        .map_err(|e| format!("{shown}: cannot write tablebases there: {e}"))?;
    std::fs::remove_file(&trial).map_err(|e| format!("{}: {e}", trial.display()))
}

/// Writes a solution atomically to `dir/file_name(rules)`.
pub fn write(dir: &Path, rules: &Rules, solution: &Solution) -> Result<PathBuf, String> {
    let path = dir.join(file_name(rules));
    let s = &solution.stats;
    let counts = Counts { wins: s.wins, losses: s.losses, draws: s.draws, illegal: s.illegal };
    let header = header(rules, counts, u32::from(s.max_dtm));
    nana_tablebase::write(&path, &header, &solution.entries).map_err(|e| e.to_string())?;
    Ok(path)
}

/// A solution in memory or memory-mapped from a file.
#[derive(Debug)]
pub enum Source {
    File(Tablebase),
    Memory(Solution),
}

/// One rule set's solution, ready for lookups.
#[derive(Debug)]
pub struct Table {
    pub rules: Rules,
    pub source: Source,
}

impl Table {
    pub fn entries(&self) -> &[u8] {
        match &self.source {
            Source::File(tb) => tb.payload(),
            Source::Memory(s) => &s.entries,
        }
    }

    pub fn probe(&self) -> Probe<'_> {
        Probe::new(self.rules, self.entries()).expect("size checked when the table was opened")
    }

    /// Counts of the solution (from the header for a file).
    pub fn stats(&self) -> Stats {
        match &self.source {
            Source::File(tb) => Stats::of(tb.payload(), EntryWidth::One),
            Source::Memory(s) => s.stats.clone(),
        }
    }

    /// Where the table came from, for messages.
    pub fn origin(&self) -> String {
        match &self.source {
            Source::File(tb) => {
                tb.path().map_or_else(|| "in memory".to_string(), |p| p.display().to_string())
            }
            Source::Memory(_) => "solved in memory".to_string(),
        }
    }
}

fn open_file(path: &Path) -> Result<Tablebase, String> {
    if path.is_dir() {
        return Err(format!("{}: is a directory, not a tablebase file", path.display()));
    }
    Tablebase::open(path).map_err(|e| file_error(path, &e))
}

/// Opens a tablebase and checks that it was built for `rules`.
pub fn open(path: &Path, rules: &Rules) -> Result<Table, String> {
    let tb = open_file(path)?;
    let built = rules_of(tb.header());
    if built.as_ref().ok() != Some(rules) {
        let found = built.map(|r| describe(&r)).unwrap_or_else(|e| e);
        return Err(format!(
            "{}: the table was built with rules \"{found}\", but \"{}\" were asked for",
            path.display(),
            describe(rules)
        ));
    }
    tb.check_expected(&expected(rules)).map_err(|e| file_error(path, &e))?;
    Ok(Table { rules: *rules, source: Source::File(tb) })
}

/// Opens a tablebase built with any rules.
pub fn open_any(path: &Path) -> Result<Table, String> {
    let tb = open_file(path)?;
    let rules = rules_of(tb.header()).map_err(|e| format!("{}: {e}", path.display()))?;
    tb.check_expected(&expected(&rules)).map_err(|e| file_error(path, &e))?;
    Ok(Table { rules, source: Source::File(tb) })
}

/// The table for `rules`: the file given, else the default file in `dir` if it exists, else a
/// fresh in-memory solve (announced on stderr).
pub fn load_or_solve(rules: &Rules, explicit: Option<&Path>, dir: &Path) -> Result<Table, String> {
    if let Some(path) = explicit {
        return open(path, rules);
    }
    let path = dir.join(file_name(rules));
    if path.exists() {
        return open(&path, rules);
    }
    eprintln!(
        "note: no tablebase at {}; solving {} in memory (several seconds). Run `nana solve` to keep one.",
        path.display(),
        describe(rules)
    );
    let start = Instant::now();
    let (solution, _) = solve(rules)?;
    eprintln!("note: solved in {:.1} s", start.elapsed().as_secs_f64());
    Ok(Table { rules: *rules, source: Source::Memory(solution) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_errors_a_new_table_cures_carry_the_solve_hint() {
        let path = Path::new("t.tb");
        let hinted = file_error(path, &TablebaseError::PayloadChecksum { expected: 1, actual: 2 });
        assert!(hinted.starts_with("t.tb: the file is corrupted"), "{hinted}");
        assert!(hinted.ends_with("; regenerate it with `nana solve`"), "{hinted}");
        let plain = file_error(path, &TablebaseError::BadMagic);
        assert_eq!(plain, "t.tb: not a tablebase file (bad magic bytes)");
    }
}
