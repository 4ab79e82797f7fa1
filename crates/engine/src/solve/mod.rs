//! The parallel retrograde solver.
//!
//! 1. **Forward pass.** Every entry asks the game what it is. Illegal entries are marked;
//!    terminal entries get the value the game gives them and wait, by distance, for their turn
//!    as a frontier (a no-move loss enters at 0, a win at once at 1), unless no move leads into
//!    them (a census says so: [`crate::Counted::has_predecessors`]); inner entries count their
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

mod backward;
mod cells;
mod forward;
mod reversed;

use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};

use crate::par::prelude::*;

use crate::cell::Cell;
pub(crate) use backward::prefetch;

use crate::value::{ByteCode, Code, EntryWidth, Value, WideCode};
use crate::{Census, Counted, Graph, Node, Progress, Solution, PAGE};
use backward::backward;
use cells::{Codes, Halt, Packed, Split};
use forward::{forward, PackedMarks, Source, SplitMarks};
use reversed::Reversed;

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
    /// A census settled a page with a byte that reads as an entry the passes must walk back
    /// from or count down (an inner entry, or a terminal one with predecessors).
    UnsettledPage { page: u64, byte: u8 },
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
            SolveError::UnsettledPage { page, byte } => write!(
                f,
                "the census settles page {page} with byte {byte}, which is neither an unused entry nor a terminal one without predecessors"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Solves `game` into one-byte entries ([`ByteCode`], the tablebase files' payload) on the current
/// rayon thread pool.
pub fn solve<G: Graph>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
    solve_with(game, EntryWidth::One, progress)
}

/// Solves `game` into one-byte entries as [`solve`] does, reading the forward pass from the
/// game's `census` instead of asking the game of each entry. The census's bytes become the
/// solver's counters in place, so it costs no memory past the solve's own; the backward passes
/// ask [`Graph::predecessors`]. The solution is the one [`solve`] gives when the census says
/// what the game's answers say.
pub fn solve_census<G: Graph>(
    game: &G,
    census: Census,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    check_size(game)?;
    progress.plan(&["count moves", "retrograde"]);
    solve_code::<G, ByteCode>(game, Some(census), progress, true)
}

/// The phases [`solve`] and [`solve_with`] report for `game`, in order (a solve that runs out
/// of one-byte codes runs them again with wider ones).
pub fn phases<G: Graph>(game: &G) -> &'static [&'static str] {
    if game.reverse_successors() {
        &["count moves", "reverse edges", "retrograde"]
    } else {
        &["count moves", "retrograde"]
    }
}

/// Solves `game` into entries of `width` bytes on the current rayon thread pool.
pub fn solve_with<G: Graph>(
    game: &G,
    width: EntryWidth,
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    check_size(game)?;
    progress.plan(phases(game));
    match width {
        EntryWidth::One => solve_code::<G, ByteCode>(game, None, progress, true),
        EntryWidth::Two => solve_code::<G, WideCode>(game, None, progress, false),
    }
}

fn check_size<G: Graph>(game: &G) -> Result<(), SolveError> {
    match game.size() {
        size if size > MAX_SIZE => Err(SolveError::TooLarge { size }),
        _ => Ok(()),
    }
}

