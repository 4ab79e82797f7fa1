//! The order in which a table file stores the index's entries: a bijection of `0..SIZE` that
//! puts entries of like material together, which compresses better than the index's own order
//! (`docs/INDEX.md`, "File order"), each King pair's used entries before its unused ones
//! ([`used_first`]).
//!
//! Within each King pair the entries are grouped by what Black owns — its O cubes and D cubes,
//! on the board and in hand (`3 × O + D`) — then by the hands (Black's O and D cubes, White's O
//! and D cubes, base 3). Within a group the patterns keep the index's order; within a pattern
//! the owners of the cubes on the board (bit `c` for cube `c`, counted from the pair's last free
//! square back, as the index's digits) rank among the owners the group allows, then the cubes'
//! faces follow (base 4, cube 0 least significant). The opening entries keep their places.

use std::sync::OnceLock;

#[cfg(test)]
use super::MAIN;
use super::{tables, Tables, CUBE_CONFIGS};

mod used_first;

pub use used_first::{file_position, indexes_at};

/// The index entry a rule set's table file stores at `position` (below `SIZE`): the inverse of
/// [`file_position`].
pub fn index_at(variant: crate::types::Variant, position: u64) -> u64 {
    let mut one = [0];
    indexes_at(variant, position, &mut one);
    one[0]
}

/// The binomial coefficients `C(n, k)` for `n, k ≤ 2`.
const CHOOSE: [[u64; 3]; 3] = [[1, 0, 0], [1, 1, 0], [1, 2, 1]];

/// A group of entries: a class, a hand split and how many of the O and D cubes on the board
/// Black owns.
#[derive(Debug, Clone, Copy)]
struct Group {
    /// Where its entries start within a King pair's, in the file.
    offset: u32,
    class: u8,
    split: u8,
    /// Black's O and D cubes on the board.
    owned: [u8; 2],
}

struct Order {
    /// The groups in file order.
    groups: Vec<Group>,
    /// `[class][split][black O on board][black D on board]` -> the group's offset.
    offset: [[[[u32; 3]; 3]; 9]; 9],
    /// `[kinds][owners]` -> the owners' rank among the masks with as many White O cubes and D
    /// cubes (bit `c` of `kinds` set where cube `c` is a D cube, of `owners` where White owns
    /// it).
    owner_rank: [[u8; 16]; 16],
    /// `[kinds][white O][white D][rank]` -> the owners.
    owners_of_rank: [[[[u8; 4]; 3]; 3]; 16],
    /// `[digits]` -> the owners (byte 0) and the faces (byte 1) of up to four cubes' digits.
    digits: Box<[u16; 4096]>,
    /// Each pattern's kinds, in the index's order of patterns.
    kinds: Vec<u8>,
}

fn order() -> &'static Order {
    static ORDER: OnceLock<Order> = OnceLock::new();
    ORDER.get_or_init(|| build(tables()))
}

/// White's O and D cubes among `owners` (a mask over the cubes, set where White owns one),
/// whose kinds are `kinds`.
fn white(kinds: u8, owners: u8) -> [u8; 2] {
    [(owners & !kinds).count_ones() as u8, (owners & kinds).count_ones() as u8]
}

