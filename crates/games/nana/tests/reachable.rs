//! The states reachable from the start: the fast enumeration ([`reach::reachable`], sweeps over
//! folded index entries) against checks that share none of its code.
//!
//! - A slow, plain breadth-first search over *positions* (a hash set of position keys, moves from
//!   [`Position::for_each_legal_move`], no index and no folding) must find exactly the same set.
//! - The set is closed under the mirror (the rules and the start are left–right symmetric) and
//!   under the colour flip (all but the opening states, where Black moves first).
//! - Every reachable state but the start has a reachable predecessor (found by the solver's
//!   independent retro-move generator) and the successors of a reachable state are reachable.
//!
//! Heavy: it runs in the test profile, which the workspace builds with opt-level 3.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use nana_engine::Game;
use nana_shogi::index::{mirror_entry, unrank, MAIN, SIZE, START};
use nana_shogi::reach::{self, positions_per_entry, Reachable};
use nana_shogi::{Color, NanaGame, Piece, Position, Rules, Setup};
use rayon::prelude::*;

/// The reachable counts of the default rules, pinned: (Black to move, White to move, entries).
/// Each count is re-derived by the breadth-first search below on every run.
const PINNED: [(Rules, u64, u64, u64); 2] = [
    (Rules::CURRENT, 17_374_014, 17_374_021, 9_155_765),
    (Rules::ORIGINAL, 14_443_860, 14_443_867, 7_642_688),
];

/// A position as a number: five bits a square (the cell code), two bits a hand count, one bit
/// the side to move. Built from the position's plain [`Setup`], so that it shares nothing with
/// the index.
fn key(pos: &Position) -> u64 {
    let setup = pos.to_setup();
    let mut k = 0u64;
    for cell in setup.board {
        k = k << 5 | u64::from(cell.map_or(0, Piece::code));
    }
    for hand in setup.hands {
        for n in hand {
            k = k << 2 | u64::from(n);
        }
    }
    k << 1 | u64::from(setup.side == Color::White)
}

fn position(mut k: u64, rules: &Rules) -> Position {
    let side = if k & 1 == 1 { Color::White } else { Color::Black };
    k >>= 1;
    let mut hands = [[0u8; 3]; 2];
    for hand in hands.iter_mut().rev() {
        for n in hand.iter_mut().rev() {
            *n = (k & 3) as u8;
            k >>= 2;
        }
    }
    let mut board = [None; 9];
    for cell in board.iter_mut().rev() {
        *cell = Piece::from_code((k & 31) as u8);
        k >>= 5;
    }
    let setup = Setup { board, hands, side, ply: None };
    Position::from_setup(&setup, rules.variant).expect("a key of a legal position")
}

/// A set of position keys, split into shards by a hash of the key so that a level's new keys
/// are inserted into the shards in parallel.
struct Seen(Vec<HashSet<u64, BuildHasherDefault<Mix>>>);

/// The shards of [`Seen`].
const SHARDS: usize = 64;

/// A hash of a key: a multiplication by an odd constant, its high bits folded down (a set's
/// answers do not depend on its hash, only its speed does).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Seen {
    fn shard(k: u64) -> usize {
        (k.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 58) as usize
    }

    fn contains(&self, k: u64) -> bool {
        self.0[Seen::shard(k)].contains(&k)
    }

    fn len(&self) -> usize {
        self.0.iter().map(HashSet::len).sum()
    }

    fn keys(&self) -> impl ParallelIterator<Item = u64> + '_ {
        self.0.par_iter().flat_map_iter(|set| set.iter().copied())
    }

    /// Inserts `keys` (distinct), returning those that were not in the set.
    fn insert_new(&mut self, keys: Vec<u64>) -> Vec<u64> {
        let mut groups = vec![Vec::new(); SHARDS];
        for k in keys {
            groups[Seen::shard(k)].push(k);
        }
        self.0
            .par_iter_mut()
            .zip(groups)
            .map(|(set, group)| group.into_iter().filter(|&k| set.insert(k)).collect::<Vec<u64>>())
            .flatten_iter()
            .collect()
    }
}

/// Every position reachable from the start, level by level: the children of a level are
/// generated in parallel, deduplicated, and those not seen before form the next level.
fn breadth_first(rules: &Rules) -> Seen {
    let start = key(&Position::start());
    let mut seen = Seen(
        (0..SHARDS)
            .map(|_| HashSet::with_capacity_and_hasher(40_000_000 / SHARDS, Default::default()))
            .collect(),
    );
    let mut level = seen.insert_new(vec![start]);
    while !level.is_empty() {
        let mut children: Vec<u64> = level
            .par_iter()
            .flat_map_iter(|&k| {
                let mut out = Vec::new();
                let _ = position(k, rules).for_each_legal_move(rules, |_, child| {
                    out.push(key(child));
                    std::ops::ControlFlow::Continue(())
                });
                out
            })
            .collect();
        children.par_sort_unstable();
        children.dedup();
        level = seen.insert_new(children);
    }
    seen
}

