//! `nana._nana`: the Rust half of the Python package `nana` (python/python/nana is the other).
//!
//! It opens the tables of every game it is built with ([`GAMES`], the command line's games) and
//! answers with the code every front end uses: a position's answer is the probe's
//! [`nana_probe::Answer`], as `nana query --json` prints it; a table's rows are
//! [`nana_export`]'s, as `nana export` writes them. Errors keep the command line's words: a
//! position that does not read raises `ValueError`, a table that is missing or cannot be read
//! raises the package's `MissingTableError` or `DamagedTableError` (defined in Python, in
//! `nana._errors`).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use nana_front::{solve_command, Game};
use nana_probe::table::{Table, TableError, TableGame};
use nana_probe::{ProbeError, ProbeGame};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// How many plies of a drawing line an answer's mainline holds, as `nana query`'s.
const DRAW_LINE: usize = 10;

/// Why a call failed, before it becomes a Python exception.
#[derive(Debug)]
enum Error {
    /// The caller's input (a position, a move, a game or rule set name): `ValueError`.
    Input(String),
    /// No table for the game and rule set in the folder: `MissingTableError`.
    Missing(String),
    /// A table that cannot be read or contradicts the rules: `DamagedTableError`.
    Damaged(String),
}

impl Error {
    fn into_py(self, py: Python<'_>) -> PyErr {
        let (class, message) = match self {
            Error::Input(m) => return PyValueError::new_err(m),
            Error::Missing(m) => ("MissingTableError", m),
            Error::Damaged(m) => ("DamagedTableError", m),
        };
        match py.import("nana._errors").and_then(|m| m.getattr(class)) {
            Ok(class) => PyErr::from_type(class.cast_into().expect("an exception class"), message),
            Err(e) => e,
        }
    }
}

/// A lookup's error in words, as the command line gives it: a damaged block names the file and
/// the command that makes it again.
fn probe_error<G: Game>(table: &Table<G::Rules>, e: ProbeError) -> Error {
    if e.needs_regeneration() {
        let command = solve_command::<G>(table.game());
        Error::Damaged(format!("{}: {e}; regenerate it with `{command}`", table.origin()))
    } else {
        Error::Damaged(e.to_string())
    }
}

/// A table that did not open, in the command line's words.
fn table_error<G: Game>(rules: &G::Rules, e: TableError) -> Error {
    if e.needs_regeneration() {
        Error::Damaged(format!("{e}; regenerate it with `{}`", solve_command::<G>(rules)))
    } else {
        Error::Damaged(e.to_string())
    }
}

/// One rule set's table, opened, whatever its game.
trait Opened: Send + Sync {
    /// The answer about a position (the start where `fen` is `None`), as JSON.
    fn answer(&self, fen: Option<&str>) -> Result<String, Error>;
    /// The mainline from a position, in the machine notation.
    fn mainline(&self, fen: Option<&str>, draw_plies: usize) -> Result<Vec<String>, Error>;
    /// Wins, losses, draws, unused entries and the longest distance to mate.
    fn stats(&self) -> (u64, u64, u64, u64, u16);
    /// The number of index entries.
    fn size(&self) -> u64;
    /// The rows of the index entries `first..first + count`, as an Arrow IPC stream.
    fn rows(&self, first: u64, count: u64) -> Result<Vec<u8>, Error>;
    /// Where it was opened from.
    fn origin(&self) -> String;
}

/// A table, with the decoded pages its rows are read through (a compressed file's, kept from
/// one batch to the next: [`nana_export::pages`]).
struct Open<G: Game>(Table<G::Rules>, Option<nana_export::Pages>);

impl<G: Game> Open<G> {
    fn position(&self, fen: Option<&str>) -> Result<nana_front::Pos<G>, Error> {
        let rules = self.0.game();
        match fen {
            None => Ok(rules.start()),
            Some(s) => rules.parse_position(s).map_err(|e| Error::Input(e.to_string())),
        }
    }
}

