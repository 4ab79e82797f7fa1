//! The Rust half of `nana.Board`: a position of any game with the moves that led to it, moved
//! through the game's own rules ([`ProbeRules`]: its legal moves, the position after a move, why
//! the game is over) and drawn from its board view ([`Explorable`]), as `nana play` and the
//! explorer do. Nothing here names a game: [`Line`] is generic over [`Game`], and the package
//! sees it through [`Played`].

use nana_front::{Dialect, Explorable, Game, Mv, Pos, ProtocolNotation, RuleSet};
use nana_probe::ProbeRules;

use crate::Error;

/// How a game ended at a position, as python-chess's `Outcome` tells it.
pub(crate) struct Outcome {
    /// The ending's name: `checkmate`, `lion_captured`.
    pub termination: &'static str,
    /// The player who has won, by its name in [`Game::SIDES`]; `None` for a draw.
    pub winner: Option<&'static str>,
    /// `1-0` where the first player has won, `0-1` where the second has, `1/2-1/2` for a draw.
    pub result: &'static str,
    /// The game's sentence for it ([`Game::game_over`]).
    pub description: String,
}

/// A position with the moves played to reach it, whatever its game: what `nana.Board` holds.
pub(crate) trait Played: Send + Sync {
    /// The game's name (`nana`).
    fn game(&self) -> &'static str;
    /// The rule set's name (`current`).
    fn rules(&self) -> &'static str;
    /// The position in the game's string form.
    fn fen(&self) -> String;
    /// Plays a legal move given in any notation the game reads, or in USI's; the move in the
    /// machine notation.
    fn push(&mut self, input: &str) -> Result<String, Error>;
    /// Takes the last move back; the move, `None` where none was played.
    fn pop(&mut self) -> Option<String>;
    /// The moves played, first first, in the machine notation.
    fn move_stack(&self) -> Vec<String>;
    /// Every legal move in the machine notation, sorted (none where the game is over).
    fn legal_moves(&self) -> Vec<String>;
    /// A legal move in the human notation.
    fn san(&self, input: &str) -> Result<String, Error>;
    /// The side to move, by its name in [`Game::SIDES`].
    fn turn(&self) -> &'static str;
    /// How the game ended here; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// The board as text for a terminal ([`Game::diagram`]).
    fn diagram(&self) -> String;
    /// What the drawing needs, as JSON: `board` (the explorer's board view), `last_move` (the
    /// squares of the last move, or null) and `to_move` (the side to move in the game's words).
    fn view_json(&self) -> String;
    /// A copy; with `stack` false, one whose move stack starts at this position.
    fn copy(&self, stack: bool) -> Box<dyn Played>;
}

/// A move played: the position it was played from, the move and its machine notation.
struct Ply<G: Game> {
    from: Pos<G>,
    mv: Mv<G>,
    notation: String,
}

impl<G: Game> Clone for Ply<G> {
    fn clone(&self) -> Self {
        Ply { from: self.from, mv: self.mv, notation: self.notation.clone() }
    }
}

/// A position of the game `G` under one of its named rule sets, with the moves that led to it.
pub(crate) struct Line<G: Game> {
    rule_set: &'static RuleSet<G::Rules>,
    pos: Pos<G>,
    stack: Vec<Ply<G>>,
}

impl<G: Game> Line<G> {
    /// The position `fen` (the start where `None`) under the rule set named `rules` (the
    /// game's default where `None`).
    pub(crate) fn new(rules: Option<&str>, fen: Option<&str>) -> Result<Line<G>, Error> {
        let rule_set = match rules {
            None => G::RULE_SETS.first().expect("a game has a rule set"),
            Some(name) => nana_front::rule_set::<G>(name).ok_or_else(|| Error::UnknownRules {
                game: G::NAME.to_string(),
                rules: name.to_string(),
                known: G::RULE_SETS.iter().map(|r| r.name).collect(),
            })?,
        };
        let pos = match fen {
            None => rule_set.rules.start(),
            Some(s) => rule_set.rules.parse_position(s).map_err(|e| Error::Position(Box::new(e)))?,
        };
        Ok(Line { rule_set, pos, stack: Vec::new() })
    }
}

