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
use nana_probe::table::{Source, Table, TableGame};
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

/// The fixture's table is a file in compressed blocks: entries read one at a time through the
/// blocks (every 97th) are the decoded ones, it takes under a fifth of a byte per entry, and a
/// flipped byte in a block halfway through the file is refused on open, naming the block.
#[test]
fn the_compressed_file_reads_as_its_entries_and_refuses_a_damaged_block() {
    let rules = Rules::TANAKA;
    let table = nana_fixture::table(rules);
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let entries = table.entries();
    let differing = (0..SIZE / 97)
        .into_par_iter()
        .map(|k| k * 97)
        .filter(|&i| file.entry(i) != Some(u16::from(entries[i as usize])))
        .count();
    assert_eq!(differing, 0);
    let stored = file.payload().len() as u64;
    assert!(stored < SIZE / 5, "{stored} bytes stored for {SIZE} entries");

    let mut bytes = std::fs::read(nana_fixture::path(rules)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x08;
    let dir = std::env::temp_dir().join(format!("dobutsu-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(rules.file_name());
    std::fs::write(&path, &bytes).unwrap();
    drop(bytes);
    let err = Table::open(rules, &path).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        err.to_string().contains("checksum mismatch in compressed block") && err.needs_regeneration(),
        "{err}"
    );
}
