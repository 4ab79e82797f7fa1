//! The census index: a bijection between every position with both lions on the board, up to
//! the side to move and the mirror image, and `0..SIZE`. The census of reachable positions
//! ([`crate::reach`]) needs it: a reachable position may be one where the side to move can take
//! the lion, which the tables' index ([`crate::index`]) leaves out.
//!
//! A position is read as the tables' index reads it ([`crate::index::orient`]). The index is
//!
//! `lion pair × REST + class offset + (((((subset × M + kinds) × 2^k + owners) × 2^c + hens) ×
//! (3 − g) + giraffes in hand) × (3 − e) + elephants in hand) × (3 − c) + chicks in hand`
//!
//! | part | values | what |
//! |---|---|---|
//! | lion pair | 72 | the mover's and the opponent's lion squares, up to the mirror: 44 pairs with the mover's lion on file a, 16 on file b with the other on file a, 12 with both on file b |
//! | class | 27 | `g`, `e`, `c`: how many giraffes, elephants and chicks (with hens) are on the board (0 to 2 each); `k = g + e + c` |
//! | subset | C(10, k) | which of the 10 squares left by the lions hold them (combinatorial number system) |
//! | kinds | M = k! / (g! e! c!) | which kind stands on each of them, in square order |
//! | owners | 2^k | whose each one is |
//! | hens | 2^c | which chicks are promoted |
//! | hands | (3 − g)(3 − e)(3 − c) | how many of each kind off the board the mover holds; the opponent holds the rest |
//!
//! `REST` = 11,878,227 and `SIZE` = 72 × `REST` = 855,232,344. Every entry is a position: only
//! those with both lions on file b, 12 of the 72 lion pairs, also come in mirrored form; of
//! such an entry and its mirror image, the smaller index is used and the other is unused
//! ([`unrank`] gives `None`), so that an entry is exactly one position up to symmetry.
//!
//! Long: the whole bijection (its tables, ranking and unranking) in one file, its tests a sixth
//! of it.

use std::sync::OnceLock;

use crate::index::{is_canonical_pair, orient, DIGITS, SOURCES};
use crate::position::Position;
use crate::types::{Role, Side};

/// The number of index entries for the part of a position beyond its lions.
pub const REST: u64 = 11_878_227;

/// The number of lion pairs up to the mirror image.
pub const LION_PAIRS: u64 = 72;

/// The number of index entries.
pub const SIZE: u64 = LION_PAIRS * REST;

