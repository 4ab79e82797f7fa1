//! The pages of the index the survey gives once rather than entry by entry ([`Survey::pages`]):
//! how many, by byte, and the memory the survey holds with them never written.
//! `cargo run --release -p dobutsu-shogi --example unused_pages`

use dobutsu_shogi::survey::{survey, Survey};
use dobutsu_shogi::Rules;

/// This process's resident memory, from `/proc/self/status` (Linux), in KiB.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let rules = Rules::from_name("tanaka").expect("Tanaka's rules");
    let surveyed: Survey = survey(&rules, &|_| {});
    let resident = resident_kib();
    let mut by_byte = [0u64; 256];
    surveyed.pages.iter().filter(|&&b| b != 0).for_each(|&b| by_byte[usize::from(b)] += 1);
    let page = nana_engine::PAGE as u64;
    for (b, &pages) in by_byte.iter().enumerate().filter(|(_, &n)| n > 0) {
        println!("byte {b}: {pages} pages ({} entries)", pages * page);
    }
    let settled: u64 = by_byte.iter().sum();
    println!(
        "settled: {settled} of {} pages, {} of {} entries",
        surveyed.pages.len(),
        settled * page,
        surveyed.bytes.len()
    );
    if let Some(kib) = resident {
        println!(
            "resident after the survey: {kib} KiB (the array alone: {} KiB)",
            surveyed.bytes.len() / 1024
        );
    }
}
