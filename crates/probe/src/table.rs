//! A game's solution on disk or in memory: writing a table, opening one and
//! checking that it is the table asked for, and solving one when no file is found.
//!
//! A rule set of a game plugs in through [`TableRules`]: the name of its file, the identity it
//! writes in a header and expects there, and its solve. The tablebase crate stores and compares
//! the identity without knowing what it means; the game gives it meaning. Errors name the
//! problem; what the user should do about it (for example, regenerate a corrupted file with the
//! command line's solve command) is the front end's to say.
//!
//! What touches files (writing a table, opening one from its path) is behind the crate's default
//! feature `files` (`table/file.rs`); a table opened from bytes ([`Table::from_tablebase`]) is
//! read the same way without it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use nana_engine::{ByteCode, CheckError, EntryWidth, Progress, Solution, SolveError, Stats, WideCode};
use nana_tablebase::{Counts, Expected, Header, Layout, Tablebase};

use crate::{Probe, ProbeRules};

mod entries;
mod error;
#[cfg(feature = "files")]
mod file;
mod order;
pub use entries::{Entries, ReadEntries};
pub use error::{Identity, RulesError, TableError};
#[cfg(feature = "files")]
pub use file::write;
pub use order::FileOrder;

/// A rule set of a game whose solution can be written, opened and solved.
pub trait TableRules: ProbeRules + Sized {
    /// The file name of its table in a tablebase folder, e.g. `nana-current.tb`.
    fn file_name(&self) -> String;

    /// The rule set's name as the header stores it, e.g. `current`.
    fn rule_set_name(&self) -> String;

    /// The rule options in words as the header stores them, e.g. `drop-stalemate on,
    /// hand-stalemate on` (empty for a game without options).
    fn options_text(&self) -> String;

    /// The rule set and its options in words, for messages.
    fn describe(&self) -> String {
        match self.options_text() {
            options if options.is_empty() => self.rule_set_name(),
            options => format!("{}, {options}", self.rule_set_name()),
        }
    }

    /// What a reader of its table expects in the header: the game's name, rule set and option
    /// ids, index layout, entry width and encoding, and the number of entries.
    fn expected(&self) -> Expected<'static>;

    /// The rule set that a header of this game says its table was built with; an error that
    /// names the field when the header names none of this game's rule sets. (A header of
    /// another game is refused before: [`TableError::OtherGame`].)
    fn from_header(header: &Header) -> Result<Self, RulesError>;

    /// Solves the rule set in memory, in entries of the width that [`TableRules::expected`]
    /// names.
    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError>;

    /// Re-checks every entry of a solution against the rules (the engine's independent
    /// [`nana_engine::check_with`] over the game's successors), calling `progress` with the
    /// number of entries done.
    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError>;

    /// A table's entries (of the width [`TableRules::expected`] names, its unused entries marked
    /// unused) whose wins hold no distance, each won entry restored to the distance its moves
    /// call for ([`nana_engine::restore_wins`] over the game's successors): what a table whose
    /// encoding stores every win as one value ([`nana_tablebase::Encoding::folds_wins`]) needs
    /// before it is read as a whole.
    fn restore_wins(&self, entries: &[u8], width: EntryWidth) -> Result<Vec<u8>, CheckError>;

    /// The won entries of at least `at_least` plies, each with its distance, in increasing
    /// order of entry, of a table's entries as [`TableRules::restore_wins`] takes them (wins'
    /// distances may be one value): [`nana_engine::wins_of_at_least`] over the game's
    /// successors and predecessors, which restores only the wins it may find.
    fn wins_of_at_least(
        &self,
        entries: &[u8],
        width: EntryWidth,
        at_least: u16,
    ) -> Result<Vec<(u16, u64)>, CheckError>;

    /// Whether its tables leave the entries its solve marks unused don't-care: the file stores
    /// them as whatever compresses best ([`Header::dont_care`]), so that a stored entry of an
    /// unused position holds some other entry's value. A game says so only where its probe
    /// provably never reads such an entry (it reads the entries of legal positions whose value
    /// the rules do not decide, [`ProbeRules::value_by_rules`]), and where
    /// [`TableRules::mark_unused`] finds every one of them again. By default, none.
    fn dont_care(&self) -> bool {
        false
    }

