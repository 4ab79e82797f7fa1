//! Reading a solved game: the value of a position, its legal moves ranked best first, the best
//! move, the mainline, the consistency check of a table against the rules, and the JSON answer
//! that every front end (the command line's JSON output, an HTTP API) returns.
//!
//! A game plugs in through its rule-set type, which implements [`ProbeRules`] (a value of it is
//! one rule set of the game): the index of a position, its legal moves with the positions they
//! lead to, the notations of a move, the string form of a position, and why a position is
//! terminal ([`Terminal`], with an [`Ending`] such as "checkmate" or "lion captured"). The
//! entries are the solver's bytes (`&[u8]`) in one of the engine's encodings ([`EntryWidth`]).
//! This crate names no game: the crate graph is game → probe → engine.
//!
//! Long: the value, the ranking and the mainline share one walk over a position's moves
//! (`valued_moves`), and this documentation with its example is a ninth of the file.
//!
//! # The JSON answer
//!
//! [`Answer`] (a position, its moves and its mainline) and [`Summary`] (a position alone, as a
//! batch line gives it), with the methods that make them, are in one module (`response.rs`),
//! and are serialised with serde. Their keys are those the Nana front end has
//! always written, kept so that its output stays byte for byte the same:
//!
//! - `fen`: the game's string form of the position ([`ProbeRules::position_string`]);
//! - `uci` and `san` of a move, as the Lichess API names them: the game's machine notation
//!   ([`ProbeRules::machine_notation`], also used by `best_move` and `mainline`) and its human
//!   notation ([`ProbeRules::human_notation`]), whatever the game calls them (Nana: USI-like and
//!   Hodges style; Dobutsu: Fairy-Stockfish's and a SAN-like notation);
//! - `category` and `dtm`: `"win"`, `"loss"` or `"draw"` and the distance to mate in plies, for
//!   the side to move at the position — for a move, *after* the move, as in the Lichess
//!   tablebase API;
//! - one boolean per ending of the game, keyed by [`Ending::name`] (snake_case) in the order of
//!   [`ProbeRules::ENDINGS`] (`checkmate` and `stalemate` for Nana): for a position, whether the
//!   game is over there for that reason; for a move, whether the move ends the game so.
//!
//! ```
//! use nana_engine::{Dtm, EntryWidth, Value};
//! use nana_probe::{Ending, InputError, Probe, ProbeRules, Terminal};
//!
//! /// Take-away: take one or two of `n` stones; who cannot move has lost.
//! struct TakeAway;
//! const EMPTY: Ending = Ending::new("empty");
//!
//! impl ProbeRules for TakeAway {
//!     type Position = u64;
//!     type Move = u64;
//!     type ParseError = InputError;
//!     const ENDINGS: &'static [Ending] = &[EMPTY];
//!     const TERMINAL_VALUES: &'static [Value] = &[Value::Loss(Dtm(0))];
//!     fn size(&self) -> u64 { 4 }
//!     fn index(&self, n: &u64) -> u64 { *n }
//!     fn for_each_move(&self, n: &u64, mut f: impl FnMut(u64, &u64)) {
//!         for take in (1..=2).filter(|t| t <= n) { f(take, &(n - take)) }
//!     }
//!     fn terminal(&self, n: &u64) -> Option<Terminal> {
//!         (*n == 0).then_some(Terminal { value: Value::Loss(Dtm(0)), ending: EMPTY })
//!     }
//!     fn machine_notation(&self, _: &u64, take: u64) -> String { format!("-{take}") }
//!     fn human_notation(&self, _: &u64, take: u64) -> String { format!("take {take}") }
//!     fn position_string(&self, n: &u64) -> String { n.to_string() }
//!     fn unindex(&self, i: u64) -> Option<u64> { (i < 4).then_some(i) }
//!     fn start(&self) -> u64 { 3 }
//!     fn parse_position(&self, s: &str) -> Result<u64, InputError> {
//!         s.parse().ok().filter(|n| *n < 4).ok_or(InputError(format!("not 0 to 3 stones: {s}")))
//!     }
//!     fn parse_move(&self, n: &u64, s: &str) -> Result<u64, InputError> {
//!         s.strip_prefix('-').and_then(|t| t.parse().ok()).filter(|t| (1..=2).contains(t) && t <= n)
//!             .ok_or(InputError(format!("not a legal move: {s}")))
//!     }
//!     fn play(&self, n: &u64, take: u64) -> u64 { n - take }
//! }
//!
//! // The solver's one-byte entries (DTM + 1): 0 stones a loss in 0, 1 and 2 a win in 1, 3 a loss in 2.
//! let entries = [1, 2, 2, 3];
//! let probe = Probe::with_width(TakeAway, &entries, EntryWidth::One)?;
//! assert_eq!(probe.value(&3)?, Value::Loss(Dtm(2)));
//! assert_eq!(probe.mainline(&2, 10)?, vec![2]);
//! let json = serde_json::to_string(&probe.answer(&1, 10)?)?;
//! assert_eq!(
//!     json,
//!     r#"{"fen":"1","category":"win","dtm":1,"empty":false,"best_move":"-1","moves":[{"uci":"-1","san":"take 1","usi":"-1","category":"loss","dtm":0,"empty":true}],"mainline":["-1"]}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod echo;
mod response;
mod searched;
pub mod table;

