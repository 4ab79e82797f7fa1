//! Reading a solution: Dobutsu shogi as a [`ProbeRules`], so that the probe layer
//! ([`nana_probe`]) gives values, ranked moves, the mainline and the JSON answer. A rule set is
//! the game: `Probe::new(rules, entries)`.
//!
//! The game is over where [`Position::outcome`] says so: a lion has been taken, a try has
//! won, or the side to move has no move. A position where the side to move can take the lion is not over: its moves are listed,
//! the capture first, a win in 1 that ends the game. The tables do not hold such a position
//! (nor one whose lion has been taken, which the index cannot rank): the rules decide its
//! value ([`ProbeRules::value_by_rules`]).

use nana_engine::{Dtm, Value};
pub use nana_probe::{Answer, Ending, MoveAnswer, ProbeError, ProbeRules, Summary, Terminal};

use crate::fen::{self, ParseError};
use crate::index::{self, SIZE};
use crate::position::{End, Move, Position};
use crate::types::Rules;

/// A lion has been taken: a loss in 0 for its owner, the side to move.
pub const LION_CAPTURED: Ending = Ending::new("lion_captured");
/// A lion has completed a try (a loss in 0 for the opponent, a win in 1 for its owner).
pub const TRY: Ending = Ending::new("try");
/// Both lions stand safely on their far ranks (safe-try reading): a draw.
pub const BOTH_TRIES: Ending = Ending::new("both_tries");
/// The side to move has no move at all: a loss in 0 for it.
pub const NO_MOVE: Ending = Ending::new("no_move");

/// A solution of one rule set, ready for lookups.
pub type Probe<'a> = nana_probe::Probe<'a, Rules>;

fn ending(end: End) -> Ending {
    match end {
        End::LionCaptured => LION_CAPTURED,
        End::Try => TRY,
        End::BothTries => BOTH_TRIES,
        End::NoMove => NO_MOVE,
    }
}

impl ProbeRules for Rules {
    type Position = Position;
    type Move = Move;
    type ParseError = ParseError;

    const ENDINGS: &'static [Ending] = &[LION_CAPTURED, TRY, BOTH_TRIES, NO_MOVE];

    const TERMINAL_VALUES: &'static [Value] = &[Value::Win(Dtm(1)), Value::Loss(Dtm(0)), Value::Draw];

    fn size(&self) -> u64 {
        SIZE
    }

    fn index(&self, pos: &Position) -> u64 {
        index::rank(pos)
    }

    fn for_each_move(&self, pos: &Position, mut f: impl FnMut(Move, &Position)) {
        if pos.outcome(self).is_some() {
            return;
        }
        pos.for_each_move(|mv| f(mv, &pos.play_unchecked(mv)));
    }

    /// The game's end under these rules: a lion taken is a loss in 0 for its owner; a try won
    /// by the side to move is counted as the solver counts it, a win in 1 (claimed with the
    /// next ply), by the opponent a loss in 0; both tries at once (safe-try reading) a draw; no
    /// move, a loss in 0.
    fn terminal(&self, pos: &Position) -> Option<Terminal> {
        let o = pos.outcome(self)?;
        let value = match o.winner {
            None => Value::Draw,
            Some(w) if w == pos.side_to_move() => Value::Win(Dtm(1)),
            Some(_) => Value::Loss(Dtm(0)),
        };
        Some(Terminal { value, ending: ending(o.end) })
    }

