//! The tablebase reader given any bytes as a file: the open's checks, the check of every
//! block, every entry read one by one and all at once, and the histogram. Each either fails
//! with an error or answers what the intact table answers; none panics, and none allocates
//! more than the file's own size calls for (run with `-malloc_limit_mb`, docs/TESTING.md).
//!
//! The seeds are the files of small intact tables ([`nana_fuzz::intact_tables`]); a file read
//! whose header is that of an intact table must read as that table does.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use nana_fuzz::{intact_tables, Intact};
use nana_tablebase::{validate_bytes, Tablebase};

/// Entries read one by one: all of a small table, a spread of a large one's.
const PROBES: u64 = 512;

fn intact() -> &'static [Intact] {
    static TABLES: OnceLock<Vec<Intact>> = OnceLock::new();
    TABLES.get_or_init(intact_tables)
}

fuzz_target!(|data: &[u8]| {
    let validated = validate_bytes(data);
    let table = match Tablebase::from_bytes(data.to_vec()) {
        Ok(table) => table,
        Err(e) => {
            assert!(validated.is_err(), "validate_bytes accepts what from_bytes refuses: {e}");
            drop(e.to_string());
            return;
        }
    };
    // The intact table with this file's header and storage, if any: the reference.
    let reference = intact()
        .iter()
        .map(|i| &i.table)
        .find(|t| t.header() == table.header() && t.storage() == table.storage());
    let checked = table.check_blocks();
    if let Ok(header) = &validated {
        assert_eq!(header, table.header());
        assert!(checked.is_ok(), "validate_bytes accepts a file whose blocks fail: {checked:?}");
    }
    let n = table.header().entries;
    let step = (n / PROBES).max(1);
    let mut index = 0;
    while index < n {
        match table.entry(index) {
            Ok(Some(v)) => {
                if let Some(r) = reference {
                    assert_eq!(Some(v), r.entry(index).unwrap(), "entry {index}");
                }
            }
            Ok(None) => panic!("entry {index} of {n} is missing"),
            Err(e) => drop(e.to_string()),
        }
        index += step;
    }
    assert_eq!(table.entry(n).ok(), Some(None));
    assert_eq!(table.entry(u64::MAX).ok(), Some(None));
    match table.entries() {
        Ok(all) => {
            if let Some(r) = reference {
                assert_eq!(&all[..], &r.entries().unwrap()[..]);
            }
        }
        Err(e) => drop(e.to_string()),
    }
    if let (Some(r), Some(h)) = (reference, table.histogram()) {
        assert_eq!(Some(h), r.histogram());
    }
});
