//! The compact position index: a bijection between the canonical positions and `0..SIZE`.
//!
//! Folding, in order:
//! 1. **Colour.** A position with White to move is turned by 180 degrees with the colours
//!    swapped ([`Position::flip`]); every entry has Black to move. Values for the side to move
//!    are unchanged, so one entry serves both.
//! 2. **Mirror.** Files 1 and 3 are swapped when that brings the King pair into its canonical
//!    orientation. The two King pairs on file 2 (2a/2c) are their own mirror images; there both
//!    orientations are entries of their own.
//! 3. **Kings.** Both on the board, not adjacent, so neither on the centre: 32 ordered pairs,
//!    17 after mirroring.
//! 4. **Cubes.** Each of the 7 other squares is empty or holds one cube (O or D) with owner and
//!    face; at most two of each kind are on the board, the rest are split between the hands.
//!
//! `index = king_pair × CUBE_CONFIGS + pattern offset + faces × hand_splits + hand_split`,
//! where the pattern (which of the 7 squares hold O and D cubes) has a precomputed offset, the
//! owners and faces of the cubes on the board are base-8 digits in square order, and the hand
//! split says how many of the cubes off the board Black holds. After the main block come the
//! nine opening states: Black to move with its King in hand and White's on one of the eight
//! non-centre squares, then the start. See `docs/INDEX.md`.

use std::sync::OnceLock;

use crate::position::{Position, FLIP_CODE};
use crate::types::{Color, Square};

/// King pairs after mirroring.
pub const KING_PAIRS: usize = 17;
/// Cube configurations per King pair.
pub const CUBE_CONFIGS: u64 = 1_094_697;
/// Entries of the main block (both Kings on the board).
pub const MAIN: u64 = KING_PAIRS as u64 * CUBE_CONFIGS;
/// Opening entries: eight with Black's King in hand, then the start.
pub const OPENING: u64 = 9;
/// The size of the index space.
pub const SIZE: u64 = MAIN + OPENING;
/// The index of the start position.
pub const START: u64 = SIZE - 1;
/// Bumped whenever the layout changes; stored in tablebase headers.
pub const LAYOUT_VERSION: u32 = 2;

/// The eight squares a King may stand on (all but the centre), in index order.
const KING_SQUARES: [u8; 8] = [0, 1, 2, 3, 5, 6, 7, 8];

