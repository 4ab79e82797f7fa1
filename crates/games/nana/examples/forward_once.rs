//! The solver's move generation alone: every entry's successors as the forward pass asks for
//! them ([`NanaGame::solver`], `successors_of_each`), one rule set on one thread, without the
//! engine. For instruction counts of the moves (docs/PERFORMANCE.md):
//! `valgrind --tool=callgrind target/release/examples/forward_once current`.
use nana_engine::Graph;
use nana_shogi::{NanaGame, Rules};

fn main() {
    let rules = match std::env::args().nth(1).as_deref() {
        Some("original") => Rules::ORIGINAL,
        _ => Rules::CURRENT,
    };
    let game = NanaGame::solver(rules);
    let (mut moves, mut sum) = (0u64, 0u64);
    game.successors_of_each(0..game.size(), &mut |_, _, out| {
        moves += out.len() as u64;
        sum = out.iter().fold(sum, |s, &q| s.wrapping_mul(31).wrapping_add(q));
    });
    println!("{:?}: {moves} moves, checksum {sum:016x}", rules.variant);
}
