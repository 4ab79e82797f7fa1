//! Reading a solution: Nana shogi as a [`ProbeGame`], so that the probe layer ([`nana_probe`])
//! gives the value of a position, its legal moves ranked by the values they lead to, the
//! principal variation and the JSON answer. A rule set is the game: `Probe::new(rules, entries)`.

use std::ops::ControlFlow;

use nana_engine::{Dtm, Value};
pub use nana_probe::{Answer, Ending, MoveAnswer, ProbeError, ProbeGame, Summary, Terminal};

use crate::index::{self, SIZE};
use crate::position::{Move, Position};
use crate::types::Rules;
use crate::{hodges, usi};

/// The side to move is in check and has no legal move: it has lost.
pub const CHECKMATE: Ending = Ending::new("checkmate");
/// The side to move is not in check and has no legal move: it has lost too.
pub const STALEMATE: Ending = Ending::new("stalemate");

/// A solution of one rule set, ready for lookups.
pub type Probe<'a> = nana_probe::Probe<'a, Rules>;

/// A legal move with the value it leads to.
pub type RankedMove = nana_probe::RankedMove<Position, Move>;

impl ProbeGame for Rules {
    type Position = Position;
    type Move = Move;

    /// A move that mates comes before one that stalemates, at equal value.
    const ENDINGS: &'static [Ending] = &[CHECKMATE, STALEMATE];

    /// The side to move has lost when it has no legal move; the game has no other end.
    const TERMINAL_VALUES: &'static [Value] = &[Value::Loss(Dtm(0))];

    fn size(&self) -> u64 {
        SIZE
    }

    #[inline]
    fn index(&self, pos: &Position) -> u64 {
        index::rank(pos)
    }

    fn for_each_move(&self, pos: &Position, mut f: impl FnMut(Move, &Position)) {
        let _ = pos.for_each_legal_move(self, |mv, child| {
            f(mv, child);
            ControlFlow::Continue(())
        });
    }

    fn terminal(&self, pos: &Position) -> Option<Terminal> {
        if !pos.is_terminal(self) {
            return None;
        }
        let ending = if pos.in_check(self.variant) { CHECKMATE } else { STALEMATE };
        Some(Terminal { value: Value::Loss(Dtm(0)), ending })
    }

    fn machine_notation(&self, _: &Position, mv: Move) -> String {
        usi::format(mv)
    }

    fn human_notation(&self, pos: &Position, mv: Move) -> String {
        hodges::format(pos, self, mv)
    }

    fn position_string(&self, pos: &Position) -> String {
        pos.to_string()
    }
}
