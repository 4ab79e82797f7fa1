//! `nana._nana`: the Rust half of the Python package `nana` (python/python/nana is the other).
//!
//! It opens the tables of every game it is built with ([`GAMES`], the command line's games) and
//! answers with the code every front end uses: a position's answer is the probe's
//! [`nana_probe::Answer`], as `nana query --json` prints it; a table's rows are
//! [`nana_export`]'s, as `nana export` writes them. Errors keep the command line's words: a
//! position that does not read raises `ValueError`, a table that is missing or cannot be read
//! raises the package's `MissingTableError` or `DamagedTableError` (defined in Python, in
//! `nana._errors`).
//!
//! Long: the module's whole interface to Python in one file: its two classes (`Tablebases`,
//! `Position`), the errors they raise and the games they open.

mod board;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};

use nana_engine::Value;
use nana_front::{game_type, regenerate_command, DynGame, Game, GameType, ProtocolNotation};
use nana_probe::table::{Table, TableError, TableRules};
use nana_probe::{ProbeError, ProbeRules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// How many plies of a drawing line an answer's mainline holds, as `nana query`'s.
const DRAW_LINE: usize = 10;

/// Why a call failed, before it becomes a Python exception (its message is the `Display`, in
/// the command line's words).
#[derive(Debug)]
enum Error {
    /// The tablebase folder given is a file, not a folder: `ValueError`.
    NotADirectory(PathBuf),
    /// There is nothing at the tablebase folder's path: `MissingTableError`.
    NoFolder(PathBuf),
    /// A position that is not one of the game's: `ValueError`.
    Position(Box<dyn std::error::Error + Send + Sync>),
    /// A move that is not a legal move of the position: `ValueError`.
    Move(Box<dyn std::error::Error + Send + Sync>),
    /// No game of that name: `ValueError`.
    UnknownGame { game: String },
    /// The game has no rule set of that name: `ValueError`.
    UnknownRules { game: String, rules: String, known: Vec<&'static str> },
    /// No table for the game and rule set in the folder `dir`: `MissingTableError`.
    Missing { file: PathBuf, command: String },
    /// The table's file was refused when the folder was opened: `DamagedTableError`.
    Refused(Arc<Refusal>),
    /// A lookup failed; `regenerate` is the command that makes the table again where its file
    /// is damaged: `DamagedTableError`.
    Probe { origin: String, error: ProbeError, regenerate: Option<String> },
    /// The rows could not be encoded: `DamagedTableError`.
    Export(nana_export::ExportError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotADirectory(dir) => write!(f, "{}: not a directory", dir.display()),
            Error::NoFolder(dir) => {
                let commands: Vec<String> = GAMES
                    .iter()
                    .map(|g| format!("`nana --game {} solve --out {}`", g.name(), dir.display()))
                    .collect();
                write!(
                    f,
                    "no tablebase folder at {}; make its tables with {}",
                    dir.display(),
                    commands.join(" and ")
                )
            }
            Error::Position(e) | Error::Move(e) => write!(f, "{e}"),
            Error::UnknownGame { game } => {
                let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
                write!(f, "unknown game {game:?} (known: {})", known.join(", "))
            }
            Error::UnknownRules { game, rules, known } => {
                write!(f, "unknown rule set {rules:?} of {game} (known: {})", known.join(", "))
            }
            Error::Missing { file, command } => {
                write!(f, "no tablebase at {}; make it with `{command}`", file.display())
            }
            Error::Refused(refusal) => write!(f, "{refusal}"),
            Error::Probe { error, regenerate: None, .. } => write!(f, "{error}"),
            Error::Probe { origin, error, regenerate: Some(command) } => {
                write!(f, "{origin}: {error}; regenerate it with `{command}`")
            }
            Error::Export(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Position(e) | Error::Move(e) => Some(e.as_ref()),
            Error::Refused(refusal) => Some(&refusal.error),
            Error::Probe { error, .. } => Some(error),
            Error::Export(e) => Some(e),
            Error::NotADirectory(_)
            | Error::NoFolder(_)
            | Error::UnknownGame { .. }
            | Error::UnknownRules { .. }
            | Error::Missing { .. } => None,
        }
    }
}

impl Error {
    fn into_py(self, py: Python<'_>) -> PyErr {
        let class = match self {
            Error::NotADirectory(_)
            | Error::Position(_)
            | Error::Move(_)
            | Error::UnknownGame { .. }
            | Error::UnknownRules { .. } => {
                return PyValueError::new_err(self.to_string());
            }
            Error::Missing { .. } | Error::NoFolder(_) => "MissingTableError",
            Error::Refused(_) | Error::Probe { .. } | Error::Export(_) => "DamagedTableError",
        };
        match py.import("nana._errors").and_then(|m| m.getattr(class)) {
            Ok(class) => PyErr::from_type(class.cast_into().expect("an exception class"), self.to_string()),
            Err(e) => e,
        }
    }
}

/// Why a table's file did not open; `regenerate` is the command that makes it again, where
/// making it again cures the error. Kept with its rule set, and shared by every call about it.
#[derive(Debug)]
struct Refusal {
    error: TableError,
    regenerate: Option<String>,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.regenerate {
            None => write!(f, "{}", self.error),
            Some(command) => write!(f, "{}; regenerate it with `{command}`", self.error),
        }
    }
}

/// A lookup's error, as the command line gives it: a damaged block names the file and the
/// command that makes it again in the file's folder.
fn probe_error<G: Game>(table: &Table<G::Rules>, error: ProbeError) -> Error {
    let origin = table.origin();
    let regenerate =
        error.needs_regeneration().then(|| regenerate_command::<G>(table.game(), Path::new(&origin)));
    Error::Probe { origin, error, regenerate }
}

/// The table file `file` that did not open, as the command line gives it.
fn refusal<G: Game>(rules: &G::Rules, file: &Path, error: TableError) -> Arc<Refusal> {
    let regenerate = error.needs_regeneration().then(|| regenerate_command::<G>(rules, file));
    Arc::new(Refusal { error, regenerate })
}

/// One rule set's table, opened, whatever its game.
trait Opened: Send + Sync {
    /// The answer about a position (the start where `fen` is `None`), as JSON.
    fn answer(&self, fen: Option<&str>) -> Result<String, Error>;
    /// The value of a position for the side to move: `(1, plies)` won, `(-1, plies)` lost,
    /// `(0, None)` drawn.
    fn value(&self, fen: Option<&str>) -> Result<(i8, Option<u16>), Error>;
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
            Some(s) => rules.parse_position(s).map_err(|e| Error::Position(Box::new(e))),
        }
    }
}