const fn binomials() -> [[u32; 11]; 11] {
    let mut c = [[0; 11]; 11];
    let mut n = 0;
    while n < 11 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

const BINOMIAL: [[u32; 11]; 11] = binomials();

/// Precomputed lookups.
struct Tables {
    /// `pair_of[mover][opponent]`: the lion pair's number, or `u8::MAX` if the pair is not
    /// canonical (its mirror image is).
    pair_of: [[u8; 12]; 12],
    /// The lion squares of each pair.
    pairs: Vec<(u8, u8)>,
    /// The first entry (within `REST`) of each class `9g + 3e + c`, and one past the end.
    class_offset: [u64; 28],
    /// `kinds_rank[729 × class + code]`: the rank of a kind sequence (base 3, first square
    /// least significant: giraffe 0, elephant 1, chick 2) among the sequences of its class.
    kinds_rank: Vec<u16>,
    /// `kinds_of[class]`: the sequences of a class, by rank.
    kinds_of: Vec<Vec<u16>>,
    /// `roles[code]`: the roles of a kind sequence (see `kinds_rank`), first square first.
    roles: Vec<[u8; 6]>,
    /// `subsets[k]`: the k-subsets of 10 squares, by rank.
    subsets: Vec<Vec<u16>>,
    /// `subset_rank[mask]`: the rank of a subset of the 10 free squares among those of its size.
    subset_rank: Vec<u8>,
    /// `reads[pair][orientation]`: the squares of the board as stored that the 10 free squares
    /// of the pair show, for each orientation `2 × rotated + mirrored` (see [`SOURCES`]).
    reads: Vec<[[u8; 10]; 4]>,
    /// `free[pair]`: the 10 squares left by the pair's lions, in order.
    free: Vec<[u8; 10]>,
    /// `classes[class]`: how [`unrank`] splits a class's entries (see [`ClassSplit`]).
    classes: [ClassSplit; 27],
    /// `halves[h]`: what five free squares hold, for their contents `h` in base 9 (the first
    /// square least significant; see [`digit`]).
    halves: Vec<Half>,
}

/// The radices of a class's entries below its board part, with the reciprocals that divide by
/// them without a division instruction ([`divide`]).
#[derive(Debug, Clone, Copy, Default)]
struct ClassSplit {
    /// `(3 − g)(3 − e)(3 − c)`: the mover's hand counts, and their reciprocal.
    hands: u64,
    hands_inverse: u64,
    /// The kind sequences of the class, and their reciprocal.
    kinds: u64,
    kinds_inverse: u64,
    /// `hand_of[h]`: the mover's giraffes, elephants and chicks in hand for hand number `h`.
    hand_of: [[u8; 3]; 27],
}

/// `floor(2^40 / d) + 1`: with it, [`divide`] is exact for every dividend below `2^24` and
/// every divisor up to `2^16` (the error stays below `2^-16` of one).
const fn inverse(d: u64) -> u64 {
    (1 << 40) / d + 1
}

/// `r / d` and `r % d` for `r < 2^24`, by multiplying with `inverse(d)`.
#[inline]
fn divide(r: u64, d: u64, inverse: u64) -> (u64, u64) {
    nana_engine::cross_assert!(r < 1 << 24);
    let q = (r * inverse) >> 40;
    (q, r - q * d)
}

/// The pieces on five consecutive free squares, as [`rank_oriented`] combines them.
#[derive(Debug, Clone, Copy, Default)]
struct Half {
    /// Which of the five squares are occupied.
    mask: u8,
    /// How many giraffes, elephants and chicks (with hens) stand there.
    g: u8,
    e: u8,
    c: u8,
    /// Their kinds in square order, base 3 (giraffe 0, elephant 1, chick 2), first least
    /// significant.
    kinds: u8,
    /// Whose each piece is (bit `j` for the `j`th piece: 1 for the opponent's).
    owners: u8,
    /// Which of the chicks are promoted.
    hens: u8,
}

fn half(mut h: u32) -> Half {
    let mut x = Half::default();
    let mut pow3 = 1;
    for i in 0..5 {
        let d = (h % 9) as u8;
        h /= 9;
        if d == 0 {
            continue;
        }
        let kind = (d - 1) / 2;
        let kind = kind.min(2);
        x.mask |= 1 << i;
        x.owners |= ((d - 1) % 2) << (x.g + x.e + x.c);
        if d >= 5 {
            x.hens |= u8::from(d >= 7) << x.c;
        }
        x.kinds += kind * pow3;
        pow3 *= 3;
        match kind {
            0 => x.g += 1,
            1 => x.e += 1,
            _ => x.c += 1,
        }
    }
    x
}

fn class_of(g: usize, e: usize, c: usize) -> usize {
    9 * g + 3 * e + c
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (pair_of, pairs) = lion_pairs();
        let (kinds_of, kinds_rank) = kinds();
        let free = free_squares(&pairs);
        let reads = reads(&free);
        Tables {
            pair_of,
            pairs,
            class_offset: class_offsets(&kinds_of),
            kinds_rank,
            roles: roles(),
            subsets: subsets(),
            subset_rank: (0..1u16 << 10).map(|m| subset_rank(m) as u8).collect(),
            reads,
            free,
            classes: class_splits(&kinds_of),
            kinds_of,
            halves: (0..9u32.pow(5)).map(half).collect(),
        }
    })
}

/// The canonical lion pairs ([`is_canonical_pair`]): each pair's number by its squares, and
/// the pairs in order.
fn lion_pairs() -> ([[u8; 12]; 12], Vec<(u8, u8)>) {
    let mut pair_of = [[u8::MAX; 12]; 12];
    let mut pairs = Vec::new();
    for a in 0..12u8 {
        for b in 0..12u8 {
            if a != b && is_canonical_pair(a, b) {
                pair_of[a as usize][b as usize] = pairs.len() as u8;
                pairs.push((a, b));
            }
        }
    }
    assert_eq!(pairs.len() as u64, LION_PAIRS);
    (pair_of, pairs)
}

/// The kind codes of each class (base 3, a digit per piece on the board: giraffe, elephant,
/// chick), and each code's rank in its class, by `729 × class + code`.
fn kinds() -> (Vec<Vec<u16>>, Vec<u16>) {
    let mut kinds_of = vec![Vec::new(); 27];
    let mut kinds_rank = vec![u16::MAX; 27 * 729];
    for len in 0..=6u32 {
        for code in 0..3u16.pow(len) {
            let mut counts = [0usize; 3];
            let mut x = code;
            for _ in 0..len {
                counts[(x % 3) as usize] += 1;
                x /= 3;
            }
            if counts.iter().all(|&n| n <= 2) {
                let class = class_of(counts[0], counts[1], counts[2]);
                // Codes of different lengths can be equal (trailing giraffes are zeros):
                // the class tells the length.
                kinds_rank[729 * class + code as usize] = kinds_of[class].len() as u16;
                kinds_of[class].push(code);
            }
        }
    }
    (kinds_of, kinds_rank)
}

