//! The whole of Dobutsu shogi solved, as the tablebase is made (the test profile is
//! optimised: this takes minutes), and checked by paths that share nothing with the solve's
//! survey and retro-moves:
//!
//! - the engine's independent check of every reachable entry against its successors, under
//!   Tanaka's reading and, on the same entries, under the safe-try reading (the two readings
//!   value every reachable position alike, as `docs/DOBUTSU.md` explains);
//! - symmetry: a position, its mirror image and its colour flip (the same position seen by the
//!   other player) all rank to the entry, and each one's moves, generated on its own board,
//!   give the entry's value back;
//! - the reachable positions and their values, counted as Tanaka counts them.
//!
//! The checked tables are kept in `CARGO_TARGET_TMPDIR/dobutsu-tables`, where the explorer's
//! tests load them instead of solving again.

use dobutsu_shogi::claims::{CLAIMS, TANAKA_COUNTS};
use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::{reach, Position, Rules};
use nana_engine::{Dtm, EntryWidth, Value};
use nana_probe::table::{write, Table, TableGame};
use rayon::prelude::*;

/// The value the moves of `pos`, generated on its own board, call for, from the table.
fn value_from_moves(pos: &Position, rules: &Rules, entries: &[u8]) -> Value {
    if let Some((value, _)) = pos.solver_end(rules) {
        return value;
    }
    let (mut best_loss, mut longest_win, mut draw) = (None::<u16>, 0u16, false);
    pos.for_each_move(|mv| {
        let child = pos.play_unchecked(mv);
        match EntryWidth::One.value(entries, rank(&child)) {
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

#[test]
fn dobutsu_solved_and_checked() {
    let rules = Rules::TANAKA;
    let start = std::time::Instant::now();
    let solution = rules.solve(&nana_engine::NoProgress).expect("Dobutsu solves");
    eprintln!("solved in {:.1} s", start.elapsed().as_secs_f64());
    let entries = &solution.entries;
    assert_eq!(entries.len() as u64, SIZE);

    // The independent check, under both readings of the try.
    for reading in Rules::all() {
        let start = std::time::Instant::now();
        if let Err(e) = reading.check(entries, EntryWidth::One, &|_| {}) {
            panic!("the check under {} finds: {e}", reading.describe());
        }
        eprintln!("checked under {} in {:.1} s", reading.describe(), start.elapsed().as_secs_f64());
    }

    // Symmetry, over every 101st used entry.
    let checked: u64 = (0..SIZE / 101)
        .into_par_iter()
        .map(|k| k * 101)
        .filter(|&i| EntryWidth::One.value(entries, i).is_some())
        .map(|i| {
            let stored = EntryWidth::One.value(entries, i);
            let pos = unrank(i).expect("a used entry is a position");
            for image in [pos, pos.mirror(), pos.rotate(), pos.rotate().mirror()] {
                assert_eq!(rank(&image), i, "{image:?} is a symmetric image of entry {i}");
                assert_eq!(Some(value_from_moves(&image, &rules, entries)), stored, "{image:?}");
            }
            1
        })
        .sum();
    assert!(checked > 2_000_000, "only {checked} entries looked at");

    // Tanaka's counts, and the start's value.
    let reached = reach::reachable(&rules, &|_| {});
    let c = reach::count(&rules, &reached, Some((entries, EntryWidth::One)));
    let counted = (c.positions, c.non_terminal, c.wins, c.draws, c.losses, c.max_moves);
    let t = TANAKA_COUNTS;
    assert_eq!(counted, (t.reachable, t.non_terminal, t.wins, t.draws, t.losses, t.most_moves));
    assert_eq!(u64::from(solution.stats.max_dtm), t.longest_win);
    assert_eq!(solution.stats.legal(), t.reachable, "exactly the reachable entries are used");
    let claim = &CLAIMS[0];
    assert_eq!(EntryWidth::One.value(entries, rank(&Position::start())), Some(claim.value));

    // Keep both rule sets' tables for the explorer's tests.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dobutsu-tables");
    std::fs::create_dir_all(&dir).expect("the test's temporary folder");
    for reading in Rules::all() {
        let path = write(&reading, &dir, &solution).expect("the table is written");
        Table::open(reading, &path).expect("the table just written opens");
    }
}