impl<G: Game> Opened for Open<G> {
    fn answer(&self, fen: Option<&str>) -> Result<String, Error> {
        let pos = self.position(fen)?;
        let answer = self.0.probe().answer(&pos, DRAW_LINE).map_err(|e| probe_error::<G>(&self.0, e))?;
        Ok(serde_json::to_string(&answer).expect("an answer serialises"))
    }

    fn mainline(&self, fen: Option<&str>, draw_plies: usize) -> Result<Vec<String>, Error> {
        let pos = self.position(fen)?;
        let probe = self.0.probe();
        let line = probe.walk(&pos, draw_plies).map_err(|e| probe_error::<G>(&self.0, e))?;
        Ok(line.iter().map(|ply| self.0.game().machine_notation(&ply.from, ply.ranked.mv)).collect())
    }

    fn stats(&self) -> (u64, u64, u64, u64, u16) {
        let s = self.0.stats();
        (s.wins, s.losses, s.draws, s.illegal, s.max_dtm)
    }

    fn size(&self) -> u64 {
        self.0.game().size()
    }

    fn rows(&self, first: u64, count: u64) -> Result<Vec<u8>, Error> {
        let end = first.saturating_add(count).min(self.size());
        // A row reads the entries of its moves, all over the index: through the bounded pages.
        let rows = nana_export::with_probe(&self.0, self.1.as_ref(), |probe| {
            nana_export::rows(probe, first.min(end)..end)
        })
        .map_err(|e| probe_error::<G>(&self.0, e))?;
        nana_export::ipc_stream(&nana_export::record_batch(&rows)).map_err(|e| Error::Damaged(e.to_string()))
    }

    fn origin(&self) -> String {
        self.0.origin()
    }
}

/// A named rule set of a game, its table opened or why not.
struct Slot {
    game: &'static str,
    rules: &'static str,
    file: PathBuf,
    table: Result<Box<dyn Opened>, String>,
    /// The command that makes its table.
    command: String,
}

/// A game of the package, whatever its type: the command line's registry, seen from Python.
trait Registered: Sync {
    fn name(&self) -> &'static str;
    /// Every named rule set whose table is in `dir`, opened or refused.
    fn open(&self, dir: &Path) -> Vec<Slot>;
    /// The names of its rule sets.
    fn rule_sets(&self) -> Vec<&'static str>;
}

struct Entry<G>(PhantomData<fn() -> G>);

const fn game<G: Game>() -> &'static dyn Registered {
    &Entry::<G>(PhantomData)
}

/// Every game the package reads, as the command line lists them.
const GAMES: &[&dyn Registered] = &[game::<nana_shogi::Nana>(), game::<dobutsu_shogi::Dobutsu>()];

impl<G: Game> Registered for Entry<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn open(&self, dir: &Path) -> Vec<Slot> {
        G::RULE_SETS
            .iter()
            .map(|rule_set| {
                let rules = rule_set.rules;
                let file = dir.join(rules.file_name());
                let table = if file.exists() {
                    Table::open(rules, &file)
                        .map(|t| {
                            let pages = nana_export::pages(&t, nana_export::DEFAULT_BUDGET);
                            Box::new(Open::<G>(t, pages)) as Box<dyn Opened>
                        })
                        .map_err(|e| match table_error::<G>(&rules, e) {
                            Error::Damaged(m) | Error::Missing(m) | Error::Input(m) => m,
                        })
                } else {
                    Err(String::new())
                };
                Slot { game: G::NAME, rules: rule_set.name, file, table, command: solve_command::<G>(&rules) }
            })
            .collect()
    }

    fn rule_sets(&self) -> Vec<&'static str> {
        G::RULE_SETS.iter().map(|r| r.name).collect()
    }
}

/// The tables of every game and named rule set found in a folder.
#[pyclass(module = "nana._nana", frozen)]
struct Tablebases {
    dir: PathBuf,
    slots: Vec<Slot>,
}

