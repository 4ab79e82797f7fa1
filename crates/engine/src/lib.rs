//! A game-agnostic retrograde solver.
//!
//! A game describes itself through the [`Game`] trait: a dense index space `0..size`, the legal
//! successors of every entry and, for the backward pass, the entries that have a legal move into
//! a given one. The solver labels every legal entry win, loss or draw for the side to move, with
//! the distance to mate ([`Dtm`]) in plies. It never sees a board or a piece.
//!
//! The value of each entry is stored in one byte ([`Entry`]): see its documentation for the
//! encoding, which is also the payload of the tablebase files.

mod check;
mod solve;
mod value;

pub use check::{check, check_relations, CheckError, RelationMismatch};
pub use solve::{solve, NoProgress, Progress, Solution, SolveError, Stats};
pub use value::{Dtm, Entry, Value};

/// A game as the solver sees it.
///
/// Indices are dense: `0..size()`. An index either stands for one legal position (up to the
/// symmetries the game folds into its index) or is unused. Both relations are over index
/// entries, not moves: the solver removes duplicates, so a game may report the same entry twice.
///
/// Contract (checked by the games' own tests and, at the end of every solve, by [`check`]):
/// `q` is reported by `successors(p)` if and only if `p` is reported by `predecessors(q)`.
pub trait Game: Sync {
    /// The number of index entries.
    fn size(&self) -> u64;

    /// Pushes the entries reached by the legal moves of `index` onto `out`. Returns `false`
    /// (and pushes nothing) when `index` is not a legal position.
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool;

    /// Pushes every legal entry that has a legal move into `index` onto `out`.
    fn predecessors(&self, index: u64, out: &mut Vec<u64>);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Take-away: `n` stones, take one or two; who cannot move loses. Losses at multiples of 3,
    /// in `n` plies. Index `n`, with an unused entry at 7.
    struct TakeAway;

    impl Game for TakeAway {
        fn size(&self) -> u64 {
            10
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> bool {
            if i == 7 {
                return false;
            }
            out.extend((1..=2).filter(|&k| k <= i && i - k != 7).map(|k| i - k));
            true
        }
        fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
            out.extend((1..=2).map(|k| i + k).filter(|&p| p < 10 && p != 7));
        }
    }

    /// A cycle 0 -> 1 -> 2 -> 0 with an exit 2 -> 3 into a position without moves: 2 wins, 1
    /// loses, 0 wins; a separate loop 4 <-> 5 is a draw.
    struct Cycle;

    impl Game for Cycle {
        fn size(&self) -> u64 {
            6
        }
        fn successors(&self, i: u64, out: &mut Vec<u64>) -> bool {
            match i {
                0 => out.push(1),
                1 => out.push(2),
                2 => out.extend([0, 3]),
                3 => {}
                4 => out.push(5),
                _ => out.push(4),
            }
            true
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

    fn values<G: Game>(g: &G) -> Vec<Option<Value>> {
        let s = solve(g, &NoProgress).unwrap();
        check(g, &s.entries, &|_| {}).unwrap();
        check_relations(g).unwrap();
        s.entries.iter().map(|&b| Entry(b).value()).collect()
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
        let mut s = solve(&TakeAway, &NoProgress).unwrap();
        // 4 is a win in 3 (take one, leaving 3, a loss in 2); claim a win in 1.
        s.entries[4] = Entry::decided(1).0;
        let truth = solve(&TakeAway, &NoProgress).unwrap().entries[4];
        assert_ne!(truth, s.entries[4]);
        assert!(check(&TakeAway, &s.entries, &|_| {}).is_err());
    }

    #[test]
    fn check_relations_catches_a_missing_predecessor() {
        struct Broken;
        impl Game for Broken {
            fn size(&self) -> u64 {
                10
            }
            fn successors(&self, i: u64, out: &mut Vec<u64>) -> bool {
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
