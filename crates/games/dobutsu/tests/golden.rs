//! Golden data: every later change to the engine, the index, the file format or the rules must
//! leave both rule sets' solutions as committed, position by position.
//!
//! - `tests/data/golden/dobutsu-tablebases.csv`: per rule set, the entries' counts per value
//!   (the file's histogram), the longest win and the CRC-32 of the entries as the file stores
//!   them (its header's: every win as one value, unused entries filled as don't-care). A change
//!   to the index or the format changes the CRC-32 and the unused count, and only those:
//!   re-bless them alone, once the positions below still match and the entries read whole are
//!   the old file's, entry by entry.
//! - `tests/data/golden/dobutsu-positions.csv`: a few hundred positions per rule set with their
//!   value: the start and the positions after each first move, the mainline from the start,
//!   the two positions whose side to move has no move, and random legal positions with either
//!   side to move. They are read back from their Fairy-Stockfish FEN, so they hold whatever the
//!   index.
//!
//! The files were written by this test with `NANA_BLESS=1` (`NANA_BLESS=1 cargo test -p
//! dobutsu-shogi --test golden`), from tables whose every entry the engine's independent check
//! accepts (the self-check, `nana verify --solve --check --self-check --all-games`) and whose
//! start and counts are Tanaka's (`nana --game dobutsu verify`); without it, the tests only
//! compare. Tanaka's rules are compared by the test command, the safe-try reading by the
//! self-check, which solves it anyway.

use std::fmt::Write as _;

use dobutsu_shogi::Rules;
use nana_engine::Value;
use nana_probe::table::Source;
use nana_probe::ProbeRules;

mod common;
use common::XorShift;

const TABLEBASES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/dobutsu-tablebases.csv");
const POSITIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden/dobutsu-positions.csv");

/// Random legal positions per rule set, besides the start, its children and the mainline.
const RANDOM: usize = 300;

/// The two positions of the index whose side to move has no move at all: a loss in 0.
const NO_MOVE: [&str; 2] = ["GE1/LGE/CCl/3[-] w 0 1", "GEl/LGE/CC1/3[-] w 0 1"];

fn position_row(rules: &Rules, fen: &str, v: Value) -> String {
    let dtm = v.dtm().map_or(String::new(), |d| d.0.to_string());
    format!("{},{fen},{},{dtm}", rules.name(), v.category())
}

/// The positions of one rule set that the golden file keeps.
fn chosen_positions(rules: &Rules, table: &nana_probe::table::Table<Rules>) -> Vec<String> {
    let probe = table.probe();
    let start = rules.start();
    let mut chosen = vec![start];
    rules.for_each_move(&start, |_, child| chosen.push(*child));
    let mut pos = start;
    for mv in probe.mainline(&start, 20).expect("the start's mainline") {
        pos = rules.play(&pos, mv);
        chosen.push(pos);
    }
    for fen in NO_MOVE {
        chosen.push(rules.parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}")));
    }
    let mut rng = XorShift(0x0d0b_5750_5eed);
    let mut random = 0;
    while random < RANDOM {
        let Some(p) = rules.unindex(rng.next() % rules.size()) else { continue };
        // Half of them with the second player to move: the position after one of its moves.
        let mut children = Vec::new();
        rules.for_each_move(&p, |_, child| children.push(*child));
        let p = match children.len() {
            n if n > 0 && rng.next().is_multiple_of(2) => children[rng.below(n)],
            _ => p,
        };
        chosen.push(p);
        random += 1;
    }
    chosen.iter().map(|p| rules.position_string(p)).collect()
}

/// Tanaka's rules: the table solved as `nana --game dobutsu solve` solves it (the test run's
/// fixture), checked against both files (with `NANA_BLESS=1`, both rule sets' tables are solved
/// and written to them instead).
#[test]
fn tanaka_matches_the_golden_data() {
    if std::env::var_os("NANA_BLESS").is_some() {
        bless();
        return;
    }
    matches_the_golden_data(&Rules::TANAKA);
}

/// The safe-try reading's table, as Tanaka's: a second whole-game solve, which the self-check's
/// `nana verify --solve` makes anyway (the fixture takes its table from there).
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn safe_try_matches_the_golden_data() {
    matches_the_golden_data(&Rules::SAFE_TRY);
}

/// The row of `tests/data/golden/dobutsu-tablebases.csv` for a rule set's table.
fn tablebase_row(rules: &Rules, table: &nana_probe::table::Table<Rules>) -> String {
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let s = table.stats();
    format!(
        "{},{:08x},{},{},{},{},{}",
        rules.name(),
        file.storage().entries_crc,
        s.wins,
        s.losses,
        s.draws,
        s.illegal,
        s.max_dtm
    )
}

/// The rule set's row of the tables' file and its every golden position, re-read from its
/// position string, against its table.
fn matches_the_golden_data(rules: &Rules) {
    let table = nana_fixture::table(*rules);
    let prefix = format!("{},", rules.name());
    let golden = read(TABLEBASES);
    let row = golden.lines().find(|l| l.starts_with(&prefix)).expect("the rule set's row");
    assert_eq!(
        tablebase_row(rules, &table),
        row,
        "a solution changed: its counts or stored entries' CRC-32 differ from tests/data/golden/dobutsu-tablebases.csv"
    );
    let probe = table.probe();
    let golden_positions = read(POSITIONS);
    let rows: Vec<&str> = golden_positions.lines().filter(|l| l.starts_with(&prefix)).collect();
    assert!(rows.len() > RANDOM, "{}: only {} golden positions", rules.name(), rows.len());
    for row in rows {
        let fen = row.split(',').nth(1).unwrap();
        let pos = rules.parse_position(fen).unwrap_or_else(|e| panic!("{row}: {e}"));
        let v = probe.value(&pos).unwrap_or_else(|e| panic!("{row}: {e}"));
        assert_eq!(position_row(rules, fen, v), row, "the solution changed at a golden position");
    }
}

/// Both files written afresh from both rule sets' tables.
fn bless() {
    let (mut tablebases, mut positions) = (String::new(), String::new());
    tablebases.push_str("rules,stored_entries_crc32,wins,losses,draws,unused,max_dtm\n");
    positions.push_str("rules,position,category,dtm\n");
    for rules in Rules::all() {
        let table = nana_fixture::table(rules);
        writeln!(tablebases, "{}", tablebase_row(&rules, &table)).unwrap();
        let probe = table.probe();
        for fen in chosen_positions(&rules, &table) {
            let pos = rules.parse_position(&fen).unwrap();
            writeln!(positions, "{}", position_row(&rules, &fen, probe.value(&pos).unwrap())).unwrap();
        }
    }
    std::fs::write(TABLEBASES, tablebases).unwrap();
    std::fs::write(POSITIONS, positions).unwrap();
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
