//! The whole of Dobutsu shogi solved, as the tablebase is made (the test run's fixture,
//! `nana-fixture`, solves each rule set once per run: minutes), and checked by paths that share
//! nothing with the solve's survey and retro-moves:
//!
//! - every 401st entry of both tables valued again from its moves, with symmetry: a position,
//!   its mirror image and its colour flip (the same position seen by the other player) all rank
//!   to the entry, and each one's moves, generated on its own board, give the entry's value
//!   back (the engine's independent check of every entry of both tables against its successors
//!   runs in the self-check, `nana verify --solve --check --self-check --all-games`);
//! - positions that arise when a player declines to take the lion, which no game from the
//!   start that takes it reaches: each has a value, and where a plain search of the rules to a
//!   fixed depth decides it, the same one;
//! - the start's value against Tanaka's (the reachable positions are counted as Tanaka counts
//!   them by `nana --game dobutsu verify` in `tests/results_doc.rs` and the main job).

use dobutsu_shogi::claims::CLAIMS;
use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::probe::Probe;
use dobutsu_shogi::{Position, Rules};
use nana_engine::{Dtm, EntryWidth, Value};
use nana_probe::table::Source;
use rayon::prelude::*;

/// The value of a position whose side to move can take the lion, by the rules: a win in 1.
fn value_of(pos: &Position, entries: &[u8]) -> Option<Value> {
    if pos.can_capture_lion() {
        return Some(Value::Win(Dtm(1)));
    }
    EntryWidth::One.value(entries, rank(pos))
}

/// The value the moves of `pos`, generated on its own board, call for, from the table.
fn value_from_moves(pos: &Position, rules: &Rules, entries: &[u8]) -> Value {
    if let Some((value, _)) = pos.solver_end(rules) {
        return value;
    }
    let (mut best_loss, mut longest_win, mut draw) = (None::<u16>, 0u16, false);
    pos.for_each_move(|mv| {
        let child = pos.play_unchecked(mv);
        match value_of(&child, entries) {
            Some(Value::Loss(d)) => best_loss = Some(best_loss.map_or(d.0, |b| b.min(d.0))),
            Some(Value::Win(d)) => longest_win = longest_win.max(d.0),
            Some(Value::Draw) => draw = true,
            None => panic!("{child:?}, a move away from {pos:?}, is marked unused"),
        }
    });
    match (best_loss, draw) {
        (Some(d), _) => Value::Win(Dtm(d + 1)),
        (None, true) => Value::Draw,
        (None, false) => Value::Loss(Dtm(longest_win + 1)),
    }
}

/// Tanaka's table: the start's value, and every 401st used entry, its mirror image and its
/// colour flip ranked to the entry and valued from their own moves, each generated on its own
/// board (the self-check, `nana verify --self-check`, checks every entry of both rule sets'
/// tables with the engine's independent check).
#[test]
fn dobutsu_solved_and_checked() {
    let tanaka = nana_fixture::table(Rules::TANAKA);
    assert_eq!(tanaka.entries().len() as u64, SIZE);
    assert_eq!(EntryWidth::One.value(tanaka.entries(), rank(&Position::start())), Some(CLAIMS[0].value));
    every_401st_entry_valued_from_its_moves(&Rules::TANAKA, tanaka.entries());
}

/// The safe-try reading's table, as Tanaka's, and against it: a second whole-game solve, which
/// the self-check's `nana verify --solve` makes anyway (the fixture takes its table from there).
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn safe_try_solved_and_checked() {
    let tanaka = nana_fixture::table(Rules::TANAKA);
    let safe_try = nana_fixture::table(Rules::SAFE_TRY);
    assert_eq!(safe_try.entries().len() as u64, SIZE);
    every_401st_entry_valued_from_its_moves(&Rules::SAFE_TRY, safe_try.entries());
    // The readings differ only where a lion on its far rank is attacked, which never arises
    // from the start: some entries differ, but few.
    let differ =
        (0..SIZE as usize).into_par_iter().filter(|&i| tanaka.entries()[i] != safe_try.entries()[i]).count();
    assert!(differ > 0 && differ < 100_000_000, "{differ} entries differ");
}

