//! Precomputed move geometry: for every rule set, piece (owner and face) and square, the squares
//! it attacks. On a 3×3 board a slider passes at most one square on its way, so an attack set is
//! the one-step targets plus, for each slide direction, a second square that is reached when the
//! first one is empty.

use crate::types::{Square, Variant};

/// The squares one piece attacks from one square.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Attack {
    /// Squares attacked whatever the occupancy.
    near: u16,
    /// `(first, second)` bit pairs of the slide directions: `second` is attacked when `first`
    /// is empty.
    far: [(u16, u16); 4],
    nfar: u8,
}

impl Attack {
    const EMPTY: Attack = Attack { near: 0, far: [(0, 0); 4], nfar: 0 };

    /// The squares that, when empty, let this piece's slide reach `target` from two squares
    /// away: where a piece standing would shield `target`.
    #[inline]
    pub(crate) fn shields(&self, target: u16) -> u16 {
        let mut m = 0;
        for &(first, second) in &self.far[..self.nfar as usize] {
            if second == target {
                m |= first;
            }
        }
        m
    }

    #[inline]
    pub(crate) fn targets(&self, occupied: u16) -> u16 {
        let mut t = self.near;
        for &(first, second) in &self.far[..self.nfar as usize] {
            if occupied & first == 0 {
                t |= second;
            }
        }
        t
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

/// Attack sets indexed by piece cell code (1..=18; 0 unused) and square.
pub(crate) type AttackTable = [[Attack; 9]; 19];

const fn build(variant: Variant) -> AttackTable {
    let mut table = [[Attack::EMPTY; 9]; 19];
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
            table[code][sq] = a;
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
    table(variant)[code as usize][sq.index()].targets(occupied)
}