/// Where each class's entries begin after the lion pairs, and the end.
fn class_offsets(kinds_of: &[Vec<u16>]) -> [u64; 28] {
    let mut class_offset = [0; 28];
    for class in 0..27 {
        let (g, e, c) = (class / 9, class / 3 % 3, class % 3);
        let k = g + e + c;
        let size = u64::from(BINOMIAL[10][k])
            * kinds_of[class].len() as u64
            * (1 << k)
            * (1 << c)
            * ((3 - g) * (3 - e) * (3 - c)) as u64;
        class_offset[class + 1] = class_offset[class] + size;
    }
    assert_eq!(class_offset[27], REST);
    class_offset
}

/// The subsets of the ten free squares by size, each in rank order.
fn subsets() -> Vec<Vec<u16>> {
    let mut subsets = vec![Vec::new(); 11];
    for k in 0..=6 {
        let mut all: Vec<u16> = (0..1u16 << 10).filter(|m| m.count_ones() == k).collect();
        all.sort_by_key(|&m| subset_rank(m));
        subsets[k as usize] = all;
    }
    subsets
}

/// The free squares of each lion pair, in order.
fn free_squares(pairs: &[(u8, u8)]) -> Vec<[u8; 10]> {
    pairs
        .iter()
        .map(|&(a, b)| {
            let mut free = [0u8; 10];
            let squares = (0..12u8).filter(|&sq| sq != a && sq != b);
            free.iter_mut().zip(squares).for_each(|(f, sq)| *f = sq);
            free
        })
        .collect()
}

/// For each lion pair and each of the four orientations, the square each free square is read
/// from.
fn reads(free: &[[u8; 10]]) -> Vec<[[u8; 10]; 4]> {
    free.iter()
        .map(|free: &[u8; 10]| {
            let mut reads = [[0u8; 10]; 4];
            for (o, read) in reads.iter_mut().enumerate() {
                let source = &SOURCES[o / 2][o % 2];
                read.iter_mut().zip(free).for_each(|(r, &f)| *r = source[f as usize]);
            }
            reads
        })
        .collect()
}

/// The roles of the six pieces a kind code names.
fn roles() -> Vec<[u8; 6]> {
    (0..729u16)
        .map(|mut code| {
            let mut roles = [0u8; 6];
            for role in &mut roles {
                *role = [Role::Giraffe, Role::Elephant, Role::Chick][usize::from(code % 3)] as u8;
                code /= 3;
            }
            roles
        })
        .collect()
}

/// Each class's split into hands and kinds.
fn class_splits(kinds_of: &[Vec<u16>]) -> [ClassSplit; 27] {
    let mut classes = [ClassSplit::default(); 27];
    for (class, split) in classes.iter_mut().enumerate() {
        let (g, e, c) = (class / 9, class / 3 % 3, class % 3);
        let (ng, ne, nc) = ((3 - g) as u8, (3 - e) as u8, (3 - c) as u8);
        split.hands = u64::from(ng * ne * nc);
        split.hands_inverse = inverse(split.hands);
        split.kinds = kinds_of[class].len() as u64;
        split.kinds_inverse = inverse(split.kinds);
        for h in 0..ng * ne * nc {
            split.hand_of[h as usize] = [h / nc / ne, h / nc % ne, h % nc];
        }
    }
    classes
}

/// Whether an entry's lions stand a step apart (on neighbouring squares, diagonals included):
/// then the side to move can take the lion in every position of the entry's lion pair.
pub fn lions_adjacent(index: u64) -> bool {
    let (a, b) = tables().pairs[(index / REST) as usize];
    (a / 3).abs_diff(b / 3) <= 1 && (a % 3).abs_diff(b % 3) <= 1
}

/// Whether an entry's lions are both on file b, where the mirror image keeps the pair.
pub fn is_self_mirror_pair(index: u64) -> bool {
    let (a, b) = tables().pairs[(index / REST) as usize];
    a % 3 == 1 && b % 3 == 1
}

/// The rank of a subset of the 10 free squares in the combinatorial number system.
fn subset_rank(mut mask: u16) -> u32 {
    let mut r = 0;
    let mut i = 1;
    while mask != 0 {
        let p = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        r += BINOMIAL[p][i];
        i += 1;
    }
    r
}

