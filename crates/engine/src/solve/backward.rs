//! The backward passes, one distance at a time.

use super::cells::{Cells, Halt};
use super::forward::Seeds;
use super::reversed::Reversed;
use crate::par::prelude::*;
use crate::{Graph, Progress};

/// The backward passes, one distance at a time, from the terminal entries `seeds`, over the
/// reversed successors `edges` if the forward pass kept them, else over the game's
/// predecessors.
///
/// A pass's frontier is a list of its entries, or, where the list would be long and the cells
/// allow it ([`Cells::scannable`]), a scan of the cells for its distance's code: a list holds
/// at most [`listed`] entries, so the lists of two passes take a small share of the memory the
/// cells take, however large a pass.
///
/// Long: one loop over the distances, whose state (the frontier, the seeds' lists, the dealt
/// predecessors kept from pass to pass) carries from each pass to the next; the solver's hot
/// path, kept whole.
pub(super) fn backward<G: Graph, S: Cells>(
    game: &G,
    edges: Option<&Reversed>,
    cells: &S,
    seeds: Seeds,
    progress: &dyn Progress,
) -> Result<(), Halt> {
    let Seeds { mut lists, counts, settled } = seeds;
    let n = cells.len();
    let legal = cells.legal();
    progress.begin("retrograde", legal as u64);
    // Where a distance's seeds were counted but not listed, its frontier is a scan.
    let unlisted =
        |lists: &[Vec<u32>], d: usize| counts.get(d).is_some_and(|&c| c > 0 && lists[d].is_empty());
    let seeded = |d: usize| counts.get(d).copied().unwrap_or(0);
    let mut frontier =
        if unlisted(&lists, 0) { Frontier::Scan } else { Frontier::List(vec![take(&mut lists, 0)]) };
    let mut size = seeded(0);
    progress.advance(settled + size);
    let mut dtm: usize = 0;
    // The passes' predecessors dealt out by range, kept from pass to pass up to [`DEALT_KEPT`],
    // or [`DEALT_KEPT_EDGES`] beside reversed edges.
    let mut dealt = Vec::new();
    let kept = if edges.is_some() { DEALT_KEPT_EDGES } else { DEALT_KEPT };
    let threads = crate::par::current_num_threads();
    let scannable = cells.scannable().then_some(n);
    while size > 0 || dtm + 1 < counts.len() {
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
        // A large frontier is passed over in pieces of at most [`PASS_PIECE`] entries, so that
        // the dealt predecessors of one piece at most are held at once; the entries decided do
        // not depend on the order.
        let mut found = Found { list: Some(Vec::new()), len: 0, scannable };
        let mut pieces = Pieces::new(|piece: &[u32]| {
            let finds = owned_pass(cells, piece, losses, next, &mut dealt, tasks, deal, sorted);
            found.add(finds);
            // Lists grown for a large piece are freed rather than kept for the next pieces:
            // each list keeps the capacity of the largest piece it ever held, and together
            // those would outgrow any one piece's lists several times over.
            if dealt.iter().flatten().map(Vec::capacity).sum::<usize>() > kept {
                dealt.clear();
            }
        });
        match frontier {
            // Each part of the list is freed once it is gathered into pieces.
            Frontier::List(list) => list.into_iter().for_each(|part| pieces.push(&part)),
            Frontier::Scan => {
                let code = cells.code(dtm)?;
                for start in (0..n).step_by(SCAN_STEP) {
                    let end = (start + SCAN_STEP).min(n);
                    let parts: Vec<Vec<u32>> = (start..end)
                        .into_par_iter()
                        .step_by(SCAN_CHUNK)
                        .map(|from| {
                            let mut part = Vec::new();
                            cells.scan(from..(from + SCAN_CHUNK).min(end), code, &mut part);
                            part
                        })
                        .collect();
                    parts.iter().for_each(|part| pieces.push(part));
                }
            }
        }
        pieces.finish();
        cells.check_pass(next_dtm, found.len > 0)?;
        size = found.len as u64 + seeded(next_dtm);
        frontier = match found.list {
            Some(mut list) if !unlisted(&lists, next_dtm) => {
                list.push(take(&mut lists, next_dtm));
                Frontier::List(list)
            }
            // Too many finds to list, or seeds left to a scan: a scan finds both.
            _ => {
                drop(take(&mut lists, next_dtm));
                Frontier::Scan
            }
        };
        progress.advance(size);
        dtm = next_dtm;
    }
    progress.end();
    Ok(())
}

/// A pass's frontier: its entries, in the parts they were found in, or a scan of the cells
/// for its distance's code.
enum Frontier {
    List(Vec<Vec<u32>>),
    Scan,
}

/// The entries a pass decides: counted, and listed while they are few enough ([`listed`]) for
/// `scannable` cells of that number, or always. The list is kept in parts, each of the exact
/// size of one piece's finds: a list grown in place would hold twice its entries while it
/// moves.
struct Found {
    list: Option<Vec<Vec<u32>>>,
    len: usize,
    scannable: Option<usize>,
}

