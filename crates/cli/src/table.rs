//! Tablebases for the command line: the probe layer's tables ([`nana_probe::table`]) with
//! progress bars, messages for the user, and a check that an output folder is writable.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nana_engine::Solution;
use nana_front::{regenerate_command, solve_command, Game};
pub use nana_probe::table::Table;
use nana_probe::table::{TableError, TableRules};
use nana_probe::ProbeError;

use crate::error::CliError;
use crate::progress::Bars;

/// Where `solve` writes and every other command looks.
pub const DEFAULT_DIR: &str = "tablebase";

/// A table error of `rules`: the probe layer names the problem, and when making the table
/// again cures it the error says with which command ([`regenerate_command`]).
pub fn user_error<G: Game>(rules: &G::Rules, e: TableError) -> CliError {
    let file = match &e {
        TableError::File { path, .. } => Some(path.clone()),
        _ => None,
    };
    CliError::table(e, || match file {
        Some(file) => regenerate_command::<G>(rules, &file),
        None => solve_command::<G>(rules),
    })
}

/// A lookup's error in `table`: a damaged file's names the file and the command that makes it
/// again; any other is the probe layer's words.
pub fn probe_error<G: Game>(table: &Table<G::Rules>, e: ProbeError) -> CliError {
    let origin = table.origin();
    let command = regenerate_command::<G>(table.game(), Path::new(&origin));
    CliError::probe(origin, e, || command)
}

/// Solves one rule set with progress bars; also returns how long each phase took.
pub fn solve<G: TableRules>(game: &G) -> Result<(Solution, Vec<(String, Duration)>), CliError> {
    crate::pool::start()?;
    let bars = Bars::new(game.rule_set_name());
    let solution = game.solve(&bars)?;
    Ok((solution, bars.times()))
}

/// Makes sure `dir` is (or can be made) a folder we can write tables to, so that `solve` fails
/// at once rather than after minutes of solving.
pub fn check_writable(dir: &Path) -> Result<(), CliError> {
    let path = || dir.to_path_buf();
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::NotADirectory(path()));
    }
    std::fs::create_dir_all(dir).map_err(|source| CliError::CreateDirectory { path: path(), source })?;
    // Permissions alone do not tell (read-only mounts, ACLs): try writing.
    let trial = dir.join(format!(".nana-write-test-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&trial)
        .map_err(|source| CliError::NotWritable { path: path(), source })?;
    std::fs::remove_file(&trial).map_err(|source| CliError::File { path: trial, source })
}

/// Writes a solution atomically to its file in `dir`.
pub fn write<G: Game>(dir: &Path, rules: &G::Rules, solution: &Solution) -> Result<PathBuf, CliError> {
    nana_probe::table::write(rules, dir, solution).map_err(|e| user_error::<G>(rules, e))
}

/// Opens a tablebase and checks that it was built for `rules`.
pub fn open<G: Game>(path: &Path, rules: G::Rules) -> Result<Table<G::Rules>, CliError> {
    Table::open(rules, path).map_err(|e| user_error::<G>(&rules, e))
}

/// Opens a tablebase of the game built with any of its rule sets.
pub fn open_any<G: Game>(path: &Path) -> Result<Table<G::Rules>, CliError> {
    let like = G::RULE_SETS[0].rules;
    Table::open_any(&like, path).map_err(|e| user_error::<G>(&like, e))
}

/// The table for `game`: the file given, else its file in `dir` if it exists, else a fresh
/// in-memory solve (announced on stderr, with progress bars).
pub fn load_or_solve<G: Game>(
    game: G::Rules,
    explicit: Option<&Path>,
    dir: &Path,
) -> Result<Table<G::Rules>, CliError> {
    let bars = Bars::new(game.rule_set_name());
    let start = Instant::now();
    let mut solved = false;
    if explicit.is_none() && !dir.join(game.file_name()).exists() {
        crate::pool::start()?;
    }
    let table = Table::load_or_solve(game, explicit, dir, &bars, |rules, path| {
        solved = true;
        eprintln!(
            "note: no tablebase at {}; solving {} in memory. Run `{}` to keep one.",
            path.display(),
            rules.describe(),
            solve_command::<G>(rules)
        );
    })
    .map_err(|e| user_error::<G>(&game, e))?;
    if solved {
        eprintln!("note: solved in {:.1} s", start.elapsed().as_secs_f64());
    }
    Ok(table)
}

/// [`load_or_solve`], with every block of a file checked against its checksum before it is
/// returned ([`Table::check_blocks`]): for commands that read the whole table, or print a report
/// only once every table they report on is known to be intact.
pub fn load_checked<G: Game>(game: G::Rules, dir: &Path) -> Result<Table<G::Rules>, CliError> {
    let table = load_or_solve::<G>(game, None, dir)?;
    table.check_blocks().map_err(|e| user_error::<G>(&game, e))?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nana_tablebase::TablebaseError;

    #[test]
    fn only_errors_a_new_table_cures_carry_the_solve_hint() {
        use dobutsu_shogi::{Dobutsu, Rules};
        let path = PathBuf::from("t.tb");
        let error = TablebaseError::PayloadChecksum { expected: 1, actual: 2 };
        let hinted = user_error::<Dobutsu>(&Rules::SAFE_TRY, TableError::File { path: path.clone(), error });
        let hinted = hinted.to_string();
        assert!(hinted.starts_with("t.tb: the file is corrupted"), "{hinted}");
        assert!(
            hinted.ends_with("; regenerate it with `nana --game dobutsu solve --rules safe-try`"),
            "{hinted}"
        );
        let error = TablebaseError::BadMagic;
        let plain = user_error::<Dobutsu>(&Rules::SAFE_TRY, TableError::File { path, error });
        assert_eq!(plain.to_string(), "t.tb: not a tablebase file (bad magic bytes)");
    }
}
