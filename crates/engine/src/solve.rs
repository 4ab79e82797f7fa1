//! The parallel retrograde solver.
//!
//! 1. **Forward pass.** Every entry asks the game what it is. Illegal entries are marked;
//!    terminal entries get the value the game gives them and wait, by distance, for their turn
//!    as a frontier (a no-move loss enters at 0, a win at once at 1), unless no move leads into
//!    them ([`Game::has_predecessors`]); inner entries count their
//!    distinct successors (or, where the solver keeps the successors, each as often as the game
//!    reports it, with as many edges back: the same result).
//! 2. **Backward passes**, one per distance `d`. The frontier of `d` is what the previous pass
//!    decided plus the terminal entries of distance `d`. From a frontier of losses in `d`, every
//!    undecided predecessor becomes a win in `d + 1`. From a frontier of wins in `d`, every
//!    undecided predecessor loses one from its counter; the one that reaches zero has only
//!    winning replies left and becomes a loss in `d + 1`, the longest resistance, because the
//!    frontiers are processed in order of distance. Terminal entries are decided from the start,
//!    so no pass writes them or touches their counters.
//! 3. What is still undecided when no frontier is left is a draw.
//!
//! A pass runs its frontier in parallel, then applies what it found to each range of entries in
//! one task, which owns them (plain loads and stores, no atomic read-modify-write). The set of
//! entries a pass decides, and their values, do not depend on the order in which threads meet
//! them (a win is only ever written as `d + 1` in a pass, a counter only reaches zero once), so
//! the solution is the same for every thread count.
//!
//! The solver is generic at compile time over the entry encoding (one or two bytes) and over
//! the counter (one byte, or four where some entry has more than 255 successors), and
//! dispatches once per solve: the common case runs the same byte-wide loops as always.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering};

use rayon::prelude::*;

use crate::value::{Code, Entry, EntryWidth, Value, WideEntry};
use crate::{Census, Game, Node, Subset};

/// Receives progress reports; the command line shows them as progress bars.
pub trait Progress: Sync {
    /// The phases to come, in order, the next one to begin first, as far as the caller knows
    /// them: a receiver that counts phases ("phase 2 of 3") keeps the names it knows where they
    /// are and adds the others after them, so that a game's solve can announce its own phases
    /// and the engine's before the engine announces its own. By default ignored.
    fn plan(&self, phases: &[&str]) {
        let _ = phases;
    }
    /// A phase of `total` units of work begins.
    fn begin(&self, phase: &str, total: u64);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
    /// The current phase is over.
    fn end(&self);
}

/// The phases a [`Progress`] receiver has been told of, for numbering them: "phase 2 of 3".
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PhasePlan(Vec<String>);

impl PhasePlan {
    /// Takes [`Progress::plan`]'s announcement: names known keep their place, the others
    /// follow them in order.
    pub fn announce(&mut self, phases: &[&str]) {
        for phase in phases {
            if !self.0.iter().any(|p| p == phase) {
                self.0.push(phase.to_string());
            }
        }
    }

    /// The number of `phase` among the phases known, from 1, and how many there are; a phase
    /// begun without being announced is added after the others.
    pub fn number(&mut self, phase: &str) -> (usize, usize) {
        let at = match self.0.iter().position(|p| p == phase) {
            Some(at) => at,
            None => {
                self.0.push(phase.to_string());
                self.0.len() - 1
            }
        };
        (at + 1, self.0.len())
    }
}

/// Reports nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
}

/// Counts over a solution.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub illegal: u64,
    /// The longest distance to mate of any decided entry.
    pub max_dtm: u16,
    /// `per_dtm[d]` is the number of entries decided with distance `d`.
    pub per_dtm: Vec<u64>,
}

impl Stats {
    /// Counts the entries of a solution stored `width` bytes per entry.
    pub fn of(entries: &[u8], width: EntryWidth) -> Stats {
        match width {
            EntryWidth::One => Stats::of_code::<Entry>(entries),
            EntryWidth::Two => Stats::of_code::<WideEntry>(entries),
        }
    }

