//! A game-agnostic retrograde solver.
//!
//! A game describes itself through the [`Graph`] trait: a dense index space `0..size`, what each
//! entry is ([`Node`]: illegal, terminal with a value, or inner with its legal successors) and,
//! for the backward pass, the entries that have a legal move into a given one. The solver labels
//! every legal entry win, loss or draw for the side to move, with the distance to mate ([`Dtm`])
//! in plies. It never sees a board or a piece.
//!
//! The value of each entry is stored in one or two bytes ([`EntryWidth`]; [`ByteCode`] and
//! [`WideCode`] document the encodings; the one-byte one is the payload of the tablebase files).

mod cell;
mod check;
pub mod cross_check;
pub mod par;
mod progress;
pub mod reach;
mod solution;
mod solve;
mod subset;
mod value;
mod wins;

#[cfg(test)]
mod census_tests;

pub use check::{
    check, check_relations, check_relations_every, check_with, CheckError, MissingEdge, Problem,
    RelationMismatch,
};
pub use progress::{NoProgress, PhasePlan, Progress};
pub use solution::{Solution, Stats};
pub use solve::{phases, solve, solve_census, solve_with, SolveError, MAX_SIZE};
pub use subset::Subset;
pub use value::{ByteCode, Category, Dtm, EntryWidth, Value, WideCode};
pub use wins::{restore_wins, wins_of_at_least};

/// What an index entry is, as the game says.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// Not a legal position: an unused index entry.
    Illegal,
    /// A legal position where the game is over, with its value for the side to move: a loss in
    /// 0 where it cannot move (or has lost), a win in 1 where it wins at once (say, by taking
    /// the king or completing a try). The distance must have the parity of the outcome (see
    /// [`Dtm`]). The solver starts the backward pass of that distance from it.
    Terminal(Value),
    /// A legal position with at least one legal move.
    Inner,
}

impl Node {
    /// The node of a game in which the side to move loses when it has no legal move: inner if
    /// it has one, else a loss in 0.
    #[inline]
    pub fn moves_or_loss(has_moves: bool) -> Node {
        if has_moves {
            Node::Inner
        } else {
            Node::Terminal(Value::Loss(Dtm(0)))
        }
    }
}

/// A game as the solver sees it: a graph over its index entries, whose edges are the legal
/// moves (the game's front ends see it through `nana_front::Game` instead).
///
/// Indices are dense: `0..size()`. An index either stands for one legal position (up to the
/// symmetries the game folds into its index) or is unused. Both relations are over index
/// entries, not moves: a game may report the same entry twice (the solver removes duplicates,
/// or, where it keeps the successors, counts an entry as often as it has edges back to it).
///
/// Contract (checked by the games' own tests with [`check_relations`] and, after a solve, by
/// [`check`]): an inner entry has at least one successor; `q` is reported by `successors(p)` of
/// an inner `p` if and only if `p` is reported by `predecessors(q)`; so illegal and terminal
/// entries have no successors and are nobody's predecessor.
pub trait Graph: Sync {
    /// The number of index entries (at most [`MAX_SIZE`] for [`solve`]).
    fn size(&self) -> u64;

    /// Says what `index` is and, for an inner entry, pushes the entries its legal moves reach
    /// onto `out` (any number of them: the solver counts them with a wider counter past 255).
    /// For an illegal or terminal entry it pushes nothing.
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node;

    /// Pushes every inner entry that has a legal move into the legal entry `index` onto `out`.
    fn predecessors(&self, index: u64, out: &mut Vec<u64>);

    /// Calls `f` with each entry of `entries` in increasing order, what it is and its
    /// successors, as [`Graph::successors`] gives them (in a list `f` may reorder). The forward
    /// pass asks for a run of entries at a time, so that a game may share work between one entry
    /// and the next (say, the part of their positions they have in common); the default asks
    /// [`Graph::successors`] entry by entry.
    fn successors_of_each(&self, entries: std::ops::Range<u64>, f: &mut dyn FnMut(u64, Node, &mut Vec<u64>)) {
        let mut out = Vec::new();
        for index in entries {
            out.clear();
            let node = self.successors(index, &mut out);
            f(index, node, &mut out);
        }
    }

    /// Calls `f` with the predecessors of each of `entries` in turn, as
    /// [`Graph::predecessors`] lists them (in a list `f` may reorder). The backward passes ask
    /// for a chunk of a frontier at a time, mostly in increasing order, so that a game may
    /// share work between one entry and the next (say, the part of their positions they have
    /// in common); the default asks [`Graph::predecessors`] entry by entry.
    fn predecessors_of_each(&self, entries: &[u32], f: &mut dyn FnMut(&mut Vec<u64>)) {
        let mut out = Vec::new();
        for &index in entries {
            out.clear();
            self.predecessors(u64::from(index), &mut out);
            f(&mut out);
        }
    }

