//! The export's rows read through a bounded cache of decoded pages ([`Pages`]) against the rows
//! of the whole table decoded in memory: the same rows, however small the budget. For Dobutsu,
//! whose tables leave the entries outside the solved set don't-care (read through pages as
//! stored, marked unused again in memory), too; its whole table takes 11 s to decode in the
//! tests' build, so the test command compares fewer of its rows with the file's own probe's (its
//! blocks read through the table's reader) and the self-check more with the whole table decoded.

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
