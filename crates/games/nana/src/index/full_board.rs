//! The successors of the entries with every cube on the board, a pattern at a time.
//!
//! Four cubes on the board is the last class of every King pair: 210 patterns (which squares
//! hold the two O and the two D cubes) of 4,096 entries each, 79 % of the index. Within a
//! pattern every square's occupant is fixed but for the cubes' digits (owner and face), and
//! no one holds a cube, so there are no drops and neither R1 nor R2 can forbid a move. What
//! depends on the squares alone is found once a pattern ([`Pattern`]):
//!
//! - each cube's attacks in each of its eight digits, with the board as it stands and with
//!   Black's King lifted off it, and the square where a piece would shield Black's King from
//!   it;
//! - for each Black piece and target square, the child's index as a sum: a base for the
//!   moved piece's face, plus one weight times the child's digit of each other cube. A child's
//!   entry reads its cubes' digits in base 8, in the order of its free squares, so the index
//!   is linear in each digit; the weights are found by ranking the child of the move with one
//!   cube's face turned once more ([`crate::index::rank`]).
//!
//! An entry then costs a few table lookups: its legality (no Black piece attacks White's
//! King), its King's safety, and a multiply-add per cube for each move. The moves come in the
//! order of [`crate::position::Position::for_each_l0_edit`]: by square of the piece, then of
//! the target.

use nana_engine::Node;

use super::{rank, tables, CUBE_CODES, CUBE_CONFIGS, MAIN};
use crate::attacks::{table, AttackTable};
use crate::position::{Move, Position, BLACK_KING, WHITE_KING};
use crate::types::{Color, Square, Variant};

/// Entries of a pattern: four cubes' digits, three bits each.
const ENTRIES: u64 = 1 << 12;

/// Where the pattern of four cubes on the board starts within a King pair's entries, and how
/// many patterns it has.
fn class() -> (u64, u64) {
    let class = tables().classes[8];
    debug_assert_eq!((class.digit_bits, class.splits), (12, 1));
    (u64::from(class.start), (CUBE_CONFIGS - u64::from(class.start)) / ENTRIES)
}

/// The successors of entries with every cube on the board, one [`Pattern`] kept at a time.
pub(crate) struct FullBoard {
    variant: Variant,
    start: u64,
    patterns: u64,
    pattern: Option<(u64, Box<Pattern>)>,
}

impl FullBoard {
    pub(crate) fn new(variant: Variant) -> FullBoard {
        let (start, patterns) = class();
        FullBoard { variant, start, patterns, pattern: None }
    }

    /// The successors of `index` into `out` and what the entry is, as
    /// [`nana_engine::Graph::successors`] gives them; `None` (nothing written) for an entry
    /// with a cube off the board.
    #[inline]
    pub(crate) fn successors(&mut self, index: u64, out: &mut Vec<u64>) -> Option<Node> {
        if index >= MAIN {
            return None;
        }
        let r = index % CUBE_CONFIGS;
        let q = r.checked_sub(self.start)?;
        let key = index / CUBE_CONFIGS * self.patterns + q / ENTRIES;
        let pattern = match &self.pattern {
            Some((k, pattern)) if *k == key => pattern,
            _ => {
                let pattern = Pattern::new(table(self.variant), key / self.patterns, q / ENTRIES);
                &self.pattern.insert((key, Box::new(pattern))).1
            }
        };
        Some(pattern.successors(q % ENTRIES, out))
    }
}

/// Moving piece `Pattern::KING` is Black's King; pieces `0..4` are the cubes, cube `i` with its
/// digit in bits `3i..3i + 3` of an entry's place in its pattern.
struct Pattern {
    black_king: u16,
    white_king: u16,
    /// Black's King's attacks.
    king_reach: u16,
    /// White's King's attacks with Black's King lifted, and its shield of Black's King.
    white_king_danger: u16,
    white_king_shield: u16,
    /// Each cube's square, as a bit.
    cube: [u16; 4],
    /// `[cube][digit]`: its attacks; with Black's King lifted; where a piece shields Black's
    /// King from it.
    reach: [[u16; 8]; 4],
    danger: [[u16; 8]; 4],
    shield: [[u16; 8]; 4],
    /// `[square]` -> the moving piece there, if it is a King or cube.
    mover: [u8; 16],
    /// `[piece][target][face of the piece]`: a child's index less its cubes' weighted digits.
    base: [[[u64; 4]; 9]; 5],
    /// `[piece][target][cube]`: what a unit of the child's digit of the cube adds (0 for the
    /// moved cube, whose digit the base holds, and for a captured one).
    weight: [[[u64; 4]; 9]; 5],
}

impl Pattern {
    const KING: usize = 4;

