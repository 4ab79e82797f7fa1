//! Ranks or unranks ten million entries of a fixed sample, for timing the index alone:
//! `/usr/bin/time -f %U target/release/examples/index_loop rank` (or `unrank`), less the time
//! of `index_loop none` (the sample alone), divided by ten million. `wide-rank` and
//! `wide-unrank` time the census index ([`dobutsu_shogi::wide`]) on the same positions and as
//! many entries. `retro` lists the retro-moves' predecessors (`predecessors_of_each`, as the
//! retrograde asks for them) of a million entries in index order, ten times, each chunk of
//! 4096 entries on its own.

use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::{wide, DobutsuGame, Rules};
use nana_engine::Graph;

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
            "retro" => {
                let game = DobutsuGame::new(Rules::from_name("tanaka").expect("a rule set"));
                let entries: Vec<u32> = (0..1_000_000u32).map(|k| (SIZE / 3) as u32 + 7 * k).collect();
                for chunk in entries.chunks(4096) {
                    game.predecessors_of_each(std::hint::black_box(chunk), &mut |out| {
                        sum = sum.wrapping_add(out.iter().sum::<u64>())
                    });
                }
            }
            "none" => {}
            _ => {
                eprintln!("usage: index_loop rank|unrank|wide-rank|wide-unrank|retro|none");
                std::process::exit(2);
            }
        }
    }
    println!("{sum} ({} positions)", positions.len());
}
