//! The JSON answers every front end gives (the command line's `query --json` and `--batch`,
//! the explorer's HTTP API, the static site, the Python package): their types, as
//! lila-tablebase keeps its in one `response.rs`, and the probe's methods that make them. The
//! keys are described at the crate's root ("The JSON answer").

use nana_engine::{Category, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::{Analysis, Ending, GameAnalysis, Probe, ProbeError, ProbeRules, Ranked};

impl<G: ProbeRules> Probe<'_, G> {
    /// What a batch line says about a position: its value, how the game ended there if it did,
    /// and its best move.
    pub fn summary(&self, pos: &G::Position) -> Result<Summary, ProbeError> {
        let value = self.value(pos)?;
        let moves = self.ranked_moves(pos)?;
        Ok(self.summarise(pos, value, &moves))
    }

    /// The full answer about a position: its summary, every move ranked best first and the
    /// mainline (a drawing line of at most `draw_plies` moves for a draw).
    pub fn answer(&self, pos: &G::Position, draw_plies: usize) -> Result<Answer, ProbeError> {
        Ok(self.answer_of(pos, &self.analyse(pos, draw_plies)?))
    }

    /// The answer about a position from its analysis ([`Probe::analyse`]).
    pub fn answer_of(&self, pos: &G::Position, analysis: &GameAnalysis<G>) -> Answer {
        let Analysis { value, moves, mainline } = analysis;
        Answer {
            position: self.summarise(pos, *value, moves),
            moves: moves
                .iter()
                .map(|m| MoveAnswer {
                    uci: self.game.machine_notation(pos, m.mv),
                    san: self.game.human_notation(pos, m.mv),
                    usi: self.game.usi_notation(pos, m.mv),
                    kif: self.game.kif_notation(pos, m.mv),
                    category: m.child_value.category(),
                    dtm: m.child_value.dtm().map(|d| d.0),
                    endings: Endings { all: G::ENDINGS, ending: m.ending },
                })
                .collect(),
            mainline: mainline
                .iter()
                .map(|ply| self.game.machine_notation(&ply.from, ply.ranked.mv))
                .collect(),
        }
    }

    fn summarise(&self, pos: &G::Position, value: Value, moves: &[Ranked<G>]) -> Summary {
        Summary {
            fen: self.game.position_string(pos),
            category: value.category(),
            dtm: value.dtm().map(|d| d.0),
            endings: Endings { all: G::ENDINGS, ending: self.game.terminal(pos).map(|t| t.ending) },
            best_move: moves.first().map(|m| self.game.machine_notation(pos, m.mv)),
        }
    }
}

/// One boolean per ending of the game, keyed by its name, true for the one that applies: a
/// flattened part of [`Summary`] and [`MoveAnswer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endings {
    /// The game's endings, in the order of [`ProbeRules::ENDINGS`].
    pub all: &'static [Ending],
    /// The ending that applies, if any.
    pub ending: Option<Ending>,
}

impl Endings {
    /// Whether the ending named `name` applies.
    pub fn is(&self, name: &str) -> bool {
        self.ending.is_some_and(|e| e.name == name)
    }
}

impl Serialize for Endings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.all.len()))?;
        for e in self.all {
            map.serialize_entry(e.name, &(self.ending == Some(*e)))?;
        }
        map.end()
    }
}

/// What the answer says about a position; alone, a batch line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub fen: String,
    /// For the side to move.
    pub category: Category,
    pub dtm: Option<u16>,
    /// How the game ended at this position, if it is over.
    #[serde(flatten)]
    pub endings: Endings,
    /// In the machine notation; `None` where the game is over.
    pub best_move: Option<String>,
}

/// A move of the answer. `category` and `dtm` are for the side to move *after* the move, as in
/// the Lichess tablebase API.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MoveAnswer {
    /// The game's machine notation (Lichess's `uci`).
    pub uci: String,
    /// The game's human notation (Lichess's `san`).
    pub san: String,
    /// As a USI GUI writes it ([`ProbeRules::usi_notation`]).
    pub usi: String,
    /// As a KIF record writes it ([`ProbeRules::kif_notation`]); left out for a game without.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kif: Option<String>,
    pub category: Category,
    pub dtm: Option<u16>,
    /// How the move ends the game, if it does.
    #[serde(flatten)]
    pub endings: Endings,
}

/// The full answer about a position.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Answer {
    #[serde(flatten)]
    pub position: Summary,
    /// Every legal move, best first.
    pub moves: Vec<MoveAnswer>,
    /// The principal variation (a drawing line for a draw), in the machine notation.
    pub mainline: Vec<String>,
}
