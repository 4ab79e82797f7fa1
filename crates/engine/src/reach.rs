//! The states reachable from a game's start: a parallel closure over index entries, kept apart
//! by the real side to move.
//!
//! For a game whose index folds the colour (an entry stands for a position and for its colour
//! flip, the same position with the sides swapped and the other side to move), reachability is
//! two bitmaps: [`Reached::canonical`] says the entry's canonical position is reachable,
//! [`Reached::flipped`] its flip. A move from one side's position leads to the successor entries
//! on the other side; the successors of the flip are the flips of the successors, so one
//! expansion of an entry serves both sides.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::par::prelude::*;

/// What the closure needs to know of a game.
pub trait Expand: Sync {
    /// The number of index entries.
    fn size(&self) -> u64;

    /// The entry of the start position, on the canonical side.
    fn start(&self) -> u64;

    /// Calls `f(child, over, allowed)` for every move of every position a reachable entry
    /// stands for: `child` is the entry the move leads to, `over` whether the game is over there
    /// (so that the closure marks it reached and never expands it), `allowed()` whether the move
    /// is legal after all. The closure asks `allowed` only for a child it has not reached yet,
    /// so a game can put its costly legality tests there; a game whose moves are all legal
    /// passes `&mut || true`. A game may always say `over` is false: a child where the game is
    /// over is then expanded, and has no children.
    fn for_each_child(&self, entry: u64, f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool));
}

/// A bitmap over the index space.
#[derive(Debug)]
pub struct Bitmap(Vec<AtomicU64>);

impl Bitmap {
    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.0[(i / 64) as usize].load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }

    /// The 64 entries `64 × k .. 64 × k + 64`, one bit each.
    #[inline]
    pub fn word(&self, k: usize) -> u64 {
        self.0[k].load(Ordering::Relaxed)
    }

    /// How many words [`Bitmap::word`] reads.
    pub fn words(&self) -> usize {
        self.0.len()
    }
}

/// The reachable states of a game.
#[derive(Debug)]
pub struct Reached {
    /// Entries whose canonical position is reachable.
    pub canonical: Bitmap,
    /// Entries whose colour flip is reachable.
    pub flipped: Bitmap,
}

/// Marks every state reachable from `game`'s start. `progress` is called with the number of
/// states found by each sweep.
///
/// Not a breadth-first search: sweeps over the index expand every entry with a reached side
/// not yet expanded, until a sweep finds nothing new. An entry whose two sides are both reached
/// by the time a sweep meets it is expanded once for both. In a game where nearly every
/// reachable entry is reachable with either side to move, sweeps put off an entry reached on
/// one side only until a sweep finds nothing else to do; then one sweep expands everything
/// pending. A child the game says is over is marked expanded when it is reached.
///
/// The result does not depend on the number of threads: it is the closure, whatever the order.
///
/// Long: one sweep loop whose closures share the bit arrays it sets up.
pub fn reachable<G: Expand>(game: &G, progress: &(dyn Fn(u64) + Sync)) -> Reached {
    let size = game.size();
    // Both sides of an entry sit side by side, so that one load tells both: entry `i` is bit
    // pair `i % 32` of word `i / 32`, the canonical side the low bit of the pair.
    let words = size.div_ceil(32) as usize;
    let new_pairs = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let (reached, expanded) = (new_pairs(), new_pairs());
    let start = game.start();
    reached[(start / 32) as usize].fetch_or(1 << (start % 32 * 2), Ordering::Relaxed);
    let mut strict = true;
    loop {
        let found: u64 = (0..words)
            .into_par_iter()
            .with_min_len(16)
            .map(|w| {
                let mut found = 0;
                loop {
                    // Re-read the word: expanding it may have reached more of its own entries.
                    let r = reached[w].load(Ordering::Relaxed);
                    let mut pending = r & !expanded[w].load(Ordering::Relaxed);
                    if strict {
                        // Defer an entry reached on one side only while its other side may
                        // still be reached: then one expansion serves both.
                        pending &= swap_sides(r);
                    }
                    if pending == 0 {
                        return found;
                    }
                    expanded[w].fetch_or(pending, Ordering::Relaxed);
                    let mut entries = (pending | pending >> 1) & LOW_BITS;
                    while entries != 0 {
                        let j = entries.trailing_zeros();
                        entries &= entries - 1;
                        // A move hands the turn to the other side.
                        let targets = swap_sides(pending >> j & 3);
                        game.for_each_child(
                            w as u64 * 32 + u64::from(j / 2),
                            #[inline(always)]
                            |q, over, allowed| {
                                let word = &reached[(q / 32) as usize];
                                let shift = q % 32 * 2;
                                // Whether the move is allowed is asked only for a child not
                                // reached yet: most children are reached already.
                                let new = targets & !(word.load(Ordering::Relaxed) >> shift);
                                if new != 0 && allowed() {
                                    if over {
                                        // Expanded already, as far as the sweeps can tell.
                                        expanded[(q / 32) as usize].fetch_or(new << shift, Ordering::Relaxed);
                                    }
                                    let old = word.fetch_or(new << shift, Ordering::Relaxed) >> shift;
                                    found += u64::from((new & !old & 3).count_ones());
                                }
                            },
                        );
                    }
                }
            })
            .sum();
        if found == 0 {
            if !strict {
                break;
            }
            strict = false;
            continue;
        }
        strict = true;
        progress(found);
    }
    // Split the pairs into one bitmap a side.
    let side = |s: u32| {
        Bitmap(
            (0..size.div_ceil(64) as usize)
                .into_par_iter()
                .map(|k| {
                    let low = reached[2 * k].load(Ordering::Relaxed);
                    let high = reached.get(2 * k + 1).map_or(0, |w| w.load(Ordering::Relaxed));
                    AtomicU64::new(gather_side(low >> s) | gather_side(high >> s) << 32)
                })
                .collect(),
        )
    };
    Reached { canonical: side(0), flipped: side(1) }
}

