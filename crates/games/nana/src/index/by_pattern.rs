//! The successors of the entries with at most one cube off the board, a pattern at a time.
//!
//! Those are the last classes of every King pair: four cubes on the board (210 patterns of
//! 4,096 entries) and three (two classes of 105 patterns, each of 512 digits in two hand
//! splits: the fourth cube White's, or Black's), 98 % of the index. Within a pattern every
//! square's occupant is fixed but for the cubes' digits (owner and face), so what depends on
//! the squares alone is found once a pattern ([`Pattern`]):
//!
//! - each cube's attacks in each of its eight digits, with the board as it stands and with
//!   Black's King lifted off it, and the square where a piece would shield Black's King from
//!   it;
//! - for each Black piece and target square, and for each drop, the child's index as a sum: a
//!   base for the moved or dropped piece's face and the hand split, plus one weight times the
//!   child's digit of each other cube. A child's entry reads its cubes' digits in base 8, in
//!   the order of its free squares, so the index is linear in each digit; the weights are
//!   found by ranking the child of the move with one cube's face turned once more
//!   ([`crate::index::rank`]).
//!
//! An entry then costs a few table lookups: its legality (no Black piece attacks White's
//! King), its King's safety, and a multiply-add per cube for each move. Where Black holds the
//! fourth cube, R1 and R2 may forbid a move that leaves White no reply: a move is allowed at
//! once where the rules do not ask, else where White has a reply, found from the pattern's
//! tables with the moved or dropped piece's attacks (White then holds nothing: a King step to
//! a square no Black piece attacks, or a cube's move that keeps its King safe, as
//! [`Position::is_allowed`] finds them). The moves come in the order of
//! [`Position::for_each_l0_edit`]: by square of the piece, then of the target, then the drops.

use nana_engine::Node;
use replies::Replies;

use super::{tables, CUBE_CONFIGS, MAIN};
use crate::attacks::AttackTable;
use crate::position::KingSafety;
use crate::types::{Rules, Square};

mod build;
mod replies;

/// The successors of entries with at most one cube off the board, one [`Pattern`] kept at a
/// time.
pub(crate) struct ByPattern {
    rules: Rules,
    /// The pattern kept, the index of its first entry and its number of entries.
    pattern: Option<(u64, u64, Box<Pattern>)>,
    /// What cubes 1 to 3 of the last entry asked for contribute, in the pattern kept.
    upper: Upper,
}

/// What cubes 1 to 3 contribute to an entry of a pattern (as [`Pattern::successors`] sums
/// them over every cube, Black's King and White's as the sums' start): shared by the entries
/// that differ in cube 0's digit or the hand split alone, found once for them.
#[derive(Clone, Copy)]
struct Upper {
    /// The entry's digits above cube 0's (`u64::MAX` for none found yet).
    above: u64,
    /// Each cube's digit, and the child's (its owner swapped); cube 0's are the last entry's.
    digits: [usize; 4],
    child_digits: [u64; 4],
    black: u16,
    attacked: u16,
    danger: u16,
    shields: u16,
    checkers: u16,
    blocks: u16,
}

impl Upper {
    const NONE: Upper = Upper {
        above: u64::MAX,
        digits: [0; 4],
        child_digits: [0; 4],
        black: 0,
        attacked: 0,
        danger: 0,
        shields: 0,
        checkers: 0,
        blocks: 0,
    };

    /// Adds cube `i` in digit `d`: Black's, what it attacks; White's, its danger to Black's
    /// King, its shield, and whether it gives check.
    #[inline(always)]
    fn add(&mut self, p: &Pattern, i: usize, d: usize) {
        if d < 4 {
            self.black |= p.cube[i];
            self.attacked |= p.reach[i][d];
        } else {
            let a = p.danger[i][d];
            self.danger |= a;
            self.shields |= p.shield[i][d];
            if a & p.black_king != 0 {
                self.checkers |= p.cube[i];
                self.blocks |= p.shield[i][d];
            }
        }
    }
}

