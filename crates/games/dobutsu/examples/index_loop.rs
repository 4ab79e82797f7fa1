//! Ranks or unranks ten million entries of a fixed sample, for timing the index alone:
//! `/usr/bin/time -f %U target/release/examples/index_loop rank` (or `unrank`), less the time
//! of `index_loop none` (the sample alone), divided by ten million. `wide-rank` and
//! `wide-unrank` time the census index ([`dobutsu_shogi::wide`]) on the same positions and as
//! many entries.

use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::wide;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let entry = |k: u64| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) % SIZE;
    let positions: Vec<_> = (0..1_000_000u64).filter_map(|k| unrank(entry(k))).collect();
    let mut sum = 0u64;
    for _ in 0..10 {
        match which.as_str() {
            "rank" => positions.iter().for_each(|p| sum = sum.wrapping_add(rank(std::hint::black_box(p)))),
            "unrank" => (0..1_000_000u64).for_each(|k| {
                sum = sum.wrapping_add(
                    unrank(std::hint::black_box(entry(k))).map_or(0, |p| p.side_to_move() as u64),
                )
            }),
            "wide-rank" => {
                positions.iter().for_each(|p| sum = sum.wrapping_add(wide::rank(std::hint::black_box(p))))
            }
            "wide-unrank" => (0..1_000_000u64).for_each(|k| {
                let i = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) % wide::SIZE;
                sum = sum.wrapping_add(
                    wide::unrank(std::hint::black_box(i)).map_or(0, |p| p.side_to_move() as u64),
                )
            }),
            "none" => {}
            _ => {
                eprintln!("usage: index_loop rank|unrank|wide-rank|wide-unrank|none");
                std::process::exit(2);
            }
        }
    }
    println!("{sum} ({} positions)", positions.len());
}
