//! The positions reachable from the start under one rule set, by the engine's parallel closure
//! ([`nana_engine::reach`]) over the index, and their counts as Tanaka counts them: the side to
//! move normalised (an entry is reachable if its position is reachable with either player to
//! move), mirror images folded (the index folds them already), the game over where
//! [`Position::solver_end`] says so — where the side to move can capture the lion, it does.

use nana_engine::par::prelude::*;
pub use nana_engine::reach::Bitmap;
use nana_engine::reach::{self as closure, Expand};
use nana_engine::{EntryWidth, Value};

use crate::index;
use crate::position::Position;
use crate::types::Rules;
use crate::wide::{self, SIZE};

/// The reachable states of one rule set.
#[derive(Debug)]
pub struct Reachable {
    /// Entries whose position is reachable with the first player to move.
    pub first: Bitmap,
    /// Entries whose position, turned to the second player to move, is reachable.
    pub second: Bitmap,
}

impl Reachable {
    /// Whether the entry is reachable with either player to move.
    pub fn contains(&self, i: u64) -> bool {
        self.first.contains(i) || self.second.contains(i)
    }
}

/// Counts of reachable positions (side to move normalised, mirror images folded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReachCounts {
    /// Entries reachable with either player to move: Tanaka's "positions".
    pub positions: u64,
    /// Entries reachable with the first player to move.
    pub first_to_move: u64,
    /// Entries reachable with the second player to move.
    pub second_to_move: u64,
    /// Reachable entries where the game is over.
    pub terminal: u64,
    /// Reachable entries where the game goes on.
    pub non_terminal: u64,
    /// The most legal moves of a reachable non-terminal position.
    pub max_moves: u64,
    /// Of the non-terminal ones, for the side to move (filled in from a solution).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Dobutsu under one rule set as the closure sees it.
struct Enumeration {
    rules: Rules,
}

impl Expand for Enumeration {
    fn size(&self) -> u64 {
        SIZE
    }

    fn start(&self) -> u64 {
        wide::rank(&Position::start())
    }

    fn for_each_child(&self, entry: u64, mut f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool)) {
        let Some(pos) = wide::unrank(entry) else { return };
        if pos.solver_end(&self.rules).is_some() {
            return;
        }
        // After a move that loses at once, the game is over (the opponent takes the lion): the
        // closure does not expand the child.
        let exposure = pos.exposure();
        pos.for_each_move(|mv| {
            f(wide::rank(&pos.play_unchecked(mv)), exposure.loses_at_once(mv), &mut || true)
        });
    }
}

/// Marks every state reachable from the start under `rules`; `progress` is called with the
/// number of states found by each sweep.
pub fn reachable(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Reachable {
    let r = closure::reachable(&Enumeration { rules: *rules }, progress);
    Reachable { first: r.canonical, second: r.flipped }
}

/// Counts the reachable positions; with a solution of the same rule set (entries of `width`),
/// also the values of the non-terminal ones.
pub fn count(rules: &Rules, reached: &Reachable, solution: Option<(&[u8], EntryWidth)>) -> ReachCounts {
    let c = count_words(rules, reached, solution);
    // In Dobutsu the positions reachable with the first player to move and those reachable with
    // the second are the same, under either rule set (246,803,167 each: `nana --game dobutsu
    // stats`, with `--rules safe-try` too). Test builds hold the census to it (the suite runs it
    // in `nana --game dobutsu verify`, whose union is held to Tanaka's count).
    assert!(c.first_to_move == c.positions && c.second_to_move == c.positions, "{c:?}");
    c
}

/// [`count`], a bitmap word at a time.
fn count_words(rules: &Rules, reached: &Reachable, solution: Option<(&[u8], EntryWidth)>) -> ReachCounts {
    (0..reached.first.words())
        .into_par_iter()
        .map(|w| {
            let mut c = ReachCounts::default();
            let (first, second) = (reached.first.word(w), reached.second.word(w));
            c.first_to_move += u64::from(first.count_ones());
            c.second_to_move += u64::from(second.count_ones());
            let mut any = first | second;
            while any != 0 {
                let i = w as u64 * 64 + u64::from(any.trailing_zeros());
                any &= any - 1;
                c.positions += 1;
                let pos = wide::unrank(i).expect("a reachable entry is used");
                if pos.solver_end(rules).is_some() {
                    c.terminal += 1;
                    continue;
                }
                c.non_terminal += 1;
                let mut moves = 0;
                pos.for_each_move(|_| moves += 1);
                c.max_moves = c.max_moves.max(moves);
                // A position where the game goes on is one of the table's ([`index::rank`]).
                match solution.and_then(|(entries, width)| width.value(entries, index::rank(&pos))) {
                    Some(Value::Win(_)) => c.wins += 1,
                    Some(Value::Draw) => c.draws += 1,
                    Some(Value::Loss(_)) => c.losses += 1,
                    None => {}
                }
            }
            c
        })
        .reduce(ReachCounts::default, |a, b| ReachCounts {
            positions: a.positions + b.positions,
            first_to_move: a.first_to_move + b.first_to_move,
            second_to_move: a.second_to_move + b.second_to_move,
            terminal: a.terminal + b.terminal,
            non_terminal: a.non_terminal + b.non_terminal,
            max_moves: a.max_moves.max(b.max_moves),
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
        })
}
