//! Golden data: every later change to the engine, the index or the rules must leave the solutions
//! of all eight rule set and option combinations exactly as committed.
//!
//! - `tests/data/golden/tablebases.csv`: per combination, the CRC-32 of the entries as the solve
//!   makes them, unused entries marked (a file stores them filled, as don't-care, and its reader
//!   marks them again from the rules; the CRC-32 does not depend on how the file stores them)
//!   and the entry counts.
//! - `tests/data/golden/positions.csv`: a few hundred positions with their value: the start and
//!   the positions after each first move, the principal variation from the start, the longest
//!   wins and losses, and random legal positions.
//!
//! The test command checks the two published rule sets (current and original, default
//! options); the self-check (`cargo xtask self-check`) the six other combinations, whose
//! tables nothing else in the test command needs.
//!
//! The files were written by this test itself with `NANA_BLESS=1` (`NANA_BLESS=1 cargo test -p
//! nana-shogi --test golden`), after the solutions had been checked by the independent checker
//! and against the published results; without it, the test only compares.

use std::fmt::Write as _;

use nana_engine::{ByteCode, Stats, Value};
use nana_probe::table::{Source, Table, TableRules};
use nana_shogi::index::{file_position, SIZE};
use nana_shogi::probe::Probe;
use nana_shogi::{fen, NanaGame, Position, Rules};
use nana_tablebase::{Layout, HEADER_SIZE};

mod common;
use common::XorShift;

const TABLEBASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/tablebases.csv");
const POSITIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/positions.csv");

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// `drop-stalemate:on hand-stalemate:off`
fn options(rules: &Rules) -> String {
    format!("drop-stalemate:{} hand-stalemate:{}", on_off(rules.drop_stalemate), on_off(rules.hand_stalemate))
}

fn tablebase_row(rules: &Rules, entries: &[u8], st: &Stats) -> String {
    format!(
        "{},{},{:08x},{},{},{},{},{}",
        rules.variant.name(),
        options(rules),
        crc32fast::hash(entries),
        st.wins,
        st.losses,
        st.draws,
        st.illegal,
        st.max_dtm
    )
}

fn position_row(rules: &Rules, pos: &Position, v: Value) -> String {
    let dtm = v.dtm().map_or(String::new(), |d| d.0.to_string());
    format!("{},{},{},{},{}", rules.variant.name(), options(rules), pos, v.category(), dtm)
}

/// The positions of one combination that the golden file keeps.
fn chosen_positions(rules: &Rules, entries: &[u8], stats: &Stats) -> Vec<Position> {
    let probe = Probe::new(*rules, entries).unwrap();
    let start = Position::start();
    let mut chosen = vec![start];
    chosen.extend(start.legal_moves(rules).into_iter().map(|mv| start.play_unchecked(mv)));
    // The principal variation (a drawing line of 12 plies for a draw).
    let mut pos = start;
    for mv in probe.mainline(&start, 12).unwrap() {
        pos = pos.play_unchecked(mv);
        chosen.push(pos);
    }
    // The longest wins and losses: the first three entries of each of the two longest distances.
    let game = NanaGame::new(*rules);
    let top = stats.max_dtm;
    for dtm in [top, top - 1] {
        let byte = ByteCode::decided(dtm).0;
        let found = entries.iter().enumerate().filter(|&(_, &b)| b == byte).take(3);
        chosen.extend(found.map(|(i, _)| game.position(i as u64).unwrap()));
    }
    // Random legal positions, half of them with White to move.
    let mut rng = XorShift(0x5eed_0f9a_1de4);
    while chosen.len() < 70 {
        if let Some(p) = game.position(rng.next() % SIZE) {
            chosen.push(if rng.next().is_multiple_of(2) { p } else { p.flip() });
        }
    }
    chosen
}

/// The published rule sets' tables (current and original, default options), solved as `nana
/// solve` solves them (the test run's fixture, which writes and reads each back as a compressed
/// file), checked against (or, with `NANA_BLESS=1`, written to, every combination's) both
/// files. The golden positions are read both from the decoded entries and from the file an
/// entry at a time (its blocks decoded one by one), which must agree.
#[test]
fn solutions_match_the_golden_data() {
    golden(&[Rules::CURRENT, Rules::ORIGINAL]);
}

/// The same for the six other combinations of rule options, whose tables the test command
/// does not otherwise make: six more whole solves, left to the exhaustive tier.
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn the_other_option_combinations_match_the_golden_data() {
    let others: Vec<Rules> =
        Rules::all().filter(|r| ![Rules::CURRENT, Rules::ORIGINAL].contains(r)).collect();
    assert_eq!(others.len(), 6);
    golden(&others);
}

