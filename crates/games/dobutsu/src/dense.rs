//! A game restricted to its reachable entries, renumbered densely: the solver then works on the
//! 246,803,167 reachable positions (Tanaka's reading) instead of the 855,232,344 entries of the
//! index. The values of reachable positions are the same either way: the successors of a
//! reachable position are reachable, and its value depends on theirs alone.
//!
//! The directory is the reachable bitmap with a running count per 64-entry word: `rank` (index
//! to dense number) is one count and one popcount, `select` (dense number to index) a binary
//! search over the counts.

use nana_engine::{Entry, Game, Node};
use rayon::prelude::*;

use crate::reach::{Reachable, Survey};

/// `inner` over the entries of `reached` (either side to move).
#[derive(Debug)]
pub struct Dense<G> {
    inner: G,
    /// `blocks[w]`: word `w` of the bitmap, and the reachable entries in words `0..w`, side by
    /// side so that [`Dense::rank`] reads one cache line.
    blocks: Vec<Block>,
    /// `hint[k]`: the word that holds dense number `k << HINT_BITS`, where [`Dense::select`]
    /// starts its search.
    hint: Vec<u32>,
    /// The [`Survey`] bytes of the entries, by dense number, if surveyed.
    survey: Option<Vec<u8>>,
    size: u64,
}

/// A word of the reachable bitmap and the count of the entries before it.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(16))]
struct Block {
    word: u64,
    before: u64,
}

/// One select hint per `2^HINT_BITS` dense numbers.
const HINT_BITS: u32 = 12;

impl<G: Game> Dense<G> {
    pub fn new(inner: G, reached: &Reachable) -> Dense<G> {
        let words: Vec<u64> = (0..reached.first.words())
            .into_par_iter()
            .map(|w| reached.first.word(w) | reached.second.word(w))
            .collect();
        Dense::from_words(inner, words)
    }

    /// `inner` over the entries whose bits are set in `words` (entry `i` is bit `i % 64` of
    /// word `i / 64`). The set must be closed under `inner`'s successors.
    pub fn from_words(inner: G, words: Vec<u64>) -> Dense<G> {
        let mut blocks = Vec::with_capacity(words.len());
        let mut hint = Vec::new();
        let mut n = 0;
        for (w, &word) in words.iter().enumerate() {
            blocks.push(Block { word, before: n });
            let next = n + u64::from(word.count_ones());
            // The dense numbers k << HINT_BITS that fall in this word.
            while (hint.len() as u64) << HINT_BITS < next {
                hint.push(w as u32);
            }
            n = next;
        }
        Dense { inner, blocks, hint, survey: None, size: n }
    }

    /// [`Dense::new`], with the forward pass answered from `survey` (made by
    /// [`crate::reach::survey`] for the same rule set as `inner`) instead of by generating moves.
    pub fn surveyed(inner: G, reached: &Reachable, survey: &Survey) -> Dense<G> {
        let mut dense = Dense::new(inner, reached);
        let bytes = (0..dense.size).into_par_iter().map(|d| survey.get(dense.select(d))).collect();
        dense.survey = Some(bytes);
        dense
    }

    /// The dense number of a reachable index entry; `None` for an unreachable one.
    #[inline]
    pub fn rank(&self, index: u64) -> Option<u64> {
        let w = (index / 64) as usize;
        let bit = index % 64;
        let Block { word, before } = self.blocks[w];
        (word >> bit & 1 != 0).then(|| before + u64::from((word & ((1 << bit) - 1)).count_ones()))
    }

    /// The index entry of a dense number.
    #[inline]
    pub fn select(&self, dense: u64) -> u64 {
        let k = (dense >> HINT_BITS) as usize;
        let lo = self.hint[k] as usize;
        let hi = self.hint.get(k + 1).map_or(self.blocks.len(), |&w| w as usize + 1);
        let w = lo + self.blocks[lo..hi].partition_point(|b| b.before <= dense) - 1;
        let Block { mut word, before } = self.blocks[w];
        for _ in 0..dense - before {
            word &= word - 1;
        }
        w as u64 * 64 + u64::from(word.trailing_zeros())
    }

    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// Spreads dense one-byte entries over the whole index: unreachable entries are marked
    /// unused ([`Entry::ILLEGAL`]).
    pub fn spread(&self, dense: &[u8]) -> Vec<u8> {
        let n = self.inner.size() as usize;
        let mut full = vec![Entry::ILLEGAL.0; n];
        full.par_chunks_mut(64 * 1024).enumerate().for_each(|(c, chunk)| {
            let first_word = c * 1024;
            for (k, block) in
                self.blocks[first_word..(first_word + 1024).min(self.blocks.len())].iter().enumerate()
            {
                let mut bits = block.word;
                let mut d = block.before as usize;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    chunk[k * 64 + j] = dense[d];
                    d += 1;
                }
            }
        });
        full
    }

    /// The dense entries of a full-index table (the inverse of [`Dense::spread`]).
    pub fn gather(&self, full: &[u8]) -> Vec<u8> {
        (0..self.size).into_par_iter().map(|d| full[self.select(d) as usize]).collect()
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

    fn successor_count(&self, d: u64, scratch: &mut Vec<u64>) -> (Node, usize) {
        match &self.survey {
            Some(survey) => Survey::node(survey[d as usize]),
            None => {
                scratch.clear();
                let node = self.successors(d, scratch);
                scratch.sort_unstable();
                scratch.dedup();
                (node, scratch.len())
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use nana_engine::{solve, NoProgress};

    /// Take-away with a bigger move set: `n` stones, take 1, 2 or 5; who cannot move loses.
    struct TakeAway;

    impl Game for TakeAway {
        fn size(&self) -> u64 {
            200
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
            out.extend([1, 2, 5].iter().filter(|&&k| k <= i).map(|k| i - k));
            Node::moves_or_loss(i > 0)
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            out.extend([1, 2, 5].iter().map(|k| i + k).filter(|&p| p < 200));
        }
    }

    /// Over the entries reachable from 150 (all of 0..=150), the dense game gives the same
    /// values as the whole game, and rank and select are inverse.
    #[test]
    fn dense_values_match_the_whole_game() {
        let mut words = vec![0u64; 4];
        for i in 0..=150u64 {
            words[(i / 64) as usize] |= 1 << (i % 64);
        }
        let dense = Dense::from_words(TakeAway, words);
        assert_eq!(dense.size(), 151);
        for d in 0..151 {
            assert_eq!(dense.rank(dense.select(d)), Some(d));
        }
        assert_eq!(dense.rank(151), None);
        let whole = solve(&TakeAway, &NoProgress).unwrap();
        let part = solve(&dense, &NoProgress).unwrap();
        let spread = dense.spread(&part.entries);
        assert_eq!(&spread[..151], &whole.entries[..151]);
        assert!(spread[151..].iter().all(|&e| e == Entry::ILLEGAL.0));
        assert_eq!(dense.gather(&spread), part.entries);
    }
}