pub use response::{Answer, Endings, MoveAnswer, Summary};

use std::fmt;

use nana_engine::{Dtm, EntryWidth, Value};

/// Why the game is over at a position, as the game names it: `checkmate`, `stalemate`,
/// `lion_captured`, `try`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ending {
    /// The name, also the key of its flag in the JSON answer: snake_case.
    pub name: &'static str,
}

impl Ending {
    /// An ending named `name`, in snake_case (lower-case ASCII letters and underscores, as a
    /// JSON key should be); any other name fails to compile where it is a constant:
    ///
    /// ```compile_fail
    /// const CAPTURED: nana_probe::Ending = nana_probe::Ending::new("lion captured");
    /// ```
    pub const fn new(name: &'static str) -> Ending {
        let bytes = name.as_bytes();
        assert!(!bytes.is_empty(), "an ending has a name");
        let mut i = 0;
        while i < bytes.len() {
            assert!(bytes[i].is_ascii_lowercase() || bytes[i] == b'_', "an ending's name is snake_case");
            i += 1;
        }
        Ending { name }
    }

    /// The name in words: `lion captured`.
    pub fn words(&self) -> String {
        self.name.replace('_', " ")
    }
}

/// A position where the game is over: its value for the side to move, fixed by the rules (a
/// loss in 0 where it has lost, a win where it has won at once), and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Terminal {
    pub value: Value,
    pub ending: Ending,
}

/// An input error in words: the [`ProbeRules::ParseError`] of a game whose errors are sentences
/// (a test double, a toy game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// What the probe needs to know of a game's rules, implemented on the game's rule-set type (a
/// value is one rule set: Nana's `Rules`, Dobutsu's `Rules`), not on a type for the game.
pub trait ProbeRules {
    /// A position, with the side to move.
    type Position: Clone;
    /// A move, as [`ProbeRules::for_each_move`] gives it.
    type Move: Copy;
    /// Why a position or move string could not be read: one line that names the input and the
    /// problem.
    type ParseError: std::error::Error + Send + Sync + 'static;

    /// Every way the game can end, in the order of preference among moves of equal value: a
    /// move that ends the game the first way comes before one that ends it the second way
    /// (Nana prefers a mate to a stalemate). Also the order of their flags in the JSON answer.
    const ENDINGS: &'static [Ending];

    /// Every value a terminal position can have (Nana: a loss in 0; a game where the side to
    /// move can win at once: a win in 1 too). A speed-up: the probe asks
    /// [`ProbeRules::terminal`] of the position a move leads to only when that position holds
    /// one of these values.
    const TERMINAL_VALUES: &'static [Value];

    /// The number of entries of the game's index.
    fn size(&self) -> u64;

    /// The index entry of a legal position (below [`ProbeRules::size`]) whose value the rules do
    /// not decide ([`ProbeRules::value_by_rules`]).
    fn index(&self, pos: &Self::Position) -> u64;

    /// Where its table files store each index entry: by default in the index's order; a game
    /// may choose another that compresses better. Its tables' layout version names it.
    fn file_order(&self) -> table::FileOrder {
        table::FileOrder::INDEX
    }

