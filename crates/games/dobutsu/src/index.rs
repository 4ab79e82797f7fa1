//! The position index: a bijection between the positions the tables value, up to the side to
//! move and the mirror image, and `0..SIZE`.
//!
//! The tables value every legal position where the side to move cannot take the lion
//! ([`crate::survey`]). A position is first seen from the side to move (turned half a turn when
//! the second player is to move, so that the side to move always plays up the board from rank
//! 1), then mirrored if that brings its lions to a canonical pair. The index is
//!
//! `pair offset + Σ step(square i, state before it, its contents) + hand`
//!
//! | part | values | what |
//! |---|---|---|
//! | lion pair | 40 | the mover's and the opponent's lion squares, a step apart at least, up to the mirror: 22 with the mover's lion on file a, 12 on file b with the other on file a, 6 with both on file b |
//! | contents | 9 a square | each of the 10 squares left by the lions, in square order: empty, or a giraffe, elephant, chick or hen of either side, such that at most two pieces of a kind (a hen a chick) stand on the board and no piece of the mover attacks the opponent's lion |
//! | hand | (3 − g)(3 − e)(3 − c) | how many of each kind off the board the mover holds (`g`, `e`, `c` on the board); the opponent holds the rest |
//!
//! The contents are ranked by counting: `count(pair, i, state)` is the number of entries below a
//! prefix of `i` squares whose pieces, by kind, are `state`, and `step(i, state, d)` the sum of
//! the counts of the contents below `d` that square `i` may hold. A position where the side to
//! move can take the lion thus has no entry, and every entry but a mirror image's is a position
//! of the solved set: only the 6 lion pairs with both lions on file b also come in mirrored
//! form, where the smaller of an entry and its mirror image's is used and the other is unused
//! ([`unrank`] gives `None`).
//!
//! `SIZE` = 259,374,340 entries for 243,345,746 positions (1.066 entries a position).
//!
//! Long: the whole bijection (its tables, the counting, ranking, unranking and the cursor that
//! unranks entries one after another) in one file, its tests a seventh of it.

use std::ops::Range;
use std::sync::OnceLock;

use crate::position::{find, Position, ORIGINS};
use crate::types::Side;

/// Bumped whenever the layout changes: tables record it in their header.
pub const LAYOUT_VERSION: u32 = 2;

/// The number of lion pairs: a step apart at least, up to the mirror image.
pub const LION_PAIRS: usize = 40;

/// The number of index entries.
pub const SIZE: u64 = 259_374_340;

/// The free squares of a lion pair.
const FREE: usize = 10;

/// The kinds of the pieces on the board, `9g + 3e + c` (at most two of each): 27 states.
const STATES: usize = 27;

/// A square's contents as the side to move sees it: 0 empty, then the mover's giraffe, the
/// opponent's giraffe, elephants, chicks and hens likewise (1 to 8).
const CONTENTS: usize = 9;

/// `CODE[d]`: the piece code of contents `d` on a board seen from the side to move (the first
/// player's pieces are the mover's).
const CODE: [u8; CONTENTS] = [0, 2, 10, 3, 11, 4, 12, 5, 13];

/// `KIND[d]`: what contents `d` add to the state (a hen counts as a chick).
const KIND: [usize; CONTENTS] = [0, 9, 9, 3, 3, 1, 1, 1, 1];

/// The step of contents a square may not hold (a third piece of a kind, or a piece of the
/// mover attacking the opponent's lion) where no contents after them are allowed either.
const NONE: u32 = u32::MAX;

/// A lion pair that is not one of the index's.
const NO_PAIR: u8 = u8::MAX;