/// Every 101st used entry of a rule set's table, its mirror image and its colour flip ranked to
/// the entry and valued from their own moves.
fn every_401st_entry_valued_from_its_moves(rules: &Rules, entries: &[u8]) {
    let checked: u64 = (0..SIZE / 401)
        .into_par_iter()
        .map(|k| k * 401)
        .filter(|&i| EntryWidth::One.value(entries, i).is_some())
        .map(|i| {
            let stored = EntryWidth::One.value(entries, i);
            let pos = unrank(i).expect("a used entry is a position");
            for image in [pos, pos.mirror(), pos.rotate(), pos.rotate().mirror()] {
                assert_eq!(rank(&image), i, "{image:?} is a symmetric image of entry {i}");
                assert_eq!(Some(value_from_moves(&image, rules, entries)), stored, "{rules:?}: {image:?}");
            }
            1
        })
        .sum();
    assert!(checked > 500_000, "only {checked} entries looked at");
}

/// A plain search of the rules to `depth` plies: the value where every line within the depth
/// decides it (a win found within it is the fastest, a loss needs every move lost within it),
/// `None` where it does not. A position is over where [`Position::outcome`] says so; a win
/// by a try is counted as the solver counts it (claimed with the next ply, a win in 1).
fn search(pos: &Position, rules: &Rules, depth: u16) -> Option<Value> {
    if let Some(o) = pos.outcome(rules) {
        return Some(match o.winner {
            None => Value::Draw,
            Some(w) if w == pos.side_to_move() => Value::Win(Dtm(1)),
            Some(_) => Value::Loss(Dtm(0)),
        });
    }
    if depth == 0 {
        return None;
    }
    let (mut best_loss, mut longest_win, mut undecided) = (None::<u16>, 0u16, false);
    pos.for_each_move(|mv| match search(&pos.play_unchecked(mv), rules, depth - 1) {
        Some(Value::Loss(d)) => best_loss = Some(best_loss.map_or(d.0, |b| b.min(d.0))),
        Some(Value::Win(d)) => longest_win = longest_win.max(d.0),
        Some(Value::Draw) | None => undecided = true,
    });
    match (best_loss, undecided) {
        (Some(d), _) => Some(Value::Win(Dtm(d + 1))),
        (None, true) => None,
        (None, false) => Some(Value::Loss(Dtm(longest_win + 1))),
    }
}

/// Games of random moves in which a player who can take the lion declines now and then: every
/// position met has a value from the probe (a win in 1 where the lion can be taken, as the
/// rules say), the ones after a declined capture included, and a plain search of the rules to
/// three plies agrees wherever it decides.
#[test]
fn positions_after_a_declined_capture_have_their_values() {
    declined_captures(Rules::TANAKA);
}

/// The same games under the safe-try reading: its table is a second whole-game solve, which the
/// self-check's `nana verify --solve` makes anyway (the fixture takes its table from there).
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn safe_try_positions_after_a_declined_capture_have_their_values() {
    declined_captures(Rules::SAFE_TRY);
}

