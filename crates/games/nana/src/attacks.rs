//! Precomputed move geometry: for every rule set, piece (owner and face) and square, the squares
//! it attacks. On a 3×3 board a slider passes at most one square on its way, so an attack set is
//! the one-step targets plus, for each slide direction, a second square that is reached when the
//! first one is empty.
//!
//! The squares a slide can pass ("middle squares") depend only on where it starts: from a corner
//! the two edge neighbours and the centre, from an edge square the centre, from the centre none.
//! Their occupancy, packed into a 3-bit key, selects one of 8 precomputed attack sets: a lookup
//! with no loop and no branch.

use crate::types::{Square, Variant};

/// The squares one piece attacks from one square, as slide pairs (used to build the tables).
#[derive(Copy, Clone, Debug)]
struct Attack {
    /// Squares attacked whatever the occupancy.
    near: u16,
    /// `(first, second)` bit pairs of the slide directions: `second` is attacked when `first`
    /// is empty.
    far: [(u16, u16); 4],
    nfar: u8,
}

impl Attack {
    const EMPTY: Attack = Attack { near: 0, far: [(0, 0); 4], nfar: 0 };

    const fn targets(&self, occupied: u16) -> u16 {
        let mut t = self.near;
        let mut i = 0;
        while i < self.nfar as usize {
            if occupied & self.far[i].0 == 0 {
                t |= self.far[i].1;
            }
            i += 1;
        }
        t
    }
}

/// Per square, the middle squares a slide from it can pass, in key bit order.
const MIDDLES: [[u8; 3]; 9] = {
    let mut m = [[u8::MAX; 3]; 9];
    let mut sq = 0;
    while sq < 9 {
        let mut n = 0;
        let mut mid = 0;
        while mid < 9 {
            // `mid` is a middle square when the square beyond it, seen from `sq`, is on the board.
            let (r, c) = ((sq / 3) as i8, (sq % 3) as i8);
            let (mr, mc) = ((mid / 3) as i8, (mid % 3) as i8);
            let (fr, fc) = (2 * mr - r, 2 * mc - c);
            let step = (mr - r).abs() <= 1 && (mc - c).abs() <= 1 && mid != sq;
            if step && fr >= 0 && fr <= 2 && fc >= 0 && fc <= 2 {
                m[sq][n] = mid as u8;
                n += 1;
            }
            mid += 1;
        }
        sq += 1;
    }
    m
};

/// `[square][occupied]` -> the key: bit k set when `MIDDLES[square][k]` is occupied.
static KEYS: [[u8; 512]; 16] = {
    let mut t = [[0u8; 512]; 16];
    let mut sq = 0;
    while sq < 9 {
        let mut occ = 0;
        while occ < 512 {
            let mut key = 0;
            let mut k = 0;
            while k < 3 {
                let mid = MIDDLES[sq][k];
                if mid != u8::MAX && occ & (1 << mid) != 0 {
                    key |= 1 << k;
                }
                k += 1;
            }
            t[sq][occ] = key;
            occ += 1;
        }
        sq += 1;
    }
    t
};

/// Attack sets of every piece (cell code 1..=18; 0 attacks nothing) on every square.
pub(crate) struct AttackTable {
    /// `[code][square][key]`, padded to powers of two so that masked indices need no bounds
    /// check.
    targets: [[[u16; 8]; 16]; 32],
    /// `[code][square][target]`: the middle square a slide to `target` passes, as a bit (0 if
    /// none): where a piece standing shields `target`.
    shields: [[[u16; 9]; 9]; 19],
}

impl AttackTable {
    /// The squares piece `code` on `sq` attacks, given the occupied squares.
    #[inline]
    pub(crate) fn targets(&self, code: u8, sq: usize, occupied: u16) -> u16 {
        let sq = sq & 15;
        self.targets[usize::from(code & 31)][sq][usize::from(KEYS[sq][usize::from(occupied) & 0x1ff] & 7)]
    }

    /// The square (as a bit) that, when empty, lets piece `code` on `sq` slide to `target`
    /// from two squares away; 0 if it does not slide there.
    #[inline]
    pub(crate) fn shield(&self, code: u8, sq: usize, target: usize) -> u16 {
        self.shields[code as usize][sq][target]
    }
}

