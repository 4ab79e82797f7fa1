//! Small games that use what Nana shogi does not: terminal wins, terminal values at distances
//! other than 0, terminal draws, entries with hundreds of successors, distances to mate beyond
//! one byte, and the explicit limits.

use nana_engine::{
    check, check_relations, check_with, solve, solve_with, Dtm, EntryWidth, Graph, NoProgress, Node, Problem,
    Solution, SolveError, Stats, Value, MAX_SIZE,
};

use Value::{Draw, Loss, Win};

/// Race to the goal: a token on squares 0 ..= 9, the goal at 10. The side to move pushes it one
/// or two squares forward. From 8 or 9 the side to move reaches the goal and wins at once (a
/// terminal win in 1); the side to move on the pit, square 5, has lost (a terminal loss in 0).
/// Index = square; entry 10 is unused (the token never rests on the goal).
struct Race;

impl Race {
    const PIT: u64 = 5;
}

impl Graph for Race {
    fn size(&self) -> u64 {
        11
    }
    fn successors(&self, square: u64, out: &mut Vec<u64>) -> Node {
        match square {
            10 => Node::Illegal,
            8 | 9 => Node::Terminal(Win(Dtm(1))),
            Race::PIT => Node::Terminal(Loss(Dtm(0))),
            s => {
                out.extend([s + 1, s + 2]);
                Node::Inner
            }
        }
    }
    fn predecessors(&self, square: u64, out: &mut Vec<u64>) {
        // Squares one and two behind, where the token was pushed from (never from the pit or
        // from a square next to the goal: the game is over there).
        out.extend((1..=2).filter(|&k| k <= square).map(|k| square - k).filter(|&p| p != Race::PIT && p < 8));
    }
}

/// A game given as a list of nodes with their successors; predecessors by inverting the list.
struct Listing(Vec<(Node, Vec<u64>)>);

impl Listing {
    fn successors_of(nodes: &[(Node, Vec<u64>)], index: u64, out: &mut Vec<u64>) -> Node {
        let (node, succ) = &nodes[index as usize];
        if *node == Node::Inner {
            out.extend(succ);
        }
        *node
    }
}

impl Graph for Listing {
    fn size(&self) -> u64 {
        self.0.len() as u64
    }
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
        Listing::successors_of(&self.0, index, out)
    }
    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        for (p, (node, succ)) in self.0.iter().enumerate() {
            if *node == Node::Inner && succ.contains(&index) {
                out.push(p as u64);
            }
        }
    }
}

fn inner(succ: impl IntoIterator<Item = u64>) -> (Node, Vec<u64>) {
    (Node::Inner, succ.into_iter().collect())
}

fn terminal(v: Value) -> (Node, Vec<u64>) {
    (Node::Terminal(v), Vec::new())
}

/// A game solved over its reversed successors instead of its predecessors.
struct Reversing<'a, G>(&'a G);

impl<G: Graph> Graph for Reversing<'_, G> {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
        self.0.successors(index, out)
    }
    fn predecessors(&self, _: u64, _: &mut Vec<u64>) {
        unreachable!("the solver turns the successors around")
    }
    fn reverse_successors(&self) -> bool {
        true
    }
}

/// Solves with `width` (over the predecessors, and over the reversed successors: the same
/// bytes), checks the solution and the relations, and returns every value.
fn solved<G: Graph>(game: &G, width: EntryWidth) -> (Solution, Vec<Option<Value>>) {
    let s = solve_with(game, width, &NoProgress).unwrap();
    assert_eq!(solve_with(&Reversing(game), width, &NoProgress).unwrap().bytes(), s.bytes());
    assert_eq!(s.bytes().len() as u64, game.size() * width.bytes() as u64);
    check_with(game, &s.bytes(), width, &|_| {}).unwrap();
    check_relations(game).unwrap();
    let values = (0..game.size()).map(|i| s.value(i)).collect();
    (s, values)
}

