//! A solved game's entries and their counts.

use std::borrow::Cow;

use crate::par::prelude::*;
use crate::value::{ByteCode, Code, EntryWidth, Value, WideCode};
use crate::PAGE;

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
        Stats::of_pages(entries, width, &[])
    }

    /// Counts the entries of a solution whose settled pages ([`Solution::fill`]) are given apart.
    fn of_pages(entries: &[u8], width: EntryWidth, settled: &[Option<u8>]) -> Stats {
        match width {
            EntryWidth::One => Stats::of_code::<ByteCode>(entries, settled),
            EntryWidth::Two => Stats::of_code::<WideCode>(entries, settled),
        }
    }

    fn of_code<E: Code>(entries: &[u8], settled: &[Option<u8>]) -> Stats {
        let bytes = E::WIDTH.bytes();
        let illegal: usize = E::ILLEGAL.into();
        let mut hist = entries
            .par_chunks(bytes * PAGE)
            .enumerate()
            .fold(
                || vec![0u64; illegal + 1],
                |mut h, (page, chunk)| {
                    match settled.get(page).copied().flatten() {
                        Some(code) => h[usize::from(code)] += (chunk.len() / bytes) as u64,
                        None => count_codes::<E>(chunk, &mut h),
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

/// Adds the codes of `chunk` (entries of `E`, a page's at most) to the histogram `h`. One-byte
/// codes are counted in four histograms in turn, summed at the end: in one, a run of equal
/// bytes (most of a table) would wait at each byte for the count it just wrote.
fn count_codes<E: Code>(chunk: &[u8], h: &mut [u64]) {
    if E::WIDTH != EntryWidth::One {
        (0..chunk.len() / E::WIDTH.bytes()).for_each(|i| h[E::read_raw(chunk, i).into()] += 1);
        return;
    }
    debug_assert_eq!(h.len(), 256, "a count for every byte");
    let mut four = [[0u32; 256]; 4];
    let mut quads = chunk.chunks_exact(4);
    for quad in &mut quads {
        for (hist, &byte) in four.iter_mut().zip(quad) {
            hist[usize::from(byte)] += 1;
        }
    }
    for &byte in quads.remainder() {
        four[0][usize::from(byte)] += 1;
    }
    for (code, count) in h.iter_mut().enumerate() {
        *count += four.iter().map(|hist| u64::from(hist[code])).sum::<u64>();
    }
}

/// A solved game: one entry of `width` bytes per index entry ([`ByteCode`] or [`WideCode`],
/// little-endian), and their counts.
///
/// A solve from a [`Census`](crate::Census) that settled pages of entries holds each such
/// page's entries as one byte, and their bytes in the array as the solve left them: never
/// written, so that a page of an array allocated zeroed takes no memory. [`Solution::fill`] and
/// [`Solution::value`] read them as they are; [`Solution::bytes`] writes them out.
#[derive(Debug, Clone)]
pub struct Solution {
    pub(crate) entries: Vec<u8>,
    pub width: EntryWidth,
    pub stats: Stats,
    /// `settled[k]`: the one-byte entry of every entry of page `k` ([`PAGE`] entries), where the
    /// solve settled it whole.
    settled: Vec<Option<u8>>,
}

impl Solution {
    /// A solution of every index entry, with its counts.
    pub fn whole(entries: Vec<u8>, width: EntryWidth) -> Solution {
        let stats = Stats::of(&entries, width);
        Solution { entries, width, stats, settled: Vec::new() }
    }

    /// A solution of one-byte entries whose pages `settled` (where `Some`) hold that entry
    /// throughout, whatever `entries` holds there.
    pub(crate) fn paged(entries: Vec<u8>, settled: Vec<Option<u8>>) -> Solution {
        let stats = Stats::of_pages(&entries, EntryWidth::One, &settled);
        Solution { entries, width: EntryWidth::One, stats, settled }
    }

    /// The number of index entries.
    pub fn len(&self) -> u64 {
        self.entries.len() as u64 / self.width.bytes() as u64
    }

    /// Whether the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry of every entry of the page of `index`, if the solve settled that page whole.
    #[inline]
    fn settled(&self, index: u64) -> Option<u8> {
        self.settled.get((index / PAGE as u64) as usize).copied().flatten()
    }

    /// The value of an entry, or `None` for an unused entry.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        match self.settled(index) {
            Some(code) => EntryWidth::One.value(&[code], 0),
            None => self.width.value(&self.entries, index),
        }
    }

    /// The bytes of entries `first..` filling `out` (a whole number of entries).
    pub fn fill(&self, first: u64, out: &mut [u8]) {
        let start = first as usize * self.width.bytes();
        out.copy_from_slice(&self.entries[start..start + out.len()]);
        // Settled pages are of one-byte entries: an entry is a byte.
        let end = start + out.len();
        for page in start / PAGE..end.div_ceil(PAGE).min(self.settled.len()) {
            if let Some(code) = self.settled[page] {
                let (from, to) = ((page * PAGE).max(start), ((page + 1) * PAGE).min(end));
                out[from - start..to - start].fill(code);
            }
        }
    }

    /// Every entry's bytes, in one array: the solve's own, or a copy with its settled pages
    /// written in.
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self.as_whole() {
            Some(entries) => Cow::Borrowed(entries),
            None => Cow::Owned(self.clone().into_bytes()),
        }
    }

    /// Every entry's bytes, if the array holds them all (no page is settled apart).
    pub fn as_whole(&self) -> Option<&[u8]> {
        self.settled.iter().all(Option::is_none).then_some(&self.entries)
    }

    /// Every entry's bytes, in one array, settled pages written in.
    pub fn into_bytes(mut self) -> Vec<u8> {
        let settled = std::mem::take(&mut self.settled);
        self.entries.par_chunks_mut(PAGE).zip(settled.par_iter()).for_each(|(page, code)| {
            if let Some(code) = code {
                page.fill(*code);
            }
        });
        self.entries
    }

    /// The solution with its settled pages written into its array ([`Solution::bytes`] then
    /// borrows it).
    pub fn into_whole(mut self) -> Solution {
        let (width, stats) = (self.width, std::mem::take(&mut self.stats));
        Solution { entries: self.into_bytes(), width, stats, settled: Vec::new() }
    }
}
