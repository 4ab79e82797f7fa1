//! The export's rows read through a bounded cache of decoded pages ([`Pages`]) against the rows
//! of the whole table decoded in memory: the same rows, however small the budget.

use nana_export::{probe_in_memory, rows, with_probe, Pages};
use nana_probe::table::Source;
use nana_probe::ProbeGame;
use nana_shogi::Rules;

#[test]
fn pages_give_the_rows_of_the_decoded_table() {
    let table = nana_fixture::table(Rules::CURRENT);
    let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
    let whole = probe_in_memory(&table).expect("an intact table");
    let size = table.game().size();
    // Four pages per thread (of 262,144 one-byte entries): most pages a row's moves read are
    // decoded again.
    let threads = rayon::current_num_threads();
    let mut pages = Pages::new(file, 4 << 18, 1).expect("a compressed file");
    assert_eq!(pages.bound(threads), (4 << 18) * threads as u64);
    // The first entries, the middle ones and the last (a short last page and block).
    for range in [0..20_000, size / 2..size / 2 + 20_000, size - 20_000..size] {
        let want = rows(&whole, range.clone()).expect("rows in memory");
        assert!(!want.is_empty(), "{range:?}");
        let paged = with_probe(&table, Some(&pages), |probe| rows(probe, range.clone()));
        assert_eq!(paged.expect("rows through pages"), want, "{range:?}");
    }
    let stats = pages.stats();
    assert!(stats.decoded > 3 && stats.decoded < stats.lookups, "{stats:?}");
}