    /// How its table's file stores the entries: the tablebase crate's default, zstd blocks of 4096
    /// entries ([`Layout::DEFAULT`]); a game may choose another (Nana: zstd blocks of its own
    /// size, `docs/FORMAT.md`). A reader needs nothing but the file: the layout is in its header.
    fn layout(&self) -> Layout {
        Layout::DEFAULT
    }

    /// Marks unused, in entries of the width [`TableRules::expected`] names, every entry that its
    /// solve marks unused, from the rules alone: what a table whose unused entries are
    /// don't-care needs before it is read as a whole (its statistics, its check against the
    /// rules). Called only where [`TableRules::dont_care`] holds; by default nothing.
    fn mark_unused(&self, _entries: &mut [u8]) {}

    /// The header of its table: the identity a reader expects, with the solution's counts.
    fn header(&self, counts: Counts, max_dtm: u32) -> Header {
        let want = self.expected();
        Header {
            game: want.game.to_string(),
            rule_set: self.rule_set_name(),
            rule_set_id: want.rule_set_id,
            options: self.options_text(),
            option_bits: want.option_bits,
            layout_version: want.layout_version,
            entries: want.entries,
            entry_width: want.entry_width,
            encoding: want.encoding,
            counts,
            max_dtm,
            dont_care: self.dont_care(),
        }
    }
}

/// The counts of a histogram of entries of `width` (each value with how many entries hold
/// it), as [`Stats::of`] counts the entries themselves.
fn stats_of_histogram(histogram: &[(u16, u64)], width: EntryWidth) -> Stats {
    let unused = match width {
        EntryWidth::One => u16::from(ByteCode::ILLEGAL.0),
        EntryWidth::Two => WideCode::ILLEGAL.0,
    };
    let mut stats = Stats::default();
    for &(value, count) in histogram {
        match value {
            0 => stats.draws += count,
            v if v == unused => stats.illegal += count,
            v => {
                let d = usize::from(v - 1);
                if stats.per_dtm.len() <= d {
                    stats.per_dtm.resize(d + 1, 0);
                }
                stats.per_dtm[d] += count;
            }
        }
    }
    stats.losses = stats.per_dtm.iter().step_by(2).sum();
    stats.wins = stats.per_dtm.iter().skip(1).step_by(2).sum();
    stats.max_dtm = stats.per_dtm.len().saturating_sub(1) as u16;
    if stats.per_dtm.is_empty() {
        stats.per_dtm.push(0);
    }
    stats
}

/// Where a table's entries are.
// One per open table, never in a collection: the file's reader is kept inline.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Source {
    /// A validated file, read a block at a time (a plain one read whole when it was opened).
    File(Tablebase),
    /// A solve's result.
    Memory(Solution),
}

/// One rule set's solution, ready for lookups.
#[derive(Debug)]
pub struct Table<G> {
    game: G,
    source: Source,
    /// A compressed file's entries, or a solution's spread over the index, made the first time
    /// [`Table::entries`] asks for them.
    decoded: OnceLock<Vec<u8>>,
}

/// The path a file was opened from, for messages.
fn path_of(tb: &Tablebase) -> PathBuf {
    tb.path().map_or_else(|| PathBuf::from("(in memory)"), Path::to_path_buf)
}

impl<G: TableRules> Table<G> {
    /// A table whose file is already open (read from memory or a range at a time,
    /// [`Tablebase::from_reader`]), with the checks of [`Table::open`].
    pub fn from_tablebase(game: G, tb: Tablebase) -> Result<Table<G>, TableError> {
        let path = path_of(&tb);
        let built = Table::<G>::rules_of(&tb, &path, &game)?;
        let expected = game.expected();
        if (tb.header().rule_set_id, tb.header().option_bits) != (expected.rule_set_id, expected.option_bits)
        {
            let found = Identity { game: expected.game.to_string(), rules: built.describe() };
            let asked = Identity { game: expected.game.to_string(), rules: game.describe() };
            return Err(TableError::OtherRules { path, found, asked });
        }
        Table::checked(game, tb, &path)
    }

