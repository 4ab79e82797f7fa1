//! Whole-game tests: the index and forward against backward moves over samples (the self-check,
//! `nana verify --self-check`, runs both over the whole space), and both rule sets solved and
//! checked (the reachable set: `reachable.rs`). Heavy: they run in the test profile,
//! which the workspace builds with opt-level 3.

use nana_engine::{ByteCode, EntryWidth, Graph, Solution, Value};
use nana_shogi::index::{is_self_mirror_pair, rank, unrank, MAIN, SIZE};
use nana_shogi::probe::Probe;
use nana_shogi::self_check;
use nana_shogi::{fen, NanaGame, Position, Rules, Variant};
use rayon::prelude::*;

mod common;
use common::XorShift;

/// Rank ∘ unrank over every 97th entry; the self-check (`nana verify --self-check`) runs the
/// same check over every entry.
#[test]
fn index_round_trips_over_a_sample_of_the_space() {
    let line = self_check::index_round_trip(97).unwrap_or_else(|e| panic!("{e}"));
    assert!(line.starts_with(&format!("{} entries", SIZE.div_ceil(97))), "{line}");
}

/// Random playouts: every position met maps into the space, onto an entry whose canonical
/// position is the position itself up to colour flip and mirror.
#[test]
fn every_legal_position_maps_inside_the_space() {
    let mut rng = XorShift(0x1234_5678_9abc_def0);
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        for _ in 0..2000 {
            let mut pos = Position::start();
            for _ in 0..rng.below(60) {
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(&rules, moves[rng.below(moves.len())]).unwrap();
                let i = rank(&pos);
                assert!(i < SIZE);
                let canon = unrank(i).unwrap();
                let black = if pos.side_to_move() == nana_shogi::Color::White { pos.flip() } else { pos };
                assert!(canon == black || canon == black.mirror(), "{pos} -> {canon}");
                // The string form reads back to the same position.
                assert_eq!(fen::parse_position(&pos.to_string(), rules.variant).unwrap(), pos);
            }
        }
    }
}

/// Retro-moves are checked against forward moves at every 389th entry, every edge in or out of
/// it, with the solver's prepared game (flags looked up by index) and, for the default rules,
/// with the plain one (everything generated from the rules): both published rule sets, and the
/// current rules with both options off (each option's other way); the self-check compares the
/// two relations' edges over the whole space in all eight combinations.
#[test]
fn predecessors_match_successors() {
    let options_off = Rules { drop_stalemate: false, hand_stalemate: false, ..Rules::CURRENT };
    for rules in [Rules::CURRENT, Rules::ORIGINAL, options_off] {
        let line = self_check::relations(rules, 389).unwrap_or_else(|e| panic!("{e}"));
        assert!(line.ends_with("edges agree"), "{line}");
    }
}

/// The solver's successors (move edits, R1 and R2 from the rules) are the prepared game's
/// (moves played, R1 and R2 from the per-entry flags), entry by entry, over a sample of every
/// rule combination.
#[test]
fn solver_successors_match_prepared_successors() {
    for rules in Rules::all() {
        let (solver, prepared) = (NanaGame::solver(rules), NanaGame::prepared(rules));
        let checked = (0..SIZE)
            .into_par_iter()
            .filter(|i| i % 53 == 0 || *i >= MAIN)
            .map_init(
                || (Vec::new(), Vec::new()),
                |(a, b), i| {
                    a.clear();
                    b.clear();
                    let node = solver.successors(i, a);
                    assert_eq!(node, prepared.successors(i, b), "{}: entry {i}", rules.short_name());
                    a.sort_unstable();
                    a.dedup();
                    b.sort_unstable();
                    b.dedup();
                    assert_eq!(a, b, "{}: entry {i}", rules.short_name());
                    a.len()
                },
            )
            .sum::<usize>();
        assert!(checked > 250_000, "{checked}");
    }
}

/// Both rule sets: solved (the test run's tables, `nana-fixture`, solved once per run with the
/// engine's solve over [`NanaGame::solver`]), symmetric, and the published results. The same
/// tables are checked entry by entry against moves generated from the rules alone (every win
/// has a move to a loss one ply shorter and none shorter, every loss's moves all lead to wins,
/// draws have a drawing move and no winning one) by `nana verify --check` in
/// `tests/cli/verify.rs`; the self-check, `nana verify --self-check`, solves both on one
/// thread and over retro-moves instead of reversed successors too, for the same bytes
/// (`self_check::solves_agree`).
#[test]
fn solve_both_rule_sets() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let game = NanaGame::solver(rules);
        let table = nana_fixture::table(rules);
        let s = Solution::whole(table.entries().to_vec(), EntryWidth::One);

        // Mirror symmetry where mirror images are stored apart (Kings on file 2).
        let asym = (0..MAIN)
            .into_par_iter()
            .filter(|&i| is_self_mirror_pair(i) && s.bytes()[i as usize] != ByteCode::ILLEGAL.0)
            .filter(|&i| s.bytes()[i as usize] != s.bytes()[rank(&unrank(i).unwrap().mirror()) as usize])
            .count();
        assert_eq!(asym, 0);

        // Colour symmetry: the position with White to move answers with the same value.
        let probe = Probe::of_solution(rules, &s).unwrap();
        let start = Position::start();
        assert_eq!(probe.value(&start).unwrap(), probe.value(&start.flip()).unwrap());

        let v = probe.value(&start).unwrap();
        match rules.variant {
            Variant::Current => assert_eq!(v, Value::Draw),
            Variant::Original => assert_eq!(v, Value::Win(nana_engine::Dtm(31))),
        }
        // The principal variation keeps the value and ends in a position without a legal move.
        let line = probe.mainline(&start, 10).unwrap();
        let mut pos = start;
        let mut value = v;
        for mv in &line {
            pos = pos.play(&rules, *mv).unwrap();
            let next = probe.value(&pos).unwrap();
            match (value, next) {
                (Value::Win(a), Value::Loss(b)) | (Value::Loss(a), Value::Win(b)) => assert_eq!(b.0 + 1, a.0),
                (Value::Draw, Value::Draw) => {}
                other => panic!("value not kept along the line: {other:?}"),
            }
            value = next;
        }
        if v != Value::Draw {
            assert!(pos.is_terminal(&rules));
            assert_eq!(line.len(), 31);
            // A checkmate is as fast as the stalemate `Bx2c=TG` on ply 31: ties prefer it.
            assert!(pos.in_check(rules.variant), "the line ends in stalemate at {pos}");
        }
        // A terminal position is a loss in 0 in the table.
        let mut terminal = None;
        for i in (0..MAIN).step_by(1009) {
            if let Some(p) = game.position(i) {
                if p.is_terminal(&rules) {
                    terminal = Some(i);
                    assert_eq!(
                        ByteCode(s.bytes()[i as usize]).value(),
                        Some(Value::Loss(nana_engine::Dtm(0)))
                    );
                }
            }
        }
        assert!(terminal.is_some());
    }
}

#[test]
fn the_file_order_agrees_with_a_plain_sort_over_three_king_pairs() {
    // The first pair, a pair on file 2 (its own mirror image) and the last; the self-check
    // walks every pair.
    for variant in nana_shogi::Variant::ALL {
        for pair in [0, 8, 16] {
            let line = self_check::file_order_against_sort(variant, pair..pair + 1)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(line.ends_with("entries in their places"), "{line}");
        }
    }
}