/// Solves `game` in entries of `E`, from `census` if given; with `pack` (one-byte entries
/// only), in one byte per entry for value and counter together where the counts and distances
/// leave room ([`Packed`]), else in a value and a counter per entry ([`Split`]).
fn solve_code<G: Graph, E: Code>(
    game: &G,
    census: Option<Census>,
    progress: &dyn Progress,
    pack: bool,
) -> Result<Solution, SolveError> {
    let n = game.size() as usize;
    if let Some(census) = &census {
        if census.bytes.len() != n {
            return Err(SolveError::CensusSize { bytes: census.bytes.len() as u64, size: n as u64 });
        }
    }
    let census = match census {
        Some(census) if pack && E::WIDTH == EntryWidth::One => match census_codes(&census) {
            Some(codes) => return solve_packed_census(game, census, codes, progress),
            None => Some(census),
        },
        census => census,
    };
    let values: Vec<E::Cell> = (0..n).into_par_iter().map(|_| E::Cell::new(E::DRAW)).collect();
    let (source, counters) = counters(game, census);
    let marks = SplitMarks::<E> { values: &values, counters: &counters };
    let found = forward(game, source, &marks, &counters, &[], &[], progress)?;
    let reversed = if matches!(source, Source::KeepEdges) {
        progress.begin("reverse edges", 0);
        let edges = Reversed::new(n, found.shares);
        progress.end();
        edges
    } else {
        None
    };
    let edges = reversed.as_ref();
    let (seeds, many) = (found.seeds, found.many);

    if many.is_empty() && pack && E::WIDTH == EntryWidth::One {
        if let Some(base) = Packed::base::<E>(found.most, found.longest) {
            let cells = Packed::pack::<E>(&counters, values, base);
            return match backward(game, edges, &cells, seeds, progress) {
                Ok(()) => {
                    let entry = cells.codes().entries();
                    drop((cells, reversed));
                    let mut entries = into_bytes(counters);
                    entries
                        .par_chunks_mut(PAGE)
                        .for_each(|page| page.iter_mut().for_each(|c| *c = entry[*c as usize]));
                    Ok(Solution::whole(entries, E::WIDTH))
                }
                Err(Halt::Error(e)) => Err(e),
                // A distance past the codes the counters leave: solved again, unpacked, from
                // the game's own answers (the census is spent).
                Err(Halt::OutOfCodes) => {
                    drop((counters, reversed));
                    solve_code::<G, E>(game, None, progress, false)
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
        backward(game, edges, &cells, seeds, progress).map_err(halt)?;
        cells.values
    } else {
        let cells = Split::<E, AtomicU32> { values, counters: widen(counters, many)? };
        backward(game, edges, &cells, seeds, progress).map_err(halt)?;
        cells.values
    };

    // The counters and edges are done with: free them before the entries are written out.
    drop(reversed);
    let mut entries = vec![0u8; n * E::WIDTH.bytes()];
    entries
        .par_chunks_mut(E::WIDTH.bytes())
        .zip(values.par_iter())
        .for_each(|(out, v)| E::write_raw(v.get(), out));
    Ok(Solution::whole(entries, E::WIDTH))
}

/// Where the forward pass learns what each entry is, and the counters it fills: a census is
/// read from the counters, each byte replaced by the entry's count as the forward pass comes to
/// it, so the bytes become the counters in place (a `Vec` mapped into one of the same layout
/// keeps its allocation), its settled pages written in.
fn counters<G: Graph>(game: &G, census: Option<Census>) -> (Source, Vec<AtomicU8>) {
    match census {
        Some(Census { mut bytes, read, pages }) => {
            bytes.par_chunks_mut(PAGE).zip(pages.par_iter()).filter(|(_, &b)| b != 0).for_each(
                |(page, &b)| {
                    page.fill(b);
                },
            );
            (Source::Census(read), into_cells(bytes))
        }
        None => {
            let source = if game.reverse_successors() { Source::KeepEdges } else { Source::Count };
            (source, (0..game.size()).into_par_iter().map(|_| AtomicU8::new(0)).collect())
        }
    }
}

/// The bytes as atomic cells, in place: no byte is read or written, so pages of `bytes` never
/// written stay untouched (a map over the bytes, even one the compiler keeps in place, writes
/// every one).
fn into_cells(bytes: Vec<u8>) -> Vec<AtomicU8> {
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let (ptr, len, capacity) = (bytes.as_mut_ptr(), bytes.len(), bytes.capacity());
    // Safety: `AtomicU8` has the size, alignment and bit validity of `u8`, so the allocation
    // of `len` initialised bytes (of `capacity`) is one of as many cells, with the same layout
    // for its deallocation; `bytes` is never used again.
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU8>(), len, capacity) }
}

/// The cells as bytes, in place ([`into_cells`] turned around).
fn into_bytes(cells: Vec<AtomicU8>) -> Vec<u8> {
    let mut cells = std::mem::ManuallyDrop::new(cells);
    let (ptr, len, capacity) = (cells.as_mut_ptr(), cells.len(), cells.capacity());
    // Safety: as in `into_cells`; a cell's value is its byte.
    unsafe { Vec::from_raw_parts(ptr.cast::<u8>(), len, capacity) }
}

/// The codes of packed cells ([`Codes`]) for a census's entries, read from how often each
/// byte occurs in it: the distances of its terminal entries without predecessors parked, the
/// base 254 less the most successors of an inner entry and the parked codes; and the
/// distances whose terminal entries are too many to list ([`backward::listed`]), left to a
/// scan. `None` if the codes leave no room for the distances of its terminal entries (or for a
/// win in 1). Bytes a census reads as something no entry can be (a terminal entry of a wrong
/// parity, say) are left for the forward pass to report.
fn census_codes(census: &Census) -> Option<(Codes, Vec<bool>)> {
    let counts = census
        .bytes
        .par_chunks(PAGE)
        .enumerate()
        .fold(
            || [0u64; 256],
            |mut counts, (page, chunk)| {
                match census.pages.get(page) {
                    Some(&b) if b != 0 => counts[usize::from(b)] += chunk.len() as u64,
                    _ => chunk.iter().for_each(|&b| counts[usize::from(b)] += 1),
                }
                counts
            },
        )
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let (mut most, mut set) = (0u8, 2u16);
    let (mut parked, mut seeds) = (Vec::new(), Vec::new());
    for b in (0..=u8::MAX).filter(|&b| counts[usize::from(b)] > 0) {
        let counted = (census.read)(b);
        match counted.node {
            Node::Inner => most = most.max(counted.successors),
            Node::Terminal(value) => {
                let Some(dtm) = value.dtm() else { continue };
                set = set.max(dtm.0.saturating_add(1));
                let d = usize::from(dtm.0);
                if !counted.has_predecessors {
                    if !parked.contains(&dtm.0) {
                        parked.push(dtm.0);
                    }
                } else {
                    if seeds.len() <= d {
                        seeds.resize(d + 1, 0);
                    }
                    seeds[d] += counts[usize::from(b)];
                }
            }
            Node::Illegal => {}
        }
    }
    let base = 254u8.checked_sub(most)?.checked_sub(u8::try_from(parked.len()).ok()?)?;
    if u16::from(base) < set {
        return None;
    }
    let n = census.bytes.len();
    let unlisted = seeds.iter().map(|&count| !backward::listed(count, n)).collect();
    Some((Codes::new(base, parked), unlisted))
}

/// Solves from a census in packed cells, the census's bytes becoming the cells in place: one
/// byte per entry from the start, no array of values beside the counters.
fn solve_packed_census<G: Graph>(
    game: &G,
    census: Census,
    (codes, unlisted): (Codes, Vec<bool>),
    progress: &dyn Progress,
) -> Result<Solution, SolveError> {
    let Census { bytes, read, pages } = census;
    let cells = into_cells(bytes);
    let marks = PackedMarks { cells: &cells, codes: &codes };
    let found = forward(game, Source::Census(read), &marks, &cells, &pages, &unlisted, progress)?;
    assert!(found.many.is_empty(), "a census counts at most 255 successors");
    // The forward pass checked that each settled page's byte reads as an entry no pass writes.
    let settled: Vec<Option<u8>> =
        pages.iter().map(|&b| (b != 0).then(|| settled_entry((read)(b)))).collect();
    let packed = Packed::over(&cells, codes.clone(), &settled);
    match backward(game, None, &packed, found.seeds, progress) {
        Ok(()) => {
            // The cells become entries in place. A cell that is its own entry (a settled
            // page's 0 among them) is not written, so the pages the solve never wrote stay so.
            let entry = codes.entries();
            cells.par_iter().for_each(|c| {
                let cell = c.load(Ordering::Relaxed);
                if entry[cell as usize] != cell {
                    c.store(entry[cell as usize], Ordering::Relaxed);
                }
            });
            Ok(Solution::paged(into_bytes(cells), settled))
        }
        Err(Halt::Error(e)) => Err(e),
        // A distance past the codes the counters leave: solved again, unpacked, from the
        // game's own answers (the census is spent).
        Err(Halt::OutOfCodes) => {
            drop(cells);
            solve_code::<G, ByteCode>(game, None, progress, false)
        }
    }
}

/// The entry of a settled page's entries, each `counted` (an illegal entry or a terminal one
/// without predecessors, as the forward pass checked).
fn settled_entry(counted: Counted) -> u8 {
    match counted.node {
        Node::Terminal(value) => ByteCode::from_value(value).0,
        _ => ByteCode::ILLEGAL.0,
    }
}

/// Four-byte counters, for a game where the entries `many` have more than 255 successors.
fn widen(counters: Vec<AtomicU8>, many: Vec<(u32, usize)>) -> Result<Vec<AtomicU32>, SolveError> {
    let wide: Vec<AtomicU32> =
        counters.into_par_iter().map(|c| AtomicU32::new(c.into_inner().into())).collect();
    for (i, count) in many {
        let c = u32::try_from(count).map_err(|_| SolveError::TooManySuccessors { index: i.into(), count })?;
        wide[i as usize].set(c);
    }
    Ok(wide)
}