fn side_map(r: &Reachable, side: Color) -> &reach::Bitmap {
    match side {
        Color::Black => &r.black,
        Color::White => &r.white,
    }
}

/// The enumeration finds exactly the positions the plain search finds, and the pinned counts.
#[test]
fn enumeration_equals_a_plain_search_over_positions() {
    for (rules, black, white, entries) in PINNED {
        let r = reach::reachable(&rules, &|_| {});
        let seen = breadth_first(&rules);

        // Every position found by the search is in the enumeration.
        let missing: Vec<u64> = seen.keys().filter(|&k| !r.contains(&position(k, &rules))).collect();
        let show =
            |ks: &[u64]| ks.iter().take(5).map(|&k| position(k, &rules).to_string()).collect::<Vec<_>>();
        assert!(
            missing.is_empty(),
            "{}: {} positions missing, e.g. {:?}",
            rules.short_name(),
            missing.len(),
            show(&missing)
        );

        // Every position an enumerated entry stands for was found by the search.
        let extra = (0..SIZE)
            .into_par_iter()
            .filter(|&i| {
                Color::ALL.into_iter().any(|side| {
                    if !side_map(&r, side).contains(i) {
                        return false;
                    }
                    let canonical = unrank(i).expect("in range");
                    let pos = if side == Color::White { canonical.flip() } else { canonical };
                    // A folded entry stands for the mirror image too.
                    let both = positions_per_entry(i) == 2;
                    !seen.contains(key(&pos)) || (both && !seen.contains(key(&pos.mirror())))
                })
            })
            .count();
        assert_eq!(extra, 0, "{}: entries the search did not reach", rules.short_name());

        let by_side =
            |side: Color| seen.keys().filter(|&k| (k & 1 == 1) == (side == Color::White)).count() as u64;
        let c = r.counts();
        assert_eq!(c.positions(), seen.len() as u64, "{}", rules.short_name());
        assert_eq!((c.black_positions, c.white_positions), (by_side(Color::Black), by_side(Color::White)));
        assert_eq!(
            (c.black_positions, c.white_positions, c.entries),
            (black, white, entries),
            "{}",
            rules.short_name()
        );
    }
}

/// Closure under the mirror and under the colour flip, checked on the enumeration's own output.
#[test]
fn reachable_set_is_mirror_and_colour_symmetric() {
    for (rules, ..) in PINNED {
        let r = reach::reachable(&rules, &|_| {});
        let broken = (0..SIZE)
            .into_par_iter()
            .filter(|&i| {
                let (b, w) = (r.black.contains(i), r.white.contains(i));
                if i >= MAIN {
                    // The opening: Black moves first, so only one side of each entry is reached.
                    return false;
                }
                let m = mirror_entry(i);
                b != w || b != r.black.contains(m) || w != r.white.contains(m)
            })
            .count();
        assert_eq!(broken, 0, "{}", rules.short_name());
        // The positions of the issue that found the bug: both Kings on file 2, mirror images.
        for (a, b) in [
            ("RK1/Tw1/Bk1 b - 1", "1KR/1wT/1kB b - 1"),
            ("SK1/RG1/Bk1 w - 1", "1KS/1GR/1kB w - 1"),
            ("Gk1/1S1/SK1 b r 1", "1kG/1S1/1KS b r 1"),
        ] {
            let (a, b) = (parse(a, &rules), parse(b, &rules));
            assert_eq!(a.mirror(), b);
            assert_eq!(r.contains(&a), r.contains(&b), "{}: {a} and {b}", rules.short_name());
        }
    }
}

fn parse(s: &str, rules: &Rules) -> Position {
    nana_shogi::fen::parse_position(s, rules.variant).unwrap()
}

/// The set is closed under the solver's successors, and every state but the start has a
/// reachable predecessor (from the retro-move generator, which the enumeration does not use).
/// Both relations are over entries: a predecessor's canonical position moves into the entry.
#[test]
fn reachable_states_are_closed_and_rooted() {
    for (rules, ..) in PINNED {
        let r = reach::reachable(&rules, &|_| {});
        let game = NanaGame::prepared(rules);
        let sides = [&r.black, &r.white];
        let broken = (0..SIZE)
            .into_par_iter()
            .filter(|&i| {
                let (mut succ, mut pred) = (Vec::new(), Vec::new());
                game.successors(i, &mut succ);
                game.predecessors(i, &mut pred);
                // With the Kings on file 2 an entry is one orientation; a folded predecessor
                // moves into it from its mirror image, which the solver's relation files under
                // the mirrored entry.
                let m = mirror_entry(i);
                if m != i {
                    game.predecessors(m, &mut pred);
                }
                (0..2).any(|s| {
                    if !sides[s].contains(i) {
                        return false;
                    }
                    let closed = succ.iter().all(|&q| sides[1 - s].contains(q));
                    let rooted = (i == START && s == 0) || pred.iter().any(|&p| sides[1 - s].contains(p));
                    !(closed && rooted)
                })
            })
            .count();
        assert_eq!(broken, 0, "{}", rules.short_name());
        assert!(r.contains(&Position::start()));
    }
}
