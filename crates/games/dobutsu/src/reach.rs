//! The positions reachable from the start under one rule set, by the engine's parallel closure
//! ([`nana_engine::reach`]) over the index, and their counts as Tanaka counts them: the side to
//! move normalised (an entry is reachable if its position is reachable with either player to
//! move), mirror images folded (the index folds them already), the game over where
//! [`Position::solver_end`] says so — where the side to move can capture the lion, it does.

pub use nana_engine::reach::Bitmap;
use nana_engine::reach::{self as closure, Expand};
use nana_engine::{Dtm, EntryWidth, Node, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::index::{self, Frame, SIZE};
use crate::position::{Move, Position};
use crate::types::{Role, Rules};

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

/// What the enumeration learnt of every index entry it expanded, one byte each: whether the game
/// is over there (and how) or how many distinct entries its moves reach, leaving out the moves
/// that lose at once (after which the opponent wins in 1: it takes the lion). The entries
/// reached only by such moves are not expanded: the closure is told that the game is over
/// there, and their byte stays [`Survey::UNEXPANDED`]. The solver's forward pass reads the
/// survey instead of generating the moves again, over a game that leaves those moves out ([`crate::dense::Dense::surveyed`]): a loss in 2 is the quickest
/// loss there is, so it only ever decides a position all of whose moves lose at once, which the
/// survey records as such ([`Survey::ALL_MOVES_LOSE`]).
#[derive(Debug)]
pub struct Survey(Vec<AtomicU8>);

impl Survey {
    /// An entry not expanded: unreachable, or a terminal win in 1, reached only by moves that
    /// lose at once (should a sweep expand one all the same, it writes [`Survey::TERMINAL_WIN`],
    /// which says the same). Which of the two the reachable bitmaps tell:
    /// [`Survey::reachable_byte`].
    pub const UNEXPANDED: u8 = 0;
    /// The most distinct successors a surveyed inner entry records (far above Dobutsu's 38).
    pub const MAX_COUNT: u8 = 251;
    /// A reachable entry where the game goes on but every move loses at once: a loss in 2.
    pub const ALL_MOVES_LOSE: u8 = 252;
    /// A reachable entry where the game is over: a draw.
    pub const TERMINAL_DRAW: u8 = 253;
    /// A reachable entry where the side to move has lost.
    pub const TERMINAL_LOSS: u8 = 254;
    /// A reachable entry where the side to move wins with the next ply.
    pub const TERMINAL_WIN: u8 = 255;

    /// The entry's byte: [`Survey::UNEXPANDED`], a count of distinct successors
    /// (1..=[`Survey::MAX_COUNT`]) or one of the terminal codes.
    #[inline]
    pub fn get(&self, entry: u64) -> u8 {
        self.0[entry as usize].load(Ordering::Relaxed)
    }

    /// The byte of a reachable entry: an unexpanded one is a terminal win in 1.
    #[inline]
    pub fn reachable_byte(&self, entry: u64) -> u8 {
        match self.get(entry) {
            Survey::UNEXPANDED => Survey::TERMINAL_WIN,
            byte => byte,
        }
    }

    /// What a byte of the survey says, as the solver's forward pass wants it: the node and, for
    /// an inner one, its number of distinct successors.
    #[inline]
    pub fn node(byte: u8) -> (Node, usize) {
        match byte {
            Survey::UNEXPANDED => (Node::Illegal, 0),
            Survey::TERMINAL_WIN => (Node::Terminal(Value::Win(Dtm(1))), 0),
            Survey::TERMINAL_LOSS => (Node::Terminal(Value::Loss(Dtm(0))), 0),
            Survey::TERMINAL_DRAW => (Node::Terminal(Value::Draw), 0),
            Survey::ALL_MOVES_LOSE => (Node::Terminal(Value::Loss(Dtm(2))), 0),
            count => (Node::Inner, usize::from(count)),
        }
    }

    fn terminal_code(value: Value) -> u8 {
        match value {
            Value::Win(_) => Survey::TERMINAL_WIN,
            Value::Loss(_) => Survey::TERMINAL_LOSS,
            Value::Draw => Survey::TERMINAL_DRAW,
        }
    }
}

/// Dobutsu under one rule set as the closure sees it; with a survey to fill in, it records what
/// it finds of every entry it expands.
struct Enumeration<'a> {
    rules: Rules,
    survey: Option<&'a Survey>,
}