impl<G: Game + ProtocolNotation> Line<G> {
    /// A legal move in any notation the game reads, or as a USI engine writes it (a shogi GUI's
    /// moves); where none reads it, the game's own reason.
    fn parse_move(&self, input: &str) -> Result<Mv<G>, Error> {
        let rules = &self.rule_set.rules;
        rules.parse_move(&self.pos, input).or_else(|e| {
            G::parse_protocol_move(rules, &self.pos, input, Dialect::Usi)
                .map_err(|_| Error::Move(Box::new(e)))
        })
    }
}

/// `first` with its first letter in upper case: the `{Side}` of the game's words.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

impl<G: Game + ProtocolNotation> Played for Line<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn rules(&self) -> &'static str {
        self.rule_set.name
    }

    fn fen(&self) -> String {
        self.rule_set.rules.position_string(&self.pos)
    }

    fn push(&mut self, input: &str) -> Result<String, Error> {
        let mv = self.parse_move(input)?;
        let rules = &self.rule_set.rules;
        let notation = rules.machine_notation(&self.pos, mv);
        let next = rules.play(&self.pos, mv);
        self.stack.push(Ply { from: self.pos, mv, notation: notation.clone() });
        self.pos = next;
        Ok(notation)
    }

    fn pop(&mut self) -> Option<String> {
        let ply = self.stack.pop()?;
        self.pos = ply.from;
        Some(ply.notation)
    }

    fn move_stack(&self) -> Vec<String> {
        self.stack.iter().map(|p| p.notation.clone()).collect()
    }

    fn legal_moves(&self) -> Vec<String> {
        let rules = &self.rule_set.rules;
        let mut moves = Vec::new();
        rules.for_each_move(&self.pos, |mv, _| moves.push(rules.machine_notation(&self.pos, mv)));
        moves.sort();
        moves
    }

    fn san(&self, input: &str) -> Result<String, Error> {
        let mv = self.parse_move(input)?;
        Ok(self.rule_set.rules.human_notation(&self.pos, mv))
    }

    fn turn(&self) -> &'static str {
        G::SIDES[G::side_to_move(&self.pos)]
    }

    fn outcome(&self) -> Option<Outcome> {
        let rules = &self.rule_set.rules;
        let over = rules.terminal(&self.pos)?;
        let to_move = G::side_to_move(&self.pos);
        let winner = match over.value {
            nana_engine::Value::Win(_) => Some(to_move),
            nana_engine::Value::Loss(_) => Some(1 - to_move),
            nana_engine::Value::Draw => None,
        };
        Some(Outcome {
            termination: over.ending.name,
            winner: winner.map(|side| G::SIDES[side]),
            result: match winner {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            },
            description: G::game_over(rules, &self.pos).unwrap_or_else(|| over.ending.words()),
        })
    }

    fn diagram(&self) -> String {
        G::diagram(&self.pos)
    }

    fn view_json(&self) -> String {
        let rules = &self.rule_set.rules;
        let board = rules.board(&self.pos);
        let last_move = self.stack.last().map(|ply| rules.move_squares(&ply.from, ply.mv));
        let to_move = rules
            .words()
            .to_move
            .replace("{Side}", &capitalised(board.side_to_move))
            .replace("{side}", board.side_to_move);
        let view = serde_json::json!({ "board": board, "last_move": last_move, "to_move": to_move });
        view.to_string()
    }

    fn copy(&self, stack: bool) -> Box<dyn Played> {
        let stack = if stack { self.stack.clone() } else { Vec::new() };
        Box::new(Line::<G> { rule_set: self.rule_set, pos: self.pos, stack })
    }
}