/// Precomputed lookups.
struct Tables {
    /// `pair_of[mover][opponent]`: the lion pair's number, or [`NO_PAIR`] if the lions stand a
    /// step apart or the pair is not canonical (its mirror image is).
    pair_of: [[u8; 12]; 12],
    /// The lion squares of each pair.
    pairs: [(u8, u8); LION_PAIRS],
    /// Where each pair's entries begin, and [`SIZE`].
    offsets: [u64; LION_PAIRS + 1],
    /// `free[pair]`: the squares left by the pair's lions, in order.
    free: [[u8; FREE]; LION_PAIRS],
    /// `order[rotated][mirrored][pair][sq]`: the place among the pair's free squares of the one
    /// a board read in that frame ([`SOURCES`]) shows stored square `sq` on; [`FREE`] for the
    /// lions' squares.
    order: [[[[u8; 12]; LION_PAIRS]; 2]; 2],
    /// `steps[pair][i][CONTENTS × state + d]`: what contents `d` on free square `i` add to the
    /// index from `state`, where allowed; where not, the step of the next contents allowed (or
    /// [`NONE`]), so that a row never decreases and the contents of an index part `r` are the
    /// last of the steps at most `r`.
    steps: Vec<[[u32; STATES * CONTENTS]; FREE]>,
    /// `allowed[pair][i][state]`: bit `d` set where free square `i` may hold contents `d`.
    allowed: Vec<[[u16; STATES]; FREE]>,
    /// `counts[pair][i][state]`: the entries below a prefix of `i` free squares ending in
    /// `state`.
    counts: Vec<[[u32; STATES]; FREE + 1]>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut pair_of = [[NO_PAIR; 12]; 12];
        let mut pairs = [(0, 0); LION_PAIRS];
        let mut n = 0;
        for a in 0..12u8 {
            for b in 0..12u8 {
                if a != b && !adjacent(a, b) && is_canonical_pair(a, b) {
                    pair_of[a as usize][b as usize] = n as u8;
                    pairs[n] = (a, b);
                    n += 1;
                }
            }
        }
        assert_eq!(n, LION_PAIRS);
        let free = pairs.map(|(a, b)| {
            let mut free = [0u8; FREE];
            let squares = (0..12u8).filter(|&sq| sq != a && sq != b);
            free.iter_mut().zip(squares).for_each(|(f, sq)| *f = sq);
            free
        });
        let mut offsets = [0; LION_PAIRS + 1];
        let (mut steps, mut allowed, mut counts) = (Vec::new(), Vec::new(), Vec::new());
        for (p, &(_, b)) in pairs.iter().enumerate() {
            let (s, a, c) = count(&free[p], b);
            offsets[p + 1] = offsets[p] + u64::from(c[0][0]);
            steps.push(s);
            allowed.push(a);
            counts.push(c);
        }
        assert_eq!(offsets[LION_PAIRS], SIZE);
        let order = [0, 1].map(|rotated| {
            [0, 1].map(|mirrored| {
                free.map(|squares| {
                    let mut order = [FREE as u8; 12];
                    for (i, &sq) in squares.iter().enumerate() {
                        order[usize::from(SOURCES[rotated][mirrored][usize::from(sq)])] = i as u8;
                    }
                    order
                })
            })
        });
        Tables { pair_of, pairs, offsets, free, order, steps, allowed, counts }
    })
}

/// Whether two squares are a step apart (neighbours, diagonals included).
fn adjacent(a: u8, b: u8) -> bool {
    (a / 3).abs_diff(b / 3) <= 1 && (a % 3).abs_diff(b % 3) <= 1
}

/// The hands a state leaves: `(3 − g)(3 − e)(3 − c)`.
const fn hands(state: usize) -> u32 {
    ((3 - state / 9) * (3 - state / 3 % 3) * (3 - state % 3)) as u32
}

/// Whether `state` may take one more piece of the kind `KIND[d]`.
fn fits(state: usize, d: usize) -> bool {
    match KIND[d] {
        0 => true,
        9 => state / 9 < 2,
        3 => state / 3 % 3 < 2,
        _ => state % 3 < 2,
    }
}