/// Checks `rule_sets` against the golden files' rows of their combinations; with `NANA_BLESS`
/// set, writes both files anew from every combination instead.
fn golden(rule_sets: &[Rules]) {
    let bless = std::env::var_os("NANA_BLESS").is_some();
    let all: Vec<Rules> = Rules::all().collect();
    let rule_sets = if bless { &all[..] } else { rule_sets };
    let (mut tablebases, mut positions) = (String::new(), String::new());
    tablebases.push_str("rules,options,entries_crc32,wins,losses,draws,unused,max_dtm\n");
    positions.push_str("rules,options,position,category,dtm\n");
    let (golden_tablebases, golden_positions) =
        if bless { (String::new(), String::new()) } else { (read(TABLEBASES), read(POSITIONS)) };
    for &rules in rule_sets {
        let table = nana_fixture::table(rules);
        let (entries, stats) = (table.entries(), table.stats());
        let row = tablebase_row(&rules, entries, &stats);
        writeln!(tablebases, "{row}").unwrap();
        let probe = Probe::new(rules, entries).unwrap();
        let from_file = table.probe();
        let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
        assert_eq!(file.storage().layout, Layout::ZstdBlocks { block_entries: 32_768 });
        // The file stores its unused entries filled; read whole, they are marked unused again
        // from the rules, so that the entries above are the solve's (the golden CRC-32).
        assert!(file.header().dont_care, "{}", rules.short_name());
        if bless {
            for pos in chosen_positions(&rules, entries, &stats) {
                writeln!(positions, "{}", position_row(&rules, &pos, probe.value(&pos).unwrap())).unwrap();
            }
            continue;
        }
        let prefix = format!("{},{},", rules.variant.name(), options(&rules));
        let golden_rows: Vec<&str> = golden_tablebases.lines().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(
            golden_rows,
            [row.as_str()],
            "a solution changed: its entries' CRC-32 or counts differ from tests/data/golden/tablebases.csv"
        );
        // Every golden row of this combination, re-read from its position string.
        let rows: Vec<&str> = golden_positions.lines().filter(|l| l.starts_with(&prefix)).collect();
        assert!(rows.len() >= 50, "{}: only {} golden positions", rules.short_name(), rows.len());
        for row in rows {
            let text = row.split(',').nth(2).unwrap();
            let pos = fen::parse_position(text, rules.variant).unwrap_or_else(|e| panic!("{row}: {e}"));
            let v = probe.value(&pos).unwrap();
            assert_eq!(from_file.value(&pos).unwrap(), v, "{row}: the file read an entry at a time");
            assert_eq!(position_row(&rules, &pos, v), row, "the solution changed at a golden position");
        }
    }
    if bless {
        std::fs::write(TABLEBASES, tablebases).unwrap();
        std::fs::write(POSITIONS, positions).unwrap();
        return;
    }
    // Every combination has its row, once.
    assert_eq!(golden_tablebases.lines().count(), 1 + all.len(), "tests/data/golden/tablebases.csv");
}

/// Every entry of a rule set's file, read one at a time through its blocks at its place in the
/// file ([`file_position`]), is the decoded entry wherever the entry is used, a win as one value (an unused one is don't-care, stored
/// filled). A flipped byte
/// in the block index is refused when the file is opened. One in the block that holds the
/// start's entry is not (the index and histogram are intact): the start's lookup is refused
/// each time, naming the block, never answered; positions of other blocks answer as in the
/// intact file; checking every block, or reading them all, names the block.
#[test]
fn the_compressed_file_reads_as_its_entries_and_refuses_a_damaged_block() {
    let rules = Rules::default();
    let table = nana_fixture::table(rules);
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let entries = table.entries();
    // Stored, a win is one value: that of a win in 1 (every even entry but a draw's, 0).
    let stored_as = |e: u8| if e.is_multiple_of(2) && e != 0 { 2 } else { e };
    let differing = (0..SIZE)
        .filter(|&i| entries[i as usize] != ByteCode::ILLEGAL.0)
        .filter(|&i| {
            file.entry(file_position(rules.variant, i)).unwrap()
                != Some(u16::from(stored_as(entries[i as usize])))
        })
        .count();
    assert_eq!(differing, 0);
    assert_eq!(file.entry(SIZE).unwrap(), None);
    let stored = HEADER_SIZE + file.storage().payload_len as usize;
    assert!(stored < entries.len() / 2, "{stored} bytes stored for {} entries", entries.len());

    let bytes = std::fs::read(nana_fixture::path(rules)).unwrap();
    let dir = std::env::temp_dir().join(format!("nana-golden-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(rules.file_name());
    let mut damaged = bytes.clone();
    damaged[HEADER_SIZE + 100] ^= 0x20;
    std::fs::write(&path, &damaged).unwrap();
    let err = Table::open(rules, &path).unwrap_err();
    assert!(err.to_string().contains("payload checksum") && err.needs_regeneration(), "{err}");

    std::fs::remove_dir_all(&dir).unwrap();
    nana_fixture::check_a_damaged_block(rules, 997, 5_000);
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
