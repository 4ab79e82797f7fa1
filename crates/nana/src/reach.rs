//! The states reachable from the start under one rule set: a parallel closure over index
//! entries, kept apart by the real side to move.
//!
//! An entry stands for a position with Black to move and for its colour flip with White to move
//! (and for the mirror images of both). The start is not colour-symmetric, so reachability is
//! two bitmaps: `black[e]` says the entry's Black-to-move position is reachable, `white[e]` its
//! flip. A move from one side's position leads to the successor entries with the other side to
//! move; the successors of the flip are the flips of the successors.

use std::sync::atomic::{AtomicU64, Ordering};

use std::ops::ControlFlow;

use rayon::prelude::*;

use crate::index::{self, ChildRanker, MAIN, SIZE, START};
use crate::position::{Move, Position, BLACK_KING};
use crate::types::{Color, Rules, Square};
#[cfg(doc)]
use crate::NanaGame;

/// A bitmap over the index space.
#[derive(Debug)]
pub struct Bitmap(Vec<AtomicU64>);

impl Bitmap {
    #[inline]
    pub fn contains(&self, i: u64) -> bool {
        self.0[(i / 64) as usize].load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }
}

/// The reachable states of one rule set.
#[derive(Debug)]
pub struct Reachable {
    /// Entries whose Black-to-move position is reachable.
    pub black: Bitmap,
    /// Entries whose White-to-move position (the flip) is reachable.
    pub white: Bitmap,
}

/// Counts of reachable states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ReachCounts {
    /// Distinct reachable positions with Black to move (mirror images counted separately).
    pub black_positions: u64,
    /// Distinct reachable positions with White to move.
    pub white_positions: u64,
    /// Index entries reachable with either side to move.
    pub entries: u64,
}

impl ReachCounts {
    pub fn positions(&self) -> u64 {
        self.black_positions + self.white_positions
    }
}

/// How many distinct positions an entry stands for per side to move: the position and its mirror
/// image, except where the mirror image has an entry of its own (Kings on file 2, and the
/// opening states, which are not folded).
pub fn positions_per_entry(index: u64) -> u64 {
    if index >= MAIN || index::is_self_mirror_pair(index) {
        1
    } else {
        2
    }
}