    /// The rule set a table of `like`'s game was built with; an error for a table of another
    /// game, or one whose header names no rule set of it.
    fn rules_of(tb: &Tablebase, path: &Path, like: &G) -> Result<G, TableError> {
        let h = tb.header();
        let expected = like.expected();
        if h.game != expected.game {
            let rules = if h.options.is_empty() {
                h.rule_set.clone()
            } else {
                format!("{}, {}", h.rule_set, h.options)
            };
            return Err(TableError::OtherGame {
                path: path.to_path_buf(),
                found: Identity { game: h.game.clone(), rules },
                asked: Identity { game: expected.game.to_string(), rules: like.describe() },
            });
        }
        G::from_header(h).map_err(|error| TableError::UnknownRules { path: path.to_path_buf(), error })
    }

    fn checked(game: G, tb: Tablebase, path: &Path) -> Result<Table<G>, TableError> {
        tb.check_expected(&game.expected())
            .map_err(|error| TableError::File { path: path.to_path_buf(), error })?;
        if tb.header().dont_care && !game.dont_care() {
            return Err(TableError::DontCare(path.to_path_buf()));
        }
        Ok(Table { game, source: Source::File(tb), decoded: OnceLock::new() })
    }

    /// A table solved in memory.
    pub fn solve(game: G, progress: &dyn Progress) -> Result<Table<G>, TableError> {
        let solution = game.solve(progress).map_err(TableError::Solve)?;
        Ok(Table::from_solution(game, solution))
    }

    /// A table of a solve's result, kept in memory (for a solution that could not be written).
    pub fn from_solution(game: G, solution: Solution) -> Table<G> {
        // Whole, so that its entries are one array ([`Table::try_entries`]).
        Table { game, source: Source::Memory(solution.into_whole()), decoded: OnceLock::new() }
    }

    /// The rule set.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Where the entries are.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The entries, in the engine's encoding: [`Table::try_entries`], for a table known to be
    /// intact (a solve's, or a file whose blocks a test or [`Table::check_blocks`] checked).
    ///
    /// # Panics
    /// Where a compressed file has a damaged block, or its blocks do not decode to the entries
    /// its header's checksum names (a writer that stored what it was not given).
    pub fn entries(&self) -> &[u8] {
        self.try_entries().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The entries, in the engine's encoding, as the solve gave them. A compressed file's are
    /// decoded, all of them, the first time they are asked for, each block checked against its
    /// checksum first and the whole against the header's checksum of the entries (as stored),
    /// its don't-care entries marked unused again ([`TableRules::mark_unused`]), its wins given
    /// their distances again where it stores every win as one value
    /// ([`TableRules::restore_wins`]), and kept:
    /// lookups do not need them ([`Table::probe`] reads the file an entry at a time), passes
    /// over the whole table do. An error (the first damaged block) is not kept: asked again,
    /// the blocks are read again.
    pub fn try_entries(&self) -> Result<&[u8], TableError> {
        match &self.source {
            Source::File(tb) => {
                let folds_wins = tb.header().encoding.folds_wins();
                // A plain file's payload, read whole when it was opened, is its entries (where
                // it stores them in the index's order).
                let index_order = self.game.file_order().is_index();
                if let (Layout::Plain, Some(payload), false, true) =
                    (tb.storage().layout, tb.payload(), folds_wins, index_order)
                {
                    return Ok(payload);
                }
                if let Some(entries) = self.decoded.get() {
                    return Ok(entries);
                }
                let mut entries = self.decode_marked(tb)?;
                if folds_wins {
                    entries = self
                        .game
                        .restore_wins(&entries, self.width())
                        .map_err(|error| TableError::Restore { path: path_of(tb), error })?;
                }
                Ok(self.decoded.get_or_init(|| entries))
            }
            Source::Memory(s) => Ok(s.as_whole().expect("a table's solution is whole")),
        }
    }

    /// A file's entries decoded, each block checked, in the index's order
    /// ([`ProbeRules::file_order`]), its don't-care entries marked unused again: as it stores
    /// them but for those.
    fn decode_marked(&self, tb: &Tablebase) -> Result<Vec<u8>, TableError> {
        let entries = tb.entries().map_err(|error| TableError::File { path: path_of(tb), error })?;
        let order = self.game.file_order();
        let mut entries = order.to_index_order(entries.into_owned(), self.width().bytes());
        if tb.header().dont_care {
            self.game.mark_unused(&mut entries);
        }
        Ok(entries)
    }

    /// The entries as the file stores them, decoded, its don't-care entries marked unused
    /// again, but where it stores every win as one value, its wins as stored (no distance):
    /// enough for a pass that needs each position's outcome alone, without the cost of
    /// restoring every win ([`Table::try_entries`]'s entries where the wins hold their
    /// distances). Decoded anew at each call unless [`Table::try_entries`] has them.
    pub fn try_stored_entries(&self) -> Result<std::borrow::Cow<'_, [u8]>, TableError> {
        match &self.source {
            Source::File(tb) if tb.header().encoding.folds_wins() => match self.decoded.get() {
                Some(entries) => Ok(std::borrow::Cow::Borrowed(entries)),
                None => self.decode_marked(tb).map(std::borrow::Cow::Owned),
            },
            _ => self.try_entries().map(std::borrow::Cow::Borrowed),
        }
    }

