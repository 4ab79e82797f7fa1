//! In-process lookups in a table file, one entry at a time through `Tablebase::entry` on one
//! thread: how many per second, for entries at random anywhere in the table (nearly every one
//! decodes a block) and for entries at random among 16 blocks in the middle of the table, once
//! they are decoded (a warm cache: every lookup a hit, since consecutive blocks take consecutive
//! slots of the cache's 16,384). Also how long opening takes (the header, the block index and
//! the histogram checked; the first open, then the mean of 100 more), checking every block's
//! CRC-32 after it, and decoding every entry (`Tablebase::entries`, what a table too large for
//! the cache is decoded whole by).
//!
//! `cargo run --release -p nana-tablebase --example lookups -- FILE.tb [LOOKUPS]` (with
//! `--no-default-features --features files`, without the thread pool: blocks decoded one after
//! another)

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use nana_tablebase::{Layout, Tablebase};

/// How many times the table is opened again, to time an open.
const OPENS: u32 = 100;

/// xorshift64: reproducible indices without a dependency.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: lookups FILE.tb [LOOKUPS]");
    let lookups: u64 = args.next().map_or(2_000_000, |n| n.parse().expect("a number of lookups"));
    let start = Instant::now();
    let table = Tablebase::open(Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("{path}: opened and validated in {:.3} ms", start.elapsed().as_secs_f64() * 1e3);
    let start = Instant::now();
    for _ in 0..OPENS {
        black_box(Tablebase::open(Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e}")));
    }
    println!("{path}: {OPENS} more opens, {:.3} ms each", start.elapsed().as_secs_f64() * 1e3 / OPENS as f64);
    let start = Instant::now();
    table.check_blocks().unwrap_or_else(|e| panic!("{path}: {e}"));
    println!("{path}: every block checked in {:.3} s", start.elapsed().as_secs_f64());
    let start = Instant::now();
    let decoded = table.entries().unwrap_or_else(|e| panic!("{path}: {e}")).len();
    println!("{path}: every entry decoded in {:.3} s ({decoded} bytes)", start.elapsed().as_secs_f64());
    let entries = table.header().entries;
    let block = match table.storage().layout {
        Layout::Plain => entries,
        blocks => u64::from(blocks.block_entries()),
    };
    let run = |label: &str, first: u64, span: u64| {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        let mut sum = 0u64;
        let start = Instant::now();
        for _ in 0..lookups {
            let entry = table.entry(first + next(&mut state) % span);
            sum += u64::from(black_box(entry.unwrap_or_else(|e| panic!("{path}: {e}")).unwrap_or(0)));
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{label}: {lookups} lookups in {seconds:.3} s, {:.2} M/s (checksum {sum})",
            lookups as f64 / seconds / 1e6
        );
    };
    run("random entries of the whole table", 0, entries);
    let span = (16 * block).min(entries);
    let first = (entries / 2 / block * block).min(entries - span);
    run("random entries of 16 blocks (warming up)", first, span);
    run("random entries of 16 blocks, warm cache", first, span);
}