/// The index of a position whose board is read in `orientation` (`2 × rotated + mirrored`, see
/// [`SOURCES`]; the owners swapped if rotated), its mover's lion then on `a` and the opponent's
/// on `b`: the free squares read as two halves of five, each looked up in [`Tables::halves`],
/// then put together.
#[inline]
fn rank_oriented(
    t: &Tables,
    board: &[u8; 12],
    hand: &[u8; 3],
    orientation: usize,
    a: usize,
    b: usize,
) -> u64 {
    let pair = t.pair_of[a][b] as usize;
    nana_engine::cross_assert!((pair as u64) < LION_PAIRS, "not a canonical lion pair");
    let digits = &DIGITS[orientation / 2];
    let read = &t.reads[pair][orientation];
    let at = |i: usize| u32::from(digits[board[read[i] as usize] as usize]);
    let lo = at(0) + 9 * (at(1) + 9 * (at(2) + 9 * (at(3) + 9 * at(4))));
    let hi = at(5) + 9 * (at(6) + 9 * (at(7) + 9 * (at(8) + 9 * at(9))));
    rank_halves(t, pair, lo, hi, hand)
}

/// The index of a position from its lion pair, the numbers of its two halves of free squares
/// (see [`rank_oriented`]) and the mover's hand.
#[inline]
fn rank_halves(t: &Tables, pair: usize, lo: u32, hi: u32, hand: &[u8; 3]) -> u64 {
    let (lo, hi) = (t.halves[lo as usize], t.halves[hi as usize]);
    let (g, e, c) = (usize::from(lo.g + hi.g), usize::from(lo.e + hi.e), u32::from(lo.c + hi.c));
    let k_lo = u32::from(lo.g + lo.e + lo.c);
    let k = k_lo + u32::from(hi.g + hi.e + hi.c);
    let mask = usize::from(lo.mask) | usize::from(hi.mask) << 5;
    let kinds = usize::from(lo.kinds) + usize::from(hi.kinds) * POW3[k_lo as usize];
    let owners = u32::from(lo.owners) | u32::from(hi.owners) << k_lo;
    let hens = u32::from(lo.hens) | u32::from(hi.hens) << lo.c;
    let cc = c as usize;
    let class = class_of(g, e, cc);
    let split = &t.classes[class];
    // The mover's hand, a number below `split.hands`, apart from the board's chain.
    let h = (u64::from(hand[0]) * (3 - e) as u64 + u64::from(hand[1])) * (3 - cc) as u64 + u64::from(hand[2]);
    let mut r = u64::from(t.subset_rank[mask]);
    r = r * split.kinds + u64::from(t.kinds_rank[729 * class + kinds]);
    r = r << (k + c) | u64::from(owners << c | hens);
    pair as u64 * REST + t.class_offset[class] + r * split.hands + h
}

const POW3: [usize; 6] = [1, 3, 9, 27, 81, 243];

/// The index of a position with both lions on the board.
#[inline]
pub fn rank(pos: &Position) -> u64 {
    let (rotated, mirrored, a, b) = orient(pos);
    let hand = &pos.hands[usize::from(rotated)];
    let t = tables();
    let turned = 2 * usize::from(rotated);
    let i = rank_oriented(t, &pos.board, hand, turned + usize::from(mirrored), a, b);
    if a % 3 == 1 && b % 3 == 1 {
        i.min(rank_oriented(t, &pos.board, hand, turned + 1, a, b))
    } else {
        i
    }
}

/// The position of an entry, with the first player to move; `None` for an unused entry (the
/// larger of a mirror pair) or one out of range.
pub fn unrank(index: u64) -> Option<Position> {
    if index >= SIZE {
        return None;
    }
    let pos = unrank_any(index);
    if is_self_mirror_pair(index) && rank(&pos.mirror()) < index {
        return None;
    }
    Some(pos)
}