#[test]
fn race_with_terminal_wins() {
    let (s, v) = solved(&Race, EntryWidth::One);
    let expected = [
        Some(Win(Dtm(3))),  // 0: to 2, a loss in 2
        Some(Win(Dtm(3))),  // 1: to 2
        Some(Loss(Dtm(2))), // 2: 3 and 4 both win in 1 (each pushes the other onto the pit)
        Some(Win(Dtm(1))),  // 3: onto the pit
        Some(Win(Dtm(1))),  // 4: onto the pit
        Some(Loss(Dtm(0))), // 5: the pit
        Some(Win(Dtm(3))),  // 6: to 7, not to 8
        Some(Loss(Dtm(2))), // 7: both moves leave the goal to the opponent
        Some(Win(Dtm(1))),  // 8: reaches the goal
        Some(Win(Dtm(1))),  // 9: reaches the goal
        None,               // 10: the goal
    ];
    assert_eq!(v, expected);
    assert_eq!(
        s.stats,
        Stats { wins: 7, losses: 3, draws: 0, illegal: 1, max_dtm: 3, per_dtm: vec![1, 4, 2, 3] }
    );
    check(&Race, &s.bytes(), &|_| {}).unwrap();

    // The same values in two bytes.
    let (wide, wide_values) = solved(&Race, EntryWidth::Two);
    assert_eq!(wide_values, expected);
    assert_eq!(wide.stats, s.stats);
    assert_eq!(Stats::of(&wide.bytes(), EntryWidth::Two), s.stats);
}

#[test]
fn check_holds_terminal_entries_to_the_game() {
    // 0 wins at once; 1 can only move there.
    let g = Listing(vec![terminal(Win(Dtm(1))), inner([0])]);
    let s = solve(&g, &NoProgress).unwrap();
    assert_eq!([s.value(0), s.value(1)], [Some(Win(Dtm(1))), Some(Loss(Dtm(2)))]);
    // Claim 0 only wins in 3, and 1 loses in 4 accordingly: every inner entry agrees with its
    // successors, only the game can tell.
    let entries = [nana_engine::ByteCode::decided(3).0, nana_engine::ByteCode::decided(4).0];
    let err = check(&g, &entries, &|_| {}).unwrap_err();
    assert_eq!(
        (err.index, err.stored, err.problem.clone()),
        (0, Some(Win(Dtm(3))), Problem::Terminal(Win(Dtm(1))))
    );
    assert_eq!(err.to_string(), "entry 0 holds win in 3 but the game ends there with a win in 1");
}

/// Terminal values at distances 2, 3 and 4 enter the backward pass at their distance, together
/// with what the pass derives there; a terminal draw stays a draw.
#[test]
fn terminal_values_at_their_distances() {
    let g = Listing(vec![
        terminal(Loss(Dtm(2))), // 0
        inner([0]),             // 1: wins in 3
        terminal(Win(Dtm(3))),  // 2
        inner([1, 2]),          // 3: a derived and a terminal win in 3: loses in 4
        inner([3]),             // 4: wins in 5
        terminal(Loss(Dtm(4))), // 5
        inner([5, 3]),          // 6: a terminal and a derived loss in 4: wins in 5
        inner([4, 9, 2]),       // 7: a move to a terminal draw
        inner([2]),             // 8: loses in 4
        terminal(Draw),         // 9
        inner([8, 0]),          // 10: the shorter loss: wins in 3
    ]);
    let (s, v) = solved(&g, EntryWidth::One);
    assert_eq!(
        v,
        [
            Some(Loss(Dtm(2))),
            Some(Win(Dtm(3))),
            Some(Win(Dtm(3))),
            Some(Loss(Dtm(4))),
            Some(Win(Dtm(5))),
            Some(Loss(Dtm(4))),
            Some(Win(Dtm(5))),
            Some(Draw),
            Some(Loss(Dtm(4))),
            Some(Draw),
            Some(Win(Dtm(3))),
        ]
    );
    assert_eq!(s.stats.per_dtm, vec![0, 0, 1, 3, 3, 2]);
}

/// A game may report a successor more than once: over its predecessors the solver counts the
/// distinct ones, over its reversed successors it keeps every edge and counts each. Either way
/// entry 1, whose repeated move loses, still has its drawing move; entry 4, whose moves all
/// lose, loses.
#[test]
fn repeated_successors() {
    let g = Listing(vec![
        terminal(Win(Dtm(1))), // 0
        inner([0, 0, 2]),      // 1: a draw
        inner([3]),            // 2
        inner([2]),            // 3
        inner([0, 0]),         // 4: loses in 2
        inner([4, 0, 4]),      // 5: wins in 3
    ]);
    let (_, v) = solved(&g, EntryWidth::One);
    assert_eq!(
        v,
        [Some(Win(Dtm(1))), Some(Draw), Some(Draw), Some(Draw), Some(Loss(Dtm(2))), Some(Win(Dtm(3)))]
    );
}

