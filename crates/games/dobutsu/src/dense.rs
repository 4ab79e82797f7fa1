//! A game restricted to a set of its entries, renumbered densely: the solver then works on the
//! entries of Dobutsu's solved set (every legal position where the side to move cannot take the
//! lion, [`crate::survey`]) instead of the 855,232,344 entries of the index. The set is closed
//! under the moves that do not lose at once; a move out of it leads to a position where the
//! opponent takes the lion, a loss in 2 for the mover that decides nothing but a position whose
//! every move is one, so such moves are left out (see [`Dense::successors`]).
//!
//! The directory is the set's bitmap with a running count per 64-entry word: `rank` (index to
//! dense number) is one count and one popcount, `select` (dense number to index) a binary
//! search over the counts.

use nana_engine::{Dtm, Entry, Game, Node, Value};
use rayon::prelude::*;

use crate::reach::Reachable;
use crate::survey::{self, byte, Survey};

/// `inner` over a set of its entries.
#[derive(Debug)]
pub struct Dense<G> {
    inner: G,
    /// `blocks[w]`: word `w` of the bitmap, and the set's entries in words `0..w`, side by
    /// side so that [`Dense::rank`] reads one cache line.
    blocks: Vec<Block>,
    /// `hint[k]`: the word that holds dense number `k << HINT_BITS`, where [`Dense::select`]
    /// starts its search.
    hint: Vec<u32>,
    /// The [`Survey`] bytes of the entries, by dense number, if surveyed.
    survey: Option<Vec<u8>>,
    size: u64,
}

/// A word of the set's bitmap and the count of the entries before it.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(16))]
struct Block {
    word: u64,
    before: u64,
}

/// One select hint per `2^HINT_BITS` dense numbers.
const HINT_BITS: u32 = 8;

/// The words of the bitmap one task of [`Dense::by_dense_number`] or [`Dense::spread`] walks:
/// 65,536 entries.
const RUN_WORDS: usize = 1024;

impl<G: Game> Dense<G> {
    /// `inner` over the entries of `reached` (either side to move).
    pub fn new(inner: G, reached: &Reachable) -> Dense<G> {
        let words: Vec<u64> = (0..reached.first.words())
            .into_par_iter()
            .map(|w| reached.first.word(w) | reached.second.word(w))
            .collect();
        Dense::from_words(inner, words)
    }

    /// `inner` over the entries whose bits are set in `words` (entry `i` is bit `i % 64` of
    /// word `i / 64`). A successor outside the set must be a move that loses at once.
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

    /// `inner` over the solved set of a [`Survey`] (made by [`crate::survey::survey`] for the
    /// same rule set as `inner`), with the forward pass answered from its bytes instead of by
    /// generating moves.
    ///
    /// Besides the moves out of the set, this game leaves out the moves into an entry where
    /// the opponent wins in 1 by a try (its byte [`byte::TERMINAL_WIN`]), as the survey's
    /// counts do: such an entry has no predecessors, and an entry whose every move loses at
    /// once is a terminal loss in 2 ([`byte::ALL_MOVES_LOSE`]). The values are the same: a loss
    /// in 2 is the quickest loss there is, so a move into one never decides the longest
    /// resistance of a position that has another move.
    pub fn surveyed(inner: G, survey: Survey) -> Dense<G> {
        let Survey { words, bytes } = survey;
        let mut dense = Dense::from_words(inner, words);
        assert_eq!(dense.size, bytes.len() as u64, "one survey byte per entry of the set");
        dense.survey = Some(bytes);
        dense
    }

    /// Frees the survey's bytes, which only the solve reads: before the values are spread over
    /// the index, so that the two are not held at once.
    pub fn forget_survey(&mut self) {
        self.survey = None;
    }

    /// `f(index)` of every entry of the set, by dense number: the bitmap walked in runs of
    /// [`RUN_WORDS`] words, in parallel, instead of a [`Dense::select`] (a binary search) per
    /// number.
    fn by_dense_number(&self, f: impl Fn(u64) -> u8 + Sync) -> Vec<u8> {
        let mut out = vec![0u8; self.size as usize];
        // Each run's words and the part of `out` their entries fill.
        let mut runs = Vec::with_capacity(self.blocks.len().div_ceil(RUN_WORDS));
        let mut rest = out.as_mut_slice();
        for (r, blocks) in self.blocks.chunks(RUN_WORDS).enumerate() {
            // The run's entries: up to the next run's count of the entries before it.
            let end = self.blocks.get((r + 1) * RUN_WORDS).map_or(self.size, |b| b.before);
            let (run, tail) = rest.split_at_mut((end - blocks[0].before) as usize);
            runs.push((r * RUN_WORDS, blocks, run));
            rest = tail;
        }
        runs.into_par_iter().for_each(|(first_word, blocks, run)| {
            let mut d = 0;
            for (w, block) in (first_word..).zip(blocks) {
                let mut bits = block.word;
                while bits != 0 {
                    run[d] = f(w as u64 * 64 + u64::from(bits.trailing_zeros()));
                    bits &= bits - 1;
                    d += 1;
                }
            }
        });
        out
    }