impl Tablebases {
    fn table(&self, game: &str, rules: &str) -> Result<&dyn Opened, Error> {
        let Some(registered) = GAMES.iter().find(|g| g.name() == game) else {
            let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
            return Err(Error::Input(format!("unknown game {game:?} (known: {})", known.join(", "))));
        };
        let Some(slot) = self.slots.iter().find(|s| s.game == game && s.rules == rules) else {
            let known = registered.rule_sets().join(", ");
            return Err(Error::Input(format!("unknown rule set {rules:?} of {game} (known: {known})")));
        };
        match &slot.table {
            Ok(table) => Ok(table.as_ref()),
            Err(e) if e.is_empty() => Err(Error::Missing(format!(
                "no tablebase at {}; make it with `{} --out {}`",
                slot.file.display(),
                slot.command,
                self.dir.display()
            ))),
            Err(e) => Err(Error::Damaged(e.clone())),
        }
    }
}

fn run<T>(py: Python<'_>, f: impl FnOnce() -> Result<T, Error> + Send) -> PyResult<T>
where
    T: Send,
{
    py.detach(f).map_err(|e| e.into_py(py))
}

#[pymethods]
impl Tablebases {
    /// Opens the table of every game's named rule sets found in `directory`.
    #[new]
    fn new(py: Python<'_>, directory: PathBuf) -> PyResult<Tablebases> {
        if !directory.is_dir() {
            return Err(PyValueError::new_err(format!("{}: not a directory", directory.display())));
        }
        let dir = directory.clone();
        let slots = py.detach(move || GAMES.iter().flat_map(|g| g.open(&dir)).collect());
        Ok(Tablebases { dir: directory, slots })
    }

    /// `(game, rules, path)` of every table opened.
    fn tables(&self) -> Vec<(&'static str, &'static str, String)> {
        let opened = self.slots.iter().filter_map(|s| Some((s, s.table.as_ref().ok()?)));
        opened.map(|(s, t)| (s.game, s.rules, t.origin())).collect()
    }

    /// `(game, rules, message)` of every table found that could not be opened.
    fn damaged(&self) -> Vec<(&'static str, &'static str, String)> {
        let refused = self.slots.iter().filter_map(|s| match &s.table {
            Err(e) if !e.is_empty() => Some((s.game, s.rules, e.clone())),
            _ => None,
        });
        refused.collect()
    }

    /// The answer about a position as JSON (the probe's, as `nana query --json` prints it).
    #[pyo3(signature = (game, rules, fen=None))]
    fn answer_json(&self, py: Python<'_>, game: &str, rules: &str, fen: Option<&str>) -> PyResult<String> {
        run(py, || self.table(game, rules)?.answer(fen))
    }

    /// The mainline from a position, in the machine notation.
    #[pyo3(signature = (game, rules, fen=None, draw_plies=DRAW_LINE))]
    fn mainline(
        &self,
        py: Python<'_>,
        game: &str,
        rules: &str,
        fen: Option<&str>,
        draw_plies: usize,
    ) -> PyResult<Vec<String>> {
        run(py, || self.table(game, rules)?.mainline(fen, draw_plies))
    }

    /// `(wins, losses, draws, unused, max_dtm)` of a table.
    fn stats(&self, py: Python<'_>, game: &str, rules: &str) -> PyResult<(u64, u64, u64, u64, u16)> {
        run(py, || Ok(self.table(game, rules)?.stats()))
    }

    /// The number of index entries of a table.
    fn size(&self, py: Python<'_>, game: &str, rules: &str) -> PyResult<u64> {
        run(py, || Ok(self.table(game, rules)?.size()))
    }

    /// The rows of index entries `first..first + count` as an Arrow IPC stream (one batch).
    fn rows_ipc<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        rules: &str,
        first: u64,
        count: u64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = run(py, || self.table(game, rules)?.rows(first, count))?;
        Ok(PyBytes::new(py, &bytes))
    }
}

/// The Rust half of the package `nana`.
#[pymodule]
fn _nana(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tablebases>()?;
    m.add("BATCH_ENTRIES", nana_export::BATCH_ENTRIES)?;
    m.add("COLUMNS", nana_export::COLUMNS.to_vec())?;
    Ok(())
}