fn declined_captures(rules: Rules) {
    let table = nana_fixture::table(rules);
    let probe: Probe = table.probe();
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(rules == Rules::SAFE_TRY);
    let mut random = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let (mut met, mut declined, mut after_declined, mut decided) = (0, 0, 0, 0);
    for _game in 0..500 {
        let mut pos = Position::start();
        let mut after_a_decline = false;
        for _ply in 0..200 {
            let value = probe.value(&pos).unwrap_or_else(|e| panic!("{pos}: {e}"));
            met += 1;
            after_declined += usize::from(after_a_decline);
            if let Some(searched) = search(&pos, &rules, 3) {
                assert_eq!(value, searched, "{pos}");
                decided += 1;
            }
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            let mut mv = moves[random(moves.len())];
            if pos.can_capture_lion() {
                let takes = |m: &dobutsu_shogi::Move| {
                    pos.play_unchecked(*m).lion(pos.side_to_move().other()).is_none()
                };
                let others: Vec<_> = moves.iter().filter(|m| !takes(m)).collect();
                if random(3) > 0 && !others.is_empty() {
                    mv = *others[random(others.len())];
                    declined += 1;
                    after_a_decline = true;
                } else {
                    mv = *moves.iter().find(|m| takes(m)).expect("a capture");
                }
            }
            pos = pos.play_unchecked(mv);
        }
    }
    assert!(declined > 400 && after_declined > 1000 && decided > 1000, "{rules:?}: {met} positions, {declined} declined captures, {after_declined} after one, {decided} decided by the search");
}

/// The fixture's table is a file in compressed blocks: entries of the solved set read one at a
/// time through the blocks (every 9,973rd entry, in about two blocks of five) are the decoded
/// ones, every win as one value (the others are don't-care, stored filled), and it takes under
/// 0.13 bytes per entry. A flipped byte in the block
/// that holds the start's entry: the file opens (header, block index and histogram intact); the
/// start's lookup is refused each time, naming the block, never answered; positions of other
/// blocks answer as in the intact file; checking every block, or reading them all, names it.
#[test]
fn the_compressed_file_reads_as_its_entries_and_refuses_a_damaged_block() {
    let rules = Rules::TANAKA;
    let table = nana_fixture::table(rules);
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let entries = table.entries();
    // Stored, a win is one value: that of a win in 1 (every even entry but a draw's, 0).
    let stored_as = |e: u8| if e.is_multiple_of(2) && e != 0 { 2 } else { e };
    let differing = (0..SIZE / 9_973)
        .into_par_iter()
        .map(|k| k * 9_973)
        .filter(|&i| entries[i as usize] != nana_engine::ByteCode::ILLEGAL.0)
        .filter(|&i| file.entry(i).unwrap() != Some(u16::from(stored_as(entries[i as usize]))))
        .count();
    assert_eq!(differing, 0);
    let stored = file.storage().payload_len;
    assert!(stored < SIZE * 13 / 100, "{stored} bytes stored for {SIZE} entries");

    nana_fixture::check_a_damaged_block(rules, 100_003, 500);
}

/// The fixture's file stores the entries outside the solved set filled (don't-care): the
/// probe's answers (every move ranked by the value it leads to, the mainline) through the file
/// equal those through the entries read whole, where those entries are marked unused again
/// (so marked, the tables pass the engine's check in the self-check's `nana verify --check`), over random games from the
/// start and from random positions of the index. A lookup of a filled entry would read a value
/// through the file and an unused entry through the whole entries, and differ.
#[test]
fn the_probe_never_reads_a_dont_care_entry() {
    use nana_probe::ProbeRules;
    let rules = Rules::TANAKA;
    let table = nana_fixture::table(rules);
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    assert!(file.header().dont_care);
    let (from_file, whole) = (table.probe(), Probe::new(rules, table.entries()).unwrap());
    let mut state = 0x5eed_d0b0_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut compared = 0;
    for walk in 0..300u32 {
        let mut pos = if walk.is_multiple_of(3) {
            Position::start()
        } else {
            loop {
                if let Some(p) = rules.unindex(next() % SIZE) {
                    break p;
                }
            }
        };
        for _ in 0..60 {
            let answer = whole.answer(&pos, 8).unwrap_or_else(|e| panic!("{pos}: {e}"));
            assert_eq!(from_file.answer(&pos, 8).unwrap(), answer, "{pos}");
            compared += 1;
            let mut children = Vec::new();
            rules.for_each_move(&pos, |_, child| children.push(*child));
            if children.is_empty() {
                break;
            }
            pos = children[(next() % children.len() as u64) as usize];
        }
    }
    assert!(compared > 2000, "{compared}");
}