    fn of_code<E: Code>(entries: &[u8]) -> Stats {
        let bytes = E::WIDTH.bytes();
        let illegal: usize = E::ILLEGAL.into();
        let mut hist = entries
            .par_chunks(bytes << 16)
            .fold(
                || vec![0u64; illegal + 1],
                |mut h, chunk| {
                    for i in 0..chunk.len() / bytes {
                        h[E::read_raw(chunk, i).into()] += 1;
                    }
                    h
                },
            )
            .reduce(
                || vec![0u64; illegal + 1],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let illegal = std::mem::take(&mut hist[illegal]);
        let draws = hist[0];
        let per_dtm: Vec<u64> = hist[1..hist.len() - 1].to_vec();
        let max_dtm = per_dtm.iter().rposition(|&n| n > 0).unwrap_or(0) as u16;
        let per_dtm = per_dtm[..=max_dtm as usize].to_vec();
        let losses = per_dtm.iter().step_by(2).sum();
        let wins = per_dtm.iter().skip(1).step_by(2).sum();
        Stats { wins, losses, draws, illegal, max_dtm, per_dtm }
    }

    pub fn legal(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
}

/// A solved game: one entry of `width` bytes per index entry ([`Entry`] or [`WideEntry`],
/// little-endian).
#[derive(Debug, Clone)]
pub struct Solution {
    pub entries: Solved,
    pub width: EntryWidth,
    pub stats: Stats,
}

/// Where a solution's entries are.
#[derive(Debug, Clone)]
pub enum Solved {
    /// Every index entry's, in an array.
    Whole(Vec<u8>),
    /// The one-byte entries of a set's members, by dense number; every other index entry is
    /// unused. Spread over the index when asked ([`Solved::fill`]), so that a table is written
    /// block by block without the whole array in memory.
    Members { set: Subset, values: Vec<u8> },
}

impl Solution {
    /// A solution of every index entry, with its counts.
    pub fn whole(entries: Vec<u8>, width: EntryWidth) -> Solution {
        let stats = Stats::of(&entries, width);
        Solution { entries: Solved::Whole(entries), width, stats }
    }

    /// A solution of a set's members (one-byte entries by dense number), with its counts: every
    /// entry outside the set is unused.
    pub fn of_members(set: Subset, values: Vec<u8>) -> Solution {
        assert_eq!(values.len() as u64, set.len(), "one value per member");
        let mut stats = Stats::of(&values, EntryWidth::One);
        stats.illegal += set.universe() - set.len();
        Solution { entries: Solved::Members { set, values }, width: EntryWidth::One, stats }
    }

    /// The number of index entries.
    pub fn len(&self) -> u64 {
        match &self.entries {
            Solved::Whole(bytes) => bytes.len() as u64 / self.width.bytes() as u64,
            Solved::Members { set, .. } => set.universe(),
        }
    }

    /// Whether the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of an entry, or `None` for an unused entry.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        match &self.entries {
            Solved::Whole(bytes) => self.width.value(bytes, index),
            Solved::Members { set, values } => {
                set.rank(index).and_then(|d| Entry(values[d as usize]).value())
            }
        }
    }

    /// The bytes of entries `first..` filling `out` (a whole number of entries).
    pub fn fill(&self, first: u64, out: &mut [u8]) {
        match &self.entries {
            Solved::Whole(bytes) => {
                let start = first as usize * self.width.bytes();
                out.copy_from_slice(&bytes[start..start + out.len()]);
            }
            Solved::Members { set, values } => set.spread_into(values, Entry::ILLEGAL.0, first, out),
        }
    }

    /// Every entry's bytes, in one array (spread over the index for a set's members).
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match &self.entries {
            Solved::Whole(bytes) => Cow::Borrowed(bytes),
            Solved::Members { set, values } => Cow::Owned(set.spread(values, Entry::ILLEGAL.0)),
        }
    }

    /// Every entry's bytes, in one array.
    pub fn into_bytes(self) -> Vec<u8> {
        match self.entries {
            Solved::Whole(bytes) => bytes,
            Solved::Members { set, values } => set.spread(&values, Entry::ILLEGAL.0),
        }
    }
}

/// The largest index space the solver takes: its frontiers hold entries as `u32`.
pub const MAX_SIZE: u64 = 1 << 32;