fn build(t: &Tables) -> Order {
    let mut keyed = Vec::new();
    for (k, class) in t.classes.iter().enumerate() {
        // Class `k` has `k / 3` O cubes and `k % 3` D cubes on the board.
        let (a, c) = ((k / 3) as u8, (k % 3) as u8);
        for split in 0..class.splits {
            let [[bo, bd], [wo, wd]] = class.hands[usize::from(split)];
            for ob in 0..=a {
                for db in 0..=c {
                    let material = 3 * (bo + ob) + bd + db;
                    let hands = ((bo * 3 + bd) * 3 + wo) * 3 + wd;
                    let patterns = class_patterns(t, k);
                    let size = (u64::from(patterns)
                        * CHOOSE[usize::from(a)][usize::from(ob)]
                        * CHOOSE[usize::from(c)][usize::from(db)])
                        << (2 * (a + c));
                    let group = Group { offset: 0, class: k as u8, split, owned: [ob, db] };
                    keyed.push((u32::from(material) * 81 + u32::from(hands), size, group));
                }
            }
        }
    }
    keyed.sort_by_key(|&(key, ..)| key);
    let mut offset = [[[[0; 3]; 3]; 9]; 9];
    let mut groups = Vec::with_capacity(keyed.len());
    let mut at = 0u64;
    for (_, size, mut g) in keyed {
        g.offset = at as u32;
        offset[usize::from(g.class)][usize::from(g.split)][usize::from(g.owned[0])]
            [usize::from(g.owned[1])] = g.offset;
        groups.push(g);
        at += size;
    }
    assert_eq!(at, CUBE_CONFIGS, "the groups cover a King pair's entries");
    let mut owner_rank = [[0; 16]; 16];
    let mut owners_of_rank = [[[[0; 4]; 3]; 3]; 16];
    for kinds in 0..16u8 {
        let mut seen = [[0u8; 3]; 3];
        for owners in 0..16u8 {
            let [o, d] = white(kinds, owners).map(usize::from);
            let (o, d) = (o.min(2), d.min(2));
            let rank = seen[o][d];
            seen[o][d] += 1;
            owner_rank[usize::from(kinds)][usize::from(owners)] = rank;
            if let Some(slot) = owners_of_rank[usize::from(kinds)][o][d].get_mut(usize::from(rank)) {
                *slot = owners;
            }
        }
    }
    let mut digits = Box::new([0; 4096]);
    for (d, parts) in digits.iter_mut().enumerate() {
        let (mut owners, mut faces) = (0u16, 0u16);
        for c in 0..4 {
            owners |= ((d >> (3 * c + 2) & 1) as u16) << c;
            faces |= ((d >> (3 * c) & 3) as u16) << (2 * c);
        }
        *parts = owners | faces << 8;
    }
    let kinds = (0..9)
        .flat_map(|k| {
            let (first, n) = (usize::from(t.classes[k].first), u32::from(t.classes[k].digit_bits) / 3);
            (first..first + usize::from(class_patterns(t, k))).map(move |p| kinds(t, p, n))
        })
        .collect();
    Order { groups, offset, owner_rank, owners_of_rank, digits, kinds }
}

/// Bit `c` set where cube `c` of a pattern is a D cube, for its `n` cubes.
fn kinds(t: &Tables, pattern: usize, n: u32) -> u8 {
    let rows = t.patterns[pattern];
    (0..n as usize).fold(0, |kinds, c| kinds | (rows[c] >> 3 & 1) << c)
}

/// Where an entry of the main block stands in the walk of runs ([`Walk`]): its group, its run
/// among the group's, its pattern (in the index's list), its cubes' owners (bit `c` set where
/// White owns cube `c`), its cubes and its faces.
struct Place {
    group: usize,
    run_in_group: u32,
    pattern: usize,
    owners: u8,
    cubes: usize,
    faces: u64,
}

/// The place of index entry `index` of the main block in the walk of runs.
fn walk_place(index: u64) -> Place {
    let (t, order) = (tables(), order());
    let r = (index % CUBE_CONFIGS) as u32;
    let k = t.classes.iter().rposition(|class| class.start <= r).expect("class 0 starts at 0");
    let class = &t.classes[k];
    // `r - start = splits × x + split`, divided as `unrank` divides it.
    let q = u64::from(r - class.start);
    let x = (q * class.reciprocal) >> 32;
    let split = q - x * u64::from(class.splits);
    let (pattern, digits) = (x >> class.digit_bits, x & ((1 << class.digit_bits) - 1));
    let [owners, faces] = order.digits[digits as usize].to_le_bytes();
    let kinds = order.kinds[usize::from(class.first) + pattern as usize];
    let [wo, wd] = white(kinds, owners).map(usize::from);
    let ranks = CHOOSE[k / 3][wo] * CHOOSE[k % 3][wd];
    // White's cubes on the board name the group as well as Black's.
    let offset = order.offset[k][split as usize][k / 3 - wo][k % 3 - wd];
    let group = order.groups.partition_point(|g| g.offset <= offset) - 1;
    let rank = u64::from(order.owner_rank[usize::from(kinds)][usize::from(owners)]);
    Place {
        group,
        run_in_group: (pattern * ranks + rank) as u32,
        pattern: usize::from(class.first) + pattern as usize,
        owners,
        cubes: usize::from(class.digit_bits) / 3,
        faces: u64::from(faces),
    }
}

/// Bits `2c..2c + 2` of `faces` (cube `c`'s face) moved to bits `3c..3c + 2` (its digit's).
const SPREAD_FACES: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut faces = 0;
    while faces < 256 {
        let mut c = 0;
        while c < 4 {
            t[faces] |= ((faces >> (2 * c) & 3) << (3 * c)) as u16;
            c += 1;
        }
        faces += 1;
    }
    t
};

/// Where a walk over the places of the file stands: its King pair, group, pattern, owners'
/// rank and faces, and what the group's entries are made of.
struct Walk {
    kp: u64,
    group: usize,
    pattern: u64,
    rank: u64,
    faces: u64,
    /// The group's patterns, owners' ranks a pattern and faces an owners' rank.
    patterns: u64,
    ranks: u64,
    all_faces: u64,
    /// The entry of the group's first pattern with every digit 0, and its hand split.
    first: u64,
    /// The current pattern's first entry with its owners' digits.
    owners_entry: u64,
    splits: u64,
    digit_bits: u8,
    kinds: u8,
    white: [usize; 2],
    /// The group's class's first pattern in the index's list, and the current owners.
    class_first: usize,
    owners: u8,
}