    /// The dense number of an entry of the set; `None` for one outside it.
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
        let Block { word, before } = self.blocks[w];
        w as u64 * 64 + u64::from(select_in_word(word, (dense - before) as u32))
    }

    pub fn inner(&self) -> &G {
        &self.inner
    }

    /// Spreads dense one-byte entries over the whole index: entries outside the set are marked
    /// unused ([`Entry::ILLEGAL`]).
    pub fn spread(&self, dense: &[u8]) -> Vec<u8> {
        let n = self.inner.size() as usize;
        let mut full = vec![Entry::ILLEGAL.0; n];
        full.par_chunks_mut(64 * RUN_WORDS).enumerate().for_each(|(c, chunk)| {
            let first_word = c * RUN_WORDS;
            for (k, block) in
                self.blocks[first_word..(first_word + RUN_WORDS).min(self.blocks.len())].iter().enumerate()
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
        self.by_dense_number(|i| full[i as usize])
    }
}

/// The position of the `n`th set bit of `word` (from 0, lowest first; `n` below its count):
/// the byte that holds it from the bytes' running counts, then the bit within the byte.
#[inline]
fn select_in_word(word: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut s = word - (word >> 1 & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + (s >> 2 & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte `i` of `upto`: the set bits in bytes 0..=i.
    let upto = s.wrapping_mul(ONES);
    let mut byte = 0;
    while (upto >> (8 * byte) & 0xff) as u32 <= n {
        byte += 1;
    }
    let below = if byte == 0 { 0 } else { (upto >> (8 * (byte - 1)) & 0xff) as u32 };
    let mut bits = word >> (8 * byte) & 0xff;
    for _ in 0..n - below {
        bits &= bits - 1;
    }
    8 * byte + bits.trailing_zeros()
}

impl<G: Game> Game for Dense<G> {
    fn size(&self) -> u64 {
        self.size
    }

    fn successors(&self, d: u64, out: &mut Vec<u64>) -> Node {
        let start = out.len();
        let node = self.inner.successors(self.select(d), out);
        // The moves out of the set lose at once: left out. Surveyed, so are the moves into a
        // win in 1.
        let mut keep = start;
        for k in start..out.len() {
            let Some(q) = self.rank(out[k]) else { continue };
            if self.survey.as_ref().is_none_or(|survey| survey[q as usize] != byte::TERMINAL_WIN) {
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

    fn successor_count(&self, d: u64, scratch: &mut Vec<u64>) -> (Node, usize) {
        match &self.survey {
            Some(survey) => survey::node(survey[d as usize]),
            None => {
                scratch.clear();
                let node = self.successors(d, scratch);
                scratch.sort_unstable();
                scratch.dedup();
                (node, scratch.len())
            }
        }
    }

    /// Surveyed: the moves into a win in 1 are left out, so nothing walks back from one; and
    /// nothing walks back from a loss in 0 (a try completed by the opponent): every entry with
    /// a move into one is a win in 1 the survey decided ([`byte::TRY_WINS`]).
    fn has_predecessors(&self, d: u64) -> bool {
        self.survey
            .as_ref()
            .is_none_or(|survey| !matches!(survey[d as usize], byte::TERMINAL_WIN | byte::TERMINAL_LOSS))
    }

    fn predecessors(&self, d: u64, out: &mut Vec<u64>) {
        if !self.has_predecessors(d) {
            return;
        }
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

    #[test]
    fn select_in_word_finds_every_set_bit() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for word in [x, x & x >> 1, x | x << 3, u64::MAX, 1 << 63, x & 0xff00_0000_0000_00ff] {
                let mut bits = word;
                let mut n = 0;
                while bits != 0 {
                    assert_eq!(select_in_word(word, n), bits.trailing_zeros(), "{word:#x} {n}");
                    bits &= bits - 1;
                    n += 1;
                }
            }
        }
    }

    /// The walk over the bitmap by runs of words gives every reachable entry in dense order, as
    /// a `select` of each dense number does: over sparse, dense, empty and full words, across
    /// several runs and a short last one.
    #[test]
    fn by_dense_number_agrees_with_select() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let words: Vec<u64> = (0..3 * RUN_WORDS + 77)
            .map(|w| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match w % 5 {
                    0 => x & x >> 3 & x >> 7,
                    1 => x,
                    2 => 0,
                    3 => u64::MAX,
                    _ => x | x << 1,
                }
            })
            .collect();
        let dense = Dense::from_words(TakeAway, words);
        let tag = |i: u64| (i.wrapping_mul(0x9E37_79B9) >> 13) as u8;
        let walked = dense.by_dense_number(tag);
        let selected: Vec<u8> = (0..dense.size()).map(|d| tag(dense.select(d))).collect();
        assert_eq!(walked.len(), selected.len());
        assert!(walked == selected, "the walk and select disagree");
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
