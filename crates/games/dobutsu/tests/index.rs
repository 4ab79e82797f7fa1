//! The tables' index: rank∘unrank over a sample of the space (the self-check runs it whole), symmetry, its positions exactly the
//! solved set (checked against the census index, which shares no table with it), and random
//! games mapping inside it.

use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::self_check::index_round_trip;
use dobutsu_shogi::{wide, Position, Rules, Side};
use rayon::prelude::*;

mod common;
use common::XorShift;

/// Rank ∘ unrank over every 97th entry, as the self-check (`nana verify --self-check`) runs it
/// over every entry: a used entry round-trips, has both lions, the first player to move and
/// the lion out of the mover's reach, and lands on the same entry turned and mirrored; an
/// unused one has both lions on file b.
#[test]
fn rank_unrank_over_a_sample_of_the_space() {
    let line = index_round_trip(97).unwrap_or_else(|e| panic!("{e}"));
    assert!(line.starts_with(&format!("{} entries", SIZE.div_ceil(97))), "{line}");
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
