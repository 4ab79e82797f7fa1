//! A solved game's entries and their counts.

use crate::par::prelude::*;
use crate::value::{ByteCode, Code, EntryWidth, Value, WideCode};

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
            EntryWidth::One => Stats::of_code::<ByteCode>(entries),
            EntryWidth::Two => Stats::of_code::<WideCode>(entries),
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

/// A solved game: one entry of `width` bytes per index entry ([`ByteCode`] or [`WideCode`],
/// little-endian), and their counts.
#[derive(Debug, Clone)]
pub struct Solution {
    pub entries: Vec<u8>,
    pub width: EntryWidth,
    pub stats: Stats,
}

impl Solution {
    /// A solution of every index entry, with its counts.
    pub fn whole(entries: Vec<u8>, width: EntryWidth) -> Solution {
        let stats = Stats::of(&entries, width);
        Solution { entries, width, stats }
    }

    /// The number of index entries.
    pub fn len(&self) -> u64 {
        self.entries.len() as u64 / self.width.bytes() as u64
    }

    /// Whether the index has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of an entry, or `None` for an unused entry.
    #[inline]
    pub fn value(&self, index: u64) -> Option<Value> {
        self.width.value(&self.entries, index)
    }

    /// The bytes of entries `first..` filling `out` (a whole number of entries).
    pub fn fill(&self, first: u64, out: &mut [u8]) {
        let start = first as usize * self.width.bytes();
        out.copy_from_slice(&self.entries[start..start + out.len()]);
    }

    /// Every entry's bytes, in one array.
    pub fn bytes(&self) -> &[u8] {
        &self.entries
    }

    /// Every entry's bytes, in one array.
    pub fn into_bytes(self) -> Vec<u8> {
        self.entries
    }
}
