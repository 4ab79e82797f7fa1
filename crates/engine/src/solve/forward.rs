//! The forward pass: what every entry is, the successors of every inner one counted.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};

use super::cells::Codes;
use super::reversed::{Dealt, BUCKET_BITS};
use super::SolveError;
use crate::cell::Cell;
use crate::par::prelude::*;
use crate::value::{ByteCode, Code, EntryWidth};
use crate::{Counted, Graph, Node, Progress, Value, PAGE};

/// Entries per piece of work of the forward pass: a page of a census.
const CHUNK: usize = PAGE;

/// The terminal entries, by distance: those the backward passes start from.
#[derive(Default)]
pub(super) struct Seeds {
    /// `lists[d]`: the terminal entries of distance `d` that have predecessors, where the
    /// forward pass listed them (empty where it only counted them, for a scan to find).
    pub lists: Vec<Vec<u32>>,
    /// `counts[d]`: how many terminal entries of distance `d` have predecessors.
    pub counts: Vec<u64>,
    /// Terminal entries decided without predecessors ([`Counted::has_predecessors`]).
    pub settled: u64,
}

/// What the forward pass found, besides the values and counters it set.
#[derive(Default)]
pub(super) struct Forward {
    pub seeds: Seeds,
    /// Entries with more than 255 successors, and how many.
    pub many: Vec<(u32, usize)>,
    /// With kept edges: each share's successors of its inner entries, as reported, dealt out
    /// by bucket of their target.
    pub shares: Vec<Dealt>,
    /// The largest counter set, and the longest distance of a terminal entry (`None`: none).
    pub most: u8,
    pub longest: Option<u16>,
}

/// What one share of the forward pass found (rayon folds the chunks a worker takes into one).
struct Share {
    seeds: Seeds,
    many: Vec<(u32, usize)>,
    dealt: Dealt,
    most: u8,
    longest: Option<u16>,
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

/// Where the forward pass writes what it learns of each entry: every entry gets one call.
pub(super) trait Marks: Sync {
    /// The width the marks' values stand for, and the longest distance they hold.
    fn width(&self) -> EntryWidth;
    fn max_dtm(&self) -> u16;
    fn illegal(&self, i: usize);
    fn draw(&self, i: usize);
    fn decided(&self, i: usize, dtm: u16);
    /// A terminal entry without predecessors, decided in `dtm`.
    fn settled(&self, i: usize, dtm: u16) {
        self.decided(i, dtm)
    }
    /// An inner entry with `count` successors (at most 255; the rest are listed apart).
    fn inner(&self, i: usize, count: u8);
    /// Leaves the entries of `page`, a page a census settled, to the solution (an unused
    /// entry or a terminal one without predecessors each, [`crate::Census::pages`]). Only
    /// packed cells are given settled pages ([`super::counters`] writes them in for the others).
    fn settle_page(&self, page: Range<usize>) {
        unreachable!("a page of {} entries settled for cells that are not packed", page.len())
    }
}

/// A value per entry and a counter per entry, apart.
pub(super) struct SplitMarks<'a, E: Code> {
    pub values: &'a [E::Cell],
    pub counters: &'a [AtomicU8],
}

impl<E: Code> Marks for SplitMarks<'_, E> {
    fn width(&self) -> EntryWidth {
        E::WIDTH
    }
    fn max_dtm(&self) -> u16 {
        E::MAX_DTM
    }
    #[inline]
    fn illegal(&self, i: usize) {
        self.values[i].set(E::ILLEGAL);
        self.counters[i].store(0, Ordering::Relaxed);
    }
    #[inline]
    fn draw(&self, i: usize) {
        // The values start as draws; no counter will ever bring it down.
        self.counters[i].store(0, Ordering::Relaxed);
    }
    #[inline]
    fn decided(&self, i: usize, dtm: u16) {
        self.values[i].set(E::decided(dtm));
        self.counters[i].store(0, Ordering::Relaxed);
    }
    #[inline]
    fn inner(&self, i: usize, count: u8) {
        self.counters[i].store(count, Ordering::Relaxed);
    }
}

/// Value and counter in one byte ([`super::cells::Packed`]): an inner entry's byte is `base`
/// above its count, a terminal entry without predecessors has its distance's parked code.
pub(super) struct PackedMarks<'a> {
    pub cells: &'a [AtomicU8],
    pub codes: &'a Codes,
}

