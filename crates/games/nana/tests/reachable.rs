//! The states reachable from the start: the fast enumeration ([`reach::reachable`], sweeps over
//! folded index entries) against checks that share none of its code.
//!
//! - A slow, plain breadth-first search over *positions* (a hash set of position keys, moves from
//!   `Position::for_each_legal_move`, no index and no folding) must find exactly the same set:
//!   to 10 plies here, to the end in the self-check (`nana_shogi::self_check`).
//! - The set is closed under the mirror (the rules and the start are left–right symmetric) and
//!   under the colour flip (all but the opening states, where Black moves first).
//! - Every reachable state but the start has a reachable predecessor (found by the solver's
//!   independent retro-move generator) and the successors of a reachable state are reachable.
//!
//! Heavy: it runs in the test profile, which the workspace builds with opt-level 3.

use nana_engine::Game;
use nana_shogi::index::{mirror_entry, MAIN, SIZE, START};
use nana_shogi::reach;
use nana_shogi::self_check::{reachable_against_plain_search, PINNED};
use nana_shogi::{NanaGame, Position, Rules};
use rayon::prelude::*;

/// Every position a plain breadth-first search finds within 10 plies is enumerated; the
/// self-check (`nana verify --self-check`) runs the search to the end and compares the two sets
/// and the pinned counts.
#[test]
fn enumeration_holds_what_a_plain_search_finds_in_10_plies() {
    for (rules, ..) in PINNED {
        let line = reachable_against_plain_search(&rules, Some(10)).unwrap_or_else(|e| panic!("{e}"));
        assert!(line.ends_with("are enumerated"), "{line}");
    }
}

/// The pinned counts, and closure under the mirror and under the colour flip, checked on the
/// enumeration's own output.
#[test]
fn reachable_set_is_mirror_and_colour_symmetric() {
    for (rules, black, white, entries) in PINNED {
        let r = reach::reachable(&rules, &|_| {});
        let c = r.counts();
        assert_eq!(
            (c.black_positions, c.white_positions, c.entries),
            (black, white, entries),
            "the pinned counts"
        );
        let broken = (0..SIZE)
            .into_par_iter()
            .filter(|&i| {
                let (b, w) = (r.black.contains(i), r.white.contains(i));
                if i >= MAIN {
                    // The opening: Black moves first, so only one side of each entry is reached.
                    return false;
                }
                let m = mirror_entry(i);
                b != w || b != r.black.contains(m) || w != r.white.contains(m)
            })
            .count();
        assert_eq!(broken, 0, "{}", rules.short_name());
        // The positions of the issue that found the bug: both Kings on file 2, mirror images.
        for (a, b) in [
            ("RK1/Tw1/Bk1 b - 1", "1KR/1wT/1kB b - 1"),
            ("SK1/RG1/Bk1 w - 1", "1KS/1GR/1kB w - 1"),
            ("Gk1/1S1/SK1 b r 1", "1kG/1S1/1KS b r 1"),
        ] {
            let (a, b) = (parse(a, &rules), parse(b, &rules));
            assert_eq!(a.mirror(), b);
            assert_eq!(r.contains(&a), r.contains(&b), "{}: {a} and {b}", rules.short_name());
        }
    }
}

fn parse(s: &str, rules: &Rules) -> Position {
    nana_shogi::fen::parse_position(s, rules.variant).unwrap()
}

/// The set is closed under the solver's successors, and every state but the start has a
/// reachable predecessor (from the retro-move generator, which the enumeration does not use).
/// Both relations are over entries: a predecessor's canonical position moves into the entry.
#[test]
fn reachable_states_are_closed_and_rooted() {
    for (rules, ..) in PINNED {
        let r = reach::reachable(&rules, &|_| {});
        let game = NanaGame::prepared(rules);
        let sides = [&r.black, &r.white];
        let broken = (0..SIZE)
            .into_par_iter()
            .filter(|&i| {
                let (mut succ, mut pred) = (Vec::new(), Vec::new());
                game.successors(i, &mut succ);
                game.predecessors(i, &mut pred);
                // With the Kings on file 2 an entry is one orientation; a folded predecessor
                // moves into it from its mirror image, which the solver's relation files under
                // the mirrored entry.
                let m = mirror_entry(i);
                if m != i {
                    game.predecessors(m, &mut pred);
                }
                (0..2).any(|s| {
                    if !sides[s].contains(i) {
                        return false;
                    }
                    let closed = succ.iter().all(|&q| sides[1 - s].contains(q));
                    let rooted = (i == START && s == 0) || pred.iter().any(|&p| sides[1 - s].contains(p));
                    !(closed && rooted)
                })
            })
            .count();
        assert_eq!(broken, 0, "{}", rules.short_name());
        assert!(r.contains(&Position::start()));
    }
}