/// The steps, allowed contents and counts of a lion pair with these free squares, the
/// opponent's lion on `b`.
#[allow(clippy::type_complexity)]
fn count(
    free: &[u8; FREE],
    b: u8,
) -> ([[u32; STATES * CONTENTS]; FREE], [[u16; STATES]; FREE], [[u32; STATES]; FREE + 1]) {
    let mut counts = [[0u32; STATES]; FREE + 1];
    let mut steps = [[NONE; STATES * CONTENTS]; FREE];
    let mut allowed = [[0u16; STATES]; FREE];
    for (s, c) in counts[FREE].iter_mut().enumerate() {
        *c = hands(s);
    }
    for i in (0..FREE).rev() {
        let square = free[i];
        for s in 0..STATES {
            let mut below = 0u32;
            for d in 0..CONTENTS {
                // An odd `d` is a piece of the mover: ruled out where it attacks the lion.
                let attacks =
                    d % 2 == 1 && ORIGINS[0][usize::from(CODE[d])][usize::from(b)] & 1 << square != 0;
                if fits(s, d) && !attacks {
                    steps[i][CONTENTS * s + d] = below;
                    allowed[i][s] |= 1 << d;
                    below += counts[i + 1][s + KIND[d]];
                }
            }
            counts[i][s] = below;
            let mut next = NONE;
            for d in (0..CONTENTS).rev() {
                if allowed[i][s] & 1 << d != 0 {
                    next = steps[i][CONTENTS * s + d];
                } else {
                    steps[i][CONTENTS * s + d] = next;
                }
            }
        }
    }
    (steps, allowed, counts)
}

/// Whether a pair of lion squares (mover, opponent) is its own mirror class's representative:
/// the mover's lion on file a, or on file b with the opponent's on file a or b.
pub(crate) fn is_canonical_pair(a: u8, b: u8) -> bool {
    match a % 3 {
        0 => true,
        1 => b % 3 != 2,
        _ => false,
    }
}

pub(crate) const fn mirror_square(sq: usize) -> usize {
    sq - sq % 3 + 2 - sq % 3
}

/// `SOURCES[rotated][mirrored][sq]`: the square of the board as stored that square `sq` of the
/// board seen from the side to move (turned half a turn if `rotated`, then mirrored if
/// `mirrored`) shows.
pub(crate) const SOURCES: [[[u8; 12]; 2]; 2] = {
    let mut t = [[[0; 12]; 2]; 2];
    let mut sq = 0;
    while sq < 12 {
        let m = mirror_square(sq);
        t[0][0][sq] = sq as u8;
        t[0][1][sq] = m as u8;
        t[1][0][sq] = (11 - sq) as u8;
        t[1][1][sq] = (11 - m) as u8;
        sq += 1;
    }
    t
};

/// `DIGITS[rotated][code]`: the contents (see [`CONTENTS`]) of a stored piece code, the owners
/// swapped if `rotated`; 0 for a lion.
pub(crate) const DIGITS: [[u8; 16]; 2] = {
    let mut t = [[0; 16]; 2];
    let mut code = 0;
    while code < 16 {
        let role = code & 7;
        if role >= 2 {
            let owner = code >> 3;
            t[0][code] = (1 + 2 * (role - 2) + owner) as u8;
            t[1][code] = (1 + 2 * (role - 2) + (owner ^ 1)) as u8;
        }
        code += 1;
    }
    t
};

/// How a position with both lions on the board is read: turned half a turn if the second
/// player is to move, mirrored if that brings its lions to a canonical pair; and the lions'
/// squares (the mover's, the opponent's) as read.
#[inline]
pub(crate) fn orient(pos: &Position) -> (bool, bool, usize, usize) {
    let rotated = pos.side_to_move() == Side::Second;
    let flip = if rotated { 8 } else { 0 };
    // The lions' squares as stored, then as the side to move sees them.
    let (mut a, mut b) = (find(&pos.board, 1 | flip), find(&pos.board, 9 ^ flip));
    nana_engine::cross_assert!(a < 12 && b < 12, "a lion is missing");
    if rotated {
        (a, b) = (11 - a, 11 - b);
    }
    let mirrored = !is_canonical_pair(a as u8, b as u8);
    if mirrored {
        (a, b) = (mirror_square(a), mirror_square(b));
    }
    (rotated, mirrored, a, b)
}

