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
//!
//! Long: the whole bijection (folding, ranking, unranking, their tables) in one file, its
//! tests an eighth of it.

use std::sync::OnceLock;

mod by_pattern;
mod cursor;
mod file_order;
pub(crate) use by_pattern::ByPattern;
pub(crate) use cursor::Cursor;
pub use file_order::{file_position, index_at, indexes_at};

use crate::position::{Move, Position, FLIP_CODE};
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
pub const LAYOUT_VERSION: u32 = 4;

/// The eight squares a King may stand on (all but the centre), in index order.
const KING_SQUARES: [u8; 8] = [0, 1, 2, 3, 5, 6, 7, 8];

struct Tables {
    /// `[black king][white king]` -> (king pair, mirrored) for canonical use; `u8::MAX` pair
    /// where the Kings cannot stand so.
    pair_of: [[(u8, bool); 9]; 9],
    /// King pair -> (black King square, white King square).
    pairs: [(u8, u8); KING_PAIRS],
    /// Whether the King pair is its own mirror image.
    self_mirror: [bool; KING_PAIRS],
    /// `[o mask][d mask]` over the 7 free squares -> offset of the pattern, `u32::MAX` if the
    /// masks overlap or hold more than two cubes of a kind.
    pattern_offset: Box<[u32; 128 * 128]>,
    /// Pattern classes by (O cubes, D cubes) on the board, in offset order.
    classes: [Class; 9],
    /// Patterns in offset order: the [`CubeParts`] rows of their cubes, see [`Tables::parts`].
    patterns: Vec<[u8; 4]>,
    /// King pair -> what [`unrank`] puts together its positions from.
    parts: [PairParts; KING_PAIRS],
    /// `[king pair][mask of squares]` -> the same mask over the 7 free squares (bit j for the
    /// pair's j-th free square, ascending).
    compress: [[u8; 512]; KING_PAIRS],
    /// `[row key]` -> what a row of three cells (three cell states in base 17) adds to a rank.
    /// Bits 0-2 and 9-11 are the O and D cubes as masks over the row, 18-19 and 20-21 how
    /// many O and D cubes, 24-27 three bits a cube, 32- the cubes' owner-and-face digits in
    /// base 8. Rows `r0 + r1 << 3 + r2 << 6` give the masks over the board's 9 cells and
    /// `r0 + r1 + r2` the counts, without a carry into a field that is read.
    rows: Box<[u64; ROW_SLOTS]>,
}

/// A pattern class: the patterns with the same numbers of O and D cubes on the board, which
/// all have the same number of entries.
#[derive(Debug, Clone, Copy, Default)]
struct Class {
    /// The offset of its first pattern.
    start: u32,
    /// Its first pattern in `patterns`.
    first: u16,
    /// Bits of the digits: three a cube on the board.
    digit_bits: u8,
    /// Hand splits: in how many ways the cubes off the board can be shared between the hands.
    splits: u8,
    /// `RECIPROCALS[splits]`.
    reciprocal: u64,
    /// `[split]` -> the hands (`[colour][cube]`).
    hands: [[[u8; 2]; 2]; 9],
}

/// A position's board and piece masks as one number, so that a position is put together from
/// the parts of its pieces by `|`: bytes 0-8 are the cell codes, bits 96-104 Black's pieces and
/// bits 112-120 White's, as [`Position::from_parts`] takes them.
type Parts = u128;

/// The parts of one piece of code `code` owned by `owner` on square `sq`.
const fn piece_parts(sq: u8, code: u8, owner: u8) -> Parts {
    (code as Parts) << (8 * sq) | 1 << (96 + 16 * owner + sq)
}

/// `[row × 8 + digit]` -> the parts of a cube: row `2 × j + kind` for a cube on the `j`th free
/// square of a King pair, the last row ([`NO_CUBE`]) empty. Patterns list the rows of their
/// cubes, so that a position is put together without looking at its squares.
type CubeParts = [Parts; 128];