    /// Calls `f` with every legal move of a position that is not terminal and the position it
    /// leads to, in any order.
    fn for_each_move(&self, pos: &Self::Position, f: impl FnMut(Self::Move, &Self::Position));

    /// Whether the game is over at a position, with its value and why; `None` for a position
    /// where the side to move has a legal move to make.
    fn terminal(&self, pos: &Self::Position) -> Option<Terminal>;

    /// A move in the machine notation (USI-like): what the answer's `uci`, `best_move` and
    /// `mainline` hold, and the order of moves of equal value and equal ending.
    fn machine_notation(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// A move in the human notation (Hodges style for Nana): the answer's `san`.
    fn human_notation(&self, pos: &Self::Position, mv: Self::Move) -> String;

    /// The string form of a position (an SFEN-like string): the answer's `fen` and the position
    /// named in errors.
    fn position_string(&self, pos: &Self::Position) -> String;

    /// A move as a USI GUI writes it (after `position ... moves`): the answer's `usi`. By
    /// default the machine notation, for a game whose machine notation is USI's (Nana's).
    fn usi_notation(&self, pos: &Self::Position, mv: Self::Move) -> String {
        self.machine_notation(pos, mv)
    }

    /// A position as a USI GUI writes it after `position sfen`; by default
    /// [`ProbeRules::position_string`].
    fn usi_position(&self, pos: &Self::Position) -> String {
        self.position_string(pos)
    }

    /// A move as a KIF record writes it (`３三ライオン(24)`): the answer's `kif`. By default
    /// `None`, for a game no KIF reader knows.
    fn kif_notation(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<String> {
        None
    }

    /// The head of a KIF record that starts at a position (its board diagram, hands and side to
    /// move, and the line over the moves), each move then a line of its number and its
    /// [`ProbeRules::kif_notation`]. By default `None`, as for the moves.
    fn kif_position(&self, _pos: &Self::Position) -> Option<String> {
        None
    }

    /// A legal position that the index entry `index` stands for (the game picks one where an
    /// entry stands for several, such as mirror images); `None` for an unused entry or one
    /// out of range. `index(unindex(i)) == i` wherever it is `Some`.
    fn unindex(&self, index: u64) -> Option<Self::Position>;

    /// The position the game starts from.
    fn start(&self) -> Self::Position;

    /// Reads a position in the game's string form ([`ProbeRules::position_string`], and any
    /// other form the game accepts).
    fn parse_position(&self, input: &str) -> Result<Self::Position, Self::ParseError>;

    /// Reads a legal move of a position in any notation the game accepts; the error says so
    /// where the game is over.
    fn parse_move(&self, pos: &Self::Position, input: &str) -> Result<Self::Move, Self::ParseError>;

    /// The position after a legal move.
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// The value of a position that the rules decide and the table does not hold, if this is
    /// one: [`Probe::value`] asks this before it looks the position up. By default none (every
    /// legal position is looked up); Dobutsu's: a position where the side to move can take the
    /// lion (a win in 1) and one where its lion has been taken (a loss in 0, not in the index).
    fn value_by_rules(&self, _pos: &Self::Position) -> Option<Value> {
        None
    }

    /// What it means that the entry of a legal position is marked unused, in the words that end
    /// [`ProbeError::Unused`]'s message. By default, for a game whose tables value every legal
    /// position, that the table is not this rule set's; a game whose tables hold some positions
    /// only (Dobutsu's: those reachable from the start) says which.
    fn unused_entry(&self) -> &'static str {
        "the table was not built for these rules"
    }
}

/// Why a lookup failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The solution has the wrong number of entries for this index.
    WrongSize { entries: u64, expected: u64 },
    /// The solution's bytes are not a whole number of entries of this width.
    PartEntry { bytes: u64, width: EntryWidth },
    /// The entry of a legal position is marked unused; `meaning` is what that means for the
    /// game ([`ProbeRules::unused_entry`]): the table does not fit these rules, or it holds no
    /// such positions.
    Unused { index: u64, meaning: &'static str },
    /// A position's stored value disagrees with the values of its moves, or with the value the
    /// rules give it where the game is over.
    Inconsistent { position: String },
    /// The table file is damaged where entry `index` lies: the block that holds it does not
    /// match its checksum, or does not decode. `error` names the damage (the file's error in
    /// words, e.g. a checksum mismatch in compressed block 12). Making the table again cures it.
    Damaged { index: u64, error: String },
}

impl ProbeError {
    /// Whether making the table again cures the error: true for a damaged file
    /// ([`ProbeError::Damaged`]).
    pub fn needs_regeneration(&self) -> bool {
        matches!(self, ProbeError::Damaged { .. })
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::WrongSize { entries, expected } => {
                write!(f, "the table has {entries} entries, the index needs {expected}")
            }
            ProbeError::PartEntry { bytes, width } => {
                write!(f, "the table has {bytes} bytes, not a whole number of entries of {width}")
            }
            ProbeError::Unused { index, meaning } => {
                write!(f, "entry {index} of a legal position is marked unused: {meaning}")
            }
            ProbeError::Inconsistent { position } => write!(
                f,
                "the table is inconsistent at {position}: its value disagrees with its moves' values"
            ),
            ProbeError::Damaged { index, error } => write!(f, "entry {index} cannot be read: {error}"),
        }
    }
}