/// The index of a position read in `rotated` and `mirrored` (see [`SOURCES`]), its lions then a
/// pair of the index.
#[inline]
fn rank_oriented(t: &Tables, pos: &Position, rotated: bool, mirrored: bool, pair: usize) -> u64 {
    let (source, digits) =
        (&SOURCES[usize::from(rotated)][usize::from(mirrored)], &DIGITS[usize::from(rotated)]);
    let steps = &t.steps[pair];
    let (mut r, mut state) = (0u32, 0usize);
    for (i, &square) in t.free[pair].iter().enumerate() {
        let d = usize::from(digits[usize::from(pos.board[usize::from(source[usize::from(square)])])]);
        nana_engine::cross_assert!(
            t.allowed[pair][i][state] & 1 << d != 0,
            "a piece of the mover attacks the lion, or too many of a kind: {pos:?}"
        );
        r = r.wrapping_add(steps[i][CONTENTS * state + d]);
        state += KIND[d];
    }
    let hand = &pos.hands[usize::from(rotated)];
    let (e, c) = ((state / 3 % 3) as u32, (state % 3) as u32);
    let h = (u32::from(hand[0]) * (3 - e) + u32::from(hand[1])) * (3 - c) + u32::from(hand[2]);
    t.offsets[pair] + u64::from(r) + u64::from(h)
}

/// The index of a position of the solved set: both lions on the board, and the side to move
/// unable to take the lion (where it can, the position has no entry: checked in debug builds).
#[inline]
pub fn rank(pos: &Position) -> u64 {
    let (rotated, mirrored, a, b) = orient(pos);
    let t = tables();
    let pair = t.pair_of[a][b];
    nana_engine::cross_assert!(pair != NO_PAIR, "the lions stand a step apart: {pos:?}");
    let pair = usize::from(pair);
    let i = rank_oriented(t, pos, rotated, mirrored, pair);
    if a % 3 == 1 && b % 3 == 1 {
        i.min(rank_oriented(t, pos, rotated, true, pair))
    } else {
        i
    }
}

/// Ranks positions that differ from one base position only on squares off the lions and in the
/// hands, its lions and side to move kept: the positions a retro-move of any piece but the lion
/// leads back to. The index's sum and state after each prefix of the free squares is read off
/// the base once, as far as a position needs it, and a position is ranked from the first free
/// square it changes.
pub(crate) struct Near {
    t: &'static Tables,
    base: Position,
    pair: usize,
    rotated: bool,
    /// The frames the index reads the positions in: one, or two where the mirror keeps the
    /// lion pair ([`rank`] takes the smaller index).
    frames: [Prefixes; 2],
    count: usize,
}

/// The base of [`Near`] read in one frame.
#[derive(Clone, Copy)]
struct Prefixes {
    mirrored: bool,
    /// `sums[i]`, `states[i]`: the index's sum of steps and the state after the first `i` free
    /// squares of the base, for `i` up to `known`.
    sums: [u32; FREE + 1],
    states: [u8; FREE + 1],
    known: usize,
}

impl Near {
    /// The ranker of positions near `base`, which has both lions on the board, a step apart at
    /// least.
    pub(crate) fn new(base: &Position) -> Near {
        let (rotated, mirrored, a, b) = orient(base);
        let t = tables();
        let pair = t.pair_of[a][b];
        nana_engine::cross_assert!(pair != NO_PAIR, "the lions stand a step apart: {base:?}");
        let frame = |mirrored| Prefixes { mirrored, sums: [0; FREE + 1], states: [0; FREE + 1], known: 0 };
        let count = 1 + usize::from(a % 3 == 1 && b % 3 == 1);
        Near {
            t,
            base: *base,
            pair: usize::from(pair),
            rotated,
            frames: [frame(mirrored), frame(true)],
            count,
        }
    }