impl ByPattern {
    pub(crate) fn new(rules: &Rules) -> ByPattern {
        ByPattern { rules: *rules, pattern: None, upper: Upper::NONE }
    }

    /// The successors of `index` into `out` and what the entry is, as
    /// [`nana_engine::Graph::successors`] gives them; `None` (nothing written) for an entry
    /// with two cubes or more off the board.
    #[inline]
    pub(crate) fn successors(&mut self, index: u64, out: &mut Vec<u64>) -> Option<Node> {
        if let Some((first, entries, pattern)) = &self.pattern {
            let place = index.wrapping_sub(*first);
            if place < *entries {
                return Some(pattern.successors(&self.rules, place, &mut self.upper, out));
            }
        }
        self.successors_in_another_pattern(index, out)
    }

    /// [`ByPattern::successors`] of an entry of another pattern than the one kept.
    #[inline(never)]
    fn successors_in_another_pattern(&mut self, index: u64, out: &mut Vec<u64>) -> Option<Node> {
        if index >= MAIN {
            return None;
        }
        let r = (index % CUBE_CONFIGS) as u32;
        let class = tables().classes.iter().rfind(|class| class.start <= r)?;
        if class.digit_bits < 9 {
            return None;
        }
        let entries = u64::from(class.splits) << class.digit_bits;
        let q = u64::from(r - class.start);
        let place = q % entries;
        // A pattern's tables take some 15 KB: the one kept is filled again in place.
        let rules = &self.rules;
        let (first, kept, pattern) =
            self.pattern.get_or_insert_with(|| (0, 0, Box::new(Pattern::empty(rules))));
        pattern.fill(rules, index / CUBE_CONFIGS, class, q / entries);
        (*first, *kept) = (index - place, entries);
        self.upper = Upper::NONE;
        Some(pattern.successors(&self.rules, place, &mut self.upper, out))
    }
}

/// Moving piece [`Pattern::KING`] is Black's King; pieces `0..4` are the cubes, cube `i` with
/// its digit in bits `3i..3i + 3` of an entry's digits (a pattern of three cubes has no cube
/// 3, whose digit then reads 0 and whose tables are empty).
struct Pattern {
    t: &'static AttackTable,
    /// Hand splits: 1 with four cubes on the board; 2 with three, the fourth White's (split
    /// 0) or Black's (split 1).
    splits: u64,
    black_king: u16,
    white_king: u16,
    /// Black's King's attacks; White's King's steps.
    king_reach: u16,
    white_king_steps: u16,
    /// White's King's attacks with Black's King lifted, and its shield of Black's King.
    white_king_danger: u16,
    white_king_shield: u16,
    /// Each cube's square, as a bit, and every occupied square (the Kings' and the cubes').
    cube: [u16; 4],
    occupied: u16,
    /// `[cube][digit]`: its cell code; its attacks; with Black's King lifted; where a piece
    /// shields Black's King from it.
    code: [[u8; 8]; 4],
    reach: [[u16; 8]; 4],
    danger: [[u16; 8]; 4],
    shield: [[u16; 8]; 4],
    /// `[square]` -> the moving piece there, if it is a King or cube.
    mover: [u8; 16],
    /// `[split][piece][target][face of the piece]`: a child's index less its cubes' weighted
    /// digits. (The tables of pieces and targets have [`PIECE_SLOTS`] and [`SQUARE_SLOTS`]
    /// rows: indices masked to them need no bounds check.)
    base: [[[[u64; 4]; SQUARE_SLOTS]; PIECE_SLOTS]; 2],
    /// `[piece][target][cube]`: what a unit of the child's digit of the cube adds (0 for the
    /// moved cube, whose digit the base holds, and for a captured one).
    weight: [[[u64; 4]; SQUARE_SLOTS]; PIECE_SLOTS],
    /// Where Black holds the fourth cube: per square, the faces (bit `face`) in which a drop of
    /// it there gives no check.
    quiet_faces: [u8; SQUARE_SLOTS],
    /// `[target][face]` and `[target][cube]`: a drop's child as a board move's.
    drop_base: [[u64; 4]; SQUARE_SLOTS],
    drop_weight: [[u64; 4]; SQUARE_SLOTS],
    /// `[target][face]`: what the dropped piece attacks with White's King lifted, and where a
    /// White piece shields its King from it.
    drop_danger: [[u16; 4]; SQUARE_SLOTS],
    drop_shield: [[u16; 4]; SQUARE_SLOTS],
    /// `[piece][target][face of the piece]`: what Black's piece attacks once moved there (in
    /// its next face, Black's), White's King lifted.
    moved_attacks: [[[u16; 4]; SQUARE_SLOTS]; PIECE_SLOTS],
}