/// Marks every state reachable from the start under `rules`. `progress` is called with the
/// number of states found by each sweep.
///
/// Not a breadth-first search: sweeps over the index expand every entry with a reached side
/// not yet expanded, until a sweep finds nothing new. An entry whose two sides are both reached
/// by the time a sweep meets it is expanded once for both (its successors are the same entries
/// for either side to move), which saves much of the work. Nearly every reachable entry is
/// reachable with either side to move, so sweeps put off an entry reached on one side only
/// until a sweep finds nothing else to do; then one sweep expands everything pending.
///
/// Moves are generated from the rules directly, without [`NanaGame::prepared`]'s per-entry
/// flags: only a mover with pieces in hand can be stopped by R1 or R2, and only then, and only
/// for a child not reached yet, are the replies of the position after the move looked at.
pub fn reachable(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Reachable {
    // Both sides of an entry sit side by side, so that one load tells both: entry `i` is bit
    // pair `i % 32` of word `i / 32`, Black to move the low bit of the pair.
    let words = SIZE.div_ceil(32) as usize;
    let new_pairs = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let (reached, expanded) = (new_pairs(), new_pairs());
    reached[(START / 32) as usize].fetch_or(1 << (START % 32 * 2), Ordering::Relaxed);
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
                    let mut entries = (pending | pending >> 1) & BLACK_BITS;
                    while entries != 0 {
                        let j = entries.trailing_zeros();
                        entries &= entries - 1;
                        // A move hands the turn to the other side.
                        let targets = swap_sides(pending >> j & 3);
                        for_each_child(
                            rules,
                            w as u64 * 32 + u64::from(j / 2),
                            #[inline(always)]
                            |q, allowed| {
                                let word = &reached[(q / 32) as usize];
                                let shift = q % 32 * 2;
                                // Whether R1 and R2 allow the move is asked only for a child not
                                // reached yet: most children are reached already.
                                let new = targets & !(word.load(Ordering::Relaxed) >> shift);
                                if new != 0 && allowed() {
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
            (0..SIZE.div_ceil(64) as usize)
                .into_par_iter()
                .map(|k| {
                    let low = reached[2 * k].load(Ordering::Relaxed);
                    let high = reached.get(2 * k + 1).map_or(0, |w| w.load(Ordering::Relaxed));
                    AtomicU64::new(gather_side(low >> s) | gather_side(high >> s) << 32)
                })
                .collect(),
        )
    };
    Reachable { black: side(0), white: side(1) }
}

/// The low bit of every bit pair.
const BLACK_BITS: u64 = 0x5555_5555_5555_5555;

/// Swaps the two bits of every pair: the sides.
#[inline]
fn swap_sides(pairs: u64) -> u64 {
    (pairs & BLACK_BITS) << 1 | (pairs >> 1 & BLACK_BITS)
}

/// The low bits of the 32 bit pairs of `pairs`, packed into 32 bits.
#[inline]
fn gather_side(pairs: u64) -> u64 {
    let mut x = pairs & BLACK_BITS;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0xffff_ffff
}

/// The successor entries of a legal entry (a reached entry is legal), as the enumeration
/// generates them: the same entries as [`nana_engine::Game::successors`] of
/// [`NanaGame::prepared`], found without the prepared flags.
pub fn successors(rules: &Rules, index: u64, out: &mut Vec<u64>) {
    for_each_child(rules, index, |q, allowed| {
        if allowed() {
            out.push(q);
        }
    });
}

/// Calls `f(child, allowed)` for every basic-legal (L0) move of every position a legal entry
/// stands for: `child` is the entry the move leads to, `allowed()` whether R1 and R2 allow the
/// move. Only a mover with pieces in hand can be stopped by them, and only then does `allowed`
/// look at the replies.
///
/// A folded entry stands for its canonical position and the mirror image, whose children are
/// the mirror images of the canonical position's children: the same entries, except where a
/// child's Kings stand on file 2 and the index keeps both orientations apart. From a folded
/// entry (Kings not both on file 2) only a King move onto file 2 with the other King there
/// leads to such a child; then the mirrored child is reported as well. Entries where that can
/// happen take a copy of the loop of their own, so that the others pay nothing for it.
#[inline]
fn for_each_child(rules: &Rules, index: u64, f: impl FnMut(u64, &mut dyn FnMut() -> bool)) {
    let pos = index::unrank(index).expect("in range");
    let Some(ranker) = ChildRanker::new(&pos) else {
        // The opening: its entries are not folded.
        let mut f = f;
        let _ = pos.for_each_legal_move(rules, |_, child| {
            f(index::rank(child), &mut || true);
            ControlFlow::Continue(())
        });
        return;
    };
    let folded = positions_per_entry(index) == 2;
    if folded && pos.king_square(Color::White).is_some_and(|sq| sq.file() == 2) {
        for_each_edit_child::<true>(rules, &pos, ranker, f);
    } else {
        for_each_edit_child::<false>(rules, &pos, ranker, f);
    }
}

/// [`for_each_child`] for a position with both Kings on the board. `MIRROR_KINGS`: a King move
/// onto file 2 also reaches the mirror image of its child, an entry of its own.
#[inline(always)]
fn for_each_edit_child<const MIRROR_KINGS: bool>(
    rules: &Rules,
    pos: &Position,
    mut ranker: ChildRanker,
    mut f: impl FnMut(u64, &mut dyn FnMut() -> bool),
) {
    let mirror = |mv: Move, code: u8| MIRROR_KINGS && code == BLACK_KING && mv.to().file() == 2;
    if !pos.has_pieces_in_hand(Color::Black) {
        // Neither R1 (a drop) nor R2 (pieces in hand) can forbid a move.
        pos.for_each_l0_edit(
            rules.variant,
            #[inline(always)]
            |mv, code| report(&mut f, mirror(mv, code), ranker.rank(mv, code), &mut || true),
        );
    } else {
        // After a drop, most children not reached yet are tested for stalemate (R1), which a
        // free reply of the opponent rules out: found once for the four faces of a drop.
        let mut drop_free: Option<(Square, u16)> = None;
        pos.for_each_l0_edit(
            rules.variant,
            #[inline(always)]
            |mv, code| {
                report(&mut f, mirror(mv, code), ranker.rank(mv, code), &mut || {
                    if let Move::Drop { to, .. } = mv {
                        let free = match drop_free {
                            Some((sq, free)) if sq == to => free,
                            _ => drop_free.insert((to, pos.drop_free_replies(rules.variant, to))).1,
                        };
                        if free & !pos.drop_shield(rules.variant, code, to) != 0 {
                            debug_assert!(pos.is_allowed(rules, mv, &pos.play_unchecked(mv)));
                            return true;
                        }
                    }
                    pos.is_allowed(rules, mv, &pos.play_unchecked(mv))
                })
            },
        );
    }
}

/// Reports a child to `f`, and with `mirror` also the mirror image of the child, an entry of
/// its own.
#[inline(always)]
fn report(
    f: &mut impl FnMut(u64, &mut dyn FnMut() -> bool),
    mirror: bool,
    child: u64,
    allowed: &mut dyn FnMut() -> bool,
) {
    if mirror {
        report_both_orientations(f, child, allowed);
    } else {
        f(child, allowed);
    }
}

/// R1 and R2 judge a move and its mirror image alike (the rules are mirror-symmetric), so
/// `allowed` is asked at most once for both.
#[cold]
#[inline(never)]
fn report_both_orientations(
    f: &mut impl FnMut(u64, &mut dyn FnMut() -> bool),
    child: u64,
    allowed: &mut dyn FnMut() -> bool,
) {
    debug_assert!(index::is_self_mirror_pair(child));
    let mut verdict = None;
    let mut once = || *verdict.get_or_insert_with(&mut *allowed);
    f(child, &mut once);
    f(index::mirror_entry(child), &mut once);
}

impl Reachable {
    pub fn counts(&self) -> ReachCounts {
        let chunks = SIZE.div_ceil(64) as usize;
        let (b, w, e) = (0..chunks)
            .into_par_iter()
            .map(|k| {
                let wb = self.black.0[k].load(Ordering::Relaxed);
                let ww = self.white.0[k].load(Ordering::Relaxed);
                let (mut b, mut w) = (0, 0);
                let mut bits = wb | ww;
                let e = u64::from(bits.count_ones());
                while bits != 0 {
                    let j = bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let i = k as u64 * 64 + j;
                    let m = positions_per_entry(i);
                    b += m * (wb >> j & 1);
                    w += m * (ww >> j & 1);
                }
                (b, w, e)
            })
            .reduce(|| (0, 0, 0), |x, y| (x.0 + y.0, x.1 + y.1, x.2 + y.2));
        ReachCounts { black_positions: b, white_positions: w, entries: e }
    }

    /// Whether a position is reachable from the start.
    pub fn contains(&self, pos: &crate::Position) -> bool {
        let i = index::rank(pos);
        match pos.side_to_move() {
            Color::Black => self.black.contains(i),
            Color::White => self.white.contains(i),
        }
    }
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
            let (black, white) = (gather_side(x), gather_side(x >> 1));
            for j in 0..32 {
                assert_eq!(black >> j & 1, x >> (2 * j) & 1);
                assert_eq!(white >> j & 1, x >> (2 * j + 1) & 1);
                assert_eq!(swap_sides(x) >> (2 * j) & 3, [0, 2, 1, 3][(x >> (2 * j) & 3) as usize]);
            }
        }
    }
}