    /// The index of `pos`, which differs from the base only on the stored squares `changed`
    /// (no lion's) and in the hands: what [`rank`] gives.
    #[inline]
    pub(crate) fn rank(&mut self, pos: &Position, changed: &[usize]) -> u64 {
        let i = self.rank_in(0, pos, changed);
        let i = if self.count == 2 { i.min(self.rank_in(1, pos, changed)) } else { i };
        if nana_engine::cross_check::on() {
            assert_eq!(i, rank(pos), "the near rank of {pos:?}, changed on {changed:?}");
        }
        i
    }

    #[inline]
    fn rank_in(&mut self, frame: usize, pos: &Position, changed: &[usize]) -> u64 {
        let t = self.t;
        let f = &mut self.frames[frame];
        let order = &t.order[usize::from(self.rotated)][usize::from(f.mirrored)][self.pair];
        let from = changed.iter().map(|&sq| usize::from(order[sq])).min().unwrap_or(FREE);
        let (source, digits) = (
            &SOURCES[usize::from(self.rotated)][usize::from(f.mirrored)],
            &DIGITS[usize::from(self.rotated)],
        );
        let steps = &t.steps[self.pair];
        let free = &t.free[self.pair];
        // The base's prefixes as far as this position's: a base's contents may be ones the
        // index rules out (a piece of the mover attacking the lion), but a position that keeps
        // them is not ranked.
        while f.known < from {
            let (i, state) = (f.known, usize::from(f.states[f.known]));
            let d =
                usize::from(digits[usize::from(self.base.board[usize::from(source[usize::from(free[i])])])]);
            f.sums[i + 1] = f.sums[i].wrapping_add(steps[i][CONTENTS * state + d]);
            f.states[i + 1] = (state + KIND[d]) as u8;
            f.known += 1;
        }
        let (mut r, mut state) = (f.sums[from], usize::from(f.states[from]));
        for (i, &square) in free.iter().enumerate().skip(from) {
            let d = usize::from(digits[usize::from(pos.board[usize::from(source[usize::from(square)])])]);
            r = r.wrapping_add(steps[i][CONTENTS * state + d]);
            state += KIND[d];
        }
        let hand = &pos.hands[usize::from(self.rotated)];
        let (e, c) = ((state / 3 % 3) as u32, (state % 3) as u32);
        let h = (u32::from(hand[0]) * (3 - e) + u32::from(hand[1])) * (3 - c) + u32::from(hand[2]);
        t.offsets[self.pair] + u64::from(r) + u64::from(h)
    }
}

/// The lion pair of an entry below [`SIZE`].
fn pair_of_entry(t: &Tables, index: u64) -> usize {
    t.offsets[1..].partition_point(|&o| o <= index)
}

/// Whether an entry's lions are both on file b, where the mirror image keeps the pair.
pub fn is_self_mirror_pair(index: u64) -> bool {
    let t = tables();
    let (a, b) = t.pairs[pair_of_entry(t, index)];
    a % 3 == 1 && b % 3 == 1
}

/// The position of an entry, with the first player to move; `None` for an unused entry (the
/// larger of a mirror pair) or one out of range.
pub fn unrank(index: u64) -> Option<Position> {
    if index >= SIZE {
        return None;
    }
    let t = tables();
    let pair = pair_of_entry(t, index);
    let (a, b) = t.pairs[pair];
    let mut r = (index - t.offsets[pair]) as u32;
    let mut pos = Position { board: [0; 12], hands: [[0; 3]; 2], turn: Side::First };
    pos.board[usize::from(a)] = 1;
    pos.board[usize::from(b)] = 9;
    let mut state = 0;
    for (i, &square) in t.free[pair].iter().enumerate() {
        let row = &t.steps[pair][i][CONTENTS * state..CONTENTS * (state + 1)];
        let d = contents(row, r);
        r -= row[d];
        state += KIND[d];
        pos.board[usize::from(square)] = CODE[d];
    }
    set_hands(&mut pos, state, r);
    if a % 3 == 1 && b % 3 == 1 && !reads_no_larger_mirrored(&t.free[pair], &pos.board) {
        return None;
    }
    Some(pos)
}

