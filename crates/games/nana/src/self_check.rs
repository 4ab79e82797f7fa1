//! Nana's exhaustive checks of its own code, each over a whole space or a sample of it: the
//! self-check (`nana verify --self-check`, [`whole_space_checks`]) runs them whole, the tests
//! run the same functions over samples. Each compares a fast path with a plain one that shares
//! none of its code:
//!
//! - the index: rank ∘ unrank over its entries ([`index_round_trip`]);
//! - the tables' file order against a plain sort of the positions by what they hold
//!   ([`file_order_against_sort`]);
//! - the solver's retro-moves against its moves ([`relations`]);
//! - the solve on one thread and over retro-moves against the solve ([`solves_agree`]);
//! - the enumeration of the reachable states against a plain breadth-first search over
//!   positions, with a hash set of position keys, moves from [`Position::for_each_legal_move`],
//!   no index and no folding ([`reachable_against_plain_search`]), and against the solver's
//!   moves and retro-moves ([`reachable_closed_and_rooted`]).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, OnceLock};

use nana_engine::{check_relations, check_relations_every, solve, Graph, NoProgress};
use nana_front::{CheckFailed, WholeCheck};
use rayon::prelude::*;

use crate::index::{
    file_position, index_at, is_self_mirror_pair, mirror_entry, rank, unrank, CUBE_CONFIGS, KING_PAIRS, MAIN,
    SIZE, START,
};
use crate::reach::{self, positions_per_entry, Reachable};
use crate::{Color, Cube, NanaGame, Piece, Position, Rules, Setup, Square, Variant};

/// The reachable counts of the default rules, pinned: (Black to move, White to move, entries).
/// The whole plain search derives each again.
pub const PINNED: [(Rules, u64, u64, u64); 2] = [
    (Rules::CURRENT, 17_374_014, 17_374_021, 9_155_765),
    (Rules::ORIGINAL, 14_443_860, 14_443_867, 7_642_688),
];

/// The self-check's part for Nana: each check below over its whole space, every rule
/// combination for the retro-moves, both default rule sets for the reachable states.
pub fn whole_space_checks() -> Vec<WholeCheck> {
    let mut checks = vec![WholeCheck::new("rank ∘ unrank over the whole index", || index_round_trip(1))];
    for variant in Variant::ALL {
        checks.push(WholeCheck::new(
            format!("{}: the file order against a plain sort, every King pair", variant.name()),
            move || file_order_against_sort(variant, 0..KING_PAIRS as u64),
        ));
    }
    for rules in Rules::all() {
        checks.push(WholeCheck::new(
            format!("{}: retro-moves against moves, every entry", rules.short_name()),
            move || relations(rules, 1),
        ));
    }
    for (rules, ..) in PINNED {
        // The enumeration, made once for the two checks of it (by whichever runs first).
        let enumerated = Arc::new(OnceLock::new());
        let reachable = move || -> Arc<Reachable> {
            enumerated.get_or_init(|| Arc::new(reach::reachable(&rules, &|_| {}))).clone()
        };
        let for_closure = reachable.clone();
        checks.push(WholeCheck::new(
            format!("{}: the solve on one thread and over retro-moves, byte for byte", rules.short_name()),
            move || solves_agree(rules),
        ));
        checks.push(WholeCheck::new(
            format!("{}: the reachable states against a plain breadth-first search", rules.short_name()),
            move || reachable_against_plain_search(&rules, &reachable(), None),
        ));
        checks.push(WholeCheck::new(
            format!(
                "{}: the reachable states closed under moves, each with a reachable predecessor",
                rules.short_name()
            ),
            move || reachable_closed_and_rooted(&rules, &for_closure(), 1),
        ));
    }
    checks
}

/// Rank ∘ unrank over the entries `0`, `every`, `2 every`, …: each round-trips, its colour flip
/// ranks to it, and so does its mirror image where the index folds the mirror (openings and
/// Kings on file 2 store both images).
pub fn index_round_trip(every: u64) -> Result<String, CheckFailed> {
    let bad = (0..SIZE.div_ceil(every)).into_par_iter().map(|k| k * every).find_first(|&i| {
        let Some(p) = unrank(i) else { return true };
        let ok = rank(&p) == i
            && rank(&p.flip()) == i
            && (i >= MAIN || is_self_mirror_pair(i) || rank(&p.mirror()) == i)
            && (i < MAIN || rank(&p.mirror()) >= MAIN);
        !ok
    });
    if let Some(i) = bad {
        return Err(CheckFailed(format!("entry {i} does not round-trip through unrank and rank")));
    }
    if unrank(SIZE).is_some() || SIZE != 18_609_858 {
        return Err(CheckFailed(format!("the index ends at {SIZE}, not at 18,609,858")));
    }
    Ok(format!("{} entries round-trip", SIZE.div_ceil(every)))
}

