//! Counts the reachable positions of a rule set:
//! `cargo run --release -p dobutsu-shogi --example reach -- [tanaka|safe-try]`.
use std::time::Instant;

use dobutsu_shogi::{reach, Rules};

fn main() {
    let rules = Rules::from_name(std::env::args().nth(1).as_deref().unwrap_or("tanaka")).unwrap();
    let t = Instant::now();
    let r = reach::reachable(&rules, &|n| eprintln!("  sweep: {n} new"));
    eprintln!("closure {:.1} s", t.elapsed().as_secs_f64());
    println!("{:#?}", reach::count(&rules, &r, None));
}