/// Whether a board of a lion pair the mirror keeps, the first player to move, has the
/// smaller entry of the two it and its mirror image read as (or the same one): the index orders
/// a pair's entries as their contents read square by square (each square's steps rise with its
/// contents, past every entry below a smaller one), then by the hands, which the mirror keeps;
/// so the first free square whose contents differ from the mirror image's decides.
#[inline]
fn reads_no_larger_mirrored(free: &[u8; FREE], board: &[u8; 12]) -> bool {
    for &sq in free {
        let sq = usize::from(sq);
        let (d, m) = (DIGITS[0][usize::from(board[sq])], DIGITS[0][usize::from(board[mirror_square(sq)])]);
        if d != m {
            return d < m;
        }
    }
    true
}

/// The contents of a free square whose part of the index is `r`, from the square's row of
/// steps: the last contents whose step is at most `r` (empty's is 0).
#[inline]
fn contents(row: &[u32], r: u32) -> usize {
    let mut d = 0;
    while d + 1 < CONTENTS && row[d + 1] <= r {
        d += 1;
    }
    d
}

/// Unranks entries one after another, fastest where each is a little above the last (a
/// frontier's entries in index order): the walk down the free squares to the last entry is
/// kept, and an entry's position is built from the deepest free square whose entries hold it,
/// the squares above it as they stand. What [`unrank`] gives, entry by entry.
#[derive(Debug)]
pub struct Cursor {
    /// The lion pair of the last entry; [`LION_PAIRS`] before the first.
    pair: usize,
    pos: Position,
    /// `firsts[i]`, `states[i]`: the first entry, and the state, of the last entry's prefix of
    /// `i` free squares.
    firsts: [u64; FREE + 1],
    states: [u8; FREE + 1],
}

impl Default for Cursor {
    fn default() -> Cursor {
        Cursor {
            pair: LION_PAIRS,
            pos: Position { board: [0; 12], hands: [[0; 3]; 2], turn: Side::First },
            firsts: [0; FREE + 1],
            states: [0; FREE + 1],
        }
    }
}

impl Cursor {
    /// The position of an entry, as [`unrank`] gives it.
    pub fn unrank(&mut self, index: u64) -> Option<Position> {
        if index >= SIZE {
            return None;
        }
        let t = tables();
        let mut from = 0;
        if self.pair < LION_PAIRS && (t.offsets[self.pair]..t.offsets[self.pair + 1]).contains(&index) {
            // The deepest prefix of the last entry whose entries hold this one.
            let counts = &t.counts[self.pair];
            while from < FREE && {
                let (first, state) = (self.firsts[from + 1], usize::from(self.states[from + 1]));
                (first..first + u64::from(counts[from + 1][state])).contains(&index)
            } {
                from += 1;
            }
        } else {
            let pair = pair_of_entry(t, index);
            let (a, b) = t.pairs[pair];
            self.pair = pair;
            self.pos.board = [0; 12];
            self.pos.board[usize::from(a)] = 1;
            self.pos.board[usize::from(b)] = 9;
            self.firsts[0] = t.offsets[pair];
        }
        let pair = self.pair;
        let mut r = (index - self.firsts[from]) as u32;
        let mut state = usize::from(self.states[from]);
        for i in from..FREE {
            let row = &t.steps[pair][i][CONTENTS * state..CONTENTS * (state + 1)];
            let d = contents(row, r);
            r -= row[d];
            state += KIND[d];
            self.pos.board[usize::from(t.free[pair][i])] = CODE[d];
            self.firsts[i + 1] = self.firsts[i] + u64::from(row[d]);
            self.states[i + 1] = state as u8;
        }
        set_hands(&mut self.pos, state, r);
        let (a, b) = t.pairs[pair];
        if a % 3 == 1 && b % 3 == 1 && !reads_no_larger_mirrored(&t.free[pair], &self.pos.board) {
            return None;
        }
        Some(self.pos)
    }
}