    fn new(t: &AttackTable, kp: u64, pattern: u64) -> Pattern {
        let tables = tables();
        let (bk, wk) = tables.pairs[kp as usize];
        let free: Vec<u8> = (0..9).filter(|&s| s != bk && s != wk).collect();
        let rows = tables.patterns[usize::from(tables.classes[8].first) + pattern as usize];
        // Cube `i`'s square and kind (0 for O).
        let cubes: [(u8, usize); 4] =
            rows.map(|row| (free[usize::from(row / 16)], usize::from((row / 8) & 1)));
        let (bk_bit, wk_bit) = (1u16 << bk, 1u16 << wk);
        let occ = cubes.iter().fold(bk_bit | wk_bit, |m, &(sq, _)| m | 1 << sq);
        let lifted = occ & !bk_bit;
        let mut p = Pattern {
            black_king: bk_bit,
            white_king: wk_bit,
            king_reach: t.targets(BLACK_KING, usize::from(bk), occ),
            white_king_danger: t.targets(WHITE_KING, usize::from(wk), lifted),
            white_king_shield: t.shield(WHITE_KING, usize::from(wk), usize::from(bk)),
            cube: cubes.map(|(sq, _)| 1 << sq),
            reach: [[0; 8]; 4],
            danger: [[0; 8]; 4],
            shield: [[0; 8]; 4],
            mover: [u8::MAX; 16],
            base: [[[0; 4]; 9]; 5],
            weight: [[[0; 4]; 9]; 5],
        };
        p.mover[usize::from(bk)] = Self::KING as u8;
        for (i, &(sq, kind)) in cubes.iter().enumerate() {
            p.mover[usize::from(sq)] = i as u8;
            for (digit, &code) in CUBE_CODES[kind].iter().enumerate() {
                let sq = usize::from(sq);
                p.reach[i][digit] = t.targets(code, sq, occ);
                p.danger[i][digit] = t.targets(code, sq, lifted);
                p.shield[i][digit] = t.shield(code, sq, usize::from(bk));
            }
        }
        p.rank_children(bk, wk, cubes);
        p
    }