    /// Where the side to move can take the lion, a win in 1 (taking it); where its own lion
    /// has been taken, a loss in 0. Neither is held by the tables.
    fn value_by_rules(&self, pos: &Position) -> Option<Value> {
        if pos.lion(pos.side_to_move()).is_none() {
            Some(Value::Loss(Dtm(0)))
        } else if pos.can_capture_lion() {
            Some(Value::Win(Dtm(1)))
        } else {
            None
        }
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

    /// Fairy-Stockfish's USI form ([`crate::usi`]): `2c2b`, `2b2a+`, `C*2b`.
    fn usi_notation(&self, _: &Position, mv: Move) -> String {
        crate::usi::format_move(mv)
    }

    /// Fairy-Stockfish's SFEN: `gle/1c1/1C1/ELG b - 1`.
    fn usi_position(&self, pos: &Position) -> String {
        crate::usi::format_position(pos)
    }

    /// [`crate::kif`]: `３三ライオン(24)`, `２二ひよこ打`.
    fn kif_notation(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(crate::kif::format_move(pos, mv))
    }

    /// [`crate::kif::format_head`]: the board diagram, the hands and the side to move.
    fn kif_position(&self, pos: &Position) -> Option<String> {
        Some(crate::kif::format_head(pos))
    }

    /// The first-player-to-move position of an entry.
    fn unindex(&self, i: u64) -> Option<Position> {
        index::unrank(i)
    }

    fn start(&self) -> Position {
        Position::start()
    }

    /// Fairy-Stockfish's FEN. A position whose lion has been taken is one where the game is
    /// over, for the side to move, which has lost it: one where the side that has just moved
    /// has no lion could not arise, and is refused.
    fn parse_position(&self, input: &str) -> Result<Position, ParseError> {
        let pos = fen::parse_position(input)?;
        if pos.lion(pos.side_to_move().other()).is_none() {
            return Err(ParseError::new(input, "the side that has just moved has no lion"));
        }
        Ok(pos)
    }

    fn parse_move(&self, pos: &Position, input: &str) -> Result<Move, ParseError> {
        if let Some(o) = pos.outcome(self) {
            let why = match o.end {
                End::LionCaptured => "a lion has been taken",
                End::Try => "a lion has completed a try",
                End::BothTries => "both lions have completed a try",
                End::NoMove => "the side to move has no move",
            };
            return Err(ParseError::new(input, format!("the game is over ({why})")));
        }
        fen::parse_move(pos, self, input)
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        pos.play_unchecked(mv)
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
            for i in (0..SIZE).step_by(1999).chain([SIZE - 1, SIZE]) {
                match rules.unindex(i) {
                    Some(pos) => {
                        used += 1;
                        assert_eq!(rules.index(&pos), i);
                        assert_eq!(rules.parse_position(&pos.to_string()), Ok(pos));
                    }
                    None => unused += 1,
                }
            }
            assert!(used > 100_000 && unused > 0, "{used} {unused}");
        }
    }

    /// A position where the side to move can take the lion is not over: its moves are listed,
    /// its value is a win in 1 by the rules, and the capture leads to a position that is over,
    /// a loss in 0 for the side whose lion was taken. The others' moves lead to positions with
    /// both lions.
    #[test]
    fn a_lion_that_can_be_taken_is_a_move_away_from_the_end() {
        let rules = Rules::TANAKA;
        let pos = fen::parse_position("3/1l1/1L1/3[GGEECC] w").unwrap();
        assert_eq!(rules.terminal(&pos), None);
        assert_eq!(rules.value_by_rules(&pos), Some(Value::Win(Dtm(1))));
        let mut moves = Vec::new();
        rules.for_each_move(&pos, |mv, child| moves.push((rules.machine_notation(&pos, mv), *child)));
        assert!(moves.len() > 10, "{moves:?}");
        let (_, taken) = moves.iter().find(|(mv, _)| mv == "b2b3").expect("the capture is a move");
        assert_eq!(
            rules.terminal(taken).map(|t| (t.value, t.ending)),
            Some((Value::Loss(Dtm(0)), LION_CAPTURED))
        );
        assert_eq!(rules.value_by_rules(taken), Some(Value::Loss(Dtm(0))));
        let mut n = 0;
        rules.for_each_move(taken, |_, _| n += 1);
        assert_eq!(n, 0);
        assert_eq!(rules.parse_position(&taken.to_string()), Ok(*taken));
        assert!(rules.parse_move(taken, "b3b4").is_err());
        // A position where the side that has just moved has no lion is refused.
        assert!(rules.parse_position(&taken.to_string().replace(" b ", " w ")).is_err());

        let start = Position::start();
        assert!(rules.terminal(&start).is_none() && rules.value_by_rules(&start).is_none());
        n = 0;
        rules.for_each_move(&start, |mv, child| {
            n += 1;
            assert!(rules.index(child) < SIZE);
            assert_eq!(rules.play(&start, mv), *child);
        });
        assert_eq!(n, 4);
        assert_eq!(rules.human_notation(&start, fen::parse_move_text("b2b3").unwrap()), "Cxb3");
    }
}