/// Gives the mover the hand number `h` of those `state` leaves, the opponent the rest.
#[inline]
fn set_hands(pos: &mut Position, state: usize, h: u32) {
    pos.hands = HANDS[state][h as usize];
}

/// `HANDS[state][h]`: both hands of hand number `h` among those `state` leaves, the mover's
/// holding `h = (g′(3 − e) + e′)(3 − c) + c′` of each kind (`g`, `e`, `c` on the board).
const HANDS: [[[[u8; 3]; 2]; 27]; STATES] = {
    let mut t = [[[[0; 3]; 2]; 27]; STATES];
    let mut state = 0;
    while state < STATES {
        let (g, e, c) = ((state / 9) as u8, (state / 3 % 3) as u8, (state % 3) as u8);
        let (ne, nc) = (3 - e, 3 - c);
        let mut h = 0;
        while h < hands(state) as usize {
            let h8 = h as u8;
            let mine = [h8 / nc / ne, h8 / nc % ne, h8 % nc];
            t[state][h] = [mine, [2 - g - mine[0], 2 - e - mine[1], 2 - c - mine[2]]];
            h += 1;
        }
        state += 1;
    }
    t
};

/// Calls `f` with every used entry of `range` (clipped to the index) and its position, in index
/// order: what [`unrank`] gives for each, built by walking the squares' contents in index order,
/// each square written once for all the entries below it.
pub fn for_each_position(range: Range<u64>, mut f: impl FnMut(u64, &Position)) {
    let t = tables();
    let (mut start, end) = (range.start, range.end.min(SIZE));
    while start < end {
        let pair = pair_of_entry(t, start);
        let (a, b) = t.pairs[pair];
        let mut walk = Walk {
            t,
            pair,
            range: start..end.min(t.offsets[pair + 1]),
            self_mirror: a % 3 == 1 && b % 3 == 1,
            pos: Position { board: [0; 12], hands: [[0; 3]; 2], turn: Side::First },
        };
        walk.pos.board[usize::from(a)] = 1;
        walk.pos.board[usize::from(b)] = 9;
        walk.square(0, 0, t.offsets[pair], &mut f);
        start = walk.range.end;
    }
}

/// The walk of [`for_each_position`] over one lion pair's entries in `range`.
struct Walk<'a> {
    t: &'a Tables,
    pair: usize,
    range: Range<u64>,
    self_mirror: bool,
    pos: Position,
}

