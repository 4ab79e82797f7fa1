//! Perft from a position: `cargo run --release -p dobutsu-shogi --example perft -- [rules] [depth] [fen]`.
use dobutsu_shogi::{fen, perft, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = Rules::from_name(args.get(1).map_or("safe-try", String::as_str)).unwrap();
    let depth: u32 = args.get(2).map_or(6, |d| d.parse().unwrap());
    let pos = args.get(3).map_or(Position::start(), |f| fen::parse_position(f).unwrap());
    for d in 1..=depth {
        println!("{d} {}", perft(&pos, &rules, d));
    }
}
