//! A game restricted to its reachable entries, renumbered densely: the solver then works on the
//! 246,803,167 reachable positions (Tanaka's reading) instead of the 855,232,344 entries of the
//! index. The values of reachable positions are the same either way: the successors of a
//! reachable position are reachable, and its value depends on theirs alone.
//!
//! The directory is the reachable bitmap with a running count per 64-entry word: `rank` (index
//! to dense number) is one count and one popcount, `select` (dense number to index) a binary
//! search over the counts.

use nana_engine::{Game, Node};
use rayon::prelude::*;

use crate::reach::Reachable;

/// `inner` over the entries of `reached` (either side to move).
#[derive(Debug)]
pub struct Dense<G> {
    inner: G,
    words: Vec<u64>,
    /// `before[w]`: the reachable entries in words `0..w`.
    before: Vec<u64>,
    size: u64,
}

impl<G: Game> Dense<G> {
    pub fn new(inner: G, reached: &Reachable) -> Dense<G> {
        let words: Vec<u64> = (0..reached.first.words())
            .into_par_iter()
            .map(|w| reached.first.word(w) | reached.second.word(w))
            .collect();
        let mut before = Vec::with_capacity(words.len());
        let mut n = 0;
        for w in &words {
            before.push(n);
            n += u64::from(w.count_ones());
        }
        Dense { inner, words, before, size: n }
    }

    /// The dense number of a reachable index entry; `None` for an unreachable one.
    #[inline]
    pub fn rank(&self, index: u64) -> Option<u64> {
        let w = (index / 64) as usize;
        let bit = index % 64;
        let word = self.words[w];
        (word >> bit & 1 != 0).then(|| self.before[w] + u64::from((word & ((1 << bit) - 1)).count_ones()))
    }

    /// The index entry of a dense number.
    #[inline]
    pub fn select(&self, dense: u64) -> u64 {
        let w = self.before.partition_point(|&b| b <= dense) - 1;
        let mut word = self.words[w];
        for _ in 0..dense - self.before[w] {
            word &= word - 1;
        }
        w as u64 * 64 + u64::from(word.trailing_zeros())
    }

    pub fn inner(&self) -> &G {
        &self.inner
    }
}

impl<G: Game> Game for Dense<G> {
    fn size(&self) -> u64 {
        self.size
    }

    fn successors(&self, d: u64, out: &mut Vec<u64>) -> Node {
        let start = out.len();
        let node = self.inner.successors(self.select(d), out);
        for q in &mut out[start..] {
            *q = self.rank(*q).expect("the successor of a reachable entry is reachable");
        }
        node
    }

    fn predecessors(&self, d: u64, out: &mut Vec<u64>) {
        let start = out.len();
        self.inner.predecessors(self.select(d), out);
        let mut keep = start;
        for k in start..out.len() {
            if let Some(p) = self.rank(out[k]) {
                out[keep] = p;
                keep += 1;
            }
        }
        out.truncate(keep);
    }
}