    /// Whether the solver should keep the successors its forward pass finds and run the
    /// backward passes over them, turned around once, instead of asking [`Graph::predecessors`].
    /// The solution is the same; it pays where predecessors cost more to generate than memory
    /// (4 bytes an edge and an entry, 10 bytes an edge while turning them around). Default: no.
    fn reverse_successors(&self) -> bool {
        false
    }
}

/// A game's forward pass, made before the solve: one byte per index entry, which `read` turns
/// into what the solver needs to know of the entry. A game that has made it already, say while
/// enumerating its positions, hands it to [`solve_census`] instead of answering
/// [`Graph::successors`] entry by entry.
#[derive(Debug)]
pub struct Census {
    pub bytes: Vec<u8>,
    pub read: fn(u8) -> Counted,
    /// Pages of [`PAGE`] entries that hold one byte throughout, given once here rather than in
    /// `bytes`: `pages[k]` is the byte of every entry of page `k`, or 0 where the page's bytes
    /// are in `bytes` (pages past the end of `pages` are too). Only a byte that reads as an
    /// illegal entry or as a terminal one without predecessors settles a page: the solver writes
    /// no such entry during the solve, so it leaves a settled page's bytes in `bytes` at 0 (it
    /// zeroes any that are not), and memory allocated zeroed and never written costs nothing
    /// until it is written. The solution reads a settled page's entries from here
    /// ([`Solution::settled`]).
    pub pages: Vec<u8>,
}

/// The entries of a page of a [`Census`] (the last page of an index may have fewer).
pub const PAGE: usize = 1 << 12;

/// What the forward pass learns of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    pub node: Node,
    /// For an inner entry, its distinct successors (at most 255 in a [`Census`]).
    pub successors: u8,
    /// For a terminal entry, whether a move leads into it: whether the backward passes have
    /// anything to walk back to from it. A game that leaves the moves into some terminal
    /// entries out of its successors (and so out of their predecessors) says no for those; the
    /// solver then sets their values without ever listing their predecessors or holding them in
    /// a frontier. Without a census, every terminal entry has predecessors.
    pub has_predecessors: bool,
}

