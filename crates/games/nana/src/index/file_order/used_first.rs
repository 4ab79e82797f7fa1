//! A rule set's file order: within each King pair, its used entries first, then its unused
//! ones (White, who has just moved, in check), each in the order of [`Walk`]'s runs.
//!
//! A run is a King pair's entries of one group, pattern and owners, its cubes' faces varying
//! (`4^n` of them, cube 0's face least significant). Its squares are fixed, so whether a Black
//! cube attacks White's King depends on that cube's face alone: the run's used entries are
//! those where each Black cube shows a face of its own safe set (a White cube any face), a
//! product. An entry's place is thus its King pair's start, then for a used entry the used
//! entries of the runs before (counted for each King pair when first asked, `Pair`) and its
//! rank among its run's (mixed radix over the safe sets); for an unused one, the pair's used
//! entries, the unused entries of the runs before, and its rank among its run's.

use std::sync::OnceLock;

use super::{class_patterns, order, tables, Walk, CHOOSE};
use crate::attacks::table;
use crate::index::{unrank, CUBE_CODES, CUBE_CONFIGS, KING_PAIRS, MAIN};
use crate::types::{Color, Role, Square, Variant};

/// The runs of a King pair, the same for every pair.
struct Runs {
    /// Each run's first place within its King pair in [`Walk`]'s order.
    start: Vec<u32>,
    /// Each group's first run.
    first_of_group: Vec<u32>,
}

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    RUNS.get_or_init(|| {
        let (t, order) = (tables(), order());
        let (mut start, mut first_of_group) = (Vec::new(), Vec::new());
        for g in &order.groups {
            first_of_group.push(start.len() as u32);
            let k = usize::from(g.class);
            let n = u32::from(t.classes[k].digit_bits) / 3;
            let [ob, db] = g.owned.map(usize::from);
            let ranks = CHOOSE[k / 3][ob] * CHOOSE[k % 3][db];
            for run in 0..u64::from(class_patterns(t, k)) * ranks {
                start.push(g.offset + (run << (2 * n)) as u32);
            }
        }
        Runs { start, first_of_group }
    })
}

/// What a rule set's order is made of, in one King pair: found when first asked.
pub(super) struct Pair {
    /// `[r]`: the used entries of the pair's runs before run `r`.
    before: Vec<u32>,
    /// The pair's used entries.
    total: u32,
    /// `[p]`: bits `4c..4c + 4`, the faces with which cube `c` of pattern `p`, Black's, does
    /// not attack White's King.
    safe: Vec<u16>,
}

/// King pair `kp`'s part of the order of the rule set `variant`.
pub(super) fn pair(variant: Variant, kp: usize) -> &'static Pair {
    static PAIRS: [[OnceLock<Pair>; KING_PAIRS]; 2] = [const { [const { OnceLock::new() }; KING_PAIRS] }; 2];
    PAIRS[variant as usize][kp].get_or_init(|| Pair::new(variant, kp))
}

impl Pair {
    fn new(variant: Variant, kp: usize) -> Pair {
        let (t, order) = (tables(), order());
        let mut safe = vec![0u16; t.patterns.len()];
        for (k, class) in t.classes.iter().enumerate() {
            for q in 0..usize::from(class_patterns(t, k)) {
                safe[usize::from(class.first) + q] = safe_faces(variant, kp, k, q);
            }
        }
        let mut before = Vec::with_capacity(runs().start.len());
        let mut total = 0;
        // The runs in order, as `runs` lists them: each group's patterns, each pattern's
        // owners by rank.
        for g in &order.groups {
            let k = usize::from(g.class);
            let class = &t.classes[k];
            let n = usize::from(class.digit_bits) / 3;
            let [ob, db] = g.owned.map(usize::from);
            let (wo, wd) = (k / 3 - ob, k % 3 - db);
            let ranks = CHOOSE[k / 3][ob] * CHOOSE[k % 3][db];
            for q in 0..usize::from(class_patterns(t, k)) {
                let p = usize::from(class.first) + q;
                let kinds = usize::from(order.kinds[p]);
                // Each cube's safe faces counted; a White cube shows any of four.
                let counts: [u32; 4] = std::array::from_fn(|c| (safe[p] >> (4 * c) & 0xF).count_ones());
                for &owners in &order.owners_of_rank[kinds][wo][wd][..ranks as usize] {
                    before.push(total);
                    total +=
                        (0..n).map(|c| if owners >> c & 1 != 0 { 4 } else { counts[c] }).product::<u32>();
                }
            }
        }
        debug_assert_eq!(before.len(), runs().start.len());
        Pair { before, total, safe }
    }
}