/// Why a solve could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The index space is larger than the solver's 32-bit frontiers hold ([`MAX_SIZE`]).
    TooLarge { size: u64 },
    /// An entry has more distinct successors than a counter holds (`u32`).
    TooManySuccessors { index: u64, count: usize },
    /// A distance to mate does not fit an entry of the chosen width.
    DtmOverflow { dtm: u32, width: EntryWidth },
    /// The game gave a terminal entry a value that no entry can hold: a win at an even
    /// distance or a loss at an odd one.
    BadTerminal { index: u64, value: Value },
    /// The game called an entry inner but gave it no successor.
    NoSuccessors { index: u64 },
    /// The game's census has another number of bytes than the game has entries.
    CensusSize { bytes: u64, size: u64 },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge { size } => {
                write!(f, "index space of {size} entries exceeds the solver's limit of 2^32")
            }
            SolveError::TooManySuccessors { index, count } => {
                write!(f, "entry {index} has {count} distinct successors, more than a 32-bit counter holds")
            }
            SolveError::DtmOverflow { dtm, width } => {
                write!(
                    f,
                    "distance to mate {dtm} does not fit an entry of {width} (at most {}); solve with a wider entry",
                    width.max_dtm()
                )
            }
            SolveError::BadTerminal { index, value } => write!(
                f,
                "terminal entry {index} is a {value}: a loss must be at an even distance, a win at an odd one"
            ),
            SolveError::NoSuccessors { index } => {
                write!(f, "entry {index} is neither terminal nor illegal but has no successor")
            }
            SolveError::CensusSize { bytes, size } => {
                write!(f, "the game's census has {bytes} bytes for {size} entries")
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// A cell of the solver's arrays: entries (`u8`, `u16`) and counters (`u8`, `u32`), atomic so
/// that threads may share the arrays; each pass writes a cell from one task only.
pub(crate) trait Cell: Send + Sync {
    type Raw: Copy + Eq;
    fn new(raw: Self::Raw) -> Self;
    fn get(&self) -> Self::Raw;
    fn set(&self, raw: Self::Raw);
    /// Takes one from a counter, as the cell's only writer (a plain load and store); whether that
    /// was the last one.
    fn count_down(&self) -> bool;
}

macro_rules! cell {
    ($($atomic:ty => $raw:ty),*) => {$(
        impl Cell for $atomic {
            type Raw = $raw;
            #[inline]
            fn new(raw: $raw) -> Self {
                <$atomic>::new(raw)
            }
            #[inline]
            fn get(&self) -> $raw {
                self.load(Ordering::Relaxed)
            }
            #[inline]
            fn set(&self, raw: $raw) {
                self.store(raw, Ordering::Relaxed)
            }
            #[inline]
            fn count_down(&self) -> bool {
                let left = self.get() - 1;
                self.set(left);
                left == 0
            }
        }
    )*};
}

cell!(AtomicU8 => u8, AtomicU16 => u16, AtomicU32 => u32);

const CHUNK: usize = 1 << 12;

/// Solves `game` into one-byte entries ([`Entry`], the tablebase files' payload) on the current
/// rayon thread pool.
pub fn solve<G: Game>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
    solve_with(game, EntryWidth::One, progress)
}

/// The phases [`solve`] and [`solve_with`] report for `game`, in order (a solve that runs out
/// of one-byte codes runs them again with wider ones).
pub fn phases<G: Game>(game: &G) -> &'static [&'static str] {
    if game.reverse_successors() {
        &["count moves", "reverse edges", "retrograde"]
    } else {
        &["count moves", "retrograde"]
    }
}

/// Solves `game` into entries of `width` bytes on the current rayon thread pool.
pub fn solve_with<G: Game>(
    game: &G,
    width: EntryWidth,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    let size = game.size();
    if size > MAX_SIZE {
        return Err(SolveError::TooLarge { size });
    }
    progress.plan(phases(game));
    let entries = match width {
        EntryWidth::One => solve_code::<G, Entry>(game, progress, true)?,
        EntryWidth::Two => solve_code::<G, WideEntry>(game, progress, false)?,
    };
    Ok(Solution::whole(entries, width))
}

/// What one share of the forward pass found (rayon folds the chunks a worker takes into one).
#[derive(Default)]
struct Forward {
    /// `seeds[d]`: the terminal entries of distance `d` that have predecessors.
    seeds: Vec<Vec<u32>>,
    /// Terminal entries decided without predecessors ([`Game::has_predecessors`]).
    settled: u64,
    /// Entries with more than 255 successors, and how many.
    many: Vec<(u32, usize)>,
    /// With [`Game::reverse_successors`]: the successors of the share's inner entries, as reported,
    /// dealt out by bucket of their target ([`BUCKET_BITS`]), each as its source above the
    /// target's place in the bucket ([`Reversed::edge`]).
    by_bucket: Vec<Vec<u64>>,
    /// The successors of the entry at hand.
    succ: Vec<u64>,
}

