//! One solve of one rule set, for instruction counts (`valgrind --tool=callgrind`, see
//! docs/PERFORMANCE.md): `solve_once [current|original] [solver|prepared]`.
use nana_engine::{solve, NoProgress};
use nana_shogi::{NanaGame, Rules};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules =
        if args.get(1).map(String::as_str) == Some("current") { Rules::CURRENT } else { Rules::ORIGINAL };
    let game = match args.get(2).map(String::as_str) {
        Some("prepared") => NanaGame::prepared(rules),
        _ => NanaGame::solver(rules),
    };
    println!("{:?}", solve(&game, &NoProgress).unwrap().stats.max_dtm);
}
