//! A set of index entries, numbered densely: a game solved over part of its index (say, the
//! legal positions of a sparse index) is solved over the set's members `0..len`, and its values
//! are spread back over the index when they are written.
//!
//! The set is a bitmap in cache lines of seven 64-bit words, each line led by the count of the
//! members before it and the counts in its words 0–1, 0–3 and 0–5: 64 bytes for 448 entries
//! (1.14 bits an entry). [`Subset::rank`] (entry to dense number) reads one line: its counts and
//! at most two popcounts. [`Subset::select`] (dense
//! number to entry) starts from a hint, one per 256 members, and searches the lines' counts.

use crate::par::prelude::*;

/// Words of the bitmap in a line.
const LINE_WORDS: usize = 7;

/// Entries a line covers.
const LINE_ENTRIES: u64 = 64 * LINE_WORDS as u64;

/// A line of the bitmap: its counts, and its seven words (entry `64 w + b` of the line is bit `b`
/// of word `w`).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line {
    /// The members before the line (the low 32 bits), then the members in words 0–1, 0–3 and
    /// 0–5 of the line, 9 bits each (bits 32–40, 41–49, 50–58).
    counts: u64,
    words: [u64; LINE_WORDS],
}

impl Line {
    fn new(before: u64, words: [u64; LINE_WORDS]) -> Line {
        let upto = |w: usize| words[..w].iter().map(|x| u64::from(x.count_ones())).sum::<u64>();
        let pairs = upto(2) | upto(4) << 9 | upto(6) << 18;
        Line { counts: before | pairs << 32, words }
    }

    /// The members before the line.
    #[inline]
    fn before(&self) -> u64 {
        self.counts & 0xffff_ffff
    }
}

/// One select hint per `2^HINT_BITS` dense numbers.
const HINT_BITS: u32 = 8;

/// The lines one task of [`Subset::by_dense_number`] or [`Subset::spread_into`] walks: about
/// 460,000 entries.
const RUN_LINES: usize = 1024;

/// A set of entries of an index `0..universe`.
#[derive(Debug, Clone)]
pub struct Subset {
    lines: Vec<Line>,
    /// `hint[k]`: the line that holds dense number `k << HINT_BITS`.
    hint: Vec<u32>,
    len: u64,
    universe: u64,
}

impl Subset {
    /// The entries of `0..universe` whose bits are set in `words` (entry `i` is bit `i % 64` of
    /// word `i / 64`; bits at or past `universe` must be clear).
    ///
    /// # Panics
    /// If `words` does not have `universe.div_ceil(64)` words, or sets a bit past `universe`.
    pub fn from_words(words: &[u64], universe: u64) -> Subset {
        assert_eq!(words.len() as u64, universe.div_ceil(64), "one bit per entry");
        if let Some(&last) = words.last() {
            let tail = universe % 64;
            assert!(tail == 0 || last >> tail == 0, "a member past the universe");
        }
        // A line's count of the members before it takes 32 bits.
        assert!(universe <= 1 << 32, "a universe of at most 2^32 entries");
        let mut lines = Vec::with_capacity(words.len().div_ceil(LINE_WORDS));
        let mut hint = Vec::new();
        let mut n = 0u64;
        for (l, chunk) in words.chunks(LINE_WORDS).enumerate() {
            let mut line_words = [0; LINE_WORDS];
            line_words[..chunk.len()].copy_from_slice(chunk);
            let line = Line::new(n, line_words);
            let next = n + chunk.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            // The dense numbers k << HINT_BITS that fall in this line.
            while (hint.len() as u64) << HINT_BITS < next {
                hint.push(l as u32);
            }
            lines.push(line);
            n = next;
        }
        Subset { lines, hint, len: n, universe }
    }

    /// The number of members.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The size of the index the set is part of.
    pub fn universe(&self) -> u64 {
        self.universe
    }

    /// The members of `line` before its entry `r` (below [`LINE_ENTRIES`]): the count of the
    /// pairs of words before `r`'s pair, the word before `r`'s if `r`'s is the second of its
    /// pair, and the bits below `r` in its own word; without a branch on where `r` is.
    #[inline]
    fn below_in_line(line: &Line, r: u64) -> u64 {
        let (w, bit) = ((r / 64) as usize, r % 64);
        // Words 0..2k for k = w / 2: 0, then the three 9-bit counts.
        let pairs = (line.counts >> 32) << 9 >> (9 * (w / 2)) & 0x1ff;
        let odd = (w & 1) as u64;
        let previous = line.words[w & !1] & 0u64.wrapping_sub(odd);
        let own = line.words[w] & ((1 << bit) - 1);
        line.before() + pairs + u64::from(previous.count_ones()) + u64::from(own.count_ones())
    }