struct Tables {
    /// `[black king][white king]` -> (king pair, mirrored) for canonical use; `u8::MAX` pair
    /// where the Kings cannot stand so.
    pair_of: [[(u8, bool); 9]; 9],
    /// King pair -> (black King square, white King square).
    pairs: [(u8, u8); KING_PAIRS],
    /// King pair -> the 7 other squares, ascending.
    free: [[u8; 7]; KING_PAIRS],
    /// King pair -> the 7 other squares as they are read from a mirrored position.
    free_mirrored: [[u8; 7]; KING_PAIRS],
    /// Whether the King pair is its own mirror image.
    self_mirror: [bool; KING_PAIRS],
    /// `[o mask][d mask]` over the 7 free squares -> offset of the pattern, `u32::MAX` if the
    /// masks overlap or hold more than two cubes of a kind.
    pattern_offset: Vec<u32>,
    /// Pattern classes by (O cubes, D cubes) on the board, in offset order: the class's first
    /// offset, the size of each of its patterns, its first pattern in `patterns`.
    classes: [(u32, u32, u16); 9],
    /// Patterns in offset order: (o mask, d mask).
    patterns: Vec<(u8, u8)>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn mirror_sq(s: u8) -> u8 {
    Square::ALL[s as usize].mirror().index() as u8
}

fn build() -> Tables {
    let mut pair_of = [[(u8::MAX, false); 9]; 9];
    let mut pairs = Vec::new();
    for &b in &KING_SQUARES {
        for &w in &KING_SQUARES {
            if b == w || Square::ALL[b as usize].touches(Square::ALL[w as usize]) {
                continue;
            }
            let m = (mirror_sq(b), mirror_sq(w));
            if (b, w) <= m {
                pair_of[b as usize][w as usize] = (pairs.len() as u8, false);
                pairs.push((b, w));
            }
        }
    }
    for (k, &(b, w)) in pairs.iter().enumerate() {
        let (mb, mw) = (mirror_sq(b), mirror_sq(w));
        if (mb, mw) != (b, w) {
            pair_of[mb as usize][mw as usize] = (k as u8, true);
        }
    }
    assert_eq!(pairs.len(), KING_PAIRS);
    let mut free = [[0u8; 7]; KING_PAIRS];
    let mut free_mirrored = [[0u8; 7]; KING_PAIRS];
    let mut self_mirror = [false; KING_PAIRS];
    for (k, &(b, w)) in pairs.iter().enumerate() {
        let squares: Vec<u8> = (0..9).filter(|&s| s != b && s != w).collect();
        free[k].copy_from_slice(&squares);
        for (j, &sq) in squares.iter().enumerate() {
            free_mirrored[k][j] = mirror_sq(sq);
        }
        self_mirror[k] = (mirror_sq(b), mirror_sq(w)) == (b, w);
    }
    // Patterns grouped by class (number of O and D cubes on the board), so that all patterns
    // of a class have the same size and unranking finds a pattern by one division.
    let mut pattern_offset = vec![u32::MAX; 128 * 128];
    let mut patterns = Vec::new();
    let mut classes = [(0u32, 0u32, 0u16); 9];
    let mut offset = 0u64;
    for (k, (a, c)) in (0..3u32).flat_map(|a| (0..3u32).map(move |c| (a, c))).enumerate() {
        let size = 8u64.pow(a + c) * u64::from(3 - a) * u64::from(3 - c);
        classes[k] = (offset as u32, size as u32, patterns.len() as u16);
        for o in 0..128u32 {
            for d in 0..128u32 {
                if o & d != 0 || o.count_ones() != a || d.count_ones() != c {
                    continue;
                }
                pattern_offset[(o * 128 + d) as usize] = offset as u32;
                patterns.push((o as u8, d as u8));
                offset += size;
            }
        }
    }
    assert_eq!(offset, CUBE_CONFIGS);
    let pairs: [(u8, u8); KING_PAIRS] = pairs.try_into().expect("17 king pairs");
    Tables { pair_of, pairs, free, free_mirrored, self_mirror, pattern_offset, classes, patterns }
}

/// Per cell code: (is an O cube, is a D cube, digit = owner × 4 + face, digit base: 8 for a
/// cube, 1 for an empty square or a King), so that ranking needs no branches.
const CELL_DIGITS: [(u32, u32, u64, u64); 19] = {
    let mut t = [(0, 0, 0, 1); 19];
    let mut code = 1;
    while code <= 18 {
        let c = code - 1;
        let (owner, role) = (c / 9, c % 9);
        if role != 0 {
            let kind = (role - 1) / 4;
            let digit = (owner * 4 + (role - 1) % 4) as u64;
            t[code as usize] = (if kind == 0 { 1 } else { 0 }, kind as u32, digit, 8);
        }
        code += 1;
    }
    t
};

/// [`CELL_DIGITS`] of the same piece owned by the other side: the cell as the flip reads it.
const CELL_DIGITS_FLIPPED: [(u32, u32, u64, u64); 19] = {
    let mut t = [(0, 0, 0, 1); 19];
    let mut code = 0;
    while code <= 18 {
        t[code] = CELL_DIGITS[FLIP_CODE[code] as usize];
        code += 1;
    }
    t
};

#[inline]
fn digit_code(kind: usize, digit: u8) -> u8 {
    let owner = digit / 4;
    1 + owner * 9 + 1 + kind as u8 * 4 + digit % 4
}

/// The index of a legal position (either side to move).
#[inline]
pub fn rank(pos: &Position) -> u64 {
    if pos.side_to_move() == Color::White {
        if pos.kings_placed() {
            rank_main::<true>(pos).0
        } else {
            rank_black(&pos.flip())
        }
    } else {
        rank_black(pos)
    }
}

/// Whether the entry's position is its own left-right mirror's entry only in this orientation
/// (King pair on file 2): then the mirror image is a separate entry.
pub fn is_self_mirror_pair(index: u64) -> bool {
    index < MAIN && tables().self_mirror[(index / CUBE_CONFIGS) as usize]
}

/// The index of a legal position with Black to move.
#[inline]
pub(crate) fn rank_black(pos: &Position) -> u64 {
    rank_black_oriented(pos).0
}

/// The index of a legal position with Black to move, and whether the position had to be
/// mirrored to reach its entry's orientation.
#[inline]
pub(crate) fn rank_black_oriented(pos: &Position) -> (u64, bool) {
    debug_assert_eq!(pos.side_to_move(), Color::Black);
    if !pos.kings_placed() {
        let i = match pos.king_square(Color::White) {
            None => START,
            Some(w) => {
                MAIN + KING_SQUARES
                    .iter()
                    .position(|&s| s as usize == w.index())
                    .expect("validated positions never have a King on the centre")
                    as u64
            }
        };
        return (i, false);
    }
    rank_main::<false>(pos)
}

/// The index of a position with both Kings on the board, and whether it had to be mirrored:
/// of `pos` itself if it has Black to move (`FLIP` false), or of `pos.flip()` if it has White
/// to move (`FLIP` true), read off `pos` without building the flip.
#[inline(always)]
fn rank_main<const FLIP: bool>(pos: &Position) -> (u64, bool) {
    debug_assert_eq!(pos.side_to_move(), if FLIP { Color::White } else { Color::Black });
    let t = tables();
    let board = pos.board_codes();
    let [bk, wk] = pos.king_squares_raw().map(usize::from);
    // The flip turns square s into 8 - s and swaps the colours.
    let (bk, wk) = if FLIP { (8 - wk, 8 - bk) } else { (bk, wk) };
    let (kp, mirrored) = t.pair_of[bk][wk];
    debug_assert!(kp != u8::MAX, "kings cannot stand so");
    let free = if mirrored { &t.free_mirrored[kp as usize] } else { &t.free[kp as usize] };
    let cells = if FLIP { &CELL_DIGITS_FLIPPED } else { &CELL_DIGITS };
    let (mut o, mut d) = (0u32, 0u32);
    let mut digits = 0u64;
    // Digits are read with the lowest free square most significant.
    for (j, &sq) in free.iter().enumerate() {
        let sq = if FLIP { 8 - sq } else { sq };
        let (is_o, is_d, digit, base) = cells[board[sq as usize] as usize];
        o |= is_o << j;
        d |= is_d << j;
        digits = digits * base + digit;
    }
    let offset = t.pattern_offset[(o * 128 + d) as usize];
    debug_assert!(offset != u32::MAX);
    let (a, c) = (u64::from(o.count_ones()), u64::from(d.count_ones()));
    let hands = pos.hands_raw();
    let hand = if FLIP { hands[1] } else { hands[0] };
    let split = u64::from(hand[0]) * (3 - c) + u64::from(hand[1]);
    (kp as u64 * CUBE_CONFIGS + u64::from(offset) + digits * (3 - a) * (3 - c) + split, mirrored)
}

/// The canonical position of an index (Black to move). `None` if `index >= SIZE`.
///
/// Every index in range gives a well-formed position; it is legal unless White (not to move)
/// is in check.
pub fn unrank(index: u64) -> Option<Position> {
    if index >= SIZE {
        return None;
    }
    if index >= MAIN {
        let mut board = [0u8; 9];
        let kings_in_hand = if index == START {
            0b11
        } else {
            board[KING_SQUARES[(index - MAIN) as usize] as usize] = 10;
            0b01
        };
        return Some(Position::from_raw(board, [[1, 1]; 2], kings_in_hand, Color::Black));
    }
    let t = tables();
    let kp = (index / CUBE_CONFIGS) as usize;
    let r = (index % CUBE_CONFIGS) as u32;
    let class = t.classes.iter().rposition(|&(start, _, _)| start <= r).expect("class 0 starts at 0");
    let (start, size, first) = t.classes[class];
    let (a, c) = (class as u64 / 3, class as u64 % 3);
    let (o, d) = t.patterns[first as usize + ((r - start) / size) as usize];
    let local = u64::from((r - start) % size);
    let splits = (3 - a) * (3 - c);
    let split = local % splits;
    let mut digits = local / splits;
    let mut board = [0u8; 9];
    let (bk, wk) = t.pairs[kp];
    board[bk as usize] = 1;
    board[wk as usize] = 10;
    let free = &t.free[kp];
    // Branch-free: every free square is written (0 where empty).
    for j in (0..7).rev() {
        let is_d = (d >> j) & 1;
        let cube = ((o >> j) & 1) | is_d;
        let code = digit_code(is_d as usize, (digits & 7) as u8);
        board[free[j] as usize] = code * cube;
        digits >>= 3 * u64::from(cube);
    }
    let (bo, bd) = ((split / (3 - c)) as u8, (split % (3 - c)) as u8);
    let hands = [[bo, bd], [2 - a as u8 - bo, 2 - c as u8 - bd]];
    Some(Position::from_raw(board, hands, 0, Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_add_up() {
        let t = tables();
        assert_eq!(t.patterns.len(), 519);
        assert_eq!(t.self_mirror.iter().filter(|&&m| m).count(), 2);
        let pairs = (0..9)
            .flat_map(|b| (0..9).map(move |w| (b, w)))
            .filter(|&(b, w)| t.pair_of[b][w].0 != u8::MAX)
            .count();
        assert_eq!(pairs, 32);
    }

    #[test]
    fn opening_states_round_trip() {
        assert_eq!(rank(&Position::start()), START);
        assert_eq!(rank(&Position::start().flip()), START);
        for i in MAIN..SIZE {
            assert_eq!(rank(&unrank(i).unwrap()), i);
        }
    }

    #[test]
    fn sampled_round_trip_and_symmetry() {
        // The whole space is walked by the integration test `index_bijection`.
        let mut i = 0;
        while i < MAIN {
            let p = unrank(i).unwrap();
            assert_eq!(rank(&p), i);
            assert_eq!(rank(&p.flip()), i);
            if !is_self_mirror_pair(i) {
                assert_eq!(rank(&p.mirror()), i);
            }
            i += 9973;
        }
        assert!(unrank(SIZE).is_none());
    }
}