/// The faces with which each cube of pattern `q` of class `k` in King pair `kp`, Black's, does
/// not attack White's King (bits `4c..4c + 4` for cube `c`): from one of the pattern's
/// positions (every cube White's, so the squares and kinds alone matter), each cube's attacks
/// looked up with the board as it stands.
fn safe_faces(variant: Variant, kp: usize, k: usize, q: usize) -> u16 {
    let (t, order) = (tables(), order());
    let class = &t.classes[k];
    let n = usize::from(class.digit_bits) / 3;
    let digits = (0..n).fold(0u64, |d, c| d | 4 << (3 * c));
    let x = (q as u64) << class.digit_bits | digits;
    let index = kp as u64 * CUBE_CONFIGS + u64::from(class.start) + x * u64::from(class.splits);
    let pos = unrank(index).expect("an entry of the main block");
    let king = pos.king_square(Color::White).expect("both Kings on the board").bit();
    let occupied = Square::ALL.iter().filter(|&&sq| pos.piece_at(sq).is_some()).fold(0, |m, sq| m | sq.bit());
    // Cube `c` counted from the last occupied free square back, as the digits count them.
    let cubes =
        Square::ALL.iter().rev().filter(|&&sq| pos.piece_at(sq).is_some_and(|p| p.role != Role::King));
    let kinds = order.kinds[usize::from(class.first) + q];
    let attacks = table(variant);
    let mut bits = 0;
    for (c, sq) in cubes.enumerate() {
        let kind = usize::from(kinds >> c & 1);
        for (face, &code) in CUBE_CODES[kind][..4].iter().enumerate() {
            if attacks.targets(code, sq.index(), occupied) & king == 0 {
                bits |= 1 << (4 * c + face);
            }
        }
    }
    bits
}

/// Each cube's allowed faces (4 bits) in a run: its safe faces if Black's, every face if
/// White's (`owners` bit `c`); past the run's `n` cubes face 0 alone (their faces read 0).
fn masks(safe: u16, owners: u8, n: usize) -> [u8; 4] {
    std::array::from_fn(|c| {
        if c >= n {
            1
        } else if owners >> c & 1 != 0 {
            0xF
        } else {
            (safe >> (4 * c) & 0xF) as u8
        }
    })
}

/// How many of a run's used entries come before faces `faces` (cube 0's least significant),
/// and whether that entry is used itself.
fn used_rank(masks: [u8; 4], n: usize, faces: u64) -> (u64, bool) {
    let mut weight = [1u64; 4];
    for c in 1..n {
        weight[c] = weight[c - 1] * u64::from(masks[c - 1].count_ones());
    }
    let mut rank = 0;
    for c in (0..n).rev() {
        let face = (faces >> (2 * c) & 3) as u32;
        rank += u64::from((masks[c] & ((1 << face) - 1)).count_ones()) * weight[c];
        if masks[c] >> face & 1 == 0 {
            return (rank, false);
        }
    }
    (rank, true)
}

/// A set of a run's faces (`0..256`, cube `c`'s face in bits `2c..2c + 2`), a bit each.
type FaceSet = [u64; 4];

/// `FACE_SETS[c][mask]`: the faces of a run in which cube `c` shows a face of `mask`.
const FACE_SETS: [[FaceSet; 16]; 4] = {
    let mut sets = [[[0; 4]; 16]; 4];
    let mut c = 0;
    while c < 4 {
        let mut mask = 0;
        while mask < 16 {
            let mut faces = 0;
            while faces < 256 {
                if mask >> (faces >> (2 * c) & 3) & 1 != 0 {
                    sets[c][mask][faces / 64] |= 1 << (faces % 64);
                }
                faces += 1;
            }
            mask += 1;
        }
        c += 1;
    }
    sets
};