// Directions as (sideways, forward) steps for the owner. Forward is towards the opponent.
const ORTHO: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KING: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Directions as (sideways, forward) steps.
type Directions = &'static [(i8, i8)];

/// Steps and slides of a role (by index, 0 = King .. 8 = Dog) under a rule set.
const fn pattern(variant: Variant, role: usize) -> (Directions, Directions) {
    const NONE: &[(i8, i8)] = &[];
    let original = matches!(variant, Variant::Original);
    match role {
        0 => (&KING, NONE),
        1 if original => (NONE, &ORTHO),
        1 => (&ORTHO, NONE),
        2 => (NONE, &[(0, 1), (0, -1)]),
        3 if original => (&[(0, 1), (0, -1)], &[(1, 0), (-1, 0)]),
        3 => (&[(1, 0), (-1, 0)], NONE),
        4 => (&[(0, 1), (0, -1)], NONE),
        5 => (NONE, &DIAG),
        6 => (&[(1, 1), (-1, 1), (0, -1)], NONE),
        7 => (&DIAG, NONE),
        _ => (&[(0, 1), (1, -1), (-1, -1)], NONE),
    }
}

/// The square a step leads to for a piece of `white` (or black) owner, if on the board.
const fn step(sq: usize, white: bool, d: (i8, i8)) -> Option<usize> {
    let col = (sq % 3) as i8;
    let row = (sq / 3) as i8;
    // Black moves up (towards row 0); White's pattern is Black's turned by 180 degrees.
    let (dc, dr) = if white { (-d.0, d.1) } else { (d.0, -d.1) };
    let c = col + dc;
    let r = row + dr;
    if c < 0 || c > 2 || r < 0 || r > 2 {
        None
    } else {
        Some((r * 3 + c) as usize)
    }
}

const fn build(variant: Variant) -> AttackTable {
    let mut table = AttackTable { targets: [[[0; 8]; 16]; 32], shields: [[[0; 9]; 9]; 19] };
    let mut code = 1;
    while code <= 18 {
        let white = code >= 10;
        let role = (code - 1) % 9;
        let (steps, slides) = pattern(variant, role);
        let mut sq = 0;
        while sq < 9 {
            let mut a = Attack::EMPTY;
            let mut i = 0;
            while i < steps.len() {
                if let Some(t) = step(sq, white, steps[i]) {
                    a.near |= 1 << t;
                }
                i += 1;
            }
            let mut i = 0;
            while i < slides.len() {
                if let Some(t) = step(sq, white, slides[i]) {
                    a.near |= 1 << t;
                    if let Some(t2) = step(t, white, slides[i]) {
                        a.far[a.nfar as usize] = (1 << t, 1 << t2);
                        a.nfar += 1;
                    }
                }
                i += 1;
            }
            let mut key = 0;
            while key < 8 {
                let mut occ = 0u16;
                let mut k = 0;
                while k < 3 {
                    if key & (1 << k) != 0 && MIDDLES[sq][k] != u8::MAX {
                        occ |= 1 << MIDDLES[sq][k];
                    }
                    k += 1;
                }
                table.targets[code][sq][key] = a.targets(occ);
                key += 1;
            }
            let mut i = 0;
            while i < a.nfar as usize {
                let (first, second) = a.far[i];
                table.shields[code][sq][second.trailing_zeros() as usize] = first;
                i += 1;
            }
            sq += 1;
        }
        code += 1;
    }
    table
}

static CURRENT: AttackTable = build(Variant::Current);
static ORIGINAL: AttackTable = build(Variant::Original);

#[inline]
pub(crate) fn table(variant: Variant) -> &'static AttackTable {
    match variant {
        Variant::Current => &CURRENT,
        Variant::Original => &ORIGINAL,
    }
}

/// The squares a piece (cell code) on `sq` attacks, given the occupied squares.
#[inline]
pub(crate) fn attacks(variant: Variant, code: u8, sq: Square, occupied: u16) -> u16 {
    table(variant).targets(code, sq.index(), occupied)
}