    /// The won positions' entries of at least `at_least` plies, each with its distance, in
    /// increasing order of entry. Where the file stores every win as one value and its entries
    /// are not restored yet, only the wins that may be that long are given their distances
    /// ([`TableRules::wins_of_at_least`]); otherwise the entries are read whole.
    pub fn wins_of_at_least(&self, at_least: u16) -> Result<Vec<(u16, u64)>, TableError> {
        // Decided once: the entries restored meanwhile by another thread change nothing here.
        let (size, width) = (self.game.size(), self.width());
        match &self.source {
            Source::File(tb) if tb.header().encoding.folds_wins() => match self.decoded.get() {
                Some(entries) => Ok(width.wins_of_at_least(entries, size, at_least)),
                None => self
                    .game
                    .wins_of_at_least(&self.decode_marked(tb)?, width, at_least)
                    .map_err(|error| TableError::Restore { path: path_of(tb), error }),
            },
            _ => Ok(width.wins_of_at_least(self.try_entries()?, size, at_least)),
        }
    }

    /// Checks every block of a compressed file against its checksum
    /// ([`Tablebase::check_blocks`]), without decoding any: for a caller that wants the whole
    /// file checked before it answers anything, rather than each block when a lookup reads it.
    /// Nothing to do for a plain file (checked whole when it was opened) or a solve.
    pub fn check_blocks(&self) -> Result<(), TableError> {
        match &self.source {
            Source::File(tb) => {
                tb.check_blocks().map_err(|error| TableError::File { path: path_of(tb), error })
            }
            Source::Memory(_) => Ok(()),
        }
    }

    /// The width of an entry.
    pub fn width(&self) -> EntryWidth {
        match &self.source {
            // Checked against the game's expectation when the file was opened.
            Source::File(tb) => EntryWidth::from_bytes(u64::from(tb.header().entry_width))
                .expect("an entry width the engine knows"),
            Source::Memory(s) => s.width,
        }
    }

    /// Lookups in the table: a file's entries are read one at a time, a solve's from memory.
    pub fn probe(&self) -> Probe<'_, G>
    where
        G: Clone,
    {
        let probe = match &self.source {
            Source::File(tb) => Probe::of_file(self.game.clone(), tb),
            Source::Memory(s) => Probe::of_solution(self.game.clone(), s),
        };
        probe.expect("the size was checked when the table was opened or solved")
    }

    /// The solution's counts per value and distance: a compressed file's from its histogram
    /// (nothing decoded), a plain file's counted from its entries.
    pub fn stats(&self) -> Stats {
        match &self.source {
            Source::File(tb) => match tb.histogram() {
                Some(histogram) => stats_of_histogram(&histogram, self.width()),
                None => Stats::of(self.entries(), self.width()),
            },
            Source::Memory(s) => s.stats.clone(),
        }
    }

    /// Where the table came from, for messages: its path, or "solved in memory".
    pub fn origin(&self) -> String {
        match &self.source {
            Source::File(tb) => {
                tb.path().map_or_else(|| "in memory".to_string(), |p| p.display().to_string())
            }
            Source::Memory(_) => "solved in memory".to_string(),
        }
    }
}