/// The faces of a run with cubes' `masks` (see [`masks`]) of its used entries, or of its
/// unused ones among its `all_faces`.
fn face_set(masks: [u8; 4], all_faces: u64, unused: bool) -> FaceSet {
    let used: FaceSet =
        std::array::from_fn(|w| (0..4).fold(!0, |set, c| set & FACE_SETS[c][usize::from(masks[c])][w]));
    if !unused {
        return used;
    }
    std::array::from_fn(|w| {
        let below = match all_faces.saturating_sub(64 * w as u64) {
            0 => 0,
            n if n >= 64 => !0,
            n => (1 << n) - 1,
        };
        !used[w] & below
    })
}

/// The first face of `set` from `from` on, or 256 where there is none.
#[inline]
fn next_in(set: &FaceSet, from: u64) -> u64 {
    let mut w = (from / 64) as usize;
    if w >= 4 {
        return 256;
    }
    let mut bits = set[w] & (!0 << (from % 64));
    loop {
        if bits != 0 {
            return 64 * w as u64 + u64::from(bits.trailing_zeros());
        }
        w += 1;
        if w == 4 {
            return 256;
        }
        bits = set[w];
    }
}

/// The face of `set` with `skip` of its faces before it, or 256 where there is none.
fn nth_in(set: &FaceSet, mut skip: u64) -> u64 {
    for (w, &word) in set.iter().enumerate() {
        let count = u64::from(word.count_ones());
        if skip < count {
            let mut bits = word;
            for _ in 0..skip {
                bits &= bits - 1;
            }
            return 64 * w as u64 + u64::from(bits.trailing_zeros());
        }
        skip -= count;
    }
    256
}

/// Where a rule set's table file stores index entry `index` (below `SIZE`).
pub fn file_position(variant: Variant, index: u64) -> u64 {
    if index >= MAIN {
        return index;
    }
    let at = super::walk_place(index);
    let runs = runs();
    let kp = (index / CUBE_CONFIGS) as usize;
    let pair = pair(variant, kp);
    let run = (runs.first_of_group[at.group] + at.run_in_group) as usize;
    let before = u64::from(pair.before[run]);
    let masks = masks(pair.safe[at.pattern], at.owners, at.cubes);
    let (rank, is_used) = used_rank(masks, at.cubes, at.faces);
    let first = kp as u64 * CUBE_CONFIGS;
    if is_used {
        first + before + rank
    } else {
        let unused_before = u64::from(runs.start[run]) - before;
        first + u64::from(pair.total) + unused_before + (at.faces - rank)
    }
}

/// The index entries a rule set's table file stores at `first`, `first + 1`, ... into `out`
/// (each below `SIZE`): the inverse of [`file_position`], walked in order.
pub fn indexes_at(variant: Variant, first: u64, out: &mut [u64]) {
    let main = (MAIN.saturating_sub(first) as usize).min(out.len());
    let (walked, rest) = out.split_at_mut(main);
    if !walked.is_empty() {
        UsedWalk::at(variant, first).fill(walked);
    }
    rest.iter_mut().zip(first + main as u64..).for_each(|(slot, p)| *slot = p);
}

/// A walk over a rule set's places: its King pair, whether among the used or the unused
/// entries, its run (a [`Walk`] at the run's start) and the faces.
struct UsedWalk {
    variant: Variant,
    pair: &'static Pair,
    kp: usize,
    unused: bool,
    run: usize,
    walk: Walk,
    /// The run's faces of the walk's kind (used or unused).
    set: FaceSet,
    faces: u64,
}

