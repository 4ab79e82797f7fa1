//! The states reachable from the start under one rule set, by the engine's parallel closure
//! ([`nana_engine::reach`]) over Nana's index with its fast child ranker.
//!
//! An entry stands for a position with Black to move and for its colour flip with White to move
//! (and for the mirror images of both). The start is not colour-symmetric, so reachability is
//! two bitmaps: `black[e]` says the entry's Black-to-move position is reachable, `white[e]` its
//! flip.

use std::ops::ControlFlow;

use nana_engine::par::prelude::*;
pub use nana_engine::reach::Bitmap;
use nana_engine::reach::{self as closure, Expand};

use crate::index::{self, ChildRanker, MAIN, SIZE, START};
use crate::position::{Move, Position, BLACK_KING};
use crate::types::{Color, Rules, Square};
#[cfg(doc)]
use crate::NanaGame;

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
/// number of states found by each sweep of the closure (see [`nana_engine::reach::reachable`]).
///
/// Moves are generated from the rules directly, without [`NanaGame::prepared`]'s per-entry
/// flags: only a mover with pieces in hand can be stopped by R1 or R2, and only then, and only
/// for a child not reached yet, are the replies of the position after the move looked at.
pub fn reachable(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Reachable {
    let r = closure::reachable(&Enumeration(rules), progress);
    Reachable { black: r.canonical, white: r.flipped }
}

/// Nana under one rule set as the closure sees it.
struct Enumeration<'a>(&'a Rules);

impl Expand for Enumeration<'_> {
    fn size(&self) -> u64 {
        SIZE
    }

    fn start(&self) -> u64 {
        START
    }

    /// Never says a child is over: a mated or stalemated child is expanded and has no moves.
    #[inline(always)]
    fn for_each_child(&self, entry: u64, mut f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool)) {
        for_each_child(self.0, entry, |q, allowed| f(q, false, allowed));
    }
}

/// The successor entries of a legal entry (a reached entry is legal), as the enumeration
/// generates them: the same entries as [`nana_engine::Graph::successors`] of
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
    let (pos, ranker) = index::unrank_with_ranker(index).expect("in range");
    let Some(ranker) = ranker else {
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
pub(crate) fn for_each_edit_child<const MIRROR_KINGS: bool>(
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
        // cube the opponent holds, or a free reply of the opponent, rules out: the latter found
        // once for the four faces of a drop.
        let mut drop_free: Option<(Square, u16)> = None;
        let opponent_holds_a_cube = pos.has_pieces_in_hand(Color::White);
        pos.for_each_l0_edit(
            rules.variant,
            #[inline(always)]
            |mv, code| {
                report(&mut f, mirror(mv, code), ranker.rank(mv, code), &mut || {
                    if let Move::Drop { to, .. } = mv {
                        // A drop gives no check: an opponent who holds a cube can drop it
                        // (`Position::has_quiet_drop`, asked here of the parent's hands).
                        if opponent_holds_a_cube {
                            nana_engine::cross_assert!(
                                pos.is_allowed(rules, mv, &pos.play_unchecked(mv)),
                                "{mv:?} from {pos}"
                            );
                            return true;
                        }
                        let free = match drop_free {
                            Some((sq, free)) if sq == to => free,
                            _ => drop_free.insert((to, pos.drop_free_replies(rules.variant, to))).1,
                        };
                        if free & !pos.drop_shield(rules.variant, code, to) != 0 {
                            if nana_engine::cross_check::on() {
                                assert!(
                                    pos.is_allowed(rules, mv, &pos.play_unchecked(mv)),
                                    "{mv:?} from {pos}"
                                );
                            }
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
    nana_engine::cross_assert!(index::is_self_mirror_pair(child));
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
                let (wb, ww) = (self.black.word(k), self.white.word(k));
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
