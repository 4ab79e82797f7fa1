//! The export's rows: their move counts against the probe's ranked moves (below), and read
//! through a bounded cache of decoded pages ([`Pages`]) against the rows
//! of the whole table decoded in memory: the same rows, however small the budget. For Dobutsu,
//! whose tables leave the entries outside the solved set don't-care (read through pages as
//! stored, marked unused again in memory), too; its whole table takes 11 s to decode in the
//! tests' build, so the test command compares fewer of its rows with the file's own probe's (its
//! blocks read through the table's reader) and the self-check more with the whole table decoded.

use nana_engine::{Category, Value};
use nana_export::{probe_in_memory, rows, with_probe, PageStats, Pages};
use nana_front::FrontRules;
use nana_probe::table::{Source, Table};

/// The rows of a few spans of `table`'s index (the first entries, two in the middle and the
/// last: a short last page and block) through four pages per thread against the whole table's
/// decoded (`decoded`) or the file's own probe's. Returns what the pages did.
fn same_rows<R: FrontRules>(table: &Table<R>, span: u64, decoded: bool) -> PageStats {
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let whole = if decoded { probe_in_memory(table).expect("an intact table") } else { table.probe() };
    let size = table.game().size();
    // Four pages per thread (of 262,144 one-byte entries): most pages a row's moves read are
    // decoded again.
    let threads = rayon::current_num_threads();
    let mut pages = Pages::new(file, 4 << 18, 1).expect("a compressed file");
    assert_eq!(pages.bound(threads), (4 << 18) * threads as u64);
    let mut compared = 0;
    for range in [0..span, size / 3..size / 3 + span, size / 2..size / 2 + span, size - span..size] {
        let want = rows(&whole, range.clone()).expect("rows in memory");
        let paged = with_probe(table, Some(&pages), |probe| rows(probe, range.clone()));
        assert_eq!(paged.expect("rows through pages"), want, "{range:?}");
        compared += want.len();
    }
    assert!(compared > 1000, "{compared} rows");
    pages.stats()
}

#[test]
fn pages_give_the_rows_of_the_decoded_table() {
    let stats = same_rows(&nana_fixture::table(nana_shogi::Rules::CURRENT), 20_000, true);
    // More pages decoded than the threads keep: some were dropped for others.
    let kept = 4 * rayon::current_num_threads() as u64;
    assert!(stats.decoded > kept && stats.decoded < stats.lookups, "{stats:?}");
}

#[test]
fn pages_give_the_rows_of_dobutsus_file() {
    same_rows(&nana_fixture::table(dobutsu_shogi::Rules::TANAKA), 6_000, false);
}

#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn pages_give_the_rows_of_dobutsus_decoded_table() {
    same_rows(&nana_fixture::table(dobutsu_shogi::Rules::TANAKA), 25_000, true);
}

// A row's move counts: how many of its position's moves win and draw for the side to move,
// counted again here from the probe's ranked moves (the value each move leads to), and in
// keeping with the row's category: a won position has a winning move, a lost one neither a
// winning nor a drawing move, a drawn one a drawing move and no winning one.

fn counts_agree<R: FrontRules>(table: &Table<R>, span: u64) {
    let probe = table.probe();
    let game = table.game();
    let size = game.size();
    let mut checked = 0;
    for range in [0..span, size / 2..size / 2 + span, size - span..size] {
        for row in rows(&probe, range).expect("rows") {
            let pos = game.parse_position(&row.fen).expect("a row's position string reads back");
            let moves = probe.ranked_moves(&pos).expect("its moves");
            let count = |f: fn(&Value) -> bool| moves.iter().filter(|m| f(&m.value())).count() as u16;
            let (winning, drawing) = (count(|v| matches!(v, Value::Win(_))), count(|v| *v == Value::Draw));
            assert_eq!((row.winning_moves, row.drawing_moves), (winning, drawing), "{}", row.fen);
            let fits = match row.category {
                Category::Win => winning > 0,
                Category::Loss => winning == 0 && drawing == 0,
                Category::Draw => winning == 0 && drawing > 0,
            };
            assert!(fits, "{}: {} with {winning} winning and {drawing} drawing moves", row.fen, row.category);
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} rows");
}

#[test]
fn nanas_move_counts_are_its_ranked_moves() {
    counts_agree(&nana_fixture::table(nana_shogi::Rules::CURRENT), 20_000);
}

#[test]
fn dobutsus_move_counts_are_its_ranked_moves() {
    counts_agree(&nana_fixture::table(dobutsu_shogi::Rules::TANAKA), 6_000);
}