impl UsedWalk {
    fn at(variant: Variant, position: u64) -> UsedWalk {
        let runs = runs();
        let per_pair = runs.start.len();
        let kp = (position / CUBE_CONFIGS) as usize;
        let rel = position % CUBE_CONFIGS;
        let pair = pair(variant, kp);
        let before = &pair.before;
        let total = u64::from(pair.total);
        let unused = rel >= total;
        // The run holding the place, and how many of its entries of that kind come first.
        let (run, skip) = if unused {
            let rel = rel - total;
            let unused_before = |r: usize| u64::from(runs.start[r] - before[r]);
            // The last run with no more unused entries before it than `rel` (they only grow).
            let (mut low, mut high) = (0, per_pair);
            while high - low > 1 {
                let mid = (low + high) / 2;
                if unused_before(mid) <= rel {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            (low, rel - unused_before(low))
        } else {
            let run = before.partition_point(|&b| u64::from(b) <= rel) - 1;
            (run, rel - u64::from(before[run]))
        };
        let mut w = UsedWalk { variant, pair, kp, unused, run, walk: Walk::EMPTY, set: [0; 4], faces: 0 };
        w.enter_run();
        w.faces = nth_in(&w.set, skip);
        w
    }

    /// Puts the walk at the start of its run.
    fn enter_run(&mut self) {
        self.walk = Walk::at(self.kp as u64 * CUBE_CONFIGS + u64::from(runs().start[self.run]));
        let safe = self.pair.safe[self.walk.global_pattern()];
        let masks = masks(safe, self.walk.owners, self.walk.cubes());
        self.set = face_set(masks, self.walk.all_faces, self.unused);
    }

    /// Fills `out` with the entries of the places from the walk's on (all in the main block).
    fn fill(&mut self, mut out: &mut [u64]) {
        loop {
            // The run's faces of the walk's kind from the walk's on, a word at a time.
            let mut w = (self.faces / 64) as usize;
            let mut bits = self.set.get(w).map_or(0, |&word| word & (!0 << (self.faces % 64)));
            while w < 4 {
                while bits != 0 {
                    let Some((slot, rest)) = out.split_first_mut() else {
                        self.faces = 64 * w as u64 + u64::from(bits.trailing_zeros());
                        return;
                    };
                    *slot = self.walk.entry_with(64 * w as u64 + u64::from(bits.trailing_zeros()));
                    bits &= bits - 1;
                    out = rest;
                }
                w += 1;
                bits = self.set.get(w).copied().unwrap_or(0);
            }
            if out.is_empty() {
                return;
            }
            self.faces = 256;
            self.step();
        }
    }

    /// On to the next place: the next face of the run's kind, or the next run's first.
    fn step(&mut self) {
        self.faces = next_in(&self.set, self.faces + 1);
        let per_pair = runs().start.len();
        while self.faces >= self.walk.all_faces {
            self.run += 1;
            if self.run == per_pair {
                self.run = 0;
                if self.unused {
                    self.kp += 1;
                    if self.kp == KING_PAIRS {
                        return;
                    }
                    self.pair = pair(self.variant, self.kp);
                }
                self.unused = !self.unused;
            }
            self.enter_run();
            self.faces = next_in(&self.set, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pattern's safe faces in each King pair, both rule sets, against the rules: the
    /// pattern's entry with cube `c` Black's showing the face and every other cube White's,
    /// legal exactly where the face is safe.
    #[test]
    fn the_safe_faces_are_those_the_rules_find() {
        let t = tables();
        for variant in Variant::ALL {
            for kp in 0..KING_PAIRS {
                for (k, class) in t.classes.iter().enumerate() {
                    let n = usize::from(class.digit_bits) / 3;
                    for q in 0..usize::from(class_patterns(t, k)) {
                        let safe = safe_faces(variant, kp, k, q);
                        for c in 0..n {
                            for face in 0..4u64 {
                                let digits =
                                    (0..n).fold(0u64, |d, j| d | (if j == c { face } else { 4 }) << (3 * j));
                                let x = (q as u64) << class.digit_bits | digits;
                                let index = kp as u64 * CUBE_CONFIGS
                                    + u64::from(class.start)
                                    + x * u64::from(class.splits);
                                let legal = !unrank(index).unwrap().is_in_check(variant, Color::White);
                                assert_eq!(safe >> (4 * c + face as usize) & 1 != 0, legal, "entry {index}");
                            }
                        }
                    }
                }
            }
        }
    }
}