    /// [`Pattern::base`] and [`Pattern::weight`], for every target a piece reaches in some
    /// face but the Kings' squares (a capture of a King is never legal) and, for Black's King,
    /// the squares next to White's.
    fn rank_children(&mut self, bk: u8, wk: u8, cubes: [(u8, usize); 4]) {
        let tables = tables();
        let (bk_bit, wk_bit) = (1u16 << bk, 1u16 << wk);
        let p = self;
        let board = |faces: [usize; 4], owners: [usize; 4]| {
            let mut board = [0u8; 9];
            board[usize::from(bk)] = BLACK_KING;
            board[usize::from(wk)] = WHITE_KING;
            for (i, &(sq, kind)) in cubes.iter().enumerate() {
                board[usize::from(sq)] = CUBE_CODES[kind][4 * owners[i] + faces[i]];
            }
            Position::from_raw(board, [[0; 2]; 2], 0, Color::Black)
        };
        for piece in 0..5 {
            let (from, reach) = if piece == Self::KING {
                (bk, p.king_reach)
            } else {
                (cubes[piece].0, p.reach[piece][..4].iter().fold(0, |m, &r| m | r))
            };
            let mut targets = reach & !bk_bit & !wk_bit & 0x1ff;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                if piece == Self::KING && tables.pair_of[usize::from(to)][usize::from(wk)].0 == u8::MAX {
                    continue;
                }
                // Every cube Black's in face 0, but a White one on the target.
                let owners = cubes.map(|(sq, _)| usize::from(sq == to));
                let mv =
                    Move::Board { from: Square::ALL[usize::from(from)], to: Square::ALL[usize::from(to)] };
                let child = |faces: [usize; 4]| rank(&board(faces, owners).play_unchecked(mv));
                let zero = child([0; 4]);
                // Each cube's weight: its face turned once more turns its child's digit once
                // more (a cube moved shows the next face in the child, so its digit is one
                // more than it showed, as the others').
                let mut weight = [0u64; 4];
                for (j, w) in weight.iter_mut().enumerate() {
                    if owners[j] == 0 {
                        let mut faces = [0; 4];
                        faces[j] = 1;
                        *w = child(faces).wrapping_sub(zero);
                    }
                }
                // The child's digits at `zero`: a Black cube in face 0 is White's in the
                // child's entry (digit 4), the moved one in face 1 (digit 5).
                let digits = |j: usize| if j == piece { 5 } else { 4 };
                let base = (0..4).fold(zero, |b, j| b.wrapping_sub(weight[j].wrapping_mul(digits(j))));
                let to = usize::from(to);
                for face in 0..4u64 {
                    p.base[piece][to][face as usize] = if piece == Self::KING {
                        base
                    } else {
                        base.wrapping_add(weight[piece].wrapping_mul(4 + (face + 1) % 4))
                    };
                }
                p.weight[piece][to] = weight;
                if piece != Self::KING {
                    p.weight[piece][to][piece] = 0;
                }
            }
        }
    }

    /// The successors of the entry at `place` in the pattern.
    #[inline(always)]
    fn successors(&self, place: u64, out: &mut Vec<u64>) -> Node {
        let digit = |i: usize| (place >> (3 * i)) as usize & 7;
        let digits = [digit(0), digit(1), digit(2), digit(3)];
        let mut black = self.black_king;
        let mut attacked = 0;
        let (mut danger, mut shields) = (self.white_king_danger, self.white_king_shield);
        let (mut checkers, mut blocks) = (0u16, 0u16);
        for (i, &d) in digits.iter().enumerate() {
            if d < 4 {
                black |= self.cube[i];
                attacked |= self.reach[i][d];
            } else {
                let a = self.danger[i][d];
                danger |= a;
                shields |= self.shield[i][d];
                if a & self.black_king != 0 {
                    checkers |= self.cube[i];
                    blocks |= self.shield[i][d];
                }
            }
        }
        if attacked & self.white_king != 0 {
            return Node::Illegal;
        }
        let king = self.black_king.trailing_zeros() as usize;
        let evasions = if checkers.count_ones() == 1 { checkers | blocks } else { 0 };
        // What a piece other than the King may move to, as `KingSafety::targets` says.
        let safe = |from: usize| {
            if shields & (1 << from) != 0 {
                if checkers != 0 {
                    0
                } else {
                    1u16 << (2 * from - king)
                }
            } else if checkers != 0 {
                evasions
            } else {
                u16::MAX
            }
        };
        // The child's digit of each cube: its owner swapped.
        let child_digits = digits.map(|d| (d ^ 4) as u64);
        let before = out.len();
        let mut pieces = black;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let piece = usize::from(self.mover[from & 15]);
            let (mut targets, face) = if piece == Self::KING {
                (self.king_reach & !black & !danger, 0)
            } else {
                (self.reach[piece & 3][digits[piece & 3]] & !black & safe(from), digits[piece & 3])
            };
            let (base, weight) = (&self.base[piece % 5], &self.weight[piece % 5]);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize % 9;
                targets &= targets - 1;
                let w = &weight[to];
                out.push(
                    base[to][face]
                        .wrapping_add(w[0].wrapping_mul(child_digits[0]))
                        .wrapping_add(w[1].wrapping_mul(child_digits[1]))
                        .wrapping_add(w[2].wrapping_mul(child_digits[2]))
                        .wrapping_add(w[3].wrapping_mul(child_digits[3])),
                );
            }
        }
        Node::moves_or_loss(out.len() > before)
    }
}

#[cfg(test)]
mod tests {
    use nana_engine::Graph;

    use super::*;
    use crate::index::{is_self_mirror_pair, KING_PAIRS};
    use crate::{NanaGame, Rules};

    /// Every entry with four cubes on the board of a King pair its own mirror image and of
    /// one that is not, under both rule sets: the successors, in order, and what the entry is,
    /// as the plain game finds them from the rules (each move played, each child ranked).
    #[test]
    fn the_patterns_give_the_successors_the_rules_give() {
        let mirror = (0..KING_PAIRS as u64)
            .find(|&kp| is_self_mirror_pair(kp * CUBE_CONFIGS))
            .expect("a pair on file 2");
        let (start, patterns) = class();
        for rules in [Rules::CURRENT, Rules::ORIGINAL] {
            let plain = NanaGame::new(rules);
            let mut full_board = FullBoard::new(rules.variant);
            let (mut moves, mut illegal) = (0, 0);
            for kp in [0, mirror] {
                let first = kp * CUBE_CONFIGS + start;
                for index in first..first + patterns * ENTRIES {
                    let (mut out, mut expected) = (Vec::new(), Vec::new());
                    let node = full_board.successors(index, &mut out).expect("four cubes on the board");
                    assert_eq!(
                        (node, &out),
                        (plain.successors(index, &mut expected), &expected),
                        "entry {index}"
                    );
                    moves += out.len();
                    illegal += usize::from(node == Node::Illegal);
                }
            }
            assert!(moves > 1_000_000 && illegal > 100_000, "{moves} moves, {illegal} illegal entries");
            let mut out = Vec::new();
            assert_eq!(full_board.successors(start - 1, &mut out), None);
            assert_eq!(full_board.successors(MAIN, &mut out), None);
            assert!(out.is_empty());
        }
    }
}
