//! A rule set's file order: within each King pair, its used entries first, then its unused
//! ones (White, who has just moved, in check), each in the order of [`Walk`]'s runs.
//!
//! A run is a King pair's entries of one group, pattern and owners, its cubes' faces varying
//! (`4^n` of them, cube 0's face least significant). Its squares are fixed, so whether a Black
//! cube attacks White's King depends on that cube's face alone: the run's used entries are
//! those where each Black cube shows a face of its own safe set (a White cube any face), a
//! product. An entry's place is thus its King pair's start, then for a used entry the used
//! entries of the runs before (counted once a rule set) and its rank among its run's (mixed
//! radix over the safe sets); for an unused one, the pair's used entries, the unused entries
//! of the runs before, and its rank among its run's.

use std::sync::OnceLock;

use super::{class_patterns, order, tables, Walk, CHOOSE};

use crate::index::{unrank, CUBE_CONFIGS, KING_PAIRS, MAIN};
use crate::types::{Color, Variant};

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

/// What a rule set's order is made of.
pub(super) struct Used {
    /// `[kp * runs + r]`: the used entries of King pair `kp`'s runs before run `r`.
    before: Vec<u32>,
    /// `[kp]`: King pair `kp`'s used entries.
    total: [u32; KING_PAIRS],
    /// `[kp * patterns + p]`: bits `4c..4c + 4`, the faces with which cube `c` of pattern `p`,
    /// Black's, does not attack White's King.
    safe: Vec<u16>,
}

pub(super) fn used(variant: Variant) -> &'static Used {
    static USED: [OnceLock<Used>; 2] = [OnceLock::new(), OnceLock::new()];
    USED[variant as usize].get_or_init(|| Used::new(variant))
}

impl Used {
    fn new(variant: Variant) -> Used {
        let (t, runs) = (tables(), runs());
        let patterns = t.patterns.len();
        let mut safe = vec![0u16; KING_PAIRS * patterns];
        for (k, class) in t.classes.iter().enumerate() {
            let n = usize::from(class.digit_bits) / 3;
            for q in 0..usize::from(class_patterns(t, k)) {
                for kp in 0..KING_PAIRS {
                    let mut bits = 0u16;
                    for c in 0..n {
                        for face in 0..4u64 {
                            // Cube `c` Black's with `face`, the others White's: only it may
                            // attack White's King.
                            let digits =
                                (0..n).fold(0u64, |d, j| d | (if j == c { face } else { 4 }) << (3 * j));
                            let x = (q as u64) << class.digit_bits | digits;
                            let index = kp as u64 * CUBE_CONFIGS
                                + u64::from(class.start)
                                + x * u64::from(class.splits);
                            let pos = unrank(index).expect("an entry of the main block");
                            if !pos.is_in_check(variant, Color::White) {
                                bits |= 1 << (4 * c + face as usize);
                            }
                        }
                    }
                    safe[kp * patterns + usize::from(class.first) + q] = bits;
                }
            }
        }
        let per_pair = runs.start.len();
        let mut before = vec![0u32; KING_PAIRS * per_pair];
        let mut total = [0u32; KING_PAIRS];
        for (kp, total) in total.iter_mut().enumerate() {
            let mut walk = Walk::at(kp as u64 * CUBE_CONFIGS);
            for r in 0..per_pair {
                before[kp * per_pair + r] = *total;
                let masks = masks(safe[kp * patterns + walk.global_pattern()], walk.owners, walk.cubes());
                *total += masks.iter().map(|m| m.count_ones()).product::<u32>();
                walk.next_run();
            }
        }
        Used { before, total, safe }
    }
}

/// Each cube's allowed faces (4 bits) in a run: its safe faces if Black's, every face if
/// White's (`owners` bit `c`); cubes past the `n` of the run none.
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

/// Whether faces `faces` of a run are those of a used entry.
#[inline]
fn is_used(masks: [u8; 4], faces: u64) -> bool {
    (0..4).all(|c| masks[c] >> (faces >> (2 * c) & 3) & 1 != 0)
}

/// Where a rule set's table file stores index entry `index` (below `SIZE`).
pub fn file_position(variant: Variant, index: u64) -> u64 {
    if index >= MAIN {
        return index;
    }
    let at = super::walk_place(index);
    let (runs, used) = (runs(), used(variant));
    let kp = (index / CUBE_CONFIGS) as usize;
    let run = (runs.first_of_group[at.group] + at.run_in_group) as usize;
    let before = u64::from(used.before[kp * runs.start.len() + run]);
    let patterns = tables().patterns.len();
    let masks = masks(used.safe[kp * patterns + at.pattern], at.owners, at.cubes);
    let (rank, is_used) = used_rank(masks, at.cubes, at.faces);
    let first = kp as u64 * CUBE_CONFIGS;
    if is_used {
        first + before + rank
    } else {
        let unused_before = u64::from(runs.start[run]) - before;
        first + u64::from(used.total[kp]) + unused_before + (at.faces - rank)
    }
}

/// The index entries a rule set's table file stores at `first`, `first + 1`, ... into `out`
/// (each below `SIZE`): the inverse of [`file_position`], walked in order.
pub fn indexes_at(variant: Variant, first: u64, out: &mut [u64]) {
    let mut walk = (first < MAIN).then(|| UsedWalk::at(variant, first));
    for (p, slot) in (first..).zip(out.iter_mut()) {
        *slot = match &mut walk {
            Some(w) if p < MAIN => {
                let entry = w.walk.entry_with(w.faces);
                w.step();
                entry
            }
            _ => p,
        };
    }
}

/// A walk over a rule set's places: its King pair, whether among the used or the unused
/// entries, its run (a [`Walk`] at the run's start) and the faces.
struct UsedWalk {
    used: &'static Used,
    kp: usize,
    unused: bool,
    run: usize,
    walk: Walk,
    masks: [u8; 4],
    faces: u64,
}

impl UsedWalk {
    fn at(variant: Variant, position: u64) -> UsedWalk {
        let (runs, used) = (runs(), used(variant));
        let per_pair = runs.start.len();
        let kp = (position / CUBE_CONFIGS) as usize;
        let rel = position % CUBE_CONFIGS;
        let before = &used.before[kp * per_pair..(kp + 1) * per_pair];
        let total = u64::from(used.total[kp]);
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
        let mut w = UsedWalk { used, kp, unused, run, walk: Walk::EMPTY, masks: [0; 4], faces: 0 };
        w.enter_run();
        w.faces = w.first_from(0);
        for _ in 0..skip {
            w.faces = w.first_from(w.faces + 1);
        }
        w
    }

    /// Puts the walk at the start of its run.
    fn enter_run(&mut self) {
        let (runs, patterns) = (runs(), tables().patterns.len());
        self.walk = Walk::at(self.kp as u64 * CUBE_CONFIGS + u64::from(runs.start[self.run]));
        let safe = self.used.safe[self.kp * patterns + self.walk.global_pattern()];
        self.masks = masks(safe, self.walk.owners, self.walk.cubes());
    }

    /// The first faces from `faces` on of the walk's kind (used or unused), or the run's end.
    fn first_from(&self, mut faces: u64) -> u64 {
        while faces < self.walk.all_faces && is_used(self.masks, faces) == self.unused {
            faces += 1;
        }
        faces
    }

    fn step(&mut self) {
        self.faces = self.first_from(self.faces + 1);
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
                }
                self.unused = !self.unused;
            }
            self.enter_run();
            self.faces = self.first_from(0);
        }
    }
}
