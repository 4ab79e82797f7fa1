//! The states reachable from the start: the fast enumeration ([`reach::reachable`], sweeps over
//! folded index entries) against checks that share none of its code.
//!
//! - A slow, plain breadth-first search over *positions* (a hash set of position keys, moves from
//!   `Position::for_each_legal_move`, no index and no folding) must find exactly the same set:
//!   to 8 plies here, to the end in the self-check (`nana_shogi::self_check`).
//! - The set is closed under the mirror (the rules and the start are left–right symmetric) and
//!   under the colour flip (all but the opening states, where Black moves first).
//! - Every reachable state but the start has a reachable predecessor (found by the solver's
//!   independent retro-move generator) and the successors of a reachable state are reachable.
//!
//! Heavy: it runs in the test profile, which the workspace builds with opt-level 3.

use std::sync::OnceLock;

use nana_shogi::index::{mirror_entry, MAIN, SIZE};
use nana_shogi::reach;
use nana_shogi::reach::Reachable;
use nana_shogi::self_check::{reachable_against_plain_search, reachable_closed_and_rooted, PINNED};
use nana_shogi::{Position, Rules};
use rayon::prelude::*;

/// The enumeration of each pinned rule set, made once for the three tests of this file.
fn enumerated(rules: &Rules) -> &'static Reachable {
    static ENUMERATED: [OnceLock<Reachable>; 2] = [OnceLock::new(), OnceLock::new()];
    let at = PINNED.iter().position(|p| p.0 == *rules).expect("a pinned rule set");
    ENUMERATED[at].get_or_init(|| reach::reachable(rules, &|_| {}))
}

/// Every position a plain breadth-first search finds within 7 plies is enumerated; the
/// self-check (`nana verify --self-check`) runs the search to the end and compares the two sets
/// and the pinned counts.
#[test]
fn enumeration_holds_what_a_plain_search_finds_in_7_plies() {
    for (rules, ..) in PINNED {
        let line = reachable_against_plain_search(&rules, enumerated(&rules), Some(7))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(line.ends_with("are enumerated"), "{line}");
    }
}

/// The pinned counts, and closure under the mirror and under the colour flip, checked on the
/// enumeration's own output.
#[test]
fn reachable_set_is_mirror_and_colour_symmetric() {
    for (rules, black, white, entries) in PINNED {
        let r = enumerated(&rules);
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
/// reachable predecessor, at every 97th entry; the self-check runs it over every entry.
#[test]
fn reachable_states_are_closed_and_rooted() {
    for (rules, ..) in PINNED {
        let line =
            reachable_closed_and_rooted(&rules, enumerated(&rules), 97).unwrap_or_else(|e| panic!("{e}"));
        assert!(line.ends_with("closed and rooted"), "{line}");
    }
}
