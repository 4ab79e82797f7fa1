//! What the backward passes keep of each entry: a value and a counter ([`Split`]), or both in
//! one byte ([`Packed`]).

use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};

use super::SolveError;
use crate::cell::Cell;
use crate::par::prelude::*;
use crate::value::{ByteCode, Code};
use crate::PAGE;

/// Why the backward passes stopped short.
pub(super) enum Halt {
    Error(SolveError),
    /// A distance that packed cells cannot hold ([`Packed`]).
    OutOfCodes,
}

/// What the backward passes read and write of each entry: whether it is still undecided, its
/// counter, its value once decided.
pub(super) trait Cells: Sync {
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
    /// Asks the cache for entry `p`'s cell (and counter), which a pass will read soon.
    fn prefetch(&self, p: usize) {
        let _ = p;
    }
    /// Whether the entries holding a distance's code are exactly those a pass of that
    /// distance walks back from (no terminal entry without predecessors holds it), so that a
    /// scan may stand for a frontier list ([`Cells::scan`]).
    fn scannable(&self) -> bool {
        false
    }
    /// Pushes the entries of `range` that hold `raw` onto `out`, in order.
    fn scan(&self, range: Range<usize>, raw: Self::Raw, out: &mut Vec<u32>) {
        let _ = (range, raw, out);
        unreachable!("only scannable cells are scanned")
    }
}

/// A value and a counter per entry.
pub(super) struct Split<E: Code, C: Cell> {
    pub values: Vec<E::Cell>,
    pub counters: Vec<C>,
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
    #[inline]
    fn prefetch(&self, p: usize) {
        super::backward::prefetch(self.values.as_ptr().wrapping_add(p));
        super::backward::prefetch(self.counters.as_ptr().wrapping_add(p));
    }
}

/// The codes of packed cells ([`Packed`]), from the bottom: [`ByteCode::DRAW`]; a distance `d`
/// as `d + 1`, up to `base`; an undecided entry with `n` replies not yet known to lose as
/// `base + n`; below [`ByteCode::ILLEGAL`], a code for each distance `parked` (that of the
/// terminal entries without predecessors, which a scan for a pass's frontier must not find).
#[derive(Debug, Clone)]
pub(crate) struct Codes {
    pub base: u8,
    /// The first parked code.
    top: u8,
    parked: Vec<u16>,
}

impl Codes {
    /// The codes with `base`, parking the distances `parked` (distinct, fewer than
    /// `254 - base`).
    pub(super) fn new(base: u8, parked: Vec<u16>) -> Codes {
        let top = ByteCode::ILLEGAL.0 - parked.len() as u8;
        assert!(top > base);
        Codes { base, top, parked }
    }

    /// The parked code of distance `dtm`, or its plain code if it is not parked.
    #[inline]
    pub(super) fn parked(&self, dtm: u16) -> u8 {
        match self.parked.iter().position(|&d| d == dtm) {
            Some(k) => self.top + k as u8,
            None => ByteCode::decided(dtm).0,
        }
    }

    #[inline]
    fn undecided(&self, cell: u8) -> bool {
        cell > self.base && cell < self.top
    }

    /// The entry each cell ends as ([`Codes::entry`]), by the cell's byte: a look-up where
    /// every cell of a table is turned into its entry.
    pub(super) fn entries(&self) -> [u8; 256] {
        std::array::from_fn(|cell| self.entry(cell as u8))
    }

    /// The entry a cell ends as: a draw where it is still undecided.
    #[inline]
    pub(super) fn entry(&self, cell: u8) -> u8 {
        if self.undecided(cell) {
            ByteCode::DRAW.0
        } else if cell >= self.top && cell != ByteCode::ILLEGAL.0 {
            ByteCode::decided(self.parked[usize::from(cell - self.top)]).0
        } else {
            cell
        }
    }
}

/// One byte per entry for value and counter together ([`Codes`]): an undecided entry with `n`
/// replies not yet known to lose holds `base + n`, above every [`ByteCode`] code a pass writes
/// (a distance `d` is `d + 1`, at most `base`) and below [`ByteCode::ILLEGAL`]. With Dobutsu's
/// 38 distinct successors at most, distances up to 213 plies fit; a longer one stops the
/// passes ([`Halt::OutOfCodes`]) and the game is solved again, unpacked.
///
/// Cells packed by the forward pass park the codes of terminal entries without predecessors,
/// so a pass's frontier can be found by a scan for its distance's code ([`Cells::scan`]).
pub(super) struct Packed<'a> {
    cells: &'a [AtomicU8],
    codes: Codes,
    scannable: bool,
    /// The entry of each page (of [`PAGE`] cells) a census settled, whose cells hold 0 and are
    /// neither counted nor scanned ([`crate::Census::pages`]); `None` for the others.
    settled: &'a [Option<u8>],
}

