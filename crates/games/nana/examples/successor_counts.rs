//! How much work the solver's forward pass has, per rule set (see docs/PERFORMANCE.md): legal
//! and inner entries, the moves [`NanaGame::solver`] reports, how many of them are distinct
//! entries, and the legal entries where Black holds cubes (where R1 and R2 are asked).
use nana_engine::{Graph, Node};
use nana_shogi::{Color, Cube, NanaGame, Rules};
use rayon::prelude::*;

fn main() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let game = NanaGame::solver(rules);
        let [legal, inner, moves, distinct, hand] = (0..game.size())
            .into_par_iter()
            .map_init(Vec::new, |out, i| {
                out.clear();
                let node = game.successors(i, out);
                let moves = out.len() as u64;
                out.sort_unstable();
                out.dedup();
                let hand =
                    game.position(i).is_some_and(|p| Cube::ALL.iter().any(|&c| p.hand(Color::Black, c) > 0));
                let counted = [node != Node::Illegal, node == Node::Inner, hand].map(u64::from);
                [counted[0], counted[1], moves, out.len() as u64, counted[2]]
            })
            .reduce(|| [0; 5], |a, b| std::array::from_fn(|k| a[k] + b[k]));
        println!(
            "{:?}: {legal} legal, {inner} inner, {moves} moves, {distinct} distinct, {hand} with cubes in hand",
            rules.variant
        );
    }
}