/// More than the moves of any position: at most 56 steps (the lion and six more pieces, each
/// with at most 8 targets) and 30 drops (three kinds on at most 10 empty squares).
const MOVES_BOUND: usize = 96;

impl Expand for Enumeration<'_> {
    fn size(&self) -> u64 {
        SIZE
    }

    fn start(&self) -> u64 {
        index::rank(&Position::start())
    }

    fn for_each_child(&self, entry: u64, mut f: impl FnMut(u64, bool, &mut dyn FnMut() -> bool)) {
        let Some(pos) = index::unrank(entry) else { return };
        if let Some((value, _)) = pos.solver_end(&self.rules) {
            if let Some(survey) = self.survey {
                survey.0[entry as usize].store(Survey::terminal_code(value), Ordering::Relaxed);
            }
            return;
        }
        let Some(survey) = self.survey else {
            pos.for_each_move(|mv| f(index::rank(&pos.play_unchecked(mv)), false, &mut || true));
            return;
        };
        // The children of the moves that do not lose at once.
        let mut children = [0u64; MOVES_BOUND];
        let mut n = 0;
        let exposure = pos.exposure();
        // The children of the moves that keep the lions, ranked from a frame of the board.
        let frame = Frame::new(&Position { turn: pos.turn.other(), ..pos });
        pos.for_each_move(|mv| {
            let after = pos.play_unchecked(mv);
            let child = match mv {
                Move::Step { from, .. } if pos.board[from.index()] & 7 == Role::Lion as u8 => {
                    index::rank(&after)
                }
                Move::Step { from, to, .. } => frame.rank(&after, &[from.index(), to.index()]),
                Move::Drop { to, .. } => frame.rank(&after, &[to.index()]),
            };
            // After a move that loses at once, the game is over: a terminal win for the opponent
            // (where the game is not over before the move, a win at once after it can only be
            // the lion's capture). The closure does not expand the child, so its survey byte
            // stays [`Survey::UNEXPANDED`] (see there).
            let loses = exposure.loses_at_once(mv);
            debug_assert_eq!(loses, matches!(after.solver_end(&self.rules), Some((Value::Win(_), _))));
            f(child, loses, &mut || true);
            if !loses {
                children[n] = child;
                n += 1;
            }
        });
        let children = &mut children[..n];
        children.sort_unstable();
        let distinct = children.len() - children.windows(2).filter(|w| w[0] == w[1]).count();
        // An entry expanded for each side writes the same byte twice.
        let byte = match u8::try_from(distinct) {
            Ok(0) => Survey::ALL_MOVES_LOSE,
            Ok(count) if count <= Survey::MAX_COUNT => count,
            _ => unreachable!("fewer moves than MOVES_BOUND"),
        };
        survey.0[entry as usize].store(byte, Ordering::Relaxed);
    }
}

/// Marks every state reachable from the start under `rules`; `progress` is called with the
/// number of states found by each sweep.
pub fn reachable(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Reachable {
    let r = closure::reachable(&Enumeration { rules: *rules, survey: None }, progress);
    Reachable { first: r.canonical, second: r.flipped }
}

/// [`reachable`], and a [`Survey`] of every entry, filled in by the same enumeration.
pub fn survey(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> (Reachable, Survey) {
    let survey = Survey((0..SIZE).into_par_iter().map(|_| AtomicU8::new(Survey::UNEXPANDED)).collect());
    let r = closure::reachable(&Enumeration { rules: *rules, survey: Some(&survey) }, progress);
    (Reachable { first: r.canonical, second: r.flipped }, survey)
}

/// Counts the reachable positions; with a solution of the same rule set (entries of `width`),
/// also the values of the non-terminal ones.
pub fn count(rules: &Rules, reached: &Reachable, solution: Option<(&[u8], EntryWidth)>) -> ReachCounts {
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
                let pos = index::unrank(i).expect("a reachable entry is used");
                if pos.solver_end(rules).is_some() {
                    c.terminal += 1;
                    continue;
                }
                c.non_terminal += 1;
                let mut moves = 0;
                pos.for_each_move(|_| moves += 1);
                c.max_moves = c.max_moves.max(moves);
                match solution.and_then(|(entries, width)| width.value(entries, i)) {
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