impl<'a> Packed<'a> {
    /// Packs each entry's value and counter in one byte, the counters' own, in place.
    pub(super) fn pack<E: Code>(counters: &'a [AtomicU8], values: Vec<E::Cell>, base: u8) -> Packed<'a> {
        counters.par_iter().zip(values.par_iter()).for_each(|(c, v)| {
            let (count, raw): (u8, usize) = (c.load(Ordering::Relaxed), v.get().into());
            c.store(if count > 0 { base + count } else { raw as u8 }, Ordering::Relaxed);
        });
        // The terminal entries without predecessors hold their plain codes: no scan.
        Packed { cells: counters, codes: Codes::new(base, Vec::new()), scannable: false, settled: &[] }
    }

    /// Cells packed already, by the forward pass ([`super::forward::PackedMarks`]), which
    /// parked the codes of terminal entries without predecessors, and left the pages `settled`
    /// at 0.
    pub(super) fn over(cells: &'a [AtomicU8], codes: Codes, settled: &'a [Option<u8>]) -> Packed<'a> {
        Packed { cells, codes, scannable: true, settled }
    }

    /// The entry of every cell of page `k`, if a census settled it.
    #[inline]
    fn settled(&self, k: usize) -> Option<u8> {
        self.settled.get(k).copied().flatten()
    }

    /// The base for the counters' codes: 254 less `most`, the largest count; `None` if that
    /// leaves no room for the values the forward pass set (its `longest` distance, a draw's 0
    /// without one) or for a win in 1.
    pub(super) fn base<E: Code>(most: u8, longest: Option<u16>) -> Option<u8> {
        let set: usize = longest.map_or(0, |dtm| E::decided(dtm).into());
        let base = 254 - most;
        (usize::from(base) >= set.max(2)).then_some(base)
    }

    pub(super) fn codes(&self) -> &Codes {
        &self.codes
    }
}

impl Cells for Packed<'_> {
    type Raw = u8;
    fn len(&self) -> usize {
        self.cells.len()
    }
    fn legal(&self) -> usize {
        let illegal = ByteCode::ILLEGAL.0;
        let legal = |(k, page): (usize, &[AtomicU8])| match self.settled(k) {
            Some(entry) => usize::from(entry != illegal) * page.len(),
            None => page.iter().filter(|c| c.load(Ordering::Relaxed) != illegal).count(),
        };
        self.cells.par_chunks(PAGE).enumerate().map(legal).sum()
    }
    fn code(&self, dtm: usize) -> Result<u8, Halt> {
        if dtm < usize::from(self.codes.base) {
            Ok(ByteCode::decided(dtm as u16).0)
        } else {
            Err(Halt::OutOfCodes)
        }
    }
    fn check_pass(&self, _: usize, _: bool) -> Result<(), Halt> {
        Ok(())
    }
    #[inline]
    fn undecided(&self, p: usize) -> bool {
        self.codes.undecided(self.cells[p].load(Ordering::Relaxed))
    }
    #[inline]
    fn decide(&self, p: usize, raw: u8) {
        self.cells[p].store(raw, Ordering::Relaxed)
    }
    #[inline]
    fn count_down(&self, p: usize) -> bool {
        let left = self.cells[p].load(Ordering::Relaxed) - 1;
        self.cells[p].store(left, Ordering::Relaxed);
        left == self.codes.base
    }
    #[inline]
    fn prefetch(&self, p: usize) {
        super::backward::prefetch(self.cells.as_ptr().wrapping_add(p));
    }
    fn scannable(&self) -> bool {
        self.scannable
    }
    /// The settled pages are passed over: they hold no distance's code, and reading them
    /// costs time where they were never written (measured: about 1 s of Dobutsu's retrograde).
    fn scan(&self, range: Range<usize>, raw: u8, out: &mut Vec<u32>) {
        let mut start = range.start;
        while start < range.end {
            let k = start / PAGE;
            let end = ((k + 1) * PAGE).min(range.end);
            if self.settled(k).is_none() {
                let cells = self.cells[start..end].iter().enumerate();
                out.extend(
                    cells.filter(|(_, c)| c.load(Ordering::Relaxed) == raw).map(|(i, _)| (start + i) as u32),
                );
            }
            start = end;
        }
    }
}
