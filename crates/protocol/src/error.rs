//! Why a command of the protocol was refused: [`EngineError`], each variant holding what failed.
//! Its `Display` is what follows `info string error: ` (with the command's prefix, such as
//! `position not set: `, added where the answer is written).

use std::error::Error;
use std::fmt;

use nana_probe::echo::echo;
use nana_probe::table::TableError;
use nana_probe::ProbeError;

use crate::game::PERFT_MAX;

/// A game's error about a position or a move it cannot read (its
/// [`nana_probe::ProbeRules::ParseError`], whose type differs from game to game).
pub type ParseError = Box<dyn Error + Send + Sync>;

/// Why the engine refused a command.
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineError {
    /// A line that is no command of the protocol.
    UnknownCommand { line: String },
    /// A `position` line that is neither `startpos` nor `fen`/`sfen` with a position.
    PositionUsage { line: String },
    /// A `setoption` line without `name`.
    SetOptionUsage,
    /// `go perft` without a depth.
    PerftUsage,
    /// `setoption` of a spin option: `value` is not a whole number from `min` to `max`.
    NotInRange { option: String, value: String, min: i64, max: i64 },
    /// `setoption` of a check option: `value` is neither true nor false.
    NotBoolean { option: String, value: String },
    /// `setoption name UCI_Variant`: no game is called `value`.
    UnknownGame { option: String, value: String, known: Vec<&'static str> },
    /// `setoption` of a game's rule set: the game has no rule set `value`.
    UnknownRuleSet { option: String, value: String, known: Vec<&'static str> },
    /// `setoption` of an option no game has.
    UnknownOption { name: String },
    /// The table could not be opened or solved; `regenerate` is the command that makes it
    /// again, where making it again cures the error. (Boxed: a table's error is large.)
    Table { error: Box<TableError>, regenerate: Option<String> },
    /// The thread solving the table panicked.
    SolvePanicked,
    /// The table's solve was abandoned: `quit` came while it ran.
    Abandoned,
    /// A lookup in the table failed; `regenerate` as for [`EngineError::Table`].
    Probe { error: ProbeError, regenerate: Option<String> },
    /// No table is open for the rule set.
    NoTable,
    /// The last `position` command could not be read.
    NoPosition,
    /// The position of a `position` command is not one of the game's.
    Position(ParseError),
    /// Move `number` (from 1) of the `count` after `moves` is not a legal move.
    Move { number: usize, count: usize, error: ParseError },
    /// A move after `go searchmoves` is not a legal move.
    SearchMove(ParseError),
    /// `go searchmoves` gave no move.
    NoSearchMove,
    /// `go perft` deeper than [`PERFT_MAX`].
    PerftTooDeep { depth: u32 },
}

impl EngineError {
    /// A table's error, with the command that makes the table again where that cures it.
    pub fn table(error: TableError, solve_command: impl FnOnce() -> String) -> EngineError {
        let regenerate = error.needs_regeneration().then(solve_command);
        EngineError::Table { error: Box::new(error), regenerate }
    }

    /// A lookup's error, with the command that makes the table again where its file is
    /// damaged.
    pub fn probe(error: ProbeError, solve_command: impl FnOnce() -> String) -> EngineError {
        let regenerate = error.needs_regeneration().then(solve_command);
        EngineError::Probe { error, regenerate }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownCommand { line } => write!(f, "unknown command {}", echo(line)),
            EngineError::PositionUsage { line } => {
                write!(f, "{}: position startpos|fen FEN|sfen SFEN [moves ...]", echo(line))
            }
            EngineError::SetOptionUsage => f.write_str("setoption name NAME value VALUE"),
            EngineError::PerftUsage => f.write_str("go perft DEPTH: a whole number of plies"),
            EngineError::NotInRange { option, value, min, max } => {
                write!(f, "{option}: {} is not a whole number from {min} to {max}", echo(value))
            }
            EngineError::NotBoolean { option, value } => {
                write!(f, "{option}: {} is not true or false", echo(value))
            }
            EngineError::UnknownGame { option, value, known } => {
                write!(f, "{option}: no variant {} (known: {})", echo(value), known.join(", "))
            }
            EngineError::UnknownRuleSet { option, value, known } => {
                write!(f, "{option}: no rule set {} (known: {})", echo(value), known.join(", "))
            }
            EngineError::UnknownOption { name } => write!(f, "no option {}", echo(name)),
            EngineError::Table { error, regenerate: None } => write!(f, "{error}"),
            EngineError::Probe { error, regenerate: None } => write!(f, "{error}"),
            EngineError::Table { error, regenerate: Some(command) } => {
                write!(f, "{error}; regenerate it with `{command}`")
            }
            EngineError::Probe { error, regenerate: Some(command) } => {
                write!(f, "{error}; regenerate it with `{command}`")
            }
            EngineError::SolvePanicked => f.write_str("the solve stopped with a panic"),
            EngineError::Abandoned => f.write_str("the solve was abandoned: quit"),
            EngineError::NoTable => f.write_str("no table is open"),
            EngineError::NoPosition => {
                f.write_str("no position: the last position command could not be read")
            }
            EngineError::Position(e) => write!(f, "{e}"),
            EngineError::Move { number, count, error } => write!(f, "move {number} of {count}: {error}"),
            EngineError::SearchMove(e) => write!(f, "searchmoves: {e}"),
            EngineError::NoSearchMove => f.write_str("searchmoves: no legal move given"),
            EngineError::PerftTooDeep { depth } => write!(f, "go perft {depth}: at most {PERFT_MAX}"),
        }
    }
}

impl Error for EngineError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            EngineError::Table { error, .. } => Some(error.as_ref()),
            EngineError::Probe { error, .. } => Some(error),
            EngineError::Position(e) | EngineError::Move { error: e, .. } | EngineError::SearchMove(e) => {
                Some(e.as_ref())
            }
            EngineError::UnknownCommand { .. }
            | EngineError::PositionUsage { .. }
            | EngineError::SetOptionUsage
            | EngineError::PerftUsage
            | EngineError::NotInRange { .. }
            | EngineError::NotBoolean { .. }
            | EngineError::UnknownGame { .. }
            | EngineError::UnknownRuleSet { .. }
            | EngineError::UnknownOption { .. }
            | EngineError::SolvePanicked
            | EngineError::Abandoned
            | EngineError::NoTable
            | EngineError::NoPosition
            | EngineError::NoSearchMove
            | EngineError::PerftTooDeep { .. } => None,
        }
    }
}