impl Walk<'_> {
    /// The entries from free square `i` on, below a prefix ending in `state` whose first entry
    /// is `first`.
    fn square(&mut self, i: usize, state: usize, first: u64, f: &mut impl FnMut(u64, &Position)) {
        if i == FREE {
            let n = u64::from(hands(state));
            let from = self.range.start.max(first);
            let to = self.range.end.min(first + n);
            // The hands leave the board's order against its mirror image's as it is.
            if self.self_mirror && !reads_no_larger_mirrored(&self.t.free[self.pair], &self.pos.board) {
                return;
            }
            for index in from..to {
                set_hands(&mut self.pos, state, (index - first) as u32);
                f(index, &self.pos);
            }
            return;
        }
        let square = usize::from(self.t.free[self.pair][i]);
        let allowed = self.t.allowed[self.pair][i][state];
        for d in 0..CONTENTS {
            if allowed & 1 << d == 0 {
                continue;
            }
            let step = self.t.steps[self.pair][i][CONTENTS * state + d];
            let lo = first + u64::from(step);
            if lo >= self.range.end {
                break;
            }
            let next = state + KIND[d];
            if lo + u64::from(self.t.counts[self.pair][i + 1][next]) <= self.range.start {
                continue;
            }
            self.pos.board[square] = CODE[d];
            self.square(i + 1, next, lo, f);
        }
        self.pos.board[square] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`for_each_position`] gives what [`unrank`] gives, entry by entry: over whole lion pairs
    /// (the first; one with its mirror image in the same pair; the last) and over ranges that
    /// start and end anywhere.
    #[test]
    fn positions_of_a_range_are_those_unranked() {
        let t = tables();
        let self_mirror = (0..LION_PAIRS).find(|&p| is_self_mirror_pair(t.offsets[p])).expect("one");
        let mut ranges: Vec<Range<u64>> =
            [0, self_mirror, LION_PAIRS - 1].iter().map(|&p| t.offsets[p]..t.offsets[p + 1]).collect();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let start = state % SIZE;
            ranges.push(start..start + state % 3000);
        }
        ranges.push(SIZE - 10..SIZE + 10);
        for range in ranges {
            let mut expected = range.clone().filter_map(|i| unrank(i).map(|pos| (i, pos)));
            for_each_position(range.clone(), |i, pos| {
                assert_eq!(expected.next(), Some((i, *pos)), "{range:?}")
            });
            assert_eq!(expected.next(), None, "{range:?}");
        }
    }

    /// A [`Cursor`] gives what [`unrank`] gives, entry by entry, however the entries come: a
    /// step up of any size (within one hand, across lion pairs), back down, or out of range.
    #[test]
    fn a_cursor_unranks_as_unrank() {
        let t = tables();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut cursor = Cursor::default();
        let mut index = 0u64;
        let mut used = 0;
        for k in 0..400_000u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            index = match k % 1000 {
                // Jumps anywhere, to the last entries of a lion pair, and past the end.
                0 => state % SIZE,
                1 => t.offsets[(state % LION_PAIRS as u64) as usize + 1] - 1 - state % 3,
                2 => SIZE + state % 2,
                // Steps up, now small, now large; and back.
                _ => {
                    index.wrapping_add(match state % 16 {
                        0 => state >> 40,
                        1 => SIZE + 1 - (state >> 40) % index.max(1),
                        n => 1 + (state >> 32) % (n * n * n),
                    }) % (SIZE + 1)
                }
            };
            let expected = unrank(index);
            used += usize::from(expected.is_some());
            assert_eq!(cursor.unrank(index), expected, "entry {index}");
        }
        assert!(used > 300_000, "{used} used entries");
    }

    /// [`Near`] ranks the position before every retro-move of a piece but the lion, from
    /// entries spread over the index, as [`rank`] does: lion pairs the mirror keeps among them,
    /// and positions changed on any free square and in the hands.
    #[test]
    fn near_ranks_retro_moves_as_rank() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let (mut checked, mut self_mirror) = (0, 0);
        for _ in 0..40_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let Some(pos) = unrank(state % SIZE) else { continue };
            let mut near = Near::new(&Position { turn: Side::Second, ..pos });
            crate::game::for_each_unmove(&pos, |prev, changed, _| {
                if let Some(changed) = changed.filter(|_| !prev.can_capture_lion()) {
                    assert_eq!(near.rank(prev, changed), rank(prev), "{prev:?}");
                    checked += 1;
                    self_mirror += usize::from(near.count == 2);
                }
            });
        }
        assert!(checked > 100_000 && self_mirror > 4_000, "{checked} ranked, {self_mirror} with the mirror");
    }

    /// The lion pairs: 40, none with the lions a step apart, each of a mirror class once.
    #[test]
    fn lion_pairs_are_apart_and_canonical() {
        let t = tables();
        for (p, &(a, b)) in t.pairs.iter().enumerate() {
            assert!(!adjacent(a, b));
            let m = (mirror_square(a.into()), mirror_square(b.into()));
            assert!(m == (a.into(), b.into()) || t.pair_of[m.0][m.1] == NO_PAIR, "pair {p}");
        }
        assert_eq!(t.pairs.iter().filter(|&&(a, b)| a % 3 == 1 && b % 3 == 1).count(), 6);
    }
}
