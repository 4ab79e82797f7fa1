//! The tables' index: rank∘unrank over the whole space, symmetry, its positions exactly the
//! solved set (checked against the census index, which shares no table with it), and random
//! games mapping inside it.

use dobutsu_shogi::index::{is_self_mirror_pair, rank, unrank, SIZE};
use dobutsu_shogi::{wide, Position, Rules, Side};
use rayon::prelude::*;

mod common;
use common::XorShift;

/// The positions the tables value: every legal position where the side to move cannot take the
/// lion, up to the side to move and the mirror image (the solved set's size, as `nana --game
/// dobutsu stats` reports a table's wins, losses and draws).
const SOLVED_SET: u64 = 243_345_746;

/// Every entry of the space: a used one round-trips through rank, has both lions, the first
/// player to move and the lion out of the mover's reach, and lands on the same entry turned
/// to the other side to move and mirrored; an unused one has both lions on file b, where the
/// larger of two mirror images is left unused. The used entries are the solved set, one each.
#[test]
fn rank_unrank_over_the_space() {
    const CHUNK: u64 = 1 << 16;
    let (used, bad) = (0..SIZE.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (mut used, mut bad) = (0u64, 0u64);
            for i in c * CHUNK..(c * CHUNK + CHUNK).min(SIZE) {
                let ok = match unrank(i) {
                    Some(p) => {
                        used += 1;
                        rank(&p) == i
                            && p.side_to_move() == Side::First
                            && p.lion(Side::First).is_some()
                            && p.lion(Side::Second).is_some()
                            && !p.can_capture_lion()
                            && rank(&p.rotate()) == i
                            && rank(&p.mirror()) == i
                    }
                    None => is_self_mirror_pair(i),
                };
                bad += u64::from(!ok);
            }
            (used, bad)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert_eq!(bad, 0);
    assert_eq!(used, SOLVED_SET);
    assert!(unrank(SIZE).is_none());
}

/// The census index's positions, every 211th entry: one where the side to move cannot take the
/// lion ranks to an entry whose position is it up to turning and mirroring; and as many of them
/// as a thirteenth of the solved set's share would give, within a percent (the two indices
/// are built differently: the census one by piece classes, this one by counting squares).
#[test]
fn census_positions_out_of_reach_of_the_lion_are_entries() {
    let (checked, safe) = (0..wide::SIZE / 211)
        .into_par_iter()
        .filter_map(|k| wide::unrank(k * 211))
        .map(|pos| {
            if pos.can_capture_lion() {
                return (1, 0);
            }
            let canon = unrank(rank(&pos)).expect("a used entry");
            assert!(canon == pos || canon == pos.mirror(), "{pos} -> {canon}");
            (1, 1)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let share = safe as f64 / checked as f64;
    assert!(checked > 3_000_000 && share > 0.25 && share < 0.35, "{safe} of {checked}");
}

/// Random games under both rules: every position met where the side to move cannot take the
/// lion maps onto an entry whose position is the position itself up to turning and mirroring.
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
                if pos.can_capture_lion() || pos.lion(pos.side_to_move()).is_none() {
                    continue;
                }
                let i = rank(&pos);
                assert!(i < SIZE);
                let canon = unrank(i).expect("a used entry");
                let first = if pos.side_to_move() == Side::Second { pos.rotate() } else { pos };
                assert!(canon == first || canon == first.mirror(), "{pos} -> {canon}");
            }
        }
    }
}
