//! What the fuzz targets share: the intact tables the tablebase target compares damaged files
//! with (and whose bytes are its seeds), and the games' tables the engine and the server read.

use std::path::PathBuf;
use std::sync::OnceLock;

use dobutsu_shogi::Dobutsu;
use nana_engine::NoProgress;
use nana_front::Game;
use nana_probe::table::{write, Table, TableRules};
use nana_shogi::Nana;
use nana_tablebase::{write_with, Counts, Encoding, Header, Layout, Tablebase};

/// A small table, intact: its file's bytes and the table read from them.
#[derive(Debug)]
pub struct Intact {
    pub bytes: Vec<u8>,
    pub table: Tablebase,
}

/// A header of `entries` entries of `width` bytes.
fn header(entries: u64, width: u32, dont_care: bool) -> Header {
    Header {
        game: "fuzz".to_owned(),
        rule_set: "standard".to_owned(),
        rule_set_id: 2,
        options: "drop-stalemate on".to_owned(),
        option_bits: 0b1,
        layout_version: 1,
        entries,
        entry_width: width,
        encoding: Encoding::DtmPlies,
        counts: Counts { wins: 1, losses: 1, draws: 1, illegal: entries.saturating_sub(3) },
        max_dtm: 9,
        dont_care,
    }
}

/// Entries in runs of a few values, as a solved table has, illegal ones included.
fn entries(entries: u64, width: u32) -> Vec<u8> {
    let len = (entries * u64::from(width)) as usize;
    (0..len).map(|i| [0u8, 1, 255, 7, 2][(i / 5 + i / 37) % 5]).collect()
}

/// The small tables the tablebase target knows whole: a plain payload, compressed blocks of
/// one and two bytes per entry, a table with don't-care entries, blocks of a few entries (the
/// last one short) and an empty table, in LZ4 blocks, and zstd blocks of one and two bytes per
/// entry, with don't-care entries and a short last block.
pub fn intact_tables() -> Vec<Intact> {
    let tables: [(u64, u32, bool, Layout); 9] = [
        (60, 1, false, Layout::Plain),
        (200, 1, false, Layout::Lz4Blocks { block_entries: 64 }),
        (90, 2, false, Layout::Lz4Blocks { block_entries: 16 }),
        (100, 1, true, Layout::Lz4Blocks { block_entries: 32 }),
        (50, 1, false, Layout::Lz4Blocks { block_entries: 7 }),
        (0, 1, false, Layout::Lz4Blocks { block_entries: 8 }),
        (200, 1, false, Layout::ZstdBlocks { block_entries: 64 }),
        (90, 2, false, Layout::ZstdBlocks { block_entries: 16 }),
        (100, 1, true, Layout::ZstdBlocks { block_entries: 7 }),
    ];
    let dir = std::env::temp_dir().join(format!("nana-fuzz-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let intact = tables
        .iter()
        .enumerate()
        .map(|(i, &(n, width, dont_care, layout))| {
            let path = dir.join(format!("{i}.tb"));
            write_with(&path, &header(n, width, dont_care), &entries(n, width), layout).expect("written");
            let bytes = std::fs::read(&path).expect("read back");
            let table = Tablebase::from_bytes(bytes.clone()).expect("an intact table opens");
            Intact { bytes, table }
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    intact
}

/// The tables' folder, kept between runs (`$NANA_FUZZ_TABLES`, else one in the temporary
/// folder): Nana's tables where they are there or in `$NANA_FUZZ_NANA_TABLES` (as `nana solve
/// --out` writes them), its default one solved on the first run otherwise (minutes under the
/// address sanitizer), and a file that is not a table for every other rule set.
pub fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::var_os("NANA_FUZZ_TABLES")
            .map_or_else(|| std::env::temp_dir().join("nana-fuzz-engine-tables"), PathBuf::from);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let given = std::env::var_os("NANA_FUZZ_NANA_TABLES").map(PathBuf::from);
        let default = Nana::RULE_SETS[0].rules;
        for rules in every_rule_set::<Nana>() {
            let path = dir.join(rules.file_name());
            if let Some(from) = given.as_ref().map(|g| g.join(rules.file_name())).filter(|f| f.exists()) {
                std::fs::copy(from, &path).expect("copied");
            }
            if Table::open(rules, &path).is_ok() {
                continue;
            }
            if rules == default {
                let solution = rules.solve(&NoProgress).expect("Nana's default rules solve");
                write(&rules, &dir, &solution).expect("the table is written");
            } else {
                std::fs::write(&path, b"not a table").expect("written");
            }
        }
        for rules in every_rule_set::<Dobutsu>() {
            std::fs::write(dir.join(rules.file_name()), b"not a table").expect("written");
        }
        dir
    })
}

/// Every rule set of a game with every combination of its options.
pub fn every_rule_set<G: Game>() -> Vec<G::Rules> {
    let options = G::OPTIONS.len();
    G::RULE_SETS
        .iter()
        .flat_map(|set| {
            (0..1u32 << options).map(move |mask| {
                let switches: Vec<bool> = (0..options).map(|i| mask & (1 << i) != 0).collect();
                G::with_options(set.rules, &switches)
            })
        })
        .collect()
}