/// 300 successors: more than a one-byte counter holds. ByteCode 0's moves all lose, half in 1 and
/// half in 3 (a counter that stopped at 255 would call it a loss in 2); entry 301 has a drawing
/// move besides (a counter that stopped at 255 would call it lost).
#[test]
fn three_hundred_successors() {
    let mut nodes = vec![inner(1..=300)];
    nodes.extend((1..=300).map(|i| terminal(Win(Dtm(if i <= 150 { 1 } else { 3 })))));
    nodes.push(inner((1..=300).chain([302]))); // 301
    nodes.push(inner([303])); // 302 and 303: a cycle, drawn
    nodes.push(inner([302]));
    let g = Listing(nodes);
    let (_, v) = solved(&g, EntryWidth::One);
    assert_eq!(v[0], Some(Loss(Dtm(4))));
    assert_eq!(v[301], Some(Draw));
    assert_eq!(v[302], Some(Draw));
}

/// 250 successors leave the packed cells' counters the codes above 4 (254 less 250): a
/// terminal loss in 10 (code 11) is among them, and its pass needs a code they hold. The game
/// is solved with a value and a counter apart (the forward pass's longest distance says so
/// before any pass; packed, the passes would stop at that distance and solve again).
#[test]
fn a_terminal_distance_among_the_counters_codes() {
    let mut nodes = vec![inner(1..=250)];
    nodes.extend((1..=250).map(|_| terminal(Win(Dtm(1)))));
    nodes.push(terminal(Loss(Dtm(10)))); // 251
    nodes.push(inner([251])); // 252: wins in 11
    nodes.push(inner([252])); // 253: loses in 12
    let (_, v) = solved(&Listing(nodes), EntryWidth::One);
    assert_eq!(v[0], Some(Loss(Dtm(2))));
    assert_eq!(v[251..], [Some(Loss(Dtm(10))), Some(Win(Dtm(11))), Some(Loss(Dtm(12)))]);
}

/// A line of `len` entries, each with one move to the previous; entry 0 has no move. Entry `i`
/// is decided at distance `i`.
fn line(len: u64) -> Listing {
    Listing(
        (0..len)
            .map(|i| if i == 0 { (Node::moves_or_loss(false), vec![]) } else { inner([i - 1]) })
            .collect(),
    )
}

#[test]
fn distances_beyond_one_byte_need_two() {
    // 253 plies still fit one byte.
    let (s, v) = solved(&line(254), EntryWidth::One);
    assert_eq!(s.stats.max_dtm, 253);
    assert_eq!(v[253], Some(Win(Dtm(253))));

    let long = line(300);
    assert_eq!(
        solve_with(&long, EntryWidth::One, &NoProgress).unwrap_err(),
        SolveError::DtmOverflow { dtm: 254, width: EntryWidth::One }
    );
    let (s, v) = solved(&long, EntryWidth::Two);
    assert_eq!(s.stats.max_dtm, 299);
    assert_eq!(s.stats.wins, 150);
    for (i, v) in v.iter().enumerate() {
        let d = Dtm(i as u16);
        assert_eq!(*v, Some(if i % 2 == 0 { Loss(d) } else { Win(d) }));
    }
    // Little-endian: entry 299, a win in 299, is stored as 300 = 0x012c.
    assert_eq!(&s.bytes()[598..600], &[0x2c, 0x01]);

    // A terminal value that does not fit is refused before any pass.
    let far = Listing(vec![terminal(Loss(Dtm(300))), inner([0])]);
    assert_eq!(
        solve(&far, &NoProgress).unwrap_err(),
        SolveError::DtmOverflow { dtm: 300, width: EntryWidth::One }
    );
    assert_eq!(solved(&far, EntryWidth::Two).1, [Some(Loss(Dtm(300))), Some(Win(Dtm(301)))]);
}

