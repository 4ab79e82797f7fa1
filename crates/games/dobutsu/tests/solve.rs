//! The whole of Dobutsu shogi solved, as the tablebase is made (the test run's fixture,
//! `nana-fixture`, solves it once per run: minutes), and checked by paths that share nothing with
//! the solve's survey and retro-moves:
//!
//! - the engine's independent check of every reachable entry against its successors under the
//!   safe-try reading of the try (the two readings value every reachable position alike, as
//!   `docs/DOBUTSU.md` explains: the fixture's safe-try table is Tanaka's entries, taken only
//!   once that check accepts them);
//! - symmetry: a position, its mirror image and its colour flip (the same position seen by the
//!   other player) all rank to the entry, and each one's moves, generated on its own board,
//!   give the entry's value back;
//! - the table's counts and the start's value against Tanaka's.
//!
//! The same check under Tanaka's reading runs in the README's main job (`nana verify --solve
//! --check --all-games`), and the reachable positions are counted as Tanaka counts them by
//! `nana --game dobutsu verify` in `tests/results_doc.rs` and the main job.

use dobutsu_shogi::claims::{CLAIMS, TANAKA_COUNTS};
use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::{Position, Rules};
use nana_engine::{Dtm, EntryWidth, Value};
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
    let table = nana_fixture::table(rules);
    let entries = table.entries();
    assert_eq!(entries.len() as u64, SIZE);

    // The table's counts and the start's value: exactly the reachable entries are used.
    let stats = table.stats();
    let t = TANAKA_COUNTS;
    assert_eq!((stats.legal(), u64::from(stats.max_dtm)), (t.reachable, t.longest_win));
    assert_eq!(EntryWidth::One.value(entries, rank(&Position::start())), Some(CLAIMS[0].value));

    // The independent check under the safe-try reading (the fixture's, once per run).
    let safe_try = nana_fixture::table_checked_from(Rules::SAFE_TRY, &table);
    assert!(safe_try.entries() == entries, "the safe-try table is Tanaka's entries");

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
}