impl Marks for PackedMarks<'_> {
    fn width(&self) -> EntryWidth {
        EntryWidth::One
    }
    fn max_dtm(&self) -> u16 {
        u16::from(self.codes.base) - 1
    }
    #[inline]
    fn illegal(&self, i: usize) {
        self.cells[i].store(ByteCode::ILLEGAL.0, Ordering::Relaxed);
    }
    #[inline]
    fn draw(&self, i: usize) {
        self.cells[i].store(ByteCode::DRAW.0, Ordering::Relaxed);
    }
    #[inline]
    fn decided(&self, i: usize, dtm: u16) {
        self.cells[i].store(ByteCode::decided(dtm).0, Ordering::Relaxed);
    }
    #[inline]
    fn settled(&self, i: usize, dtm: u16) {
        self.cells[i].store(self.codes.parked(dtm), Ordering::Relaxed);
    }
    #[inline]
    fn inner(&self, i: usize, count: u8) {
        self.cells[i].store(self.codes.base + count, Ordering::Relaxed);
    }
    /// A settled page's cells hold 0, a draw's code, which no pass writes, walks back from or
    /// counts down; a cell that holds 0 already is not written.
    fn settle_page(&self, page: Range<usize>) {
        for cell in &self.cells[page] {
            if cell.load(Ordering::Relaxed) != 0 {
                cell.store(0, Ordering::Relaxed);
            }
        }
    }
}

/// Runs the forward pass over every entry: marks the illegal ones, decides the terminal ones,
/// and gives each inner entry its counter (at most 255; [`Forward::many`] lists those with
/// more). A census is read from `counters`, which `marks` then overwrite, but for its settled
/// `pages` ([`crate::Census::pages`]). The terminal entries of a distance `d` with
/// `unlisted[d]` are counted, not listed.
pub(super) fn forward<G: Graph, M: Marks>(
    game: &G,
    source: Source,
    marks: &M,
    counters: &[AtomicU8],
    pages: &[u8],
    unlisted: &[bool],
    progress: &dyn Progress,
) -> Result<Forward, SolveError> {
    let n = counters.len();
    progress.begin("count moves", n as u64);
    let buckets = if matches!(source, Source::KeepEdges) { n.div_ceil(1 << BUCKET_BITS) } else { 0 };
    let shares: Result<Vec<Share>, SolveError> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .try_fold(
            || Share {
                seeds: Seeds::default(),
                many: Vec::new(),
                dealt: Dealt::new(buckets),
                most: 0,
                longest: None,
            },
            |mut share, chunk| {
                let start = chunk * CHUNK;
                let end = (start + CHUNK).min(n);
                let page = match source {
                    Source::Census(read) => pages.get(chunk).copied().filter(|&b| b != 0).map(|b| (b, read)),
                    _ => None,
                };
                match page {
                    Some((byte, read)) => settle(read, byte, chunk, start..end, marks, &mut share)?,
                    None => visit_run(game, source, marks, counters, unlisted, start..end, &mut share)?,
                }
                progress.advance((end - start) as u64);
                Ok(share)
            },
        )
        .collect();
    progress.end();
    let mut found = Forward::default();
    let shares = shares?;
    let distances = shares.iter().map(|s| s.seeds.counts.len()).max().unwrap_or(0);
    found.seeds.lists = (0..distances)
        .map(|d| {
            let len = shares.iter().map(|s| s.seeds.lists.get(d).map_or(0, Vec::len)).sum();
            Vec::with_capacity(len)
        })
        .collect();
    found.seeds.counts = vec![0; distances];
    for share in shares {
        for (all, seeds) in found.seeds.lists.iter_mut().zip(share.seeds.lists) {
            all.extend(seeds);
        }
        for (all, count) in found.seeds.counts.iter_mut().zip(share.seeds.counts) {
            *all += count;
        }
        found.seeds.settled += share.seeds.settled;
        found.many.extend(share.many);
        found.shares.push(share.dealt);
        found.most = found.most.max(share.most);
        found.longest = found.longest.max(share.longest);
    }
    Ok(found)
}