impl std::error::Error for ProbeError {}

/// How many of a position's moves win, and how many draw, for the player making them (the
/// rest lose): the counts a researcher asks of a position, e.g. won positions with exactly one
/// winning move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveCounts {
    pub winning: u16,
    pub drawing: u16,
}

/// A legal move with the value it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove<P, M> {
    pub mv: M,
    pub child: P,
    /// The value of the position after the move, for the side to move there (the opponent).
    pub child_value: Value,
    /// How the move ends the game, if it does (the position after it is terminal).
    pub ending: Option<Ending>,
}

impl<P, M> RankedMove<P, M> {
    /// The value of the move for the player making it, with the distance counted from the
    /// position after the move.
    pub fn value(&self) -> Value {
        self.child_value.negate()
    }

    /// The value of the move for the player making it, with the distance counted from the
    /// position before the move (the move itself is the first ply): the value the position
    /// has when this is its best move.
    pub fn value_before(&self) -> Value {
        match self.value() {
            Value::Win(d) => Value::Win(Dtm(d.0 + 1)),
            Value::Loss(d) => Value::Loss(Dtm(d.0 + 1)),
            Value::Draw => Value::Draw,
        }
    }
}

/// The ranked moves of a game's position.
pub type Ranked<G> = RankedMove<<G as ProbeRules>::Position, <G as ProbeRules>::Move>;

/// A move of a line: the position it is played from (which its notation may need) and the move
/// with the value it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ply<P, M> {
    pub from: P,
    pub ranked: RankedMove<P, M>,
}

/// A ply of a game's line.
pub type LinePly<G> = Ply<<G as ProbeRules>::Position, <G as ProbeRules>::Move>;

/// Everything the answer about a position is made of: its value, its moves ranked best first
/// and its mainline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis<P, M> {
    /// For the side to move.
    pub value: Value,
    /// Every legal move, best first ([`Probe::ranked_moves`]).
    pub moves: Vec<RankedMove<P, M>>,
    /// The principal variation ([`Probe::walk`]).
    pub mainline: Vec<Ply<P, M>>,
}

/// The analysis of a game's position.
pub type GameAnalysis<G> = Analysis<<G as ProbeRules>::Position, <G as ProbeRules>::Move>;

/// Where a probe finds a won position's distance to mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wins {
    /// In its entry, as every other value.
    Stored,
    /// By a search of its moves: its entry says only that it is won (whatever distance it
    /// holds), and the distance is one more than the least distance of a lost position one of
    /// its moves leads to, each valued by the rules or by its entry. A won position where the
    /// game is over has its value from the rules.
    Searched,
}

/// A solution of one game, ready for lookups.
#[derive(Debug, Clone, Copy)]
pub struct Probe<'a, G> {
    game: G,
    entries: table::Entries<'a>,
    /// Where `entries` holds each index entry: a file's order, or the index's for entries in
    /// memory.
    order: table::FileOrder,
    width: EntryWidth,
    wins: Wins,
}