impl<G: Game> Opened for Open<G> {
    fn answer(&self, fen: Option<&str>) -> Result<String, Error> {
        let pos = self.position(fen)?;
        let answer = self.0.probe().answer(&pos, DRAW_LINE).map_err(|e| probe_error::<G>(&self.0, e))?;
        Ok(serde_json::to_string(&answer).expect("an answer serialises"))
    }

    fn value(&self, fen: Option<&str>) -> Result<(i8, Option<u16>), Error> {
        let pos = self.position(fen)?;
        let value = self.0.probe().value(&pos).map_err(|e| probe_error::<G>(&self.0, e))?;
        Ok(match value {
            Value::Win(d) => (1, Some(d.0)),
            Value::Loss(d) => (-1, Some(d.0)),
            Value::Draw => (0, None),
        })
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
        nana_export::ipc_stream(&nana_export::record_batch(&rows)).map_err(Error::Export)
    }

    fn origin(&self) -> String {
        self.0.origin()
    }
}

/// A named rule set of a game, its table opened or why not (`None`: no file).
struct Slot {
    game: &'static str,
    rules: &'static str,
    file: PathBuf,
    table: Option<Result<Box<dyn Opened>, Arc<Refusal>>>,
    /// The command that makes its table in its folder.
    command: String,
}

