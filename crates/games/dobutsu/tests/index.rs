//! The index: rank∘unrank over the whole space, symmetry, and random games mapping inside it.

use dobutsu_shogi::index::{is_self_mirror_pair, lions_adjacent, rank, unrank, REST, SIZE};
use dobutsu_shogi::{Position, Rules, Side};
use rayon::prelude::*;

mod common;
use common::XorShift;

/// Every entry of the space: a used one round-trips through rank and has both lions and the
/// first player to move; an unused one has both lions on file b, where the larger of two
/// mirror images is left unused. Turned to the other side to move, and mirrored, a position lands on the same
/// entry: checked for every entry of three lion pairs (one of them with both lions on file b,
/// where mirror images are folded by the smaller index) and every 97th entry of the rest, or of
/// every entry with `DOBUTSU_FULL_INDEX=1` (ten minutes on two shared cores, where the round
/// trip alone takes about one).
#[test]
fn rank_unrank_over_the_space() {
    const CHUNK: u64 = 1 << 16;
    let full = std::env::var_os("DOBUTSU_FULL_INDEX").is_some();
    let symmetries = |i: u64| full || [0, 13, 71].contains(&(i / REST)) || i.is_multiple_of(97);
    let bad = (0..SIZE.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| c * CHUNK..(c * CHUNK + CHUNK).min(SIZE))
        .filter(|&i| match unrank(i) {
            Some(p) => {
                !(rank(&p) == i
                    && p.side_to_move() == Side::First
                    && p.lion(Side::First).is_some()
                    && p.lion(Side::Second).is_some()
                    && (!symmetries(i) || (rank(&p.rotate()) == i && rank(&p.mirror()) == i)))
            }
            None => !is_self_mirror_pair(i),
        })
        .count();
    assert_eq!(bad, 0);
    assert!(is_self_mirror_pair(13 * REST) && !is_self_mirror_pair(0) && !is_self_mirror_pair(71 * REST));
    assert!(unrank(SIZE).is_none());
    assert_eq!(SIZE, 72 * REST);
}

/// The lion pairs whose lions stand a step apart (which the survey skips whole): in every 101st
/// entry of each, and the first 5,000, the side to move can take the lion; in the other pairs,
/// some position has it safe.
#[test]
fn adjacent_lions_can_always_be_taken() {
    let adjacent = (0..72).filter(|&p| lions_adjacent(p * REST)).count();
    assert_eq!(adjacent, 32);
    for pair in 0..72 {
        let entries = (pair * REST..(pair + 1) * REST).filter(|i| i % 101 == 0 || i % REST < 5000);
        let positions: Vec<_> = entries.filter_map(unrank).collect();
        assert!(!positions.is_empty());
        let taken = positions.iter().filter(|p| p.can_capture_lion()).count();
        if lions_adjacent(pair * REST) {
            assert_eq!(taken, positions.len(), "pair {pair}");
        } else {
            assert!(taken < positions.len(), "pair {pair}");
        }
    }
}

/// Random games under both rules: every position met with both lions maps onto an entry whose
/// position is the position itself up to turning and mirroring.
#[test]
fn every_position_maps_inside_the_space() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for rules in Rules::all() {
        for _ in 0..3000 {
            let mut pos = Position::start();
            for _ in 0..rng.below(80) {
                if pos.solver_end(&rules).is_some() {
                    break;
                }
                let moves = pos.legal_moves(&rules);
                pos = pos.play(&rules, moves[rng.below(moves.len())]).unwrap();
                let i = rank(&pos);
                assert!(i < SIZE);
                let canon = unrank(i).expect("a used entry");
                let first = if pos.side_to_move() == Side::Second { pos.rotate() } else { pos };
                assert!(canon == first || canon == first.mirror(), "{pos} -> {canon}");
            }
        }
    }
}