/// Solves `game` in entries of `E`; with `pack` (one-byte entries only), in one byte per
/// entry for value and counter together where the counts and distances leave room
/// ([`Packed`]), else in a value and a counter per entry ([`Split`]).
fn solve_code<G: Game, E: Code>(
    game: &G,
    progress: &dyn Progress,
    pack: bool,
) -> Result<Vec<u8>, SolveError> {
    let size = game.size();
    let n = size as usize;
    let keep_edges = game.reverse_successors();
    let values: Vec<E::Cell> = (0..n).into_par_iter().map(|_| E::Cell::new(E::DRAW)).collect();
    // A census the game made is read from the counters, each byte replaced by the entry's
    // count as the forward pass comes to it: the bytes become the counters in place (a `Vec`
    // mapped into one of the same layout keeps its allocation).
    let census = if keep_edges { None } else { game.take_census() };
    let read = census.as_ref().map(|c| c.read);
    let counters: Vec<AtomicU8> = match census {
        Some(Census { bytes, .. }) => {
            if bytes.len() != n {
                return Err(SolveError::CensusSize { bytes: bytes.len() as u64, size });
            }
            bytes.into_iter().map(AtomicU8::new).collect()
        }
        None => (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect(),
    };

    // Forward pass: count successors, find the terminal positions.
    progress.begin("count moves", size);
    let buckets = if keep_edges { n.div_ceil(1 << BUCKET_BITS) } else { 0 };
    let found: Result<Vec<Forward>, SolveError> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .try_fold(
            || Forward { by_bucket: vec![Vec::new(); buckets], ..Forward::default() },
            |mut found, chunk| {
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(n);
                for i in start..end {
                    let succ = &mut found.succ;
                    let counted = read.map(|read| read(counters[i].load(Ordering::Relaxed)));
                    if counted.is_some() {
                        // Only an inner entry has a counter: the census byte is read.
                        counters[i].store(0, Ordering::Relaxed);
                    }
                    let (node, count) = if let Some(c) = counted {
                        (c.node, usize::from(c.successors))
                    } else if keep_edges {
                        // Kept as reported, duplicates too: an entry reported twice is counted
                        // twice and has two edges back, so it is counted down twice when it is
                        // decided. The result is the same, without sorting every list.
                        succ.clear();
                        let node = game.successors(i as u64, succ);
                        (node, succ.len())
                    } else {
                        game.successor_count(i as u64, succ)
                    };
                    match node {
                        Node::Illegal => values[i].set(E::ILLEGAL),
                        Node::Terminal(value) => {
                            let Some(dtm) = value.dtm() else {
                                // A terminal draw: no counter will ever bring it down.
                                continue;
                            };
                            if !value.has_valid_parity() {
                                return Err(SolveError::BadTerminal { index: i as u64, value });
                            }
                            if dtm.0 > E::MAX_DTM {
                                return Err(SolveError::DtmOverflow { dtm: dtm.0.into(), width: E::WIDTH });
                            }
                            values[i].set(E::decided(dtm.0));
                            let has_predecessors = counted
                                .map_or_else(|| game.has_predecessors(i as u64), |c| c.has_predecessors);
                            if !has_predecessors {
                                // Decided, and nothing to walk back to: no frontier holds it.
                                found.settled += 1;
                                continue;
                            }
                            let d = dtm.0 as usize;
                            if found.seeds.len() <= d {
                                found.seeds.resize_with(d + 1, Vec::new);
                            }
                            found.seeds[d].push(i as u32);
                        }
                        Node::Inner => {
                            if count == 0 {
                                return Err(SolveError::NoSuccessors { index: i as u64 });
                            }
                            if count > u8::MAX as usize {
                                found.many.push((i as u32, count));
                            }
                            counters[i].store(count.min(u8::MAX as usize) as u8, Ordering::Relaxed);
                            if keep_edges {
                                for &q in &found.succ {
                                    found.by_bucket[(q >> BUCKET_BITS) as usize].push(Reversed::edge(i, q));
                                }
                            }
                        }
                    }
                }
                progress.advance((end - start) as u64);
                Ok(found)
            },
        )
        .collect();
    progress.end();
    let mut found = found?;
    let mut seeds: Vec<Vec<u32>> = Vec::new();
    let mut many = Vec::new();
    let settled = found.iter().map(|f| f.settled).sum();
    for f in &mut found {
        if seeds.len() < f.seeds.len() {
            seeds.resize_with(f.seeds.len(), Vec::new);
        }
        for (all, chunk) in seeds.iter_mut().zip(std::mem::take(&mut f.seeds)) {
            all.extend(chunk);
        }
        many.extend(f.many.iter().copied());
    }
    let reversed = if keep_edges {
        progress.begin("reverse edges", 0);
        let edges = Reversed::new(n, found);
        progress.end();
        edges
    } else {
        None
    };
    let edges = reversed.as_ref();

    if many.is_empty() && pack && E::WIDTH == EntryWidth::One {
        if let Some(base) = Packed::base::<E>(&counters, &values) {
            // Each entry's value and counter in one byte: the counters, packed in place.
            counters.par_iter().zip(values.par_iter()).for_each(|(c, v)| {
                let (count, raw): (u8, usize) = (c.load(Ordering::Relaxed), v.get().into());
                c.store(if count > 0 { base + count } else { raw as u8 }, Ordering::Relaxed);
            });
            drop(values);
            let cells = Packed { cells: &counters, base };
            return match backward(game, edges, &cells, seeds, settled, progress) {
                Ok(()) => {
                    drop(reversed);
                    Ok(counters.into_iter().map(|c| Packed::entry(c.into_inner(), base)).collect())
                }
                Err(Halt::Error(e)) => Err(e),
                // A distance past the codes the counters leave: solved again, unpacked.
                Err(Halt::OutOfCodes) => {
                    drop((counters, reversed));
                    solve_code::<G, E>(game, progress, false)
                }
            };
        }
    }
    let halt = |h| match h {
        Halt::Error(e) => e,
        Halt::OutOfCodes => unreachable!("split cells hold every distance"),
    };
    let values = if many.is_empty() {
        let cells = Split::<E, AtomicU8> { values, counters };
        backward(game, edges, &cells, seeds, settled, progress).map_err(halt)?;
        cells.values
    } else {
        let wide: Vec<AtomicU32> =
            counters.into_par_iter().map(|c| AtomicU32::new(c.into_inner().into())).collect();
        for (i, count) in many {
            let c =
                u32::try_from(count).map_err(|_| SolveError::TooManySuccessors { index: i.into(), count })?;
            wide[i as usize].set(c);
        }
        let cells = Split::<E, AtomicU32> { values, counters: wide };
        backward(game, edges, &cells, seeds, settled, progress).map_err(halt)?;
        cells.values
    };

    // The counters and edges are done with: free them before the entries are written out.
    drop(reversed);
    let bytes = E::WIDTH.bytes();
    let mut entries = vec![0u8; n * bytes];
    entries.par_chunks_mut(bytes).zip(values.par_iter()).for_each(|(out, v)| E::write_raw(v.get(), out));
    Ok(entries)
}

/// Why the backward passes stopped short.
enum Halt {
    Error(SolveError),
    /// A distance that packed cells cannot hold ([`Packed`]).
    OutOfCodes,
}

/// What the backward passes read and write of each entry: whether it is still undecided, its
/// counter, its value once decided.
trait Cells: Sync {
    type Raw: Copy + Send + Sync;
    fn len(&self) -> usize;
    /// The entries that are positions.
    fn legal(&self) -> usize;
    /// The value of a win or loss in `dtm`, as a pass writes it.
    fn code(&self, dtm: usize) -> Result<Self::Raw, Halt>;
    /// After the pass of `dtm`, which decided entries if `decided`: whether they fit.
    fn check_pass(&self, dtm: usize, decided: bool) -> Result<(), Halt>;
    fn undecided(&self, p: usize) -> bool;
    fn decide(&self, p: usize, raw: Self::Raw);
    /// Counts one reply down; true when it was the last one.
    fn count_down(&self, p: usize) -> bool;
}

/// A value and a counter per entry.
struct Split<E: Code, C: Cell> {
    values: Vec<E::Cell>,
    counters: Vec<C>,
}

impl<E: Code, C: Cell> Cells for Split<E, C> {
    type Raw = E::Raw;
    fn len(&self) -> usize {
        self.values.len()
    }
    fn legal(&self) -> usize {
        self.values.par_iter().filter(|v| v.get() != E::ILLEGAL).count()
    }
    fn code(&self, dtm: usize) -> Result<E::Raw, Halt> {
        // One pass beyond what the encoding holds is run to see whether it decides anything;
        // what it marks is thrown away with the error.
        Ok(if dtm <= E::MAX_DTM as usize { E::decided(dtm as u16) } else { E::ILLEGAL })
    }
    fn check_pass(&self, dtm: usize, decided: bool) -> Result<(), Halt> {
        if decided && dtm > E::MAX_DTM as usize {
            return Err(Halt::Error(SolveError::DtmOverflow { dtm: dtm as u32, width: E::WIDTH }));
        }
        Ok(())
    }
    #[inline]
    fn undecided(&self, p: usize) -> bool {
        // A terminal draw is never a predecessor: no pass meets it.
        self.values[p].get() == E::DRAW
    }
    #[inline]
    fn decide(&self, p: usize, raw: E::Raw) {
        self.values[p].set(raw)
    }
    #[inline]
    fn count_down(&self, p: usize) -> bool {
        self.counters[p].count_down()
    }
}

/// One byte per entry for value and counter together: an undecided entry with `n` replies not
/// yet known to lose holds `base + n`, above every [`Entry`] code a pass writes (a distance
/// `d` is `d + 1`, at most `base`) and below [`Entry::ILLEGAL`]. With Dobutsu's 38 distinct
/// successors at most, distances up to 215 plies fit; a longer one stops the passes
/// ([`Halt::OutOfCodes`]) and the game is solved again, unpacked.
struct Packed<'a> {
    cells: &'a [AtomicU8],
    base: u8,
}

