//! Moves against retro-moves: on random entries, every successor lists the entry among its
//! predecessors and every predecessor lists it among its successors (the whole space takes
//! too long for the test suite; the engine's `check` after a solve covers every entry's
//! successors).

use dobutsu_shogi::index::SIZE;
use dobutsu_shogi::{DobutsuGame, Rules};
use nana_engine::{Graph, Node};
use rayon::prelude::*;

mod common;
use common::XorShift;

fn set(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn successors_and_predecessors_agree() {
    for rules in Rules::all() {
        let game = DobutsuGame::new(rules);
        let mut rng = XorShift(0x5eed_0000 + rules.name().len() as u64);
        let sample: Vec<u64> = (0..60_000).map(|_| rng.next() % SIZE).collect();
        let (checked_succ, checked_pred): (u64, u64) = sample
            .par_iter()
            .map(|&i| {
                let (mut s, mut p) = (0, 0);
                let mut succ = Vec::new();
                if game.successors(i, &mut succ) == Node::Inner {
                    assert!(!succ.is_empty());
                    for q in set(succ) {
                        let mut preds = Vec::new();
                        game.predecessors(q, &mut preds);
                        assert!(preds.contains(&i), "{}: {i} -> {q} has no retro-move back", rules.name());
                        s += 1;
                    }
                }
                let mut preds = Vec::new();
                game.predecessors(i, &mut preds);
                for q in set(preds) {
                    let mut succ = Vec::new();
                    assert_eq!(game.successors(q, &mut succ), Node::Inner);
                    assert!(succ.contains(&i), "{}: retro-move {i} <- {q} is no move", rules.name());
                    p += 1;
                }
                (s, p)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        assert!(checked_succ > 50_000 && checked_pred > 50_000, "{checked_succ} {checked_pred}");
    }
}

/// The predecessors of a run of entries, as the backward passes ask for them (a chunk of a
/// frontier in increasing order, with now small, now large gaps, then a step back), are each
/// entry's own, in the same order.
#[test]
fn predecessors_of_each_are_each_entrys() {
    let game = DobutsuGame::new(Rules::from_name("tanaka").unwrap());
    let mut rng = XorShift(0x0eac_4000);
    let (mut entries, mut at) = (Vec::new(), 0u64);
    while entries.len() < 200_000 {
        at = match rng.next() % 1000 {
            0 => rng.next() % SIZE,
            n => (at + 1 + rng.next() % (n * n / 1000 + 1)) % SIZE,
        };
        entries.push(at as u32);
    }
    let mut lists = Vec::new();
    game.predecessors_of_each(&entries, &mut |preds| lists.push(preds.clone()));
    assert_eq!(lists.len(), entries.len());
    let mut listed = 0;
    for (&i, list) in entries.iter().zip(&lists) {
        let mut preds = Vec::new();
        game.predecessors(u64::from(i), &mut preds);
        assert_eq!(list, &preds, "entry {i}");
        listed += preds.len();
    }
    assert!(listed > 200_000, "{listed} predecessors");
}
