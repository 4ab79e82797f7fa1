//! The index: rank∘unrank over the whole space, symmetry, and random games mapping inside it.

use dobutsu_shogi::index::{is_self_mirror_pair, rank, unrank, REST, SIZE};
use dobutsu_shogi::{Position, Rules, Side};
use rayon::prelude::*;

mod common;
use common::XorShift;

/// Used entries round-trip (also turned to the other side to move, and mirrored, which lands on
/// the same entry), unused ones are the mirror images of used ones. The whole space takes ten
/// minutes on two shared cores, so the test runs every entry of three lion pairs (one of them
/// with both lions on file b, where mirror images are folded by the smaller index) and every
/// 97th entry of the rest; `DOBUTSU_FULL_INDEX=1` runs the whole space.
#[test]
fn rank_unrank_over_the_space() {
    const CHUNK: u64 = 1 << 16;
    let full = std::env::var_os("DOBUTSU_FULL_INDEX").is_some();
    let exhaustive = |i: u64| full || [0, 13, 71].contains(&(i / REST)) || i.is_multiple_of(97);
    let bad = (0..SIZE.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| c * CHUNK..(c * CHUNK + CHUNK).min(SIZE))
        .filter(|&i| exhaustive(i))
        .filter(|&i| match unrank(i) {
            Some(p) => {
                !(rank(&p) == i
                    && rank(&p.rotate()) == i
                    && rank(&p.mirror()) == i
                    && p.side_to_move() == Side::First
                    && p.lion(Side::First).is_some()
                    && p.lion(Side::Second).is_some())
            }
            None => !is_self_mirror_pair(i),
        })
        .count();
    assert_eq!(bad, 0);
    assert!(is_self_mirror_pair(13 * REST) && !is_self_mirror_pair(0) && !is_self_mirror_pair(71 * REST));
    assert!(unrank(SIZE).is_none());
    assert_eq!(SIZE, 72 * REST);
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