/// The low bit of every bit pair.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Swaps the two bits of every pair: the sides.
#[inline]
fn swap_sides(pairs: u64) -> u64 {
    (pairs & LOW_BITS) << 1 | (pairs >> 1 & LOW_BITS)
}

/// The low bits of the 32 bit pairs of `pairs`, packed into 32 bits.
#[inline]
fn gather_side(pairs: u64) -> u64 {
    let mut x = pairs & LOW_BITS;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0xffff_ffff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_pairs_split_into_sides() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (canonical, flipped) = (gather_side(x), gather_side(x >> 1));
            for j in 0..32 {
                assert_eq!(canonical >> j & 1, x >> (2 * j) & 1);
                assert_eq!(flipped >> j & 1, x >> (2 * j + 1) & 1);
                assert_eq!(swap_sides(x) >> (2 * j) & 3, [0, 2, 1, 3][(x >> (2 * j) & 3) as usize]);
            }
        }
    }

    /// A counter game folded by colour: entry `n` is "n stones, some player to move"; a move
    /// takes one or two stones, and a move to exactly 3 stones is forbidden (`allowed` says
    /// no), so 3 is never reached and the entries below it only by a take from 4 or 5.
    struct Stones;

    impl Expand for Stones {
        fn size(&self) -> u64 {
            100
        }
        fn start(&self) -> u64 {
            10
        }
        fn for_each_child(&self, n: u64, mut f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool)) {
            for k in 1..=2 {
                if k <= n {
                    f(n - k, false, &mut || n - k != 3);
                }
            }
        }
    }

    /// A line from 10 down, one step a move, in which the game is over at 5 (`over` says so
    /// when `said`) and nothing moves on from there.
    struct Line {
        said: bool,
        expanded: std::sync::Mutex<Vec<u64>>,
    }

    impl Expand for Line {
        fn size(&self) -> u64 {
            64
        }
        fn start(&self) -> u64 {
            10
        }
        fn for_each_child(&self, n: u64, mut f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool)) {
            self.expanded.lock().unwrap().push(n);
            if n != 5 {
                f(n - 1, self.said && n == 6, &mut || true);
            }
        }
    }

    #[test]
    fn a_child_where_the_game_is_over_is_reached_and_never_expanded() {
        for said in [false, true] {
            let line = Line { said, expanded: Default::default() };
            let r = reachable(&line, &|_| {});
            // 10, 8, 6 with the canonical side to move; 9, 7, 5 flipped.
            assert_eq!((r.canonical.word(0), r.flipped.word(0)), (0b101_0100_0000, 0b10_1010_0000), "{said}");
            let mut expanded = line.expanded.into_inner().unwrap();
            expanded.sort_unstable();
            let end = if said { 6 } else { 5 };
            assert_eq!(expanded, (end..=10).collect::<Vec<_>>(), "{said}");
        }
    }

    #[test]
    fn closure_with_sides_and_forbidden_moves() {
        let r = reachable(&Stones, &|_| {});
        // From 10 (canonical side), each move flips the side: 9 and 8 flipped, then 8 and 7
        // canonical (from 9), … 10 is reached on the canonical side only, 9 on the flipped side
        // only, 3 (forbidden) and everything above 10 never, the rest on both sides.
        for n in 0..100u64 {
            let both = n < 9 && n != 3;
            assert_eq!(r.canonical.contains(n), both || n == 10, "canonical {n}");
            assert_eq!(r.flipped.contains(n), both || n == 9, "flipped {n}");
        }
        // One thread or two: the same closure.
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let r1 = one.install(|| reachable(&Stones, &|_| {}));
        assert_eq!(
            (0..2).map(|k| r1.canonical.word(k)).collect::<Vec<_>>(),
            [r.canonical.word(0), r.canonical.word(1)]
        );
        assert_eq!(r1.flipped.word(0), r.flipped.word(0));
    }
}