impl Walk {
    /// The walk at `position`, in the main block.
    fn at(position: u64) -> Walk {
        let order = order();
        let r = (position % CUBE_CONFIGS) as u32;
        let group = order.groups.partition_point(|g| g.offset <= r) - 1;
        let mut walk = Walk { kp: position / CUBE_CONFIGS, group, ..Walk::EMPTY };
        walk.enter_group();
        let q = u64::from(r - order.groups[group].offset);
        let per_pattern = walk.ranks * walk.all_faces;
        walk.pattern = q / per_pattern;
        walk.rank = q % per_pattern / walk.all_faces;
        walk.faces = q % walk.all_faces;
        walk.enter_pattern();
        walk
    }

    const EMPTY: Walk = Walk {
        kp: 0,
        group: 0,
        pattern: 0,
        rank: 0,
        faces: 0,
        patterns: 0,
        ranks: 0,
        all_faces: 0,
        first: 0,
        owners_entry: 0,
        splits: 0,
        digit_bits: 0,
        kinds: 0,
        white: [0; 2],
        class_first: 0,
        owners: 0,
    };

    fn enter_group(&mut self) {
        let (t, order) = (tables(), order());
        let g = order.groups[self.group];
        let k = usize::from(g.class);
        let class = &t.classes[k];
        let n = u32::from(class.digit_bits) / 3;
        let [ob, db] = g.owned.map(usize::from);
        self.white = [k / 3 - ob, k % 3 - db];
        self.patterns = u64::from(class_patterns(t, k));
        self.ranks = CHOOSE[k / 3][ob] * CHOOSE[k % 3][db];
        self.all_faces = 1 << (2 * n);
        self.splits = u64::from(class.splits);
        self.digit_bits = class.digit_bits;
        self.class_first = usize::from(class.first);
        self.first = self.kp * CUBE_CONFIGS + u64::from(class.start) + u64::from(g.split);
        (self.pattern, self.rank, self.faces) = (0, 0, 0);
    }

    /// Reads the current pattern's kinds and the owners of the current rank.
    fn enter_pattern(&mut self) {
        let (t, order) = (tables(), order());
        let class = order.groups[self.group].class;
        self.kinds = order.kinds[usize::from(t.classes[usize::from(class)].first) + self.pattern as usize];
        self.enter_rank();
    }

    fn enter_rank(&mut self) {
        let owners =
            order().owners_of_rank[usize::from(self.kinds)][self.white[0]][self.white[1]][self.rank as usize];
        self.owners = owners;
        let owner_digits = (0..4).fold(0u64, |d, c| d | u64::from(owners >> c & 1) << (3 * c + 2));
        let x = self.pattern << self.digit_bits | owner_digits;
        self.owners_entry = self.first + x * self.splits;
    }

    /// The entry at the walk's place.
    #[cfg(test)]
    fn entry(&self) -> u64 {
        self.entry_with(self.faces)
    }

    /// The entry of the current run with faces `faces`.
    #[inline]
    fn entry_with(&self, faces: u64) -> u64 {
        self.owners_entry + u64::from(SPREAD_FACES[faces as usize]) * self.splits
    }

    /// The current pattern, in the index's list.
    fn global_pattern(&self) -> usize {
        self.class_first + self.pattern as usize
    }

    /// The cubes on the board in the current run.
    fn cubes(&self) -> usize {
        usize::from(self.digit_bits) / 3
    }

    /// On to the next place.
    #[cfg(test)]
    fn step(&mut self) {
        self.faces += 1;
        if self.faces < self.all_faces {
            return;
        }
        self.faces = 0;
        self.rank += 1;
        if self.rank < self.ranks {
            return self.enter_rank();
        }
        self.rank = 0;
        self.pattern += 1;
        if self.pattern < self.patterns {
            return self.enter_pattern();
        }
        self.group += 1;
        if self.group == order().groups.len() {
            self.group = 0;
            self.kp += 1;
        }
        if self.kp * CUBE_CONFIGS < MAIN {
            self.enter_group();
            self.enter_pattern();
        }
    }
}

/// The number of patterns of class `k`.
fn class_patterns(t: &Tables, k: usize) -> u16 {
    t.classes.get(k + 1).map_or(t.patterns.len() as u16, |next| next.first) - t.classes[k].first
}

