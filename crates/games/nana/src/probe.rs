//! Reading a solution: Nana shogi as a [`ProbeRules`], so that the probe layer ([`nana_probe`])
//! gives the value of a position, its legal moves ranked by the values they lead to, the
//! principal variation and the JSON answer. A rule set is the game: `Probe::new(rules, entries)`.

use std::fmt;
use std::ops::ControlFlow;

use nana_engine::{Dtm, Value};
pub use nana_probe::{Answer, Ending, MoveAnswer, ProbeError, ProbeRules, Summary, Terminal};

use crate::index::{self, SIZE};
use crate::position::{Move, Position};
use crate::types::{Color, Rules, Variant};
use crate::{fen, hodges, usi};

/// The side to move is in check and has no legal move: it has lost.
pub const CHECKMATE: Ending = Ending::new("checkmate");
/// The side to move is not in check and has no legal move: it has lost too.
pub const STALEMATE: Ending = Ending::new("stalemate");

/// Why a position or move string could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// Not a legal position.
    Position(fen::ParseError),
    /// Not a legal move of the position.
    Move(usi::ParseMoveError),
    /// A move given where the game is over: `side` has no legal move and has lost.
    Over { error: usi::ParseMoveError, side: Color, ending: Ending },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Position(e) => write!(f, "{e}"),
            InputError::Move(e) => write!(f, "{e}"),
            InputError::Over { error, side, ending } => {
                write!(f, "{error} ({} has no legal move ({}) and has lost)", side.name(), ending.name)
            }
        }
    }
}

impl std::error::Error for InputError {}

/// A solution of one rule set, ready for lookups.
pub type Probe<'a> = nana_probe::Probe<'a, Rules>;

/// A legal move with the value it leads to.
pub type RankedMove = nana_probe::RankedMove<Position, Move>;

impl ProbeRules for Rules {
    type Position = Position;
    type Move = Move;
    type ParseError = InputError;

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

    /// Entries of like material together, each King pair's used entries first (`docs/INDEX.md`,
    /// "File order"): each rule set's own.
    fn file_order(&self) -> nana_probe::table::FileOrder {
        use nana_probe::table::FileOrder;
        match self.variant {
            Variant::Current => FileOrder::new(
                |i| index::file_position(Variant::Current, i),
                |first, out| index::indexes_at(Variant::Current, first, out),
                index::CUBE_CONFIGS,
            ),
            Variant::Original => FileOrder::new(
                |i| index::file_position(Variant::Original, i),
                |first, out| index::indexes_at(Variant::Original, first, out),
                index::CUBE_CONFIGS,
            ),
        }
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

    /// The Black-to-move orientation; `None` also where White, not to move, is in check.
    fn unindex(&self, i: u64) -> Option<Position> {
        index::unrank(i).filter(|p| !p.is_in_check(self.variant, p.side_to_move().other()))
    }

    fn start(&self) -> Position {
        Position::start()
    }

    fn parse_position(&self, input: &str) -> Result<Position, InputError> {
        fen::parse_position(input, self.variant).map_err(InputError::Position)
    }

    /// A move in either notation (USI-like or Hodges style); on a position where the game is
    /// over, the error says so.
    fn parse_move(&self, pos: &Position, input: &str) -> Result<Move, InputError> {
        crate::parse_move(pos, self, input).map_err(|error| match self.terminal(pos) {
            Some(t) => InputError::Over { error, side: pos.side_to_move(), ending: t.ending },
            None => InputError::Move(error),
        })
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.play_unchecked(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `unindex` gives a legal position of the entry (index, legality and side to move agree
    /// with the rules), and nothing where the entry holds none.
    #[test]
    fn unindex_inverts_index_on_legal_entries() {
        for rules in [Rules::CURRENT, Rules::ORIGINAL] {
            let (mut legal, mut unused) = (0, 0);
            for i in (0..SIZE).step_by(997).chain([SIZE - 1, SIZE]) {
                match rules.unindex(i) {
                    Some(pos) => {
                        legal += 1;
                        assert_eq!(rules.index(&pos), i);
                        assert!(!pos.is_in_check(rules.variant, pos.side_to_move().other()));
                        assert_eq!(rules.parse_position(&pos.to_string()), Ok(pos));
                    }
                    None => unused += 1,
                }
            }
            assert!(legal > 1000 && unused > 0, "{legal} {unused}");
        }
    }
}