impl Packed<'_> {
    /// The base for the counters' codes: 254 less the largest count; `None` if that leaves no
    /// room for the values the forward pass set (or for a win in 1).
    fn base<E: Code>(counters: &[AtomicU8], values: &[E::Cell]) -> Option<u8> {
        let most = counters.par_iter().map(|c| c.load(Ordering::Relaxed)).max().unwrap_or(0);
        let illegal: usize = E::ILLEGAL.into();
        let set = values
            .par_iter()
            .map(|v| v.get().into())
            .filter(|&raw: &usize| raw != illegal)
            .max()
            .unwrap_or(0);
        let base = 254 - most;
        (usize::from(base) >= set.max(2)).then_some(base)
    }

    /// The entry a cell ends as: a draw where it is still undecided.
    #[inline]
    fn entry(cell: u8, base: u8) -> u8 {
        if cell > base && cell != Entry::ILLEGAL.0 {
            Entry::DRAW.0
        } else {
            cell
        }
    }
}

impl Cells for Packed<'_> {
    type Raw = u8;
    fn len(&self) -> usize {
        self.cells.len()
    }
    fn legal(&self) -> usize {
        self.cells.par_iter().filter(|c| c.load(Ordering::Relaxed) != Entry::ILLEGAL.0).count()
    }
    fn code(&self, dtm: usize) -> Result<u8, Halt> {
        if dtm < usize::from(self.base) {
            Ok(Entry::decided(dtm as u16).0)
        } else {
            Err(Halt::OutOfCodes)
        }
    }
    fn check_pass(&self, _: usize, _: bool) -> Result<(), Halt> {
        Ok(())
    }
    #[inline]
    fn undecided(&self, p: usize) -> bool {
        let cell = self.cells[p].load(Ordering::Relaxed);
        cell > self.base && cell != Entry::ILLEGAL.0
    }
    #[inline]
    fn decide(&self, p: usize, raw: u8) {
        self.cells[p].store(raw, Ordering::Relaxed)
    }
    #[inline]
    fn count_down(&self, p: usize) -> bool {
        let left = self.cells[p].load(Ordering::Relaxed) - 1;
        self.cells[p].store(left, Ordering::Relaxed);
        left == self.base
    }
}

