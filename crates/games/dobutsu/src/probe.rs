//! Reading a solution: Dobutsu shogi as a [`ProbeGame`], so that the probe layer
//! ([`nana_probe`]) gives values, ranked moves, the mainline and the JSON answer. A rule set is
//! the game: `Probe::new(rules, entries)`.
//!
//! The probe counts the game's end as the solver does ([`Position::solver_end`]): where the
//! side to move can capture the opponent's lion, the game is over (ending `lion_captured`, a
//! win in 1), so positions with a lion off the board never come up.

use nana_engine::{Dtm, Value};
pub use nana_probe::{Answer, Ending, MoveAnswer, ProbeError, ProbeGame, Summary, Terminal};

use crate::fen::{self, ParseError};
use crate::index::{self, SIZE};
use crate::position::{End, Move, Position};
use crate::types::Rules;

/// The side to move captures the opponent's lion (counted as done: a win in 1).
pub const LION_CAPTURED: Ending = Ending::new("lion_captured");
/// A lion has completed a try (a loss in 0 for the opponent, a win in 1 for its owner).
pub const TRY: Ending = Ending::new("try");
/// Both lions stand safely on their far ranks (safe-try reading): a draw.
pub const BOTH_TRIES: Ending = Ending::new("both_tries");

/// A solution of one rule set, ready for lookups.
pub type Probe<'a> = nana_probe::Probe<'a, Rules>;

fn ending(end: End) -> Ending {
    match end {
        End::LionCaptured => LION_CAPTURED,
        End::Try => TRY,
        End::BothTries => BOTH_TRIES,
    }
}

impl ProbeGame for Rules {
    type Position = Position;
    type Move = Move;
    type ParseError = ParseError;

    const ENDINGS: &'static [Ending] = &[LION_CAPTURED, TRY, BOTH_TRIES];

    const TERMINAL_VALUES: &'static [Value] = &[Value::Win(Dtm(1)), Value::Loss(Dtm(0)), Value::Draw];

    fn size(&self) -> u64 {
        SIZE
    }

    fn index(&self, pos: &Position) -> u64 {
        index::rank(pos)
    }

    fn for_each_move(&self, pos: &Position, mut f: impl FnMut(Move, &Position)) {
        if pos.solver_end(self).is_some() {
            return;
        }
        pos.for_each_move(|mv| f(mv, &pos.play_unchecked(mv)));
    }

    fn terminal(&self, pos: &Position) -> Option<Terminal> {
        pos.solver_end(self).map(|(value, end)| Terminal { value, ending: ending(end) })
    }

    /// Fairy-Stockfish's form: `b2b3`, `b3b4+`, `C@b3`.
    fn machine_notation(&self, _: &Position, mv: Move) -> String {
        mv.to_string()
    }

    /// SAN-like ([`crate::san`]): `Cxb3`, `La2`, `Cb4+`, `G*b2`.
    fn human_notation(&self, pos: &Position, mv: Move) -> String {
        crate::san::format(pos, mv)
    }

    fn position_string(&self, pos: &Position) -> String {
        pos.to_string()
    }

    /// The first-player-to-move position of an entry.
    fn unindex(&self, i: u64) -> Option<Position> {
        index::unrank(i)
    }

    fn start(&self) -> Position {
        Position::start()
    }

    /// Fairy-Stockfish's FEN; a position with a captured lion is refused (the game is over
    /// there, and the table holds positions with both lions).
    fn parse_position(&self, input: &str) -> Result<Position, ParseError> {
        let pos = fen::parse_position(input)?;
        if pos.lion(crate::Side::First).is_none() || pos.lion(crate::Side::Second).is_none() {
            return Err(ParseError::new(input, "a lion is captured, the game is over"));
        }
        Ok(pos)
    }

    fn parse_move(&self, pos: &Position, input: &str) -> Result<Move, ParseError> {
        if let Some((_, end)) = pos.solver_end(self) {
            let why = match end {
                End::LionCaptured => "the side to move captures the lion",
                End::Try => "a lion has completed a try",
                End::BothTries => "both lions have completed a try",
            };
            return Err(ParseError::new(input, format!("the game is over ({why})")));
        }
        fen::parse_move(pos, self, input)
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.play_unchecked(mv)
    }

    /// The tables hold only the positions reachable from the start (see
    /// [`TableGame::solve`](nana_probe::table::TableGame::solve)); every other entry is unused.
    fn unused_entry(&self) -> &'static str {
        "the position is not reachable from the start position (Dobutsu tables hold reachable \
         positions only)"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `unindex` gives a position of the entry that reads back through its string form, and
    /// nothing for an unused entry.
    #[test]
    fn unindex_inverts_index() {
        for rules in Rules::all() {
            let (mut used, mut unused) = (0, 0);
            for i in (0..SIZE).step_by(9973).chain([SIZE - 1, SIZE]) {
                match rules.unindex(i) {
                    Some(pos) => {
                        used += 1;
                        assert_eq!(rules.index(&pos), i);
                        assert_eq!(rules.parse_position(&pos.to_string()), Ok(pos));
                    }
                    None => unused += 1,
                }
            }
            assert!(used > 50_000 && unused > 0, "{used} {unused}");
        }
    }

    /// Terminal positions have no moves; the others' moves lead to positions with both lions.
    #[test]
    fn terminal_positions_have_no_moves() {
        let rules = Rules::TANAKA;
        let over = fen::parse_position("3/1l1/1L1/3[GGEECC] w").unwrap();
        assert_eq!(rules.terminal(&over).map(|t| t.ending), Some(LION_CAPTURED));
        let mut n = 0;
        rules.for_each_move(&over, |_, _| n += 1);
        assert_eq!(n, 0);
        let start = Position::start();
        assert!(rules.terminal(&start).is_none());
        rules.for_each_move(&start, |mv, child| {
            n += 1;
            assert!(rules.index(child) < SIZE);
            assert_eq!(rules.play(&start, mv), *child);
        });
        assert_eq!(n, 4);
        assert_eq!(rules.human_notation(&start, fen::parse_move_text("b2b3").unwrap()), "Cxb3");
    }
}
