//! A solved game's entries and their counts.

use std::borrow::Cow;

use crate::par::prelude::*;
use crate::value::{Code, Entry, EntryWidth, Value, WideEntry};
use crate::Subset;

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