/// The backward passes, one distance at a time, from the terminal entries `seeds` by distance,
/// over the reversed successors `edges` if the forward pass kept them, else over the game's
/// predecessors. `settled` terminal entries without predecessors are decided already.
fn backward<G: Game, S: Cells>(
    game: &G,
    edges: Option<&Reversed>,
    cells: &S,
    mut seeds: Vec<Vec<u32>>,
    settled: u64,
    progress: &dyn Progress,
) -> Result<(), Halt> {
    let legal = cells.legal();
    progress.begin("retrograde", legal as u64);
    let mut frontier: Vec<u32> = seeds.first_mut().map(std::mem::take).unwrap_or_default();
    progress.advance(settled + frontier.len() as u64);
    let mut dtm: usize = 0;
    // The passes' predecessors dealt out by range, kept from pass to pass up to [`DEALT_KEPT`].
    let mut dealt = Vec::new();
    let threads = rayon::current_num_threads();
    while !frontier.is_empty() || dtm + 1 < seeds.len() {
        let next_dtm = dtm + 1;
        let next = cells.code(next_dtm)?;
        let losses = dtm.is_multiple_of(2);
        // Reversed edges cost the same for every entry: a few chunks a thread. The game's
        // predecessors cost more in some parts of the index than in others: more, smaller
        // chunks keep the threads busy to the end.
        let (tasks, deal): (usize, &Deal<'_>) = match edges {
            Some(edges) => (4 * threads, &|chunk, by_range| deal_edges(edges, chunk, by_range)),
            // A predecessor of a loss wins however often it is listed; one of a win is counted
            // down once per distinct successor.
            None => (32 * threads, &|chunk, by_range| deal_predecessors(game, chunk, by_range, !losses)),
        };
        // In index order, the game's work on each frontier entry (its position, its
        // predecessors) reads the game's own tables in order rather than at random: each range's
        // finds are sorted while in cache, and the ranges come in order. Reversed edges are read
        // the same either way (measured: no gain there).
        let sorted = edges.is_none();
        // A large frontier is passed over in pieces, so that the dealt predecessors of one
        // piece at most are held at once; the entries decided do not depend on the order.
        let mut found = Vec::new();
        for piece in frontier.chunks(PASS_PIECE) {
            let finds = owned_pass(cells, piece, losses, next, &mut dealt, tasks, deal, sorted);
            found.extend(finds.into_iter().flatten());
            // Lists grown for a large piece are freed rather than kept for the next pieces:
            // each list keeps the capacity of the largest piece it ever held, and together
            // those would outgrow any one piece's lists several times over.
            if dealt.iter().flatten().map(Vec::capacity).sum::<usize>() > DEALT_KEPT {
                dealt.clear();
            }
        }
        frontier = found;
        cells.check_pass(next_dtm, !frontier.is_empty())?;
        if let Some(terminal) = seeds.get_mut(next_dtm) {
            frontier.append(terminal);
        }
        progress.advance(frontier.len() as u64);
        dtm = next_dtm;
    }
    progress.end();
    Ok(())
}