/// The [`CubeParts`] row (times 8) of a cube that is not there.
const NO_CUBE: u8 = 15 * 8;

/// What the positions of one King pair are put together from.
#[derive(Debug, Clone)]
struct PairParts {
    /// The parts of the two Kings.
    kings: Parts,
    cubes: CubeParts,
    /// `[row × 8 + digit]`, as `cubes`: what the cube adds to [`ChildRanker`]'s keys (its cell
    /// state as the children's entries read it, in both orientations).
    child_keys: [[u64; 2]; 128],
    /// The King pair of the children of moves other than King moves, and whether they read
    /// the board mirrored.
    child_pair: (u8, bool),
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables { .. }")
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn mirror_sq(s: u8) -> u8 {
    Square::ALL[s as usize].mirror().index() as u8
}

fn build() -> Tables {
    let (pair_of, pairs, free, self_mirror) = king_pairs();
    let (pattern_offset, classes, patterns) = patterns();
    let compress = compress(&free);
    let rows = rows();
    let parts = pair_parts(&pair_of, &pairs, &free);
    Tables { pair_of, pairs, self_mirror, pattern_offset, classes, patterns, parts, compress, rows }
}

/// The king pairs up to mirror image: each pair's number and whether it is the mirror image of
/// the pair kept (by Black's and White's king squares), the pairs kept, each pair's free
/// squares in order, and whether a pair is its own mirror image.
#[allow(clippy::type_complexity)]
fn king_pairs() -> ([[(u8, bool); 9]; 9], [(u8, u8); KING_PAIRS], [[u8; 7]; KING_PAIRS], [bool; KING_PAIRS]) {
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
    let mut self_mirror = [false; KING_PAIRS];
    for (k, &(b, w)) in pairs.iter().enumerate() {
        let squares: Vec<u8> = (0..9).filter(|&s| s != b && s != w).collect();
        free[k].copy_from_slice(&squares);
        self_mirror[k] = (mirror_sq(b), mirror_sq(w)) == (b, w);
    }
    let pairs: [(u8, u8); KING_PAIRS] = pairs.try_into().expect("17 king pairs");
    (pair_of, pairs, free, self_mirror)
}

/// The cube patterns on a pair's free squares: each pattern's offset by its O and D masks, the
/// classes, and the patterns in offset order.
fn patterns() -> (Box<[u32; 128 * 128]>, [Class; 9], Vec<[u8; 4]>) {
    // Patterns grouped by class (number of O and D cubes on the board), so that all patterns
    // of a class have the same size and unranking finds a pattern by one division.
    let mut pattern_offset = Box::new([u32::MAX; 128 * 128]);
    let mut patterns = Vec::new();
    let mut classes = [Class::default(); 9];
    let mut offset = 0u64;
    for (k, (a, c)) in (0..3u32).flat_map(|a| (0..3u32).map(move |c| (a, c))).enumerate() {
        let splits = (3 - a) * (3 - c);
        let size = 8u64.pow(a + c) * u64::from(splits);
        let mut hands = [[[0; 2]; 2]; 9];
        for (split, hands) in hands.iter_mut().enumerate().take(splits as usize) {
            // `split = bo × (3 - c) + bd`: Black holds `bo` O cubes and `bd` D cubes.
            let (bo, bd) = ((split as u32 / (3 - c)) as u8, (split as u32 % (3 - c)) as u8);
            *hands = [[bo, bd], [(2 - a) as u8 - bo, (2 - c) as u8 - bd]];
        }
        classes[k] = Class {
            start: offset as u32,
            first: patterns.len() as u16,
            digit_bits: (3 * (a + c)) as u8,
            splits: splits as u8,
            reciprocal: RECIPROCALS[splits as usize],
            hands,
        };
        for o in 0..128u32 {
            for d in 0..128u32 {
                if o & d != 0 || o.count_ones() != a || d.count_ones() != c {
                    continue;
                }
                pattern_offset[(o * 128 + d) as usize] = offset as u32;
                // The cubes from the last free square back, as the digits go from the least
                // significant up.
                let mut rows = [NO_CUBE; 4];
                let cubes = (0..7u32).rev().filter(|&j| (o | d) >> j & 1 != 0);
                for (row, j) in rows.iter_mut().zip(cubes) {
                    *row = ((2 * j + (d >> j & 1)) * 8) as u8;
                }
                patterns.push(rows);
                offset += size;
            }
        }
    }
    assert_eq!(offset, CUBE_CONFIGS);
    (pattern_offset, classes, patterns)
}

/// For each pair, a mask of board squares to the mask of its free squares.
fn compress(free: &[[u8; 7]; KING_PAIRS]) -> [[u8; 512]; KING_PAIRS] {
    let mut compress = [[0u8; 512]; KING_PAIRS];
    for (k, table) in compress.iter_mut().enumerate() {
        for (mask, c) in table.iter_mut().enumerate() {
            *c = free[k]
                .iter()
                .enumerate()
                .filter(|&(_, &sq)| mask >> sq & 1 != 0)
                .fold(0, |m, (j, _)| m | 1 << j);
        }
    }
    compress
}

/// The rows of [`Tables::rows`], by row key.
fn rows() -> Box<[u64; ROW_SLOTS]> {
    let mut rows = Box::new([0u64; ROW_SLOTS]);
    for key in 0..ROW_KEYS {
        let states = [key / 289, key / 17 % 17, key % 17];
        let (mut o, mut d, mut n, mut digits) = (0u64, 0u64, [0u64; 2], 0u64);
        for (k, &state) in states.iter().enumerate() {
            if state != 0 {
                let kind = (state - 1) / 8;
                if kind == 0 {
                    o |= 1 << k;
                } else {
                    d |= 1 << k;
                }
                n[kind as usize] += 1;
                digits = (digits << 3) | u64::from((state - 1) % 8);
            }
        }
        rows[key as usize] = o | d << 9 | n[0] << 18 | n[1] << 20 | (3 * (n[0] + n[1])) << 24 | digits << 32;
    }
    rows
}

/// The [`PairParts`] of each pair.
fn pair_parts(
    pair_of: &[[(u8, bool); 9]; 9],
    pairs: &[(u8, u8); KING_PAIRS],
    free: &[[u8; 7]; KING_PAIRS],
) -> [PairParts; KING_PAIRS] {
    (0..KING_PAIRS)
        .map(|k| {
            let (bk, wk) = pairs[k];
            let mut cubes = [0; 128];
            let mut child_keys = [[0; 2]; 128];
            for (j, &sq) in free[k].iter().enumerate() {
                for (kind, codes) in CUBE_CODES.iter().enumerate() {
                    for (digit, &code) in codes.iter().enumerate() {
                        let row = (2 * j + kind) * 8 + digit;
                        cubes[row] = piece_parts(sq, code, digit as u8 / 4);
                        let state = u64::from(STATES_FLIPPED[usize::from(code)]);
                        child_keys[row] = [0, 1].map(|m| state * FLIPPED_WEIGHTS[m][usize::from(sq)]);
                    }
                }
            }
            PairParts {
                kings: piece_parts(bk, 1, 0) | piece_parts(wk, 10, 1),
                cubes,
                child_keys,
                child_pair: pair_of[usize::from(8 - wk)][usize::from(8 - bk)],
            }
        })
        .collect::<Vec<_>>()
        .try_into()
        .expect("17 king pairs")
}

/// Per cell code (padded to 32 so that a masked code needs no bounds check): 0 for an empty
/// square or a King, else `1 + kind × 8 + owner × 4 + face` (kind 0 for O, 1 for D).
const STATES: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut code = 1;
    while code <= 18 {
        let c = code - 1;
        let (owner, role) = (c / 9, c % 9);
        if role != 0 {
            let kind = (role - 1) / 4;
            t[code] = (1 + kind * 8 + owner * 4 + (role - 1) % 4) as u8;
        }
        code += 1;
    }
    t
};