/// The index entries of the walk of runs at `first`, `first + 1`, ... into `out` (each below
/// `SIZE`), walked in order.
#[cfg(test)]
fn walk_indexes_at(first: u64, out: &mut [u64]) {
    let mut walk = (first < MAIN).then(|| Walk::at(first));
    for (p, slot) in (first..).zip(out.iter_mut()) {
        *slot = match &mut walk {
            Some(w) if p < MAIN => {
                let entry = w.entry();
                w.step();
                entry
            }
            _ => p,
        };
    }
}

/// The same as [`index_at`], by arithmetic on each place alone: the walk's check.
#[cfg(test)]
fn index_at_plain(position: u64) -> u64 {
    if position >= MAIN {
        return position;
    }
    let (t, order) = (tables(), order());
    let kp = position / CUBE_CONFIGS;
    let r = (position % CUBE_CONFIGS) as u32;
    let g = order.groups[order.groups.partition_point(|g| g.offset <= r) - 1];
    let k = usize::from(g.class);
    let class = &t.classes[k];
    let n = u32::from(class.digit_bits) / 3;
    let [ob, db] = g.owned.map(usize::from);
    let per_pattern = (CHOOSE[k / 3][ob] * CHOOSE[k % 3][db]) << (2 * n);
    let q = u64::from(r - g.offset);
    let (pattern, within) = (q / per_pattern, q % per_pattern);
    let (rank, faces) = (within >> (2 * n), within & ((1 << (2 * n)) - 1));
    let kinds = kinds(t, usize::from(class.first) + pattern as usize, n);
    let owners = order.owners_of_rank[usize::from(kinds)][k / 3 - ob][k % 3 - db][rank as usize];
    let digits = (0..n).fold(0u64, |digits, c| {
        let digit = u64::from(owners >> c & 1) << 2 | (faces >> (2 * c) & 3);
        digits | digit << (3 * c)
    });
    let x = pattern << class.digit_bits | digits;
    kp * CUBE_CONFIGS + u64::from(class.start) + x * u64::from(class.splits) + u64::from(g.split)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Variant;
    use crate::{NanaGame, Rules};

    #[test]
    fn a_walk_from_any_place_gives_the_entries_there() {
        let mut run = vec![0; 3000];
        for first in [0, 1, 4095, 700_001, CUBE_CONFIGS - 1000, 16 * CUBE_CONFIGS + 1_094_000, MAIN - 5] {
            walk_indexes_at(first, &mut run);
            for (p, &i) in (first..).zip(&run) {
                assert_eq!(
                    i,
                    if p < super::super::SIZE { index_at_plain(p) } else { p },
                    "place {p} from {first}"
                );
            }
        }
    }

    /// Each rule set's order over two King pairs and the openings, against the walk of runs
    /// with the used entries (the rules' legal positions) taken out first: the places of
    /// [`file_position`], and the entries of [`indexes_at`] from the pair's start and from
    /// places within it.
    #[test]
    fn each_king_pair_stores_its_used_entries_first_in_the_walk_of_runs() {
        for rules in [Rules::CURRENT, Rules::ORIGINAL] {
            let (variant, game) = (rules.variant, NanaGame::new(rules));
            for kp in [0, 16] {
                let first = kp * CUBE_CONFIGS;
                let mut walked = vec![0; CUBE_CONFIGS as usize];
                walk_indexes_at(first, &mut walked);
                let (used, unused): (Vec<u64>, Vec<u64>) =
                    walked.iter().partition(|&&i| game.position(i).is_some());
                let expected: Vec<u64> = used.into_iter().chain(unused).collect();
                let mut stored = vec![0; CUBE_CONFIGS as usize];
                indexes_at(variant, first, &mut stored);
                assert!(stored == expected, "{rules:?}, King pair {kp}: the entries in order");
                for (p, &i) in (first..).zip(&expected) {
                    assert_eq!(file_position(variant, i), p, "{rules:?}: entry {i}");
                }
                for at in [1, 255, 4097, 500_001, CUBE_CONFIGS - 3] {
                    let mut part = vec![0; 600.min((CUBE_CONFIGS - at) as usize)];
                    indexes_at(variant, first + at, &mut part);
                    assert_eq!(
                        part[..],
                        expected[at as usize..at as usize + part.len()],
                        "{rules:?}: from {at}"
                    );
                }
            }
            for i in MAIN..super::super::SIZE {
                assert_eq!((file_position(variant, i), index_at(variant, i)), (i, i), "an opening entry");
            }
        }
    }

    #[test]
    fn the_orders_of_the_rule_sets_differ() {
        let differ = (0..CUBE_CONFIGS)
            .any(|i| file_position(Variant::Current, i) != file_position(Variant::Original, i));
        assert!(differ);
    }
}