impl Found {
    fn add(&mut self, finds: Vec<Vec<u32>>) {
        let len: usize = finds.iter().map(Vec::len).sum();
        self.len += len;
        if self.scannable.is_some_and(|n| !listed(self.len as u64, n)) {
            self.list = None;
        }
        if let Some(list) = self.list.as_mut().filter(|_| len > 0) {
            let mut part = Vec::with_capacity(len);
            finds.iter().for_each(|f| part.extend_from_slice(f));
            list.push(part);
        }
    }
}

/// Gathers a pass's frontier, given a part at a time, into pieces of [`PASS_PIECE`] entries,
/// each passed to `run` as it fills (the last one when the frontier is [`finish`](Self::finish)ed).
struct Pieces<F: FnMut(&[u32])> {
    piece: Vec<u32>,
    run: F,
}

impl<F: FnMut(&[u32])> Pieces<F> {
    fn new(run: F) -> Self {
        Pieces { piece: Vec::new(), run }
    }

    fn push(&mut self, mut part: &[u32]) {
        while !part.is_empty() {
            // Whole pieces of a long part go as they are; the rest is gathered.
            if self.piece.is_empty() && part.len() >= PASS_PIECE {
                (self.run)(&part[..PASS_PIECE]);
                part = &part[PASS_PIECE..];
                continue;
            }
            let take = (PASS_PIECE - self.piece.len()).min(part.len());
            self.piece.extend_from_slice(&part[..take]);
            part = &part[take..];
            if self.piece.len() == PASS_PIECE {
                (self.run)(&self.piece);
                self.piece.clear();
            }
        }
    }

    fn finish(mut self) {
        if !self.piece.is_empty() {
            (self.run)(&self.piece);
        }
    }
}

/// Whether a frontier of `count` entries, in `n` cells that can be scanned for it, is listed
/// rather than scanned for: up to one entry in 256 (the lists of two passes then take a
/// thirty-second of the cells' bytes), or [`LIST_FLOOR`] entries.
pub(super) fn listed(count: u64, n: usize) -> bool {
    count <= (n as u64 / 256).max(LIST_FLOOR)
}

/// The entries a frontier may always list: 65,536; a single one in the unit tests, so that
/// their small games are solved with scans.
const LIST_FLOOR: u64 = if cfg!(test) { 1 } else { 1 << 16 };

/// Takes the list of `d` out of `lists`, its memory with it.
fn take(lists: &mut [Vec<u32>], d: usize) -> Vec<u32> {
    lists.get_mut(d).map(std::mem::take).unwrap_or_default()
}

/// The entries a scan reads before it passes what it found on, in parallel chunks of
/// [`SCAN_CHUNK`].
const SCAN_STEP: usize = 1 << 20;
const SCAN_CHUNK: usize = 1 << 15;

/// The most frontier entries whose predecessors one pass deals out at once, whether the
/// frontier is listed or scanned for (Dobutsu's have some twenty each: some 10 MB of dealt
/// lists). Three in the unit tests, so that their small games' frontiers are cut into pieces
/// and gathered from parts.
const PASS_PIECE: usize = if cfg!(test) { 3 } else { 1 << 17 };

/// The most dealt predecessors (all lists' capacity together) kept from one piece of a pass
/// to the next: 2 MB. A small game's lists are kept from pass to pass (no fresh pages for
/// each pass); a large game's are freed after each piece, not held beside the cells all
/// along.
const DEALT_KEPT: usize = 1 << 19;

/// [`DEALT_KEPT`] where the forward pass's edges are kept, reversed: 16 MB, a few percent of
/// those edges' bytes (four an edge), which a piece's lists would otherwise grow into afresh,
/// copied at each doubling (a piece of [`PASS_PIECE`] entries deals some 400,000 of Nana's
/// predecessors, about twice that in the lists' capacity).
const DEALT_KEPT_EDGES: usize = 1 << 22;

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
            edges.prefetch_offsets(ahead);
        }
        if let Some(&ahead) = chunk.get(k + PREFETCH_AHEAD) {
            edges.prefetch_preds(ahead);
        }
        for &p in edges.of(q) {
            by_range[(p >> RANGE_BITS) as usize].push(p);
        }
    }
}

/// Deals the predecessors of a chunk of frontier entries out by range, as the game lists them
/// (each entry's distinct ones if `distinct`, else duplicates too).
fn deal_predecessors<G: Graph>(game: &G, chunk: &[u32], by_range: &mut [Vec<u32>], distinct: bool) {
    game.predecessors_of_each(chunk, &mut |preds| {
        if distinct {
            preds.sort_unstable();
            preds.dedup();
        }
        for &p in preds.iter() {
            by_range[(p >> RANGE_BITS) as usize].push(p as u32);
        }
    });
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
            for list in dealt.iter().map(|by_range| &by_range[r]) {
                for (k, &p) in list.iter().enumerate() {
                    // The predecessors come in no order, their cells from memory rather than
                    // the cache: ask for each some predecessors ahead.
                    if let Some(&ahead) = list.get(k + CELLS_AHEAD) {
                        cells.prefetch(ahead as usize);
                    }
                    let p = p as usize;
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

/// How many predecessors ahead a pass asks for the cells it will count down.
const CELLS_AHEAD: usize = 16;

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
