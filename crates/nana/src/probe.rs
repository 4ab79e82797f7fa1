//! Reading a solution: the value of a position, its legal moves ranked by the values they lead
//! to, and the principal variation.

use std::fmt;

use nana_engine::{Entry, Value};

use crate::index::{self, SIZE};
use crate::position::{Move, Position};
use crate::types::Rules;

/// Why a lookup failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeError {
    /// The solution has the wrong number of entries for this index.
    WrongSize { entries: u64, expected: u64 },
    /// The entry of a legal position is marked unused: the table does not fit these rules.
    Unused { index: u64 },
    /// A position's stored value disagrees with the values of its moves.
    Inconsistent { position: String },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::WrongSize { entries, expected } => {
                write!(f, "the table has {entries} entries, the index needs {expected}")
            }
            ProbeError::Unused { index } => write!(
                f,
                "entry {index} of a legal position is marked unused: the table was not built for these rules"
            ),
            ProbeError::Inconsistent { position } => write!(
                f,
                "the table is inconsistent at {position}: its value disagrees with its moves' values"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// How a move ends the game: the opponent is left without a legal move, in check or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ending {
    Checkmate,
    Stalemate,
}

/// A legal move with the value it leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    pub child: Position,
    /// The value of the position after the move, for the side to move there (the opponent).
    pub child_value: Value,
    /// How the move ends the game, if it does (the position after it is a loss in 0).
    pub ending: Option<Ending>,
}

impl RankedMove {
    /// The value of the move for the player making it, with the distance counted from the
    /// position after the move.
    pub fn value(&self) -> Value {
        self.child_value.negate()
    }

    /// The value of the move for the player making it, with the distance counted from the
    /// position before the move (the move itself is the first ply): the value the position
    /// has when this is its best move.
    pub fn value_before(&self) -> Value {
        match self.value() {
            Value::Win(d) => Value::Win(nana_engine::Dtm(d.0 + 1)),
            Value::Loss(d) => Value::Loss(nana_engine::Dtm(d.0 + 1)),
            Value::Draw => Value::Draw,
        }
    }
}

/// A solution of one rule set, ready for lookups.
#[derive(Debug, Clone, Copy)]
pub struct Probe<'a> {
    rules: Rules,
    entries: &'a [u8],
}

impl<'a> Probe<'a> {
    pub fn new(rules: Rules, entries: &'a [u8]) -> Result<Probe<'a>, ProbeError> {
        if entries.len() as u64 != SIZE {
            return Err(ProbeError::WrongSize { entries: entries.len() as u64, expected: SIZE });
        }
        Ok(Probe { rules, entries })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The value of a legal position for its side to move.
    #[inline]
    pub fn value(&self, pos: &Position) -> Result<Value, ProbeError> {
        let i = index::rank(pos);
        Entry(self.entries[i as usize]).value().ok_or(ProbeError::Unused { index: i })
    }

    /// Every legal move, best first for the side to move: fastest win, draws, slowest loss.
    /// Among moves of equal value, one that ends the game by checkmate comes before one that
    /// ends it by stalemate, and otherwise the USI order decides. Checks that the best move
    /// agrees with the position's own value.
    pub fn ranked_moves(&self, pos: &Position) -> Result<Vec<RankedMove>, ProbeError> {
        let mut moves = Vec::new();
        let mut err = None;
        let _ = pos.for_each_legal_move(&self.rules, |mv, child| {
            match self.value(child) {
                Ok(child_value) => {
                    let ending = (child_value == Value::Loss(nana_engine::Dtm(0))).then(|| {
                        if child.in_check(self.rules.variant) {
                            Ending::Checkmate
                        } else {
                            Ending::Stalemate
                        }
                    });
                    moves.push(RankedMove { mv, child: *child, child_value, ending })
                }
                Err(e) => err = Some(e),
            }
            std::ops::ControlFlow::Continue(())
        });
        if let Some(e) = err {
            return Err(e);
        }
        // Moves of equal value either all end the game or none does.
        moves.sort_by_cached_key(|m| (m.value().rank_key(), m.ending, crate::usi::format(m.mv)));
        let own = self.value(pos)?;
        let expected = moves.first().map_or(Value::Loss(nana_engine::Dtm(0)), RankedMove::value_before);
        if own != expected {
            return Err(ProbeError::Inconsistent { position: pos.to_string() });
        }
        Ok(moves)
    }

    /// The principal variation: best moves to the end of the game for a won or lost position;
    /// for a draw, a drawing line of at most `draw_plies` moves.
    pub fn mainline(&self, pos: &Position, draw_plies: usize) -> Result<Vec<Move>, ProbeError> {
        let mut line = Vec::new();
        let mut pos = *pos;
        let drawn = self.value(&pos)? == Value::Draw;
        // A won line ends by itself (the distance shrinks every ply).
        while !drawn || line.len() < draw_plies {
            let moves = self.ranked_moves(&pos)?;
            let Some(best) = moves.first() else { break };
            line.push(best.mv);
            pos = best.child;
        }
        Ok(line)
    }
}