impl<'a, G: ProbeRules> Probe<'a, G> {
    /// A solution in one-byte entries.
    pub fn new(game: G, entries: &'a [u8]) -> Result<Probe<'a, G>, ProbeError> {
        Probe::with_width(game, entries, EntryWidth::One)
    }

    /// A solution in entries of `width`; an error unless it has exactly one entry per index
    /// entry of the game.
    pub fn with_width(game: G, entries: &'a [u8], width: EntryWidth) -> Result<Probe<'a, G>, ProbeError> {
        let (bytes, per_entry) = (entries.len() as u64, width.bytes() as u64);
        if bytes % per_entry != 0 {
            return Err(ProbeError::PartEntry { bytes, width });
        }
        let expected = game.size();
        if bytes / per_entry != expected {
            return Err(ProbeError::WrongSize { entries: bytes / per_entry, expected });
        }
        let order = table::FileOrder::INDEX;
        Ok(Probe { game, entries: table::Entries::Bytes(entries), order, width, wins: Wins::Stored })
    }

    /// A solution in memory; an error unless it has exactly one entry per index entry of the
    /// game.
    pub fn of_solution(game: G, solution: &'a nana_engine::Solution) -> Result<Probe<'a, G>, ProbeError> {
        let (entries, expected) = (solution.len(), game.size());
        if entries != expected {
            return Err(ProbeError::WrongSize { entries, expected });
        }
        Ok(Probe {
            game,
            entries: table::Entries::Solution(solution),
            order: table::FileOrder::INDEX,
            width: solution.width,
            wins: Wins::Stored,
        })
    }

    /// A table file's entries, of the width its header names, read one at a time (a compressed
    /// table decodes an entry's block), wins' distances searched where its encoding stores every
    /// win as one value ([`Wins::Searched`]); an error unless it has exactly one entry per index
    /// entry of the game.
    pub fn of_file(game: G, file: &'a nana_tablebase::Tablebase) -> Result<Probe<'a, G>, ProbeError> {
        // A validated header's width is 1 or 2 bytes, both of which the engine reads.
        let width = EntryWidth::from_bytes(u64::from(file.header().entry_width))
            .expect("a validated table's entry width");
        let (entries, expected) = (file.header().entries, game.size());
        if entries != expected {
            return Err(ProbeError::WrongSize { entries, expected });
        }
        // A table that stores every win as one value leaves its distance to a search.
        let wins = if file.header().encoding.folds_wins() { Wins::Searched } else { Wins::Stored };
        let order = game.file_order();
        Ok(Probe { game, entries: table::Entries::File(file), order, width, wins })
    }

    /// A table file's entries read through `reader` (for example a cache of decoded blocks of
    /// the caller's), of the width the file's header names; an error unless the file has
    /// exactly one entry per index entry of the game.
    pub fn of_reader(
        game: G,
        file: &nana_tablebase::Tablebase,
        reader: &'a dyn table::ReadEntries,
    ) -> Result<Probe<'a, G>, ProbeError> {
        let Probe { game, order, width, wins, .. } = Probe::of_file(game, file)?;
        Ok(Probe { game, entries: table::Entries::Reader(reader), order, width, wins })
    }

    /// The same probe, finding won positions' distances as `wins` says.
    pub fn with_wins(self, wins: Wins) -> Probe<'a, G> {
        Probe { wins, ..self }
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn width(&self) -> EntryWidth {
        self.width
    }

    /// The value of a legal position for its side to move: as the rules decide it
    /// ([`ProbeRules::value_by_rules`]), else from the table; [`ProbeError::Damaged`] where the
    /// table file's block that holds it is damaged, never a value.
    #[inline]
    pub fn value(&self, pos: &G::Position) -> Result<Value, ProbeError> {
        if let Some(value) = self.game.value_by_rules(pos) {
            return Ok(value);
        }
        match self.stored(pos)? {
            Value::Win(_) if self.wins == Wins::Searched => self.searched_win(pos),
            value => Ok(value),
        }
    }

    /// A legal position's value as the rules decide it, else as its entry holds it, a won
    /// position's distance not searched ([`Wins::Searched`]: then the entry's distance means
    /// nothing). For a reader that fetches entries as they are asked for: the entries a search
    /// reads are those of positions a move leads to, read this way.
    pub fn stored_value(&self, pos: &G::Position) -> Result<Value, ProbeError> {
        match self.game.value_by_rules(pos) {
            Some(value) => Ok(value),
            None => self.stored(pos),
        }
    }

    /// Where the probe finds won positions' distances.
    pub fn wins(&self) -> Wins {
        self.wins
    }

    /// The value a legal position's entry holds.
    #[inline]
    fn stored(&self, pos: &G::Position) -> Result<Value, ProbeError> {
        let i = self.game.index(pos);
        match self.entries.value(self.width, self.order.place(i)) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(ProbeError::Unused { index: i, meaning: self.game.unused_entry() }),
            Err(error) => Err(ProbeError::Damaged { index: i, error: error.to_string() }),
        }
    }

    /// Every legal move, best first for the side to move: fastest win, draws, slowest loss.
    /// Among moves of equal value, one that ends the game comes before one that does not, and
    /// one that ends it by an earlier ending of [`ProbeRules::ENDINGS`] before a later one;
    /// otherwise the machine notation's order decides. A terminal position has none.
    ///
    /// Checks the position's own value: the best move's value where the game goes on, the
    /// rules' value where it is over (the same for a position a move leads to that holds one
    /// of [`ProbeRules::TERMINAL_VALUES`]).
    pub fn ranked_moves(&self, pos: &G::Position) -> Result<Vec<Ranked<G>>, ProbeError> {
        let Some((own, mut moves)) = self.valued_moves(pos)? else { return Ok(Vec::new()) };
        moves.sort_by_cached_key(|m| (self.order(m), self.game.machine_notation(pos, m.mv)));
        self.checked_best(pos, own, moves.first())?;
        Ok(moves)
    }

    /// The best move (the first of [`Probe::ranked_moves`]), `None` where the game is over.
    /// Only the moves of the best value and ending are written in machine notation, to choose
    /// among them.
    pub fn best_move(&self, pos: &G::Position) -> Result<Option<Ranked<G>>, ProbeError> {
        Ok(self.best_move_and_counts(pos)?.0)
    }

    /// The best move ([`Probe::best_move`]) and how many of the moves win and draw for the
    /// player making them, from the same lookups; no move where the game is over.
    pub fn best_move_and_counts(
        &self,
        pos: &G::Position,
    ) -> Result<(Option<Ranked<G>>, MoveCounts), ProbeError> {
        if self.wins == Wins::Searched {
            return self.best_move_searched(pos);
        }
        let Some((own, moves)) = self.valued_moves(pos)? else { return Ok((None, MoveCounts::default())) };
        let mut counts = MoveCounts::default();
        for m in &moves {
            match m.value() {
                Value::Win(_) => counts.winning += 1,
                Value::Draw => counts.drawing += 1,
                Value::Loss(_) => {}
            }
        }
        let least = moves.iter().map(|m| self.order(m)).min();
        let best = moves
            .into_iter()
            .filter(|m| Some(self.order(m)) == least)
            .min_by_key(|m| self.game.machine_notation(pos, m.mv));
        self.checked_best(pos, own, best.as_ref())?;
        Ok((best, counts))
    }

    /// The position's value and its moves with theirs, in the order the game makes them;
    /// `None` for a position where the game is over (its value checked against the rules').
    #[allow(clippy::type_complexity)]
    fn valued_moves(&self, pos: &G::Position) -> Result<Option<(Value, Vec<Ranked<G>>)>, ProbeError> {
        let own = self.value(pos)?;
        if let Some(t) = self.game.terminal(pos) {
            return if own == t.value { Ok(None) } else { Err(self.inconsistent(pos)) };
        }
        let mut moves = Vec::new();
        self.try_each_move(pos, |mv, child| {
            let child_value = self.value(child)?;
            let ending = self.ending(child, child_value)?;
            moves.push(RankedMove { mv, child: child.clone(), child_value, ending });
            Ok(())
        })?;
        Ok(Some((own, moves)))
    }

    /// Calls `f` with every legal move of `pos` and the position it leads to, until `f` fails:
    /// its first error.
    fn try_each_move(
        &self,
        pos: &G::Position,
        mut f: impl FnMut(G::Move, &G::Position) -> Result<(), ProbeError>,
    ) -> Result<(), ProbeError> {
        let mut err = None;
        self.game.for_each_move(pos, |mv, child| {
            if err.is_none() {
                err = f(mv, child).err();
            }
        });
        err.map_or(Ok(()), Err)
    }

    /// How a move into `child`, valued `child_value` (exactly), ends the game: asked of the
    /// rules only where the value is one of [`ProbeRules::TERMINAL_VALUES`], and inconsistent
    /// where the rules end the game there with another value.
    fn ending(&self, child: &G::Position, child_value: Value) -> Result<Option<Ending>, ProbeError> {
        if !G::TERMINAL_VALUES.contains(&child_value) {
            return Ok(None);
        }
        match self.game.terminal(child) {
            Some(t) if t.value != child_value => Err(self.inconsistent(child)),
            t => Ok(t.map(|t| t.ending)),
        }
    }

    /// Where a move goes in [`Probe::ranked_moves`], but for the machine notation that breaks
    /// ties: its value's rank, then its ending's place among [`ProbeRules::ENDINGS`] (none
    /// last).
    fn order(&self, m: &Ranked<G>) -> (impl Ord, usize) {
        let ending = m.ending.map_or(usize::MAX, |e| {
            G::ENDINGS.iter().position(|&known| known == e).unwrap_or(usize::MAX - 1)
        });
        (m.value().rank_key(), ending)
    }

    /// A position that is not over has a move (the game's contract), and its value is its
    /// best move's.
    fn checked_best(
        &self,
        pos: &G::Position,
        own: Value,
        best: Option<&Ranked<G>>,
    ) -> Result<(), ProbeError> {
        match best {
            Some(best) if best.value_before() == own => Ok(()),
            _ => Err(self.inconsistent(pos)),
        }
    }

    fn inconsistent(&self, p: &G::Position) -> ProbeError {
        ProbeError::Inconsistent { position: self.game.position_string(p) }
    }

    /// The principal variation: best moves to the end of the game for a won or lost position;
    /// for a draw, a drawing line of at most `draw_plies` moves.
    pub fn mainline(&self, pos: &G::Position, draw_plies: usize) -> Result<Vec<G::Move>, ProbeError> {
        Ok(self.walk(pos, draw_plies)?.into_iter().map(|ply| ply.ranked.mv).collect())
    }

    /// The mainline ([`Probe::mainline`]), each move with the position it is played from and the
    /// value it leads to.
    pub fn walk(&self, pos: &G::Position, draw_plies: usize) -> Result<Vec<LinePly<G>>, ProbeError> {
        let (line, end) = self.walk_so_far(pos, draw_plies);
        end.map(|()| line)
    }

    /// The mainline ([`Probe::walk`]) as far as it can be read: its plies up to the first
    /// lookup that fails, with that failure (`Ok` where the line is whole). For a reader whose
    /// table bytes arrive as they are asked for: the plies known so far are worth showing.
    pub fn walk_so_far(
        &self,
        pos: &G::Position,
        draw_plies: usize,
    ) -> (Vec<LinePly<G>>, Result<(), ProbeError>) {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        let drawn = match self.value(&pos) {
            Ok(value) => value == Value::Draw,
            Err(e) => return (line, Err(e)),
        };
        // A decided line ends by itself: the checked distance shrinks every ply.
        while !drawn || line.len() < draw_plies {
            let best = match self.best_move(&pos) {
                Ok(Some(best)) => best,
                Ok(None) => break,
                Err(e) => return (line, Err(e)),
            };
            let next = best.child.clone();
            line.push(Ply { from: std::mem::replace(&mut pos, next), ranked: best });
        }
        (line, Ok(()))
    }

    /// The value, the ranked moves and the mainline of a position (a drawing line of at most
    /// `draw_plies` moves for a draw): what [`Probe::answer`] is made of, for a front end that
    /// shows more than the answer.
    pub fn analyse(&self, pos: &G::Position, draw_plies: usize) -> Result<GameAnalysis<G>, ProbeError> {
        let value = self.value(pos)?;
        let moves = self.ranked_moves(pos)?;
        let mainline = self.walk(pos, draw_plies)?;
        Ok(Analysis { value, moves, mainline })
    }
}