#[test]
fn broken_games_are_refused() {
    // An index space beyond the 32-bit frontiers: refused before anything is allocated.
    struct Huge;
    impl Graph for Huge {
        fn size(&self) -> u64 {
            MAX_SIZE + 1
        }
        fn successors(&self, _: u64, _: &mut Vec<u64>) -> Node {
            unreachable!("a refused game is never asked")
        }
        fn predecessors(&self, _: u64, _: &mut Vec<u64>) {
            unreachable!("a refused game is never asked")
        }
    }
    assert_eq!(solve(&Huge, &NoProgress).unwrap_err(), SolveError::TooLarge { size: MAX_SIZE + 1 });

    // A win at an even distance cannot be stored: the parity says who wins.
    let even = Listing(vec![terminal(Win(Dtm(2)))]);
    assert_eq!(
        solve(&even, &NoProgress).unwrap_err(),
        SolveError::BadTerminal { index: 0, value: Win(Dtm(2)) }
    );

    // An inner entry without a successor breaks the contract: the solver and the checker say so.
    let stuck = Listing(vec![inner([1]), inner([])]);
    assert_eq!(solve(&stuck, &NoProgress).unwrap_err(), SolveError::NoSuccessors { index: 1 });
    let err = check(&stuck, &[2, 1], &|_| {}).unwrap_err();
    assert_eq!((err.index, err.problem), (1, Problem::NoSuccessors));
}

/// A game of 300,000 entries (several chunks of the forward pass and buckets of the reversal)
/// with pseudo-random moves, repeated successors, terminal entries and unused ones: the
/// reversed successors give the same bytes as the predecessors, with one thread and with four.
#[test]
fn reversed_successors_match_predecessors() {
    const N: u64 = 300_000;
    let hash =
        |x: u64| x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let mut nodes = Vec::with_capacity(N as usize);
    for i in 0..N {
        let h = hash(i);
        nodes.push(match h % 17 {
            0 => (Node::Illegal, vec![]),
            1 => terminal(Loss(Dtm(0))),
            2 => terminal(Win(Dtm(1))),
            _ => inner((0..1 + h % 7).map(|k| {
                // Mostly near entries (long chains), sometimes anywhere, sometimes twice.
                let far = hash(i ^ k << 40) % N;
                let mut q = if k % 3 == 0 { far } else { (i + 1 + (hash(i + k) % 50)) % N };
                while hash(q) % 17 == 0 {
                    q = (q + 1) % N; // not into an unused entry
                }
                q
            })),
        });
    }
    struct Listed(Vec<(Node, Vec<u64>)>, Vec<Vec<u64>>);
    impl Graph for Listed {
        fn size(&self) -> u64 {
            self.0.len() as u64
        }
        fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
            Listing::successors_of(&self.0, index, out)
        }
        fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
            out.extend(&self.1[index as usize]);
        }
    }
    let mut preds = vec![Vec::new(); N as usize];
    for (p, (node, succ)) in nodes.iter().enumerate() {
        if *node == Node::Inner {
            for &q in succ {
                preds[q as usize].push(p as u64);
            }
        }
    }
    let game = Listed(nodes, preds);
    check_relations(&game).unwrap();
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let (s, r) = pool
            .install(|| (solve(&game, &NoProgress).unwrap(), solve(&Reversing(&game), &NoProgress).unwrap()));
        assert!(s.bytes() == r.bytes(), "{threads} threads");
        assert!(s.stats.max_dtm > 10 && s.stats.draws > 0 && s.stats.wins > 0, "{:?}", s.stats);
        check(&game, &r.bytes(), &|_| {}).unwrap();
    }
}

/// A solve announces its phases ([`nana_engine::phases`]) before it begins the first, and
/// begins exactly those, in order: with the successors kept and turned around, and without.
#[test]
fn a_solve_begins_the_phases_it_announces() {
    use std::sync::Mutex;
    #[derive(Default)]
    struct Recorded(Mutex<Vec<String>>);
    impl nana_engine::Progress for Recorded {
        fn plan(&self, phases: &[&str]) {
            self.0.lock().unwrap().push(format!("plan {}", phases.join(", ")));
        }
        fn begin(&self, phase: &str, _: u64) {
            self.0.lock().unwrap().push(phase.to_string());
        }
        fn advance(&self, _: u64) {}
        fn end(&self) {}
    }
    let record = |game: &dyn Fn(&Recorded)| {
        let progress = Recorded::default();
        game(&progress);
        progress.0.into_inner().unwrap()
    };
    let plain = record(&|p| drop(solve(&Race, p).unwrap()));
    assert_eq!(plain, ["plan count moves, retrograde", "count moves", "retrograde"]);
    assert_eq!(nana_engine::phases(&Race), ["count moves", "retrograde"]);
    let reversed = record(&|p| drop(solve(&Reversing(&Race), p).unwrap()));
    assert_eq!(
        reversed,
        ["plan count moves, reverse edges, retrograde", "count moves", "reverse edges", "retrograde"]
    );
}