/// The most frontier entries whose predecessors one pass deals out at once (Dobutsu's have a
/// dozen on average: some 50 MB of dealt lists, where its largest frontier, 14 million
/// entries, would need 700 MB).
const PASS_PIECE: usize = 1 << 20;

/// The most dealt predecessors (all lists' capacity together) kept from one piece of a pass
/// to the next: 128 MB. A small game's lists are kept from pass to pass (no fresh pages for
/// each pass); a large game's are freed after each piece.
const DEALT_KEPT: usize = 1 << 25;

/// How a pass lists the predecessors of a chunk of its frontier: each frontier entry's
/// predecessors (from the game, distinct ones where the pass counts them down; from reversed
/// edges, each as often as it has an edge), pushed to the list of their range (`by_range`, one
/// per [`RANGE_BITS`] range).
type Deal<'a> = dyn Fn(&[u32], &mut [Vec<u32>]) + Sync + 'a;

/// Deals the predecessors of a chunk of frontier entries out by range, from the reversed edges.
fn deal_edges(edges: &Reversed, chunk: &[u32], by_range: &mut [Vec<u32>]) {
    for (k, &q) in chunk.iter().enumerate() {
        // Each frontier entry costs two dependent cache misses (its offsets, then its
        // predecessors): ask for both some entries ahead.
        if let Some(&ahead) = chunk.get(k + 2 * PREFETCH_AHEAD) {
            prefetch(&edges.first[ahead as usize]);
        }
        if let Some(&ahead) = chunk.get(k + PREFETCH_AHEAD) {
            prefetch(edges.preds.as_ptr().wrapping_add(edges.first[ahead as usize] as usize));
        }
        for &p in edges.of(q) {
            by_range[(p >> RANGE_BITS) as usize].push(p);
        }
    }
}

/// Deals the predecessors of a chunk of frontier entries out by range, as the game lists them
/// (each entry's distinct ones if `distinct`, else duplicates too).
fn deal_predecessors<G: Game>(game: &G, chunk: &[u32], by_range: &mut [Vec<u32>], distinct: bool) {
    let mut preds = Vec::new();
    for &q in chunk {
        preds.clear();
        game.predecessors(q as u64, &mut preds);
        if distinct {
            preds.sort_unstable();
            preds.dedup();
        }
        for &p in &preds {
            by_range[(p >> RANGE_BITS) as usize].push(p as u32);
        }
    }
}

/// Entries per range of a pass over reversed edges: a range's entries and counters (2^18 each
/// for one-byte cells) stay in a core's cache while its task applies the pass to them.
const RANGE_BITS: u32 = 18;

