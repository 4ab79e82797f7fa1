//! Tablebases for the command line: the probe layer's tables ([`nana_probe::table`]) with
//! progress bars, messages for the user, and a check that an output folder is writable.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nana_engine::Solution;
pub use nana_probe::table::Table;
use nana_probe::table::{TableError, TableGame};

use crate::progress::Bars;

/// Where `solve` writes and every other command looks.
pub const DEFAULT_DIR: &str = "tablebase";

/// A table error for the user: the probe layer names the problem, and when making the table
/// again cures it we say how.
fn user_error(e: TableError) -> String {
    if e.needs_regeneration() {
        format!("{e}; regenerate it with `nana solve`")
    } else {
        e.to_string()
    }
}

/// Solves one rule set with progress bars; also returns how long each phase took.
pub fn solve<G: TableGame>(game: &G) -> Result<(Solution, Vec<(String, Duration)>), String> {
    crate::pool::start()?;
    let bars = Bars::new(game.rule_set_name());
    let solution = game.solve(&bars).map_err(|e| e.to_string())?;
    Ok((solution, bars.times()))
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

/// Writes a solution atomically to its file in `dir`.
pub fn write<G: TableGame>(dir: &Path, game: &G, solution: &Solution) -> Result<PathBuf, String> {
    nana_probe::table::write(game, dir, solution).map_err(user_error)
}

/// Opens a tablebase and checks that it was built for `game`'s rules.
pub fn open<G: TableGame>(path: &Path, game: G) -> Result<Table<G>, String> {
    Table::open(game, path).map_err(user_error)
}

/// Opens a tablebase of the game built with any of its rule sets.
pub fn open_any<G: TableGame>(path: &Path) -> Result<Table<G>, String> {
    Table::open_any(path).map_err(user_error)
}

/// The table for `game`: the file given, else its file in `dir` if it exists, else a fresh
/// in-memory solve (announced on stderr, with progress bars).
pub fn load_or_solve<G: TableGame>(game: G, explicit: Option<&Path>, dir: &Path) -> Result<Table<G>, String> {
    let bars = Bars::new(game.rule_set_name());
    let start = Instant::now();
    let mut solved = false;
    if explicit.is_none() && !dir.join(game.file_name()).exists() {
        crate::pool::start()?;
    }
    let table = Table::load_or_solve(game, explicit, dir, &bars, |game, path| {
        solved = true;
        eprintln!(
            "note: no tablebase at {}; solving {} in memory. Run `nana solve` to keep one.",
            path.display(),
            game.describe()
        );
    })
    .map_err(user_error)?;
    if solved {
        eprintln!("note: solved in {:.1} s", start.elapsed().as_secs_f64());
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nana_tablebase::TablebaseError;

    #[test]
    fn only_errors_a_new_table_cures_carry_the_solve_hint() {
        let path = PathBuf::from("t.tb");
        let error = TablebaseError::PayloadChecksum { expected: 1, actual: 2 };
        let hinted = user_error(TableError::File { path: path.clone(), error });
        assert!(hinted.starts_with("t.tb: the file is corrupted"), "{hinted}");
        assert!(hinted.ends_with("; regenerate it with `nana solve`"), "{hinted}");
        let plain = user_error(TableError::File { path, error: TablebaseError::BadMagic });
        assert_eq!(plain, "t.tb: not a tablebase file (bad magic bytes)");
    }
}