/// Rows of a pattern's tables by piece (the four cubes and Black's King, [`Pattern::KING`]):
/// a power of two, so that a piece masked to it indexes them without a bounds check.
const PIECE_SLOTS: usize = 8;

/// Rows of a pattern's tables by square (nine): a power of two, as [`PIECE_SLOTS`].
const SQUARE_SLOTS: usize = 16;

impl Pattern {
    const KING: usize = 4;

    /// What cubes 1 to 3 contribute to the entries whose digits above cube 0's are `above`.
    fn upper(&self, above: u64) -> Upper {
        let mut upper = Upper {
            above,
            black: self.black_king,
            danger: self.white_king_danger,
            shields: self.white_king_shield,
            ..Upper::NONE
        };
        for i in 1..4 {
            let d = (above >> (3 * (i - 1))) as usize & 7;
            upper.digits[i] = d;
            upper.child_digits[i] = (d ^ 4) as u64;
            upper.add(self, i, d);
        }
        upper
    }

    /// The successors of the entry at `place` in the pattern; `upper` keeps what cubes 1 to 3
    /// contribute from one entry to the next.
    #[inline(always)]
    fn successors(&self, rules: &Rules, place: u64, upper: &mut Upper, out: &mut Vec<u64>) -> Node {
        let (x, split) = if self.splits == 1 { (place, 0) } else { (place >> 1, place as usize & 1) };
        if x >> 3 != upper.above {
            *upper = self.upper(x >> 3);
        }
        let d0 = x as usize & 7;
        let mut sums = *upper;
        sums.add(self, 0, d0);
        let Upper { black, attacked, danger, shields, checkers, blocks, .. } = sums;
        if attacked & self.white_king != 0 {
            return Node::Illegal;
        }
        upper.digits[0] = d0;
        upper.child_digits[0] = (d0 ^ 4) as u64;
        let Upper { digits, child_digits, .. } = &*upper;
        let king = self.black_king.trailing_zeros() as usize;
        let safety = KingSafety::new(king, danger, shields, checkers, blocks);
        let weighed = |w: &[u64; 4]| {
            w[0].wrapping_mul(child_digits[0])
                .wrapping_add(w[1].wrapping_mul(child_digits[1]))
                .wrapping_add(w[2].wrapping_mul(child_digits[2]))
                .wrapping_add(w[3].wrapping_mul(child_digits[3]))
        };
        // Where Black holds a cube, R1 and R2 ask whether White has a reply.
        let mut replies = (split == 1).then(|| Replies::new(self, rules, *digits, black));
        let before = out.len();
        let mut pieces = black;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let piece = usize::from(self.mover[from & 15]);
            let (reach, face) = if piece == Self::KING {
                (self.king_reach, 0)
            } else {
                (self.reach[piece & 3][digits[piece & 3] & 7], digits[piece & 3] & 3)
            };
            let mut targets = reach & !black & safety.targets(from);
            let (base, weight) = (&self.base[split & 1][piece & 7], &self.weight[piece & 7]);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize & 15;
                targets &= targets - 1;
                if replies.as_mut().is_some_and(|r| !r.board_move_allowed(piece, from, to)) {
                    continue;
                }
                out.push(base[to][face].wrapping_add(weighed(&weight[to])));
            }
        }
        if let Some(replies) = &mut replies {
            self.drops(!self.occupied & safety.drop_squares(), &weighed, replies, out);
        }
        Node::moves_or_loss(out.len() > before)
    }

    /// The drops of the cube Black holds on `squares` (the empty ones, or out of check those
    /// between the checker and the King) that give no check and that R1 and R2 allow, their
    /// children's indices with the cubes' digits weighed by `weighed`.
    #[inline(always)]
    fn drops(
        &self,
        squares: u16,
        weighed: &impl Fn(&[u64; 4]) -> u64,
        replies: &mut Replies<'_>,
        out: &mut Vec<u64>,
    ) {
        let mut squares = squares & 0x1ff & !Square::CENTER.bit();
        while squares != 0 {
            let to = squares.trailing_zeros() as usize & 15;
            squares &= squares - 1;
            let rest = weighed(&self.drop_weight[to]);
            let mut faces = replies.drops_allowed(to, self.quiet_faces[to]);
            while faces != 0 {
                let face = faces.trailing_zeros() as usize & 3;
                faces &= faces - 1;
                out.push(self.drop_base[to][face].wrapping_add(rest));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use nana_engine::Graph;

    use super::*;
    use crate::index::{is_self_mirror_pair, unrank, KING_PAIRS};
    use crate::{Color, NanaGame, Variant};

    /// Every entry of a King pair its own mirror image and of one that is not, under both
    /// rule sets and every option of R1 and R2: where at most one cube is off the board, the
    /// successors, in order, and what the entry is, as the plain game finds them from the
    /// rules (each move played and judged, each child ranked); elsewhere no answer.
    #[test]
    fn the_patterns_give_the_successors_the_rules_give() {
        let mirror = (0..KING_PAIRS as u64)
            .find(|&kp| is_self_mirror_pair(kp * CUBE_CONFIGS))
            .expect("a pair on file 2");
        for variant in Variant::ALL {
            for (drop_stalemate, hand_stalemate) in
                [(true, true), (true, false), (false, true), (false, false)]
            {
                let rules = Rules { variant, drop_stalemate, hand_stalemate };
                let plain = NanaGame::new(rules);
                let mut by_pattern = ByPattern::new(&rules);
                let (mut answered, mut moves, mut drops, mut illegal) = (0, 0, 0, 0);
                for kp in [0, mirror] {
                    for index in kp * CUBE_CONFIGS..(kp + 1) * CUBE_CONFIGS {
                        let (mut out, mut expected) = (Vec::new(), Vec::new());
                        let node = by_pattern.successors(index, &mut out);
                        let pos = unrank(index).expect("in range");
                        let off = [Color::Black, Color::White]
                            .map(|c| crate::Cube::ALL.map(|k| pos.hand(c, k)).iter().sum::<u8>());
                        let Some(node) = node else {
                            assert!(off[0] + off[1] >= 2 && out.is_empty(), "entry {index}");
                            continue;
                        };
                        assert_eq!(
                            (node, &out),
                            (plain.successors(index, &mut expected), &expected),
                            "entry {index} under {rules:?}"
                        );
                        answered += 1;
                        moves += out.len();
                        drops += if off[0] > 0 { out.len() } else { 0 };
                        illegal += usize::from(node == Node::Illegal);
                    }
                }
                assert!(answered > 2_000_000 && moves > 3_000_000, "{answered} entries, {moves} moves");
                assert!(
                    drops > 500_000 && illegal > 100_000,
                    "{drops} moves holding a cube, {illegal} illegal"
                );
            }
            let mut out = Vec::new();
            assert_eq!(ByPattern::new(&Rules::CURRENT).successors(MAIN, &mut out), None);
        }
    }
}