/// A game of the package, whatever its type: the package's face of the front layer's
/// [`DynGame`] (its name), implemented on its [`GameType`], as the command line's registry is.
trait PyGame: DynGame {
    /// Every named rule set whose table is in `dir`, opened or refused.
    fn open(&self, dir: &Path) -> Vec<Slot>;
    /// The names of its rule sets.
    fn rule_sets(&self) -> Vec<&'static str>;
    /// The position `fen` (the start where `None`) under the rule set named `rules` (the
    /// default where `None`), no move played yet.
    fn position(&self, rules: Option<&str>, fen: Option<&str>) -> Result<Box<dyn board::Played>, Error>;
}

/// Every game the package reads: `nana_catalog`'s, as the command line lists them.
static GAMES: LazyLock<Vec<&'static dyn PyGame>> = LazyLock::new(|| {
    struct Games(Vec<&'static dyn PyGame>);
    impl nana_catalog::Visit for Games {
        fn game<G: nana_catalog::Complete>(&mut self) {
            self.0.push(game_type::<G>());
        }
    }
    let mut games = Games(Vec::new());
    nana_catalog::each_game(&mut games);
    games.0
});

impl<G: Game + ProtocolNotation> PyGame for GameType<G> {
    fn open(&self, dir: &Path) -> Vec<Slot> {
        G::RULE_SETS
            .iter()
            .map(|rule_set| {
                let rules = rule_set.rules;
                let file = dir.join(rules.file_name());
                let table = file.exists().then(|| {
                    Table::open(rules, &file)
                        .map(|t| {
                            let pages = nana_export::pages(&t, nana_export::DEFAULT_BUDGET);
                            Box::new(Open::<G>(t, pages)) as Box<dyn Opened>
                        })
                        .map_err(|e| refusal::<G>(&rules, &file, e))
                });
                let command = regenerate_command::<G>(&rules, &file);
                Slot { game: G::NAME, rules: rule_set.name, file, table, command }
            })
            .collect()
    }

    fn rule_sets(&self) -> Vec<&'static str> {
        G::RULE_SETS.iter().map(|r| r.name).collect()
    }

    fn position(&self, rules: Option<&str>, fen: Option<&str>) -> Result<Box<dyn board::Played>, Error> {
        Ok(Box::new(board::Line::<G>::new(rules, fen)?))
    }
}

/// The game named `game`.
fn game(game: &str) -> Result<&'static dyn PyGame, Error> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.name() == game)
        .ok_or_else(|| Error::UnknownGame { game: game.to_string() })
}

/// The tables of every game and named rule set found in a folder.
#[pyclass(module = "nana._nana", frozen)]
struct Tablebases {
    slots: Vec<Slot>,
}

