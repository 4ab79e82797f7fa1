//! A game's published claims and the figures the command line prints about it ([`Claims`]):
//! `verify` checks the claims against the tables, `results` writes the generated part of the
//! results document, `stats` prints the reachable states.

use std::error::Error;
use std::fmt::{self, Display};

use nana_probe::table::{Table, TableError};
use nana_probe::ProbeError;

use crate::Game;

/// What `verify` prints, in two parts so that `nana results` can set the second in a code block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The Markdown table of the published figures against the solution's.
    pub table: String,
    /// The CONFIRMED / NOT CONFIRMED lines.
    pub summary: String,
    /// How many claims the solution contradicts.
    pub failed: usize,
    /// How many claims there are.
    pub claims: usize,
}

/// How a game asks its front end for the table of a rule set (opened from the tablebase folder,
/// or solved in memory); the error is the front end's own, `E`.
pub type Load<'a, R, E> = &'a mut dyn FnMut(R) -> Result<Table<R>, E>;

/// Why a game could not check its published claims against its tables, or make its results
/// document from them.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// The table of a claimed rule set was not among those given: the rule set in words.
    Missing { rules: String },
    /// A lookup in a table failed.
    Probe(ProbeError),
    /// A table's entries could not be read (boxed: a table's error is large).
    Table(Box<TableError>),
}

impl Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Missing { rules } => write!(f, "no table for {rules} was loaded"),
            ReportError::Probe(e) => write!(f, "{e}"),
            ReportError::Table(e) => write!(f, "{e}"),
        }
    }
}

impl Error for ReportError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ReportError::Missing { .. } => None,
            ReportError::Probe(e) => Some(e),
            ReportError::Table(e) => Some(e.as_ref()),
        }
    }
}

impl From<ProbeError> for ReportError {
    fn from(e: ProbeError) -> ReportError {
        ReportError::Probe(e)
    }
}

impl From<TableError> for ReportError {
    fn from(e: TableError) -> ReportError {
        ReportError::Table(Box::new(e))
    }
}

/// One of a game's exhaustive checks of its own code over a whole space: the self-check's tier
/// (`nana verify --self-check`), where the tests run the same check over a sample.
pub struct WholeCheck {
    /// What it checks, in a few words.
    pub name: String,
    /// Runs it: a line of what it counted, or why it failed.
    pub run: Box<dyn FnOnce() -> Result<String, CheckFailed> + Send>,
}

impl WholeCheck {
    /// The check `name`, which `run` runs.
    pub fn new(
        name: impl Into<String>,
        run: impl FnOnce() -> Result<String, CheckFailed> + Send + 'static,
    ) -> WholeCheck {
        WholeCheck { name: name.into(), run: Box::new(run) }
    }
}

impl fmt::Debug for WholeCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WholeCheck").field("name", &self.name).finish_non_exhaustive()
    }
}

/// Why one of a game's whole-space checks failed: the first disagreement, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFailed(pub String);

impl Display for CheckFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for CheckFailed {}

/// A game's published claims and results: what `verify`, `results` and `stats` print of it
/// beyond its tables (the command line asks for it; the explorer and the engine do not).
pub trait Claims: Game {
    /// The rule sets of the published claims: what `verify --solve` makes and `verify` reads.
    fn claimed_rule_sets() -> Vec<Self::Rules>;

    /// The published claims checked against the tables of [`Claims::claimed_rule_sets`] (all
    /// of them given, in any order).
    fn verify(tables: &[Table<Self::Rules>]) -> Result<Report, ReportError>;

    /// The generated part of the game's results document (Markdown), from the tables `load`
    /// gives; an error of `load` is returned as it is.
    fn results<E: From<ReportError>>(load: Load<'_, Self::Rules, E>) -> Result<String, E>;

    /// The rule sets whose tables the self-check (`nana verify --solve --check --self-check`)
    /// solves with the fast paths' cross-checks on and re-checks entry by entry: the claimed
    /// ones, and those of any other table the game ships.
    fn self_check_rule_sets() -> Vec<Self::Rules> {
        Self::claimed_rule_sets()
    }

    /// The game's exhaustive checks of its index, moves and enumeration over their whole spaces,
    /// which the tests run over samples: the rest of the self-check.
    fn whole_space_checks() -> Vec<WholeCheck>;

    /// The lines `stats` prints about the index and the states reachable from the start
    /// (`progress` is called with units of work as they are found and done).
    fn reachable_stats(rules: &Self::Rules, progress: &(dyn Fn(u64) + Sync)) -> Vec<String>;
}