/// The place of each entry of the King pairs `pairs` in a table file of the rule set `variant`
/// ([`file_position`], and its inverse [`index_at`]) against a plain sort of the pair's entries
/// by what their positions hold, read off the board: whether the position is illegal (White,
/// who has just moved, in check: the unused entries last), Black's O cubes and D cubes
/// (`3 × O + D`), the hands (Black's O and D cubes, White's, base 3), the O cubes' and the D
/// cubes' squares among the pair's free squares (masks, as the index orders its patterns),
/// which cubes White owns (counted from the last free square back), their faces (base 4, the
/// last free square's least significant); the opening entries keep their places.
pub fn file_order_against_sort(variant: Variant, pairs: std::ops::Range<u64>) -> Result<String, CheckFailed> {
    let key = |i: u64| -> u64 {
        let pos = unrank(i).expect("an entry of the main block");
        let unused = u64::from(pos.is_in_check(variant, Color::White));
        let kings: Vec<Square> =
            [Color::Black, Color::White].iter().filter_map(|&c| pos.king_square(c)).collect();
        let free = Square::ALL.iter().filter(|sq| !kings.contains(sq));
        let (mut owned, mut masks, mut cubes) = ([0u64; 2], [0u64; 2], Vec::new());
        for (j, &sq) in free.enumerate() {
            let Some(piece) = pos.piece_at(sq) else { continue };
            let (kind, face) = match Cube::O.faces().iter().position(|&r| r == piece.role) {
                Some(face) => (0, face),
                None => (1, Cube::D.faces().iter().position(|&r| r == piece.role).expect("a cube's face")),
            };
            masks[kind] |= 1 << j;
            owned[kind] += u64::from(piece.color == Color::Black);
            cubes.push((piece.color == Color::White, face as u64));
        }
        // Cube `c` counted from the last free square back.
        let (mut white, mut faces) = (0, 0);
        for (c, &(by_white, face)) in cubes.iter().rev().enumerate() {
            white |= u64::from(by_white) << c;
            faces |= face << (2 * c);
        }
        let hand = |color, cube| u64::from(pos.hand(color, cube));
        let (bo, bd) = (hand(Color::Black, Cube::O), hand(Color::Black, Cube::D));
        let material = 3 * (owned[0] + bo) + owned[1] + bd;
        let hands = ((bo * 3 + bd) * 3 + hand(Color::White, Cube::O)) * 3 + hand(Color::White, Cube::D);
        unused << 63 | (((material * 81 + hands) << 14 | masks[0] << 7 | masks[1]) << 4 | white) << 8 | faces
    };
    for kp in pairs.clone() {
        let first = kp * CUBE_CONFIGS;
        let mut sorted: Vec<(u64, u64)> =
            (first..first + CUBE_CONFIGS).into_par_iter().map(|i| (key(i), i)).collect();
        sorted.par_sort_unstable();
        let bad = sorted.par_iter().enumerate().find_any(|&(p, &(_, i))| {
            let place = first + p as u64;
            file_position(variant, i) != place || index_at(variant, place) != i
        });
        if let Some((p, &(_, i))) = bad {
            return Err(CheckFailed(format!(
                "entry {i}: at {} in the file, {} by the sort",
                file_position(variant, i),
                first + p as u64
            )));
        }
    }
    if let Some(i) = (MAIN..SIZE).find(|&i| file_position(variant, i) != i || index_at(variant, i) != i) {
        let at = file_position(variant, i);
        return Err(CheckFailed(format!("the opening entry {i} is at {at} in the file")));
    }
    Ok(format!("{} entries in their places", (pairs.end - pairs.start) * CUBE_CONFIGS + (SIZE - MAIN)))
}

/// The solver's retro-moves against its moves: over the whole space (`every` = 1) the same set
/// of edges, with the prepared game (flags looked up by index) and, for the default stalemate
/// rules, the plain one (everything generated from the rules); otherwise every edge at the
/// entries `0`, `every`, `2 every`, …
pub fn relations(rules: Rules, every: u64) -> Result<String, CheckFailed> {
    let check = |game: &NanaGame| {
        if every == 1 {
            check_relations(game).map_err(|e| CheckFailed(format!("{}: {e}", rules.short_name())))
        } else {
            check_relations_every(game, every)
                .map_err(|e| CheckFailed(format!("{}: {e}", rules.short_name())))
        }
    };
    let edges = check(&NanaGame::prepared(rules))?;
    if rules.drop_stalemate && rules.hand_stalemate {
        let plain = check(&NanaGame::new(rules))?;
        if plain != edges {
            return Err(CheckFailed(format!(
                "{}: {edges} edges with the prepared game, {plain} with the plain one",
                rules.short_name()
            )));
        }
    }
    Ok(format!("{edges} edges agree"))
}

/// The solve of `rules` (the solver's game, which reverses its successors, on the process's
/// threads) against the same solve on one thread and against the solve over the prepared
/// game's retro-moves: the same bytes each time.
pub fn solves_agree(rules: Rules) -> Result<String, CheckFailed> {
    let name = rules.short_name();
    let solved = |game: &NanaGame| {
        solve(game, &NoProgress).map_err(|e| CheckFailed(format!("{name}: the solve failed: {e}")))
    };
    let s = solved(&NanaGame::solver(rules))?;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| CheckFailed(format!("a thread pool of one: {e}")))?;
    if one.install(|| solved(&NanaGame::solver(rules)))?.bytes() != s.bytes() {
        return Err(CheckFailed(format!(
            "{name}: the bytes differ between one thread and {}",
            rayon::current_num_threads()
        )));
    }
    if solved(&NanaGame::prepared(rules))?.bytes() != s.bytes() {
        return Err(CheckFailed(format!("{name}: the bytes differ over retro-moves")));
    }
    Ok(format!("{} entries the same three ways", s.bytes().len()))
}

