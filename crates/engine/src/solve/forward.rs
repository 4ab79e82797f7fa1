//! The forward pass: what every entry is, the successors of every inner one counted.

use std::sync::atomic::{AtomicU8, Ordering};

use super::cells::Cell;
use super::reversed::{Reversed, BUCKET_BITS};
use super::SolveError;
use crate::par::prelude::*;
use crate::value::Code;
use crate::{Counted, Game, Node, Progress};

/// Entries per piece of work of the forward pass.
const CHUNK: usize = 1 << 12;

/// What the forward pass found, besides the values and counters it set.
#[derive(Default)]
pub(super) struct Forward {
    /// `seeds[d]`: the terminal entries of distance `d` that have predecessors.
    pub seeds: Vec<Vec<u32>>,
    /// Terminal entries decided without predecessors ([`Game::has_predecessors`]).
    pub settled: u64,
    /// Entries with more than 255 successors, and how many.
    pub many: Vec<(u32, usize)>,
    /// With kept edges: each share's successors of its inner entries, as reported, dealt out
    /// by bucket of their target ([`BUCKET_BITS`]), each as its source above the target's
    /// place in the bucket ([`Reversed::edge`]).
    pub shares: Vec<Vec<Vec<u64>>>,
}

/// What one share of the forward pass found (rayon folds the chunks a worker takes into one).
#[derive(Default)]
struct Share {
    seeds: Vec<Vec<u32>>,
    settled: u64,
    many: Vec<(u32, usize)>,
    by_bucket: Vec<Vec<u64>>,
    /// The successors of the entry at hand.
    succ: Vec<u64>,
}

/// How the forward pass learns what an entry is.
#[derive(Clone, Copy)]
pub(super) enum Source {
    /// From the game, counting each entry's distinct successors.
    Count,
    /// From the game, keeping each entry's successors as reported, to be turned around.
    KeepEdges,
    /// From a census: each counter holds the entry's census byte, which `read` decodes.
    Census(fn(u8) -> Counted),
}

/// Runs the forward pass over every entry: marks the illegal ones in `values`, decides the
/// terminal ones, and sets each inner entry's counter (at most 255; [`Forward::many`] lists
/// those with more).
pub(super) fn forward<G: Game, E: Code>(
    game: &G,
    source: Source,
    values: &[E::Cell],
    counters: &[AtomicU8],
    progress: &dyn Progress,
) -> Result<Forward, SolveError> {
    let n = values.len();
    progress.begin("count moves", n as u64);
    let buckets = if matches!(source, Source::KeepEdges) { n.div_ceil(1 << BUCKET_BITS) } else { 0 };
    let shares: Result<Vec<Share>, SolveError> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .try_fold(
            || Share { by_bucket: vec![Vec::new(); buckets], ..Share::default() },
            |mut share, chunk| {
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(n);
                for i in start..end {
                    visit::<G, E>(game, source, values, counters, i, &mut share)?;
                }
                progress.advance((end - start) as u64);
                Ok(share)
            },
        )
        .collect();
    progress.end();
    let mut found = Forward::default();
    for share in shares? {
        if found.seeds.len() < share.seeds.len() {
            found.seeds.resize_with(share.seeds.len(), Vec::new);
        }
        for (all, seeds) in found.seeds.iter_mut().zip(share.seeds) {
            all.extend(seeds);
        }
        found.settled += share.settled;
        found.many.extend(share.many);
        found.shares.push(share.by_bucket);
    }
    Ok(found)
}

/// The forward pass of entry `i`.
fn visit<G: Game, E: Code>(
    game: &G,
    source: Source,
    values: &[E::Cell],
    counters: &[AtomicU8],
    i: usize,
    share: &mut Share,
) -> Result<(), SolveError> {
    let succ = &mut share.succ;
    let (node, count, has_predecessors) = match source {
        Source::Census(read) => {
            let c = read(counters[i].load(Ordering::Relaxed));
            // Only an inner entry has a counter: the census byte is read.
            counters[i].store(0, Ordering::Relaxed);
            (c.node, usize::from(c.successors), Some(c.has_predecessors))
        }
        Source::KeepEdges => {
            // Kept as reported, duplicates too: an entry reported twice is counted twice and
            // has two edges back, so it is counted down twice when it is decided. The result
            // is the same, without sorting every list.
            succ.clear();
            let node = game.successors(i as u64, succ);
            (node, succ.len(), None)
        }
        Source::Count => {
            let (node, count) = game.successor_count(i as u64, succ);
            (node, count, None)
        }
    };
    match node {
        Node::Illegal => values[i].set(E::ILLEGAL),
        Node::Terminal(value) => {
            let Some(dtm) = value.dtm() else {
                // A terminal draw: no counter will ever bring it down.
                return Ok(());
            };
            if !value.has_valid_parity() {
                return Err(SolveError::BadTerminal { index: i as u64, value });
            }
            if dtm.0 > E::MAX_DTM {
                return Err(SolveError::DtmOverflow { dtm: dtm.0.into(), width: E::WIDTH });
            }
            values[i].set(E::decided(dtm.0));
            if !has_predecessors.unwrap_or_else(|| game.has_predecessors(i as u64)) {
                // Decided, and nothing to walk back to: no frontier holds it.
                share.settled += 1;
                return Ok(());
            }
            let d = dtm.0 as usize;
            if share.seeds.len() <= d {
                share.seeds.resize_with(d + 1, Vec::new);
            }
            share.seeds[d].push(i as u32);
        }
        Node::Inner => {
            if count == 0 {
                return Err(SolveError::NoSuccessors { index: i as u64 });
            }
            if count > u8::MAX as usize {
                share.many.push((i as u32, count));
            }
            counters[i].store(count.min(u8::MAX as usize) as u8, Ordering::Relaxed);
            if matches!(source, Source::KeepEdges) {
                for &q in &share.succ {
                    share.by_bucket[(q >> BUCKET_BITS) as usize].push(Reversed::edge(i, q));
                }
            }
        }
    }
    Ok(())
}