/// The position an index stands for, used or not.
fn unrank_any(index: u64) -> Position {
    let t = tables();
    let (a, b) = t.pairs[(index / REST) as usize];
    let mut r = index % REST;
    // The class: how many classes start at or below `r`, counted without a branch.
    let class = t.class_offset[1..27].iter().map(|&o| usize::from(o <= r)).sum::<usize>();
    r -= t.class_offset[class];
    let (g, e, cc) = (class / 9, class / 3 % 3, class % 3);
    let k = g + e + cc;
    let split = &t.classes[class];
    let (q, h) = divide(r, split.hands, split.hands_inverse);
    r = q;
    let mine = split.hand_of[h as usize];
    let hands = [mine, [2 - g as u8 - mine[0], 2 - e as u8 - mine[1], 2 - cc as u8 - mine[2]]];
    let hens = r & ((1 << cc) - 1);
    r >>= cc;
    let owners = r & ((1 << k) - 1);
    r >>= k;
    let (subset, kinds) = divide(r, split.kinds, split.kinds_inverse);
    let roles = &t.roles[usize::from(t.kinds_of[class][kinds as usize])];
    let mut mask = t.subsets[k][subset as usize];
    let mut board = [0u8; 12];
    board[a as usize] = 1;
    board[b as usize] = 9;
    let free = &t.free[(index / REST) as usize];
    let (mut j, mut ci) = (0, 0);
    while mask != 0 {
        let f = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        // A chick takes the next hen bit: promoted if it is set.
        let chick = u32::from(roles[j] == Role::Chick as u8);
        let role = roles[j] + (chick & (hens >> ci) as u32) as u8;
        ci += chick;
        board[free[f] as usize] = role | ((owners >> j & 1) as u8) << 3;
        j += 1;
    }
    Position { board, hands, turn: Side::First }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::mirror_square;

    /// The index of a position seen from the side to move, with the board mirrored or not.
    fn reference_rank_oriented(board: &[u8; 12], hands: &[[u8; 3]; 2], mirrored: bool) -> u64 {
        let t = tables();
        let at = |sq: usize| if mirrored { board[mirror_square(sq)] } else { board[sq] };
        let (mut a, mut b) = (12, 12);
        for sq in 0..12 {
            match at(sq) {
                1 => a = sq,
                9 => b = sq,
                _ => {}
            }
        }
        let pair = t.pair_of[a][b] as u64;
        nana_engine::cross_assert!(pair < LION_PAIRS, "not a canonical lion pair");
        let (mut mask, mut kinds, mut owners, mut hens) = (0u16, 0u16, 0u32, 0u32);
        let (mut counts, mut k, mut c, mut free, mut pow3) = ([0usize; 3], 0, 0, 0, 1u16);
        for sq in 0..12 {
            if sq == a || sq == b {
                continue;
            }
            let code = at(sq);
            if code != 0 {
                let role = code & 7;
                let kind = match role {
                    2 => 0,
                    3 => 1,
                    _ => 2,
                };
                mask |= 1 << free;
                kinds += kind as u16 * pow3;
                pow3 *= 3;
                counts[kind] += 1;
                owners |= u32::from(code >> 3) << k;
                k += 1;
                if kind == 2 {
                    hens |= u32::from(role == 5) << c;
                    c += 1;
                }
            }
            free += 1;
        }
        let (g, e, cc) = (counts[0], counts[1], counts[2]);
        let class = class_of(g, e, cc);
        let m = t.kinds_of[class].len() as u64;
        let mut r = u64::from(subset_rank(mask));
        r = r * m + u64::from(t.kinds_rank[729 * class + kinds as usize]);
        r = (r << k) | u64::from(owners);
        r = (r << c) | u64::from(hens);
        let hand = &hands[0];
        r = r * (3 - g) as u64 + u64::from(hand[0]);
        r = r * (3 - e) as u64 + u64::from(hand[1]);
        r = r * (3 - cc) as u64 + u64::from(hand[2]);
        pair * REST + t.class_offset[class] + r
    }

    /// The index of a position with both lions on the board, as first written: the board turned
    /// and mirrored square by square.
    fn reference_rank(pos: &Position) -> u64 {
        let p = if pos.side_to_move() == Side::Second { pos.rotate() } else { *pos };
        let mut lions = (0, 0);
        for (sq, &code) in p.board.iter().enumerate() {
            match code {
                1 => lions.0 = sq,
                9 => lions.1 = sq,
                _ => {}
            }
        }
        let (a, b) = lions;
        let mirrored = !is_canonical_pair(a as u8, b as u8);
        let i = reference_rank_oriented(&p.board, &p.hands, mirrored);
        if a % 3 == 1 && b % 3 == 1 {
            i.min(reference_rank_oriented(&p.board, &p.hands, true))
        } else {
            i
        }
    }

    /// The table-driven [`rank`] agrees with the first, plainer one on positions spread over the
    /// index, either side to move, mirrored or not.
    #[test]
    fn rank_agrees_with_the_plain_reference() {
        let mut checked = 0;
        for i in (0..SIZE).step_by(7_919) {
            let pos = unrank_any(i);
            for p in [pos, pos.rotate(), pos.mirror(), pos.rotate().mirror()] {
                assert_eq!(rank(&p), reference_rank(&p), "{p:?}");
                checked += 1;
            }
        }
        assert!(checked > 400_000);
    }
}
