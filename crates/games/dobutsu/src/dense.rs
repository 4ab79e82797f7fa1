//! A game restricted to a set of its entries, renumbered densely: the solver then works on a
//! set of Dobutsu's entries without the others, such as the positions reachable from the start
//! (`examples/solve_reachable.rs`), or the solved set for the table's check. The set must be
//! closed under the moves that do not lose at once, the only moves the game's successors list
//! ([`crate::DobutsuGame`]).
//!
//! The set and its numbering are the engine's [`Subset`].

use nana_engine::par::prelude::*;
use nana_engine::{ByteCode, CheckError, Dtm, Graph, Node, Subset, Value};

use std::sync::atomic::{AtomicU64, Ordering};

use crate::reach::Reachable;
use crate::{index, wide};

/// `inner` over a set of its entries.
#[derive(Debug)]
pub struct Dense<G> {
    inner: G,
    set: Subset,
}

impl<G: Graph> Dense<G> {
    /// `inner` over the tables' entries of the positions of `reached` (either side to move)
    /// that the tables hold: those where the side to move cannot take the lion.
    pub fn new(inner: G, reached: &Reachable) -> Dense<G> {
        let words: Vec<AtomicU64> = (0..inner.size().div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        (0..reached.first.words()).into_par_iter().for_each(|w| {
            let mut any = reached.first.word(w) | reached.second.word(w);
            while any != 0 {
                let i = w as u64 * 64 + u64::from(any.trailing_zeros());
                any &= any - 1;
                let pos = wide::unrank(i).expect("a reachable entry is used");
                if pos.lion(pos.side_to_move()).is_some() && !pos.can_capture_lion() {
                    let e = index::rank(&pos);
                    words[(e / 64) as usize].fetch_or(1 << (e % 64), Ordering::Relaxed);
                }
            }
        });
        let words: Vec<u64> = words.into_iter().map(AtomicU64::into_inner).collect();
        Dense::from_words(inner, &words)
    }

    /// `inner` over the entries whose bits are set in `words` (entry `i` is bit `i % 64` of
    /// word `i / 64`). A successor outside the set must be a move that loses at once.
    pub fn from_words(inner: G, words: &[u64]) -> Dense<G> {
        let set = Subset::from_words(words, inner.size());
        Dense { inner, set }
    }

    /// The set, without the game.
    pub fn into_set(self) -> Subset {
        self.set
    }

    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// The dense number of an entry of the set; `None` for one outside it.
    #[inline]
    pub fn rank(&self, index: u64) -> Option<u64> {
        self.set.rank(index)
    }

    /// The index entry of a dense number.
    #[inline]
    pub fn select(&self, dense: u64) -> u64 {
        self.set.select(dense)
    }

    /// An error of the engine's over the dense entries, at its entry of the whole index.
    pub fn error_at_full_index(&self, mut error: CheckError) -> CheckError {
        error.index = self.select(error.index);
        error
    }

    /// Spreads dense one-byte entries over the whole index: entries outside the set are marked
    /// unused ([`ByteCode::ILLEGAL`]).
    pub fn spread(&self, dense: &[u8]) -> Vec<u8> {
        self.set.spread(dense, ByteCode::ILLEGAL.0)
    }

    /// The dense entries of a full-index table (the inverse of [`Dense::spread`]).
    pub fn gather(&self, full: &[u8]) -> Vec<u8> {
        self.set.gather(full)
    }
}

impl<G: Graph> Graph for Dense<G> {
    fn size(&self) -> u64 {
        self.set.len()
    }

    fn successors(&self, d: u64, out: &mut Vec<u64>) -> Node {
        let start = out.len();
        let node = self.inner.successors(self.select(d), out);
        // The moves out of the set lose at once: left out.
        let mut keep = start;
        for k in start..out.len() {
            if let Some(q) = self.rank(out[k]) {
                out[keep] = q;
                keep += 1;
            }
        }
        let any = keep > start;
        out.truncate(keep);
        match node {
            Node::Inner if !any => Node::Terminal(Value::Loss(Dtm(2))),
            node => node,
        }
    }

    fn predecessors(&self, d: u64, out: &mut Vec<u64>) {
        let start = out.len();
        self.inner.predecessors(self.select(d), out);
        for &p in &out[start..] {
            self.set.prefetch(p);
        }
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

    impl Graph for TakeAway {
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
        let dense = Dense::from_words(TakeAway, &words);
        assert_eq!(dense.size(), 151);
        for d in 0..151 {
            assert_eq!(dense.rank(dense.select(d)), Some(d));
        }
        assert_eq!(dense.rank(151), None);
        let whole = solve(&TakeAway, &NoProgress).unwrap();
        let part = solve(&dense, &NoProgress).unwrap();
        let spread = dense.spread(&part.bytes());
        assert_eq!(&spread[..151], &whole.bytes()[..151]);
        assert!(spread[151..].iter().all(|&e| e == ByteCode::ILLEGAL.0));
        assert_eq!(dense.gather(&spread), *part.bytes());
    }
}