    /// The members before `index` (at most [`Subset::universe`]).
    #[inline]
    fn count_below(&self, index: u64) -> u64 {
        match self.lines.get((index / LINE_ENTRIES) as usize) {
            Some(line) => Subset::below_in_line(line, index % LINE_ENTRIES),
            None => self.len,
        }
    }

    /// The dense number of a member; `None` for an entry outside the set.
    #[inline]
    pub fn rank(&self, index: u64) -> Option<u64> {
        let line = self.lines.get((index / LINE_ENTRIES) as usize)?;
        let r = index % LINE_ENTRIES;
        (line.words[(r / 64) as usize] >> (r % 64) & 1 != 0).then(|| Subset::below_in_line(line, r))
    }

    /// Asks the processor to bring in the line [`Subset::rank`] reads for `index`, so that the
    /// ranks of a batch of entries wait for memory together rather than one after another.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        crate::solve::prefetch(self.lines.as_ptr().wrapping_add((index / LINE_ENTRIES) as usize));
    }

    /// The member of a dense number (below [`Subset::len`]).
    #[inline]
    pub fn select(&self, dense: u64) -> u64 {
        let k = (dense >> HINT_BITS) as usize;
        let lo = self.hint[k] as usize;
        let hi = self.hint.get(k + 1).map_or(self.lines.len(), |&l| l as usize + 1);
        let l = lo + self.lines[lo..hi].partition_point(|line| line.before() <= dense) - 1;
        let line = &self.lines[l];
        let mut n = (dense - line.before()) as u32;
        for (w, &word) in line.words.iter().enumerate() {
            let ones = word.count_ones();
            if n < ones {
                return l as u64 * LINE_ENTRIES + 64 * w as u64 + u64::from(select_in_word(word, n));
            }
            n -= ones;
        }
        unreachable!("dense number {dense} is past its line's members")
    }

    /// `f(entry)` of every member, by dense number: the bitmap walked in runs of [`RUN_LINES`]
    /// lines, in parallel, instead of a [`Subset::select`] (a search) per number.
    pub fn by_dense_number(&self, f: impl Fn(u64) -> u8 + Sync) -> Vec<u8> {
        let mut out = vec![0u8; self.len as usize];
        // Each run's lines and the part of `out` their members fill.
        let mut runs = Vec::with_capacity(self.lines.len().div_ceil(RUN_LINES));
        let mut rest = out.as_mut_slice();
        for (r, lines) in self.lines.chunks(RUN_LINES).enumerate() {
            let end = self.lines.get((r + 1) * RUN_LINES).map_or(self.len, Line::before);
            let (run, tail) = rest.split_at_mut((end - lines[0].before()) as usize);
            runs.push((r * RUN_LINES, lines, run));
            rest = tail;
        }
        runs.into_par_iter().for_each(|(first_line, lines, run)| {
            let mut d = 0;
            for (l, line) in (first_line..).zip(lines) {
                for (w, &word) in line.words.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        run[d] =
                            f(l as u64 * LINE_ENTRIES + 64 * w as u64 + u64::from(bits.trailing_zeros()));
                        bits &= bits - 1;
                        d += 1;
                    }
                }
            }
        });
        out
    }

    /// Entries `first..first + out.len()` of the whole index from the members' one-byte values
    /// `dense` (by dense number): a member's value, `outside` for every other entry.
    pub fn spread_into(&self, dense: &[u8], outside: u8, first: u64, out: &mut [u8]) {
        assert_eq!(dense.len() as u64, self.len);
        assert!(first + out.len() as u64 <= self.universe);
        out.fill(outside);
        let mut d = self.count_below(first) as usize;
        let end = first + out.len() as u64;
        let mut i = first;
        while i < end {
            let (l, r) = ((i / LINE_ENTRIES) as usize, i % LINE_ENTRIES);
            let (w, bit) = ((r / 64) as usize, r % 64);
            // The rest of this word, up to `end`.
            let span = (64 - bit).min(end - i);
            let mask = if span == 64 { u64::MAX } else { (1 << span) - 1 };
            let mut bits = self.lines[l].words[w] >> bit & mask;
            let base = (i - first) as usize;
            while bits != 0 {
                out[base + bits.trailing_zeros() as usize] = dense[d];
                bits &= bits - 1;
                d += 1;
            }
            i += span;
        }
    }

    /// The whole index from the members' one-byte values (by dense number): `outside` for
    /// every other entry. In parallel, by runs of lines.
    pub fn spread(&self, dense: &[u8], outside: u8) -> Vec<u8> {
        let mut full = vec![0u8; self.universe as usize];
        let run = (RUN_LINES as u64 * LINE_ENTRIES) as usize;
        full.par_chunks_mut(run)
            .enumerate()
            .for_each(|(c, chunk)| self.spread_into(dense, outside, (c * run) as u64, chunk));
        full
    }

    /// The members' entries of a whole-index array, by dense number (the inverse of
    /// [`Subset::spread`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift stream of words of varied density: sparse, dense, empty, full.
    fn words(count: usize, seed: u64) -> Vec<u64> {
        let mut x = seed;
        (0..count)
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
            .collect()
    }

    /// The members, listed plainly from the words.
    fn members(words: &[u64]) -> Vec<u64> {
        (0..words.len() as u64 * 64).filter(|&i| words[(i / 64) as usize] >> (i % 64) & 1 != 0).collect()
    }

    #[test]
    fn select_in_word_finds_every_set_bit() {
        for word in words(10_000, 0x9E37_79B9_7F4A_7C15).into_iter().chain([u64::MAX, 1 << 63, 1]) {
            let mut bits = word;
            let mut n = 0;
            while bits != 0 {
                assert_eq!(select_in_word(word, n), bits.trailing_zeros(), "{word:#x} {n}");
                bits &= bits - 1;
                n += 1;
            }
        }
    }

    /// Rank and select against the plain list of members, over several runs of lines and a
    /// short last line; every entry outside the set has no rank.
    #[test]
    fn rank_and_select_match_the_members() {
        let count = RUN_LINES * LINE_WORDS * 2 + 3 * LINE_WORDS + 4;
        let mut words = words(count, 0x2545_F491_4F6C_DD1D);
        // A universe that ends inside its last word.
        let universe = count as u64 * 64 - 13;
        *words.last_mut().unwrap() &= u64::MAX >> 13;
        let set = Subset::from_words(&words, universe);
        let members = members(&words);
        assert_eq!(set.len(), members.len() as u64);
        for (d, &i) in members.iter().enumerate() {
            assert_eq!(set.select(d as u64), i);
            assert_eq!(set.rank(i), Some(d as u64));
        }
        let outside = (0..universe).filter(|&i| set.rank(i).is_none()).count() as u64;
        assert_eq!(outside + set.len(), universe);
        assert_eq!(set.rank(universe), None);
    }

    /// The walk by runs of lines gives every member in dense order, as a `select` of each dense
    /// number does; spreading puts each value at its member, and gathering takes them back.
    #[test]
    fn walks_spreads_and_gathers_agree_with_the_members() {
        let count = RUN_LINES * LINE_WORDS * 3 + 77;
        let words = words(count, 0x1234_5678_9ABC_DEF1);
        let universe = count as u64 * 64;
        let set = Subset::from_words(&words, universe);
        let tag = |i: u64| (i.wrapping_mul(0x9E37_79B9) >> 13) as u8 | 1;
        let walked = set.by_dense_number(tag);
        let members = members(&words);
        let listed: Vec<u8> = members.iter().map(|&i| tag(i)).collect();
        assert!(walked == listed, "the walk and the members disagree");
        let full = set.spread(&walked, 0);
        for i in 0..universe {
            let want = if set.rank(i).is_some() { tag(i) } else { 0 };
            assert_eq!(full[i as usize], want, "entry {i}");
        }
        assert!(set.gather(&full) == walked);
        // Any range, spread on its own, is that range of the whole.
        for (first, len) in [(0, 1), (5, 700), (63, 65), (447, 2), (1000, 44_801), (universe - 9, 9)] {
            let mut part = vec![7u8; len];
            set.spread_into(&walked, 0, first, &mut part);
            assert_eq!(part, full[first as usize..first as usize + len], "{first}+{len}");
        }
    }
}