impl Counted {
    /// Whether a page of entries each read so may be settled in a [`Census`] (given once, its
    /// bytes never written): an unused entry, or a terminal one that nothing leads into, which
    /// no backward pass writes, walks back from or counts down.
    pub fn settles(&self) -> bool {
        match self.node {
            Node::Illegal => true,
            Node::Terminal(_) => !self.has_predecessors,
            Node::Inner => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve_with;

    /// Take-away: `n` stones, take one or two; who cannot move loses. Losses at multiples of 3,
    /// in `n` plies. Index `n`, with an unused entry at 7.
    pub(crate) struct TakeAway;

    impl Graph for TakeAway {
        fn size(&self) -> u64 {
            10
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
            if i == 7 {
                return Node::Illegal;
            }
            out.extend((1..=2).filter(|&k| k <= i && i - k != 7).map(|k| i - k));
            Node::moves_or_loss(i > 0)
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            out.extend((1..=2).map(|k| i + k).filter(|&p| p < 10 && p != 7));
        }
    }

    /// A cycle 0 -> 1 -> 2 -> 0 with an exit 2 -> 3 into a position without moves: 2 wins, 1
    /// loses, 0 wins; a separate loop 4 <-> 5 is a draw.
    pub(crate) struct Cycle;

    impl Graph for Cycle {
        fn size(&self) -> u64 {
            6
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
            match i {
                0 => out.push(1),
                1 => out.push(2),
                2 => out.extend([0, 3]),
                3 => return Node::moves_or_loss(false),
                4 => out.push(5),
                _ => out.push(4),
            }
            Node::Inner
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            match i {
                0 => out.push(2),
                1 => out.push(0),
                2 => out.push(1),
                3 => out.push(2),
                4 => out.push(5),
                _ => out.push(4),
            }
        }
    }

    pub(crate) fn values<G: Graph>(g: &G) -> Vec<Option<Value>> {
        let s = solve(g, &NoProgress).unwrap();
        check(g, &s.bytes(), &|_| {}).unwrap();
        check_relations(g).unwrap();
        (0..g.size()).map(|i| s.value(i)).collect()
    }

    #[test]
    fn take_away_is_solved() {
        let v = values(&TakeAway);
        assert_eq!(v[0], Some(Value::Loss(Dtm(0))));
        assert_eq!(v[1], Some(Value::Win(Dtm(1))));
        assert_eq!(v[3], Some(Value::Loss(Dtm(2))));
        assert_eq!(v[7], None);
        // 8 may only take one (8 - 2 = 6 is fine, 8 - 1 = 7 is unused): 8 -> 6, a loss in 4.
        assert_eq!(v[8], Some(Value::Win(Dtm(5))));
    }

    #[test]
    fn cycles_and_draws() {
        let v = values(&Cycle);
        assert_eq!(v[3], Some(Value::Loss(Dtm(0))));
        assert_eq!(v[2], Some(Value::Win(Dtm(1))));
        assert_eq!(v[1], Some(Value::Loss(Dtm(2))));
        assert_eq!(v[0], Some(Value::Win(Dtm(3))));
        assert_eq!(v[4], Some(Value::Draw));
        assert_eq!(v[5], Some(Value::Draw));
    }

    #[test]
    fn check_catches_a_wrong_entry() {
        let mut entries = solve(&TakeAway, &NoProgress).unwrap().into_bytes();
        // 4 is a win in 3 (take one, leaving 3, a loss in 2); claim a win in 1.
        entries[4] = ByteCode::decided(1).0;
        let truth = solve(&TakeAway, &NoProgress).unwrap().bytes()[4];
        assert_ne!(truth, entries[4]);
        let err = check(&TakeAway, &entries, &|_| {}).unwrap_err();
        assert_eq!(err.index, 4);
        assert_eq!(err.stored, Some(Value::Win(Dtm(1))));
        assert_eq!(err.problem, Problem::Successors(Value::Win(Dtm(3))));
    }

    /// Terminal entries 0 and 4 are wins in 1 that no move leads to; 1 is a loss in 0. Then 2
    /// wins in 1 (into 1), 3 loses in 2 (into 2), 5 wins in 3 (into 3) and 6, whose only move
    /// is into 5, loses in 4.
    pub(crate) struct Leaves;

    impl Graph for Leaves {
        fn size(&self) -> u64 {
            7
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
            match i {
                0 | 4 => return Node::Terminal(Value::Win(Dtm(1))),
                1 => return Node::Terminal(Value::Loss(Dtm(0))),
                2 => out.push(1),
                3 => out.push(2),
                5 => out.extend([3, 6]),
                _ => out.push(5),
            }
            Node::Inner
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            match i {
                1 => out.push(2),
                2 => out.push(3),
                3 => out.push(5),
                5 => out.push(6),
                6 => out.push(5),
                _ => {}
            }
        }
    }

    /// A chain `len - 1 -> ... -> 0` (0 has no move) and a hub `len` with a move to each of the
    /// 250 entries after it (each without a move): its 250 successors leave packed cells room
    /// for distances below 4.
    struct Ladder {
        len: u64,
    }

    impl Graph for Ladder {
        fn size(&self) -> u64 {
            self.len + 251
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
            if i == self.len {
                out.extend(self.len + 1..self.len + 251);
            } else if (1..self.len).contains(&i) {
                out.push(i - 1);
            }
            Node::moves_or_loss(!out.is_empty())
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            if i > self.len {
                out.push(self.len);
            } else if i + 1 < self.len {
                out.push(i + 1);
            }
        }
    }

    /// Packed cells give the values of split ones (two-byte entries are never packed), and a
    /// distance past their codes solves the game again, unpacked, to the same values.
    #[test]
    fn packed_cells_fall_back_past_their_codes() {
        for len in [3, 4, 5, 40] {
            let game = Ladder { len };
            check_relations(&game).unwrap();
            let packed = solve(&game, &NoProgress).unwrap();
            let split = solve_with(&game, EntryWidth::Two, &NoProgress).unwrap();
            check(&game, &packed.bytes(), &|_| {}).unwrap();
            for i in 0..game.size() {
                assert_eq!(packed.value(i), split.value(i), "{len}: {i}");
            }
            let dtm = Dtm(len as u16 - 1);
            let top = if dtm.0 % 2 == 1 { Value::Win(dtm) } else { Value::Loss(dtm) };
            assert_eq!(packed.value(len - 1), Some(top));
        }
    }

    #[test]
    fn check_relations_catches_a_missing_predecessor() {
        struct Broken;
        impl Graph for Broken {
            fn size(&self) -> u64 {
                10
            }
            fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
                TakeAway.successors(i, out)
            }
            fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
                TakeAway.predecessors(i, out);
                out.retain(|&p| p != 5);
            }
        }
        assert!(check_relations(&Broken).is_err());
    }
}