/// The forward pass of the entries `run`, a page that no census settled.
fn visit_run<G: Graph, M: Marks>(
    game: &G,
    source: Source,
    marks: &M,
    counters: &[AtomicU8],
    unlisted: &[bool],
    run: Range<usize>,
    share: &mut Share,
) -> Result<(), SolveError> {
    if let Source::Census(read) = source {
        for (i, counter) in run.clone().zip(&counters[run]) {
            // The census byte is read, then overwritten by the marks.
            let c = read(counter.load(Ordering::Relaxed));
            let count = usize::from(c.successors);
            visit(source, marks, unlisted, i, c.node, count, c.has_predecessors, &[], share)?;
        }
        return Ok(());
    }
    let mut failed = Ok(());
    game.successors_of_each(run.start as u64..run.end as u64, &mut |i, node, succ| {
        if failed.is_err() {
            return;
        }
        if matches!(source, Source::Count) {
            succ.sort_unstable();
            succ.dedup();
        }
        // Kept as reported, duplicates too: an entry reported twice is counted twice and has
        // two edges back, so it is counted down twice when it is decided. The result is the
        // same, without sorting every list.
        failed = visit(source, marks, unlisted, i as usize, node, succ.len(), true, succ, share);
    });
    failed
}

/// Leaves the entries `range` of page `page`, which a census settled with `byte`, to the
/// solution ([`Marks::settle_page`]); an error if `byte` reads as an entry that cannot be
/// settled.
fn settle<M: Marks>(
    read: fn(u8) -> Counted,
    byte: u8,
    page: usize,
    range: Range<usize>,
    marks: &M,
    share: &mut Share,
) -> Result<(), SolveError> {
    let c = read(byte);
    if !c.settles() {
        return Err(SolveError::UnsettledPage { page: page as u64, byte });
    }
    // As `visit` checks and counts them: the terminal entries with a distance.
    if let Node::Terminal(value) = c.node {
        if let Some(dtm) = value.dtm() {
            check_terminal(marks, range.start, value, dtm.0)?;
            share.seeds.settled += range.len() as u64;
            share.longest = share.longest.max(Some(dtm.0));
        }
    }
    marks.settle_page(range);
    Ok(())
}

/// Whether entry `i`, terminal with `value` in `dtm`, is one the marks can hold: a win at an
/// odd distance or a loss at an even one, within their longest.
fn check_terminal<M: Marks>(marks: &M, i: usize, value: Value, dtm: u16) -> Result<(), SolveError> {
    if !value.has_valid_parity() {
        return Err(SolveError::BadTerminal { index: i as u64, value });
    }
    if dtm > marks.max_dtm() {
        return Err(SolveError::DtmOverflow { dtm: dtm.into(), width: marks.width() });
    }
    Ok(())
}

/// The forward pass of entry `i`: `node`, with `count` successors (`succ`, where the edges are
/// kept), and predecessors if `has_predecessors`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn visit<M: Marks>(
    source: Source,
    marks: &M,
    unlisted: &[bool],
    i: usize,
    node: Node,
    count: usize,
    has_predecessors: bool,
    succ: &[u64],
    share: &mut Share,
) -> Result<(), SolveError> {
    match node {
        Node::Illegal => marks.illegal(i),
        Node::Terminal(value) => {
            let Some(dtm) = value.dtm() else {
                marks.draw(i);
                return Ok(());
            };
            check_terminal(marks, i, value, dtm.0)?;
            share.longest = share.longest.max(Some(dtm.0));
            if !has_predecessors {
                // Decided, and nothing to walk back to: no frontier holds it.
                marks.settled(i, dtm.0);
                share.seeds.settled += 1;
                return Ok(());
            }
            marks.decided(i, dtm.0);
            let seeds = &mut share.seeds;
            let d = dtm.0 as usize;
            if seeds.counts.len() <= d {
                seeds.counts.resize(d + 1, 0);
                seeds.lists.resize_with(d + 1, Vec::new);
            }
            seeds.counts[d] += 1;
            if !unlisted.get(d).copied().unwrap_or(false) {
                seeds.lists[d].push(i as u32);
            }
        }
        Node::Inner => {
            if count == 0 {
                return Err(SolveError::NoSuccessors { index: i as u64 });
            }
            if count > u8::MAX as usize {
                share.many.push((i as u32, count));
            }
            let counter = count.min(u8::MAX as usize) as u8;
            share.most = share.most.max(counter);
            marks.inner(i, counter);
            if matches!(source, Source::KeepEdges) {
                for &q in succ {
                    share.dealt.push(i, q);
                }
            }
        }
    }
    Ok(())
}
