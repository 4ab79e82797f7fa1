//! Why a table could not be written, opened or made, and the identities its messages name.

use std::fmt;
use std::path::PathBuf;

use nana_engine::{CheckError, SolveError};
use nana_tablebase::TablebaseError;

/// Why a header of a game's table names none of its rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesError {
    /// A rule set id the game does not know.
    RuleSetId(u32),
    /// Option bits the game does not know.
    OptionBits(u32),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::RuleSetId(id) => write!(f, "unknown rule set id {id} in the header"),
            RulesError::OptionBits(bits) => write!(f, "unknown rule option bits {bits:#x} in the header"),
        }
    }
}

impl std::error::Error for RulesError {}

/// A game and a rule set in words, as a header names them (`dobutsu-shogi`, `tanaka, a try
/// wins unless the lion is captured at once`) or as they were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub game: String,
    pub rules: String,
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} with rules \"{}\"", self.game, self.rules)
    }
}

/// Why a table could not be written, opened or made.
#[derive(Debug)]
pub enum TableError {
    /// The file is missing, unreadable, damaged, of an old format or not the table expected.
    File { path: PathBuf, error: TablebaseError },
    /// A folder was given where a file was expected.
    IsDirectory(PathBuf),
    /// The header names rules this game does not know.
    UnknownRules { path: PathBuf, error: RulesError },
    /// The table is of another game than the one asked for.
    OtherGame { path: PathBuf, found: Identity, asked: Identity },
    /// The table was built for other rules of the game than the ones asked for.
    OtherRules { path: PathBuf, found: Identity, asked: Identity },
    /// The table's unused entries are don't-care, and this game cannot tell which they are.
    DontCare(PathBuf),
    /// A win of a table that stores every win as one value could not be given its distance:
    /// the table does not agree with the rules.
    Restore { path: PathBuf, error: CheckError },
    /// The solve failed.
    Solve(SolveError),
}

impl TableError {
    /// Whether making the table again (solving and writing it) cures the error: true for a
    /// damaged or outdated file, false for a missing one or one of another game.
    pub fn needs_regeneration(&self) -> bool {
        matches!(self, TableError::File { error, .. } if error.needs_regeneration())
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // An I/O error names its path already.
            TableError::File { path: _, error: error @ TablebaseError::Io { .. } } => write!(f, "{error}"),
            TableError::File { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::IsDirectory(path) => {
                write!(f, "{}: is a directory, not a tablebase file", path.display())
            }
            TableError::UnknownRules { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::OtherGame { path, found, asked } => {
                write!(f, "{}: the table is of {found}, but {asked} was asked for", path.display())
            }
            TableError::OtherRules { path, found, asked } => write!(
                f,
                "{}: the table was built with rules \"{}\" of {}, but rules \"{}\" were asked for",
                path.display(),
                found.rules,
                found.game,
                asked.rules
            ),
            TableError::DontCare(path) => write!(
                f,
                "{}: the table's unused entries are don't-care, which this build of the game cannot read",
                path.display()
            ),
            TableError::Restore { path, error } => {
                write!(f, "{}: a win's distance could not be found: {error}", path.display())
            }
            TableError::Solve(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TableError {}