/// [`STATES`] of the same piece owned by the other side: the cell as the flip reads it.
const STATES_FLIPPED: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut code = 0;
    while code <= 18 {
        t[code] = STATES[FLIP_CODE[code] as usize];
        code += 1;
    }
    t
};

/// `ceil(2^32 / d)` for the divisors `d` of [`unrank`] (the hand splits, 1 to 9).
const RECIPROCALS: [u64; 10] = {
    let mut t = [0u64; 10];
    let mut d = 1;
    while d < 10 {
        t[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    t
};

/// Row keys: three cell states in base 17.
const ROW_KEYS: u32 = 17 * 17 * 17;
/// The row table's length: the row keys padded to a power of two, so that a masked key needs
/// no bounds check.
const ROW_SLOTS: usize = 8192;

/// `[flip][mirrored]` -> for each square of the entry's position (row by row), the square of
/// the ranked position it is read from.
const READ_ORDER: [[[u8; 9]; 2]; 2] = [
    [[0, 1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 0, 5, 4, 3, 8, 7, 6]],
    [[8, 7, 6, 5, 4, 3, 2, 1, 0], [6, 7, 8, 3, 4, 5, 0, 1, 2]],
];

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

/// The entry of the mirror image of an entry's position: the entry itself, except for the
/// King pairs on file 2 ([`is_self_mirror_pair`]) and the opening, whose mirror images are
/// entries of their own.
pub fn mirror_entry(index: u64) -> u64 {
    rank(&unrank(index).expect("in range").mirror())
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
    nana_engine::cross_assert_eq!(pos.side_to_move(), Color::Black);
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
    nana_engine::cross_assert_eq!(pos.side_to_move(), if FLIP { Color::White } else { Color::Black });
    let t = tables();
    let board = pos.board_codes();
    let [bk, wk] = pos.king_squares_raw().map(usize::from);
    // The flip turns square s into 8 - s and swaps the colours.
    let (bk, wk) = if FLIP { (8 - wk, 8 - bk) } else { (bk, wk) };
    let (kp, mirrored) = t.pair_of[bk][wk];
    nana_engine::cross_assert!(kp != u8::MAX, "kings cannot stand so");
    // The entry's position is read three cells at a time, a row's cell states making its key.
    let order = &READ_ORDER[usize::from(FLIP)][usize::from(mirrored)];
    let states = if FLIP { &STATES_FLIPPED } else { &STATES };
    let mut padded = [0u8; 16];
    padded[..9].copy_from_slice(board);
    let state = |i: usize| u32::from(states[usize::from(padded[usize::from(order[i] & 15)] & 31)]);
    let keys = [0, 1, 2].map(|r| state(3 * r) * 289 + state(3 * r + 1) * 17 + state(3 * r + 2));
    let hands = pos.hands_raw();
    let hand = if FLIP { hands[1] } else { hands[0] };
    (rank_rows(t, kp, keys, hand), mirrored)
}

/// The index of an entry from its King pair, its row keys and the hand of its side to move.
#[inline(always)]
fn rank_rows(t: &Tables, kp: u8, keys: [u32; 3], hand: [u8; 2]) -> u64 {
    // A row's key gives the O and D cubes in it (masks and counts), the bits of their digits
    // and the digits, see `build`.
    let [r0, r1, r2] = keys.map(|k| t.rows[k as usize % ROW_SLOTS]);
    let masks = (r0 + (r1 << 3) + (r2 << 6)) as u32;
    let (o9, d9) = (masks & 511, masks >> 9 & 511);
    let counts = (r0 + r1 + r2) as u32;
    let (a, c) = (u64::from(counts >> 18 & 3), u64::from(counts >> 20 & 3));
    let bits = |r: u64| r >> 24 & 15;
    // Digits are read with the lowest free square most significant.
    let digits = ((r0 >> 32) << bits(r1) | r1 >> 32) << bits(r2) | r2 >> 32;
    let compress = &t.compress[kp as usize];
    let (o, d) = (u32::from(compress[o9 as usize]), u32::from(compress[d9 as usize]));
    let offset = t.pattern_offset[(o * 128 + d) as usize % (128 * 128)];
    nana_engine::cross_assert!(offset != u32::MAX);
    let split = u64::from(hand[0]) * (3 - c) + u64::from(hand[1]);
    kp as u64 * CUBE_CONFIGS + u64::from(offset) + digits * (3 - a) * (3 - c) + split
}

/// [`rank_rows`], and how much the index grows when the digit of the cube in the cell of
/// weight `weight` in row `row` grows by one.
#[inline(always)]
fn rank_rows_step(t: &Tables, kp: u8, keys: [u32; 3], hand: [u8; 2], row: usize, weight: u32) -> (u64, u64) {
    let r = keys.map(|k| t.rows[k as usize % ROW_SLOTS]);
    let sum = (r[0] + r[1] + r[2]) as u32;
    let splits = u64::from((3 - (sum >> 18 & 3)) * (3 - (sum >> 20 & 3)));
    // The digit's bit offset: three bits for every cube read after it, in its row (the row key
    // modulo the cell's weight holds just the cells after it) and in the rows after it.
    let bits = |r: u64| r >> 24 & 15;
    let after = bits(t.rows[(keys[row] % weight) as usize % ROW_SLOTS])
        + r[row + 1..].iter().map(|&r| bits(r)).sum::<u64>();
    (rank_rows(t, kp, keys, hand), splits << after)
}

/// Ranks the positions after Black's moves from one position (Black to move, both Kings on
/// the board) faster than [`rank`]: the position is read once, in both mirror orientations,
/// and a move changes the key of at most two rows (a King move also changes the King pair, but
/// its squares read as empty cells either way).
#[derive(Debug, Clone)]
pub(crate) struct ChildRanker {
    tables: &'static Tables,
    kp: u8,
    black_king: u8,
    white_king: u8,
    /// Whether the children's entries read the board mirrored, for children of moves other
    /// than King moves.
    mirrored: bool,
    /// `[mirrored]` -> row keys of the position as its children's entries read it (flipped),
    /// packed, see [`FLIPPED_WEIGHTS`].
    keys: [u64; 2],
    board: [u8; 9],
    /// White's hand, which Black's moves leave alone: the children's hand to move.
    hand: [u8; 2],
    /// The last drop square and cube kind ranked, the index after a drop there in the first
    /// face, and how much a face more adds: the four faces of a drop differ in one digit.
    drops: Option<(usize, u8, u64, u64)>,
}

/// `[mirrored][square]` -> what a cell state on a square adds to the row keys of
/// [`FLIPPED_PLACES`] packed into one number, 16 bits a row: so a change of a cell is one
/// multiply-add.
const FLIPPED_WEIGHTS: [[u64; 16]; 2] = {
    let mut t = [[0u64; 16]; 2];
    let mut m = 0;
    while m < 2 {
        let mut sq = 0;
        while sq < 9 {
            let (row, weight) = FLIPPED_PLACES[m][sq];
            t[m][sq] = (weight as u64) << (16 * row);
            sq += 1;
        }
        m += 1;
    }
    t
};

/// `[mirrored][square]` -> (row, weight of the cell state in the row key) of a square of a
/// position with White to move, read by its flip's entry.
const FLIPPED_PLACES: [[(u8, u32); 9]; 2] = {
    let mut t = [[(0, 0); 9]; 2];
    let mut m = 0;
    while m < 2 {
        let mut i = 0;
        while i < 9 {
            let weight = [289, 17, 1][i % 3];
            t[m][READ_ORDER[1][m][i] as usize] = ((i / 3) as u8, weight);
            i += 1;
        }
        m += 1;
    }
    t
};

impl ChildRanker {
    /// `None` for a position with a King in hand.
    #[inline]
    pub(crate) fn new(pos: &Position) -> Option<ChildRanker> {
        nana_engine::cross_assert_eq!(pos.side_to_move(), Color::Black);
        if !pos.kings_placed() {
            return None;
        }
        let [bk, wk] = pos.king_squares_raw();
        let tables = tables();
        let (kp, mirrored) = tables.pair_of[usize::from(8 - wk)][usize::from(8 - bk)];
        let board = *pos.board_codes();
        let mut keys = [0u64; 2];
        // Empty squares and Kings read as state 0: only the cubes add to the keys.
        let [black, white] = pos.pieces_raw();
        let mut cubes = (black | white) & !(1 << bk | 1 << wk);
        while cubes != 0 {
            let sq = cubes.trailing_zeros() as usize;
            cubes &= cubes - 1;
            let state = u64::from(STATES_FLIPPED[usize::from(board[sq] & 31)]);
            for (m, keys) in keys.iter_mut().enumerate() {
                *keys += state * FLIPPED_WEIGHTS[m][sq & 15];
            }
        }
        Some(ChildRanker {
            tables,
            kp,
            black_king: bk,
            white_king: wk,
            mirrored,
            keys,
            board,
            hand: pos.hands_raw()[1],
            drops: None,
        })
    }

    /// The index of the position after Black's move `mv`, which puts the cell code `code` on
    /// its target square (see [`Position::for_each_l0_edit`]).
    #[inline(always)]
    pub(crate) fn rank(&mut self, mv: Move, code: u8) -> u64 {
        // The change of one cell's state, as the children's entries read it. The packed keys
        // stay exact through a negative change: only their final value needs to fit.
        let update = |keys: &mut u64, mirrored: bool, sq: usize, new: u8| {
            let new = u64::from(STATES_FLIPPED[usize::from(new & 31)]);
            let old = u64::from(STATES_FLIPPED[usize::from(self.board[sq] & 31)]);
            *keys = keys
                .wrapping_add(new.wrapping_sub(old).wrapping_mul(FLIPPED_WEIGHTS[usize::from(mirrored)][sq]));
        };
        let unpack = |keys: u64| [0, 1, 2].map(|r| (keys >> (16 * r)) as u32 & 0xffff);
        let t = self.tables;
        match mv {
            Move::Board { from, to } if from.index() == usize::from(self.black_king) => {
                // The King's squares read as empty before and after: only a capture on `to`
                // changes a row key.
                let (kp, mirrored) = t.pair_of[usize::from(8 - self.white_king)][8 - to.index()];
                let mut keys = self.keys[usize::from(mirrored)];
                update(&mut keys, mirrored, to.index(), code);
                rank_rows(t, kp, unpack(keys), self.hand)
            }
            Move::Board { from, to } => {
                let mut keys = self.keys[usize::from(self.mirrored)];
                update(&mut keys, self.mirrored, from.index(), 0);
                update(&mut keys, self.mirrored, to.index(), code);
                rank_rows(t, self.kp, unpack(keys), self.hand)
            }
            Move::Drop { role, to } => {
                let kind = (role as u8 - 1) / 4;
                let face = u64::from((role as u8 - 1) % 4);
                let to = to.index();
                if let Some((sq, k, first, step)) = self.drops {
                    if (sq, k) == (to, kind) {
                        return first + face * step;
                    }
                }
                let mut keys = self.keys[usize::from(self.mirrored)];
                update(&mut keys, self.mirrored, to, code);
                let (row, weight) = FLIPPED_PLACES[usize::from(self.mirrored)][to];
                let (index, step) =
                    rank_rows_step(t, self.kp, unpack(keys), self.hand, usize::from(row % 3), weight);
                let first = index - face * step;
                self.drops = Some((to, kind, first, step));
                index
            }
        }
    }
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
        return Some(unrank_opening(index));
    }
    Some(unrank_main(index).pos)
}

/// [`unrank`], and for an entry of the main block the ranker of its children
/// ([`ChildRanker::new`]), put together from the same parts as the position.
#[inline]
pub(crate) fn unrank_with_ranker(index: u64) -> Option<(Position, Option<ChildRanker>)> {
    if index >= SIZE {
        return None;
    }
    if index >= MAIN {
        return Some((unrank_opening(index), None));
    }
    let u = unrank_main(index);
    let key = |i: usize| u.parts.child_keys[(u.at >> (8 * i)) as usize & 127];
    let [k0, k1, k2, k3] = [0, 1, 2, 3].map(key);
    let keys = [0, 1].map(|m| k0[m] + k1[m] + k2[m] + k3[m]);
    let ranker = ranker_of(index, &u.pos, u.parts, keys);
    Some((u.pos, Some(ranker)))
}

/// The ranker of the children of `pos`, entry `index` of the main block, from the parts of its
/// King pair and its cubes' `keys` ([`PairParts::child_keys`] summed).
#[inline(always)]
fn ranker_of(index: u64, pos: &Position, parts: &PairParts, keys: [u64; 2]) -> ChildRanker {
    let [bk, wk] = pos.king_squares_raw();
    let (kp, mirrored) = parts.child_pair;
    let ranker = ChildRanker {
        tables: tables(),
        kp,
        black_king: bk,
        white_king: wk,
        mirrored,
        keys,
        board: *pos.board_codes(),
        hand: pos.hands_raw()[1],
        drops: None,
    };
    if nana_engine::cross_check::on() {
        let plain = ChildRanker::new(pos).map(|r| (r.kp, r.mirrored, r.keys));
        assert_eq!(plain, Some((kp, mirrored, keys)), "the child ranker of entry {index}");
    }
    ranker
}

/// An entry of the main block unranked ([`unrank_main`]).
struct Unranked {
    pos: Position,
    /// The parts of its King pair.
    parts: &'static PairParts,
    /// Where its cubes' parts are: byte `i` is cube `i`'s row (times 8) and digit.
    at: u32,
    /// Its class, and its hand split in the class.
    class: &'static Class,
    split: u8,
}

/// The position of an entry of the main block, and what it was put together from.
#[inline(always)]
fn unrank_main(index: u64) -> Unranked {
    let t = tables();
    let kp = (index / CUBE_CONFIGS) as usize;
    let r = (index % CUBE_CONFIGS) as u32;
    // From the last class, the largest (four cubes on the board, 79 % of the entries).
    let class = t.classes.iter().rfind(|class| class.start <= r).expect("class 0 starts at 0");
    // Within the class, `r - start = splits × (pattern × 8^cubes + digits) + split`. Dividing
    // by `splits` (at most 9) is a multiplication by its rounded-up reciprocal, exact for
    // every `r - start < 2^20`.
    let q = u64::from(r - class.start);
    let x = (q * class.reciprocal) >> 32;
    let split = q - x * u64::from(class.splits);
    let rows = t.patterns[usize::from(class.first) + (x >> class.digit_bits) as usize];
    // The position is put together from the parts of its Kings and its cubes, without a loop
    // or a branch. Cube `i`, counted from the last free square back, has the digit in bits
    // `3i..3i + 3` of `x`; byte `i` of `at` is its index in the table, its row (times 8) and its
    // digit. A pattern with fewer than four cubes has the empty row for the others, so their
    // "digits" (bits of the pattern there) change nothing. Masking an index with 127 changes
    // nothing either, but spares a bounds check.
    let parts = &t.parts[kp];
    let digits = (x & 7) | (x << 5 & 0x700) | (x << 10 & 0x7_0000) | (x << 15 & 0x700_0000);
    let at = u32::from_le_bytes(rows) | digits as u32;
    let cube = |i: usize| parts.cubes[(at >> (8 * i)) as usize & 127];
    let all = parts.kings | cube(0) | cube(1) | cube(2) | cube(3);
    let (bk, wk) = t.pairs[kp];
    let pos = position_of(all, class.hands[split as usize], [bk, wk]);
    Unranked { pos, parts, at, class, split: split as u8 }
}

/// The position whose board and piece masks are `all` ([`Parts`]).
#[inline(always)]
fn position_of(all: Parts, hands: [[u8; 2]; 2], kings: [u8; 2]) -> Position {
    let board = all.to_le_bytes()[..9].try_into().expect("9 cells");
    let pieces = [(all >> 96) as u16, (all >> 112) as u16];
    Position::from_parts(board, hands, pieces, kings)
}

/// The position of an opening entry (`MAIN..SIZE`). Kept out of [`unrank`]: nine entries
/// in the whole space, whose code would only crowd the main block's.
#[cold]
#[inline(never)]
fn unrank_opening(index: u64) -> Position {
    let mut board = [0u8; 9];
    let kings_in_hand = if index == START {
        0b11
    } else {
        board[KING_SQUARES[(index - MAIN) as usize] as usize] = 10;
        0b01
    };
    Position::from_raw(board, [[1, 1]; 2], kings_in_hand, Color::Black)
}

/// `[kind][owner × 4 + face]` -> the cell code of a cube.
const CUBE_CODES: [[u8; 8]; 2] = {
    let mut t = [[0u8; 8]; 2];
    let mut kind = 0;
    while kind < 2 {
        let mut digit = 0;
        while digit < 8 {
            let owner = digit / 4;
            t[kind][digit] = (1 + owner * 9 + 1 + kind * 4 + digit % 4) as u8;
            digit += 1;
        }
        kind += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_ranker_agrees_with_rank() {
        use crate::types::Variant;
        let mut moves = 0;
        for variant in [Variant::Current, Variant::Original] {
            let mut i = 0;
            while i < MAIN {
                let (p, unranked) = unrank_with_ranker(i).unwrap();
                i += 101;
                if p.is_in_check(variant, Color::White) {
                    continue;
                }
                let mut children = Vec::new();
                let _ = p.for_each_l0_move(variant, |mv, child| {
                    children.push((mv, child.board_codes()[mv.to().index()], rank(child)));
                    std::ops::ControlFlow::Continue(())
                });
                // The ranker made from the position, and the one made with it by unranking.
                for mut ranker in [ChildRanker::new(&p), unranked.clone()].map(|r| r.expect("kings placed")) {
                    let mut edits = Vec::new();
                    p.for_each_l0_edit(variant, |mv, code| edits.push((mv, code, ranker.rank(mv, code))));
                    assert_eq!(edits, children, "{p}");
                }
                moves += children.len();
            }
        }
        assert!(moves > 500_000, "{moves}");
        assert!(ChildRanker::new(&Position::start()).is_none());
    }

    #[test]
    fn reciprocal_division_is_exact() {
        // Every class spans fewer than 2^20 entries ...
        let starts = tables().classes.map(|class| u64::from(class.start));
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(CUBE_CONFIGS);
            assert!(end - start <= 1 << 20);
        }
        // ... and below 2^20 the reciprocals divide exactly.
        for d in [1u64, 2, 3, 4, 6, 9] {
            for q in 0..1 << 20 {
                assert_eq!((q * RECIPROCALS[d as usize]) >> 32, q / d, "{q} / {d}");
            }
        }
    }

    #[test]
    fn unrank_parts_agree_with_the_board() {
        // `Position::from_parts` checks this only with debug assertions.
        let mut i = 0;
        while i < MAIN {
            let p = unrank(i).unwrap();
            assert_eq!(p, Position::from_raw(*p.board_codes(), p.hands_raw(), 0, Color::Black), "{i}");
            i += 97;
        }
    }

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
        // The whole space is walked by the self-check (`self_check::index_round_trip`).
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