impl Tablebases {
    fn table(&self, game: &str, rules: &str) -> Result<&dyn Opened, Error> {
        let registered = self::game(game)?;
        let Some(slot) = self.slots.iter().find(|s| s.game == game && s.rules == rules) else {
            let (game, rules, known) = (game.to_string(), rules.to_string(), registered.rule_sets());
            return Err(Error::UnknownRules { game, rules, known });
        };
        match &slot.table {
            Some(Ok(table)) => Ok(table.as_ref()),
            None => Err(Error::Missing { file: slot.file.clone(), command: slot.command.clone() }),
            Some(Err(refusal)) => Err(Error::Refused(refusal.clone())),
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
        if !directory.exists() {
            return Err(Error::NoFolder(directory).into_py(py));
        }
        if !directory.is_dir() {
            return Err(Error::NotADirectory(directory).into_py(py));
        }
        let slots = py.detach(move || GAMES.iter().flat_map(|g| g.open(&directory)).collect());
        Ok(Tablebases { slots })
    }

    /// `(game, rules, path)` of every table opened.
    fn tables(&self) -> Vec<(&'static str, &'static str, String)> {
        let opened = self.slots.iter().filter_map(|s| Some((s, s.table.as_ref()?.as_ref().ok()?)));
        opened.map(|(s, t)| (s.game, s.rules, t.origin())).collect()
    }

    /// `(game, rules, message)` of every table found that could not be opened.
    fn damaged(&self) -> Vec<(&'static str, &'static str, String)> {
        let refused = self.slots.iter().filter_map(|s| match &s.table {
            Some(Err(refusal)) => Some((s.game, s.rules, refusal.to_string())),
            _ => None,
        });
        refused.collect()
    }

    /// The answer about a position as JSON (the probe's, as `nana query --json` prints it).
    #[pyo3(signature = (game, rules, fen=None))]
    fn answer_json(&self, py: Python<'_>, game: &str, rules: &str, fen: Option<&str>) -> PyResult<String> {
        run(py, || self.table(game, rules)?.answer(fen))
    }

    /// `(wdl, plies)` of a position for the side to move: `(1, plies)` won, `(-1, plies)` lost,
    /// `(0, None)` drawn.
    #[pyo3(signature = (game, rules, fen=None))]
    fn value(
        &self,
        py: Python<'_>,
        game: &str,
        rules: &str,
        fen: Option<&str>,
    ) -> PyResult<(i8, Option<u16>)> {
        run(py, || self.table(game, rules)?.value(fen))
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

/// A position of a game with the moves played to reach it: the state of `nana.Board`.
#[pyclass(module = "nana._nana")]
struct Position(Box<dyn board::Played>);

#[pymethods]
impl Position {
    /// The position `fen` of `game` (the start where `None`) under the rule set `rules` (the
    /// game's default where `None`).
    #[new]
    #[pyo3(signature = (game, rules=None, fen=None))]
    fn new(py: Python<'_>, game: &str, rules: Option<&str>, fen: Option<&str>) -> PyResult<Position> {
        self::game(game).and_then(|g| g.position(rules, fen)).map(Position).map_err(|e| e.into_py(py))
    }

    /// The game's name.
    fn game(&self) -> &'static str {
        self.0.game()
    }

    /// The rule set's name.
    fn rules(&self) -> &'static str {
        self.0.rules()
    }

    /// The position in the game's string form.
    fn fen(&self) -> String {
        self.0.fen()
    }

    /// Plays a legal move given in any notation the game reads; the move in the machine
    /// notation.
    fn push(&mut self, py: Python<'_>, input: &str) -> PyResult<String> {
        self.0.push(input).map_err(|e| e.into_py(py))
    }

    /// Takes the last move back; the move, `None` where none was played.
    fn pop(&mut self) -> Option<String> {
        self.0.pop()
    }

    /// The moves played, in the machine notation.
    fn move_stack(&self) -> Vec<String> {
        self.0.move_stack()
    }

    /// Every legal move in the machine notation, sorted.
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }

    /// A legal move in the game's human notation.
    fn san(&self, py: Python<'_>, input: &str) -> PyResult<String> {
        self.0.san(input).map_err(|e| e.into_py(py))
    }

    /// The side to move, by the game's name of it.
    fn turn(&self) -> &'static str {
        self.0.turn()
    }

    /// `(termination, winner, result, description)` where the game is over, else `None`.
    #[allow(clippy::type_complexity)]
    fn outcome(&self) -> Option<(&'static str, Option<&'static str>, &'static str, String)> {
        self.0.outcome().map(|o| (o.termination, o.winner, o.result, o.description))
    }

    /// The board as text for a terminal.
    fn diagram(&self) -> String {
        self.0.diagram()
    }

    /// The board view, the last move's squares and the side to move in words, as JSON.
    fn view_json(&self) -> String {
        self.0.view_json()
    }

    /// A copy; with `stack` false, one with no moves played.
    #[pyo3(signature = (stack=true))]
    fn copy(&self, stack: bool) -> Position {
        Position(self.0.copy(stack))
    }
}

/// The Rust half of the package `nana`.
#[pymodule]
fn _nana(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tablebases>()?;
    m.add_class::<Position>()?;
    m.add("BATCH_ENTRIES", nana_export::BATCH_ENTRIES)?;
    m.add("COLUMNS", nana_export::COLUMNS.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
