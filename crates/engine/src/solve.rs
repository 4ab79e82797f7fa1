//! The parallel retrograde solver.
//!
//! 1. **Forward pass.** Every entry counts its distinct legal successors. Illegal entries are
//!    marked, entries without a legal move are losses in 0 and form the first frontier.
//! 2. **Backward passes**, one per distance. From a frontier of losses in `d`, every undecided
//!    predecessor becomes a win in `d + 1`. From a frontier of wins in `d`, every undecided
//!    predecessor loses one from its counter; the one that reaches zero has only winning replies
//!    left and becomes a loss in `d + 1`, the longest resistance, because the frontiers are
//!    processed in order of distance.
//! 3. What is still undecided when a frontier comes out empty is a draw.
//!
//! A pass runs its frontier in parallel. The set of entries a pass decides, and their values, do
//! not depend on the order in which threads meet them (a win is only ever written as `d + 1` in a
//! pass, a counter only reaches zero once), so the solution is the same for every thread count.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::value::Entry;
use crate::Game;

/// Receives progress reports; the command line shows them as progress bars.
pub trait Progress: Sync {
    /// A phase of `total` units of work begins.
    fn begin(&self, phase: &str, total: u64);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
    /// The current phase is over.
    fn end(&self);
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
    /// Counts the entries of a solution.
    pub fn of(entries: &[u8]) -> Stats {
        let mut hist = entries
            .par_chunks(1 << 16)
            .fold(
                || vec![0u64; 256],
                |mut h, chunk| {
                    for &b in chunk {
                        h[b as usize] += 1;
                    }
                    h
                },
            )
            .reduce(
                || vec![0u64; 256],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let illegal = std::mem::take(&mut hist[255]);
        let draws = hist[0];
        let per_dtm: Vec<u64> = hist[1..255].to_vec();
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

/// A solved game: one [`Entry`] byte per index entry.
#[derive(Debug, Clone)]
pub struct Solution {
    pub entries: Vec<u8>,
    pub stats: Stats,
}

impl Solution {
    #[inline]
    pub fn entry(&self, index: u64) -> Entry {
        Entry(self.entries[index as usize])
    }
}

/// Why a solve could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The index space is larger than the solver's 32-bit frontiers hold.
    TooLarge { size: u64 },
    /// An entry has more distinct successors than a one-byte counter holds.
    TooManySuccessors { index: u64, count: usize },
    /// A distance to mate does not fit the one-byte entry.
    DtmOverflow { dtm: u32 },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooLarge { size } => {
                write!(f, "index space of {size} entries exceeds the solver's limit of 2^32")
            }
            SolveError::TooManySuccessors { index, count } => {
                write!(f, "entry {index} has {count} distinct successors, more than 255")
            }
            SolveError::DtmOverflow { dtm } => {
                write!(f, "distance to mate {dtm} does not fit a one-byte entry (at most {})", Entry::MAX_DTM)
            }
        }
    }
}

impl std::error::Error for SolveError {}

const CHUNK: usize = 1 << 12;

/// Solves `game` on the current rayon thread pool.
pub fn solve<G: Game>(game: &G, progress: &dyn Progress) -> Result<Solution, SolveError> {
    let size = game.size();
    if size > u32::MAX as u64 {
        return Err(SolveError::TooLarge { size });
    }
    let n = size as usize;
    let values: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
    let counters: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();

    // Forward pass: count successors, find the positions without a legal move.
    progress.begin("count moves", size);
    let frontier: Result<Vec<Vec<u32>>, SolveError> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map_init(Vec::new, |succ, chunk| {
            let mut mated = Vec::new();
            let start = chunk * CHUNK;
            let end = (start + CHUNK).min(n);
            for i in start..end {
                succ.clear();
                if !game.successors(i as u64, succ) {
                    values[i].store(Entry::ILLEGAL.0, Ordering::Relaxed);
                    continue;
                }
                succ.sort_unstable();
                succ.dedup();
                let count = succ.len();
                if count > 255 {
                    return Err(SolveError::TooManySuccessors { index: i as u64, count });
                }
                if count == 0 {
                    values[i].store(Entry::decided(0).0, Ordering::Relaxed);
                    mated.push(i as u32);
                }
                counters[i].store(count as u8, Ordering::Relaxed);
            }
            progress.advance((end - start) as u64);
            Ok(mated)
        })
        .collect();
    progress.end();
    let mut frontier: Vec<u32> = frontier?.concat();

    // Backward passes, one distance at a time.
    let legal = values.par_iter().filter(|v| v.load(Ordering::Relaxed) != Entry::ILLEGAL.0).count();
    progress.begin("retrograde", legal as u64);
    progress.advance(frontier.len() as u64);
    let mut dtm: u32 = 0;
    while !frontier.is_empty() {
        let next_dtm = dtm + 1;
        if next_dtm > Entry::MAX_DTM as u32 {
            return Err(SolveError::DtmOverflow { dtm: next_dtm });
        }
        let next = Entry::decided(next_dtm as u16).0;
        let losses = dtm % 2 == 0;
        let found: Vec<Vec<u32>> = frontier
            .par_chunks(256)
            .map_init(Vec::new, |preds, chunk| {
                let mut found = Vec::new();
                for &q in chunk {
                    preds.clear();
                    game.predecessors(q as u64, preds);
                    preds.sort_unstable();
                    preds.dedup();
                    for &p in preds.iter() {
                        let p = p as usize;
                        if values[p].load(Ordering::Relaxed) != Entry::DRAW.0 {
                            continue;
                        }
                        if losses {
                            // A move into a loss: the predecessor wins.
                            if values[p]
                                .compare_exchange(0, next, Ordering::Relaxed, Ordering::Relaxed)
                                .is_ok()
                            {
                                found.push(p as u32);
                            }
                        } else if counters[p].fetch_sub(1, Ordering::Relaxed) == 1 {
                            // Its last reply that was not yet known to lose: every move loses.
                            values[p].store(next, Ordering::Relaxed);
                            found.push(p as u32);
                        }
                    }
                }
                found
            })
            .collect();
        frontier = found.concat();
        progress.advance(frontier.len() as u64);
        dtm = next_dtm;
    }
    progress.end();

    let entries: Vec<u8> = values.into_par_iter().map(AtomicU8::into_inner).collect();
    let stats = Stats::of(&entries);
    Ok(Solution { entries, stats })
}