/// The enumeration of the states reachable under `rules` against a plain breadth-first search
/// over positions. To `depth` plies: every position the search finds is enumerated. Whole
/// (`None`): the two are the same set, of the [`PINNED`] counts.
pub fn reachable_against_plain_search(
    rules: &Rules,
    r: &Reachable,
    depth: Option<u32>,
) -> Result<String, CheckFailed> {
    let name = rules.short_name();
    let fail = |what: String| Err(CheckFailed(format!("{name}: {what}")));
    let seen = breadth_first(rules, depth);
    let missing: Vec<u64> = seen.keys().filter(|&k| !r.contains(&position(k, rules))).collect();
    if let Some(&k) = missing.first() {
        return fail(format!(
            "{} positions found by the search are not enumerated, e.g. {}",
            missing.len(),
            position(k, rules)
        ));
    }
    if depth.is_some() {
        return Ok(format!("{} positions found by the search are enumerated", seen.len()));
    }
    // Every position an enumerated entry stands for was found by the search.
    let extra = (0..SIZE).into_par_iter().find_first(|&i| {
        Color::ALL.into_iter().any(|side| {
            if !side_map(r, side).contains(i) {
                return false;
            }
            let canonical = unrank(i).expect("in range");
            let pos = if side == Color::White { canonical.flip() } else { canonical };
            // A folded entry stands for the mirror image too.
            let both = positions_per_entry(i) == 2;
            !seen.contains(key(&pos)) || (both && !seen.contains(key(&pos.mirror())))
        })
    });
    if let Some(i) = extra {
        return fail(format!("entry {i} is enumerated, but the search did not reach it"));
    }
    let by_side =
        |side: Color| seen.keys().filter(|&k| (k & 1 == 1) == (side == Color::White)).count() as u64;
    let c = r.counts();
    let found = (by_side(Color::Black), by_side(Color::White));
    if c.positions() != seen.len() as u64 || (c.black_positions, c.white_positions) != found {
        return fail(format!("the enumeration counts {c:?}, the search {found:?}"));
    }
    match PINNED.iter().find(|p| p.0 == *rules) {
        Some(&(_, black, white, entries))
            if (c.black_positions, c.white_positions, c.entries) != (black, white, entries) =>
        {
            fail(format!("{c:?} is not the pinned ({black}, {white}, {entries})"))
        }
        _ => Ok(format!("{} positions, the same set ({} entries)", seen.len(), c.entries)),
    }
}

/// The enumeration of the states reachable under `rules`, at the entries `0`, `every`,
/// `2 every`, …: each enumerated state's successors are enumerated, and each but the start has
/// an enumerated predecessor (from the retro-move generator, which the enumeration does not
/// use). Both relations are over entries: a predecessor's canonical position moves into the
/// entry.
pub fn reachable_closed_and_rooted(rules: &Rules, r: &Reachable, every: u64) -> Result<String, CheckFailed> {
    let game = NanaGame::prepared(*rules);
    let sides = [&r.black, &r.white];
    let broken = (0..SIZE.div_ceil(every)).into_par_iter().map(|k| k * every).find_first(|&i| {
        let (mut succ, mut pred) = (Vec::new(), Vec::new());
        game.successors(i, &mut succ);
        game.predecessors(i, &mut pred);
        // With the Kings on file 2 an entry is one orientation; a folded predecessor moves into
        // it from its mirror image, which the solver's relation files under the mirrored entry.
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
    });
    match broken {
        Some(i) => Err(CheckFailed(format!("{}: entry {i} is not closed and rooted", rules.short_name()))),
        None if !r.contains(&Position::start()) => {
            Err(CheckFailed("the start is not enumerated".to_string()))
        }
        None => Ok(format!("{} entries closed and rooted", SIZE.div_ceil(every))),
    }
}

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

/// Every position reachable from the start (within `depth` plies, if given), level by level:
/// the children of a level are generated in parallel, deduplicated, and those not seen before
/// form the next level.
fn breadth_first(rules: &Rules, depth: Option<u32>) -> Seen {
    let start = key(&Position::start());
    let capacity = if depth.is_some() { 1 << 16 } else { 40_000_000 };
    let mut seen = Seen(
        (0..SHARDS)
            .map(|_| HashSet::with_capacity_and_hasher(capacity / SHARDS, Default::default()))
            .collect(),
    );
    let mut level = seen.insert_new(vec![start]);
    let mut plies = 0;
    while !level.is_empty() && depth.is_none_or(|d| plies < d) {
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
        plies += 1;
    }
    seen
}

fn side_map(r: &Reachable, side: Color) -> &reach::Bitmap {
    match side {
        Color::Black => &r.black,
        Color::White => &r.white,
    }
}