/// One backward pass without atomic read-modify-writes: the frontier's predecessors are first
/// dealt out by index range, in parallel over `tasks` chunks of the frontier (by `deal`, see
/// [`Deal`]), then each range is
/// applied by one task alone (in parallel over the ranges), which owns its entries and
/// counters: plain loads and stores, no `lock`ed instruction, and the range's cells in cache.
/// The entries decided, and their values, do not depend on the order: a win is only written as
/// `next`, a counter reaches zero once. Each range's finds come out in index order if `sorted`.
#[allow(clippy::too_many_arguments)]
fn owned_pass<S: Cells>(
    cells: &S,
    frontier: &[u32],
    losses: bool,
    next: S::Raw,
    dealt: &mut Vec<Vec<Vec<u32>>>,
    tasks: usize,
    deal: &Deal<'_>,
    sorted: bool,
) -> Vec<Vec<u32>> {
    let ranges = cells.len().div_ceil(1 << RANGE_BITS);
    dealt.resize_with(tasks, || vec![Vec::new(); ranges]);
    let chunk = frontier.len().div_ceil(tasks).max(1024);
    let used = frontier.len().div_ceil(chunk);
    frontier.par_chunks(chunk).zip(&mut dealt[..used]).for_each(|(chunk, by_range)| {
        by_range.iter_mut().for_each(Vec::clear);
        deal(chunk, by_range);
    });
    let dealt = &dealt[..used];
    (0..ranges)
        .into_par_iter()
        .map(|r| {
            let mut found = Vec::new();
            for p in dealt.iter().flat_map(|by_range| &by_range[r]) {
                let p = *p as usize;
                if !cells.undecided(p) {
                    continue;
                }
                if losses {
                    // A move into a loss: the predecessor wins.
                    cells.decide(p, next);
                    found.push(p as u32);
                } else if cells.count_down(p) {
                    // Its last reply that was not yet known to lose: every move loses.
                    cells.decide(p, next);
                    found.push(p as u32);
                }
            }
            if sorted {
                found.sort_unstable();
            }
            found
        })
        .collect()
}

/// How many frontier entries ahead a pass asks for the memory it will read.
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to bring the cache line of `p` in; it may ignore the hint.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // Safety: a prefetch is only a hint; it does not read `p`, which may dangle.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Entries per bucket of the reversal: a bucket's counts (4 bytes an entry) stay in cache.
const BUCKET_BITS: u32 = 16;

/// The predecessors of every entry, turned around from the successors the forward pass kept:
/// those of `q` are `preds[first[q]..first[q + 1]]`, an entry as often as it reported `q`.
struct Reversed {
    first: Vec<u32>,
    preds: Vec<u32>,
}

impl Reversed {
    /// An edge `p -> q` as the reversal keeps it in `q`'s bucket: `p` above `q`'s place.
    #[inline]
    fn edge(p: usize, q: u64) -> u64 {
        (p as u64) << BUCKET_BITS | (q & ((1 << BUCKET_BITS) - 1))
    }

    /// Turns the forward pass's edges around, bucket by bucket of targets (the forward pass
    /// dealt them out): each bucket is sorted by target by counting, its counts in cache. The
    /// predecessors of an entry come in no particular order. `None` when there are too many
    /// edges for 32-bit offsets (the solver then asks the game).
    fn new(n: usize, found: Vec<Forward>) -> Option<Reversed> {
        let buckets = n.div_ceil(1 << BUCKET_BITS);
        let mut by_bucket: Vec<Vec<Vec<u64>>> =
            (0..buckets).map(|_| Vec::with_capacity(found.len())).collect();
        for f in found {
            for (all, share) in by_bucket.iter_mut().zip(f.by_bucket) {
                all.push(share);
            }
        }
        let mut bucket_start = Vec::with_capacity(buckets + 1);
        let mut total = 0usize;
        for shares in &by_bucket {
            bucket_start.push(total);
            total += shares.iter().map(Vec::len).sum::<usize>();
        }
        bucket_start.push(total);
        let total = u32::try_from(total).ok()?;
        // Each bucket sorted by target: its own slices of `first` and `preds`.
        let mut first = vec![0u32; n + 1];
        first[n] = total;
        let mut preds = vec![0u32; total as usize];
        let mut slices = Vec::with_capacity(buckets);
        let mut rest = preds.as_mut_slice();
        for b in 0..buckets {
            let (slice, tail) = rest.split_at_mut(bucket_start[b + 1] - bucket_start[b]);
            slices.push(slice);
            rest = tail;
        }
        let place = |e: u64| (e & ((1 << BUCKET_BITS) - 1)) as usize;
        first[..n].par_chunks_mut(1 << BUCKET_BITS).zip(slices).zip(by_bucket).enumerate().for_each(
            |(b, ((first, preds), shares))| {
                let mut count = vec![0u32; first.len() + 1];
                shares.iter().flatten().for_each(|&e| count[place(e) + 1] += 1);
                for k in 1..count.len() {
                    count[k] += count[k - 1];
                }
                for (f, &c) in first.iter_mut().zip(&count) {
                    *f = bucket_start[b] as u32 + c;
                }
                for &e in shares.iter().flatten() {
                    let q = place(e);
                    preds[count[q] as usize] = (e >> BUCKET_BITS) as u32;
                    count[q] += 1;
                }
            },
        );
        Some(Reversed { first, preds })
    }

    /// The predecessors of `q`.
    #[inline]
    fn of(&self, q: u32) -> &[u32] {
        let q = q as usize;
        &self.preds[self.first[q] as usize..self.first[q + 1] as usize]
    }
}
