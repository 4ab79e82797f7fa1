//! What the API answers, beyond the probe's [`Answer`]: a mainline with its positions, the
//! page's view of a position, a table's statistics and the list of games.

use nana_engine::Category;
use nana_front::{Board, MoveSquares, Palette, Words};
use nana_probe::Answer;
use serde::Serialize;

use crate::registry::Status;

/// One ply of a [`Mainline`]: the move in both notations and the value of the position after
/// it for the side to move there (as a move of [`Answer`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinePly {
    /// The game's machine notation.
    pub uci: String,
    /// The game's human notation.
    pub san: String,
    /// The position after the move.
    pub fen: String,
    pub category: Category,
    pub dtm: Option<u16>,
}

/// The principal variation from a position (a drawing line of at most
/// [`DRAW_LINE`](crate::DRAW_LINE) plies for a draw).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mainline {
    pub fen: String,
    /// For the side to move at `fen`.
    pub category: Category,
    pub dtm: Option<u16>,
    pub mainline: Vec<LinePly>,
}

/// A move of a [`View`], in the order of the answer's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The game's machine notation, as the answer's move.
    pub uci: String,
    #[serde(flatten)]
    pub squares: MoveSquares,
    /// The position the move leads to.
    pub fen: String,
}

/// What the page shows of a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub game: String,
    pub rules: String,
    /// The rule set and options in words.
    pub description: String,
    pub answer: Answer,
    /// `answer.moves`' squares and the positions they lead to, in the same order.
    pub moves: Vec<MoveView>,
    /// The answer's mainline in both notations.
    pub mainline: Vec<LinePly>,
    pub board: Board,
    pub palette: Palette,
    /// The position as a USI GUI writes it after `position sfen` (a game record started here).
    pub sfen: String,
    /// The head of a KIF record started here ([`nana_probe::ProbeRules::kif_position`]); left
    /// out for a game without KIF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kif: Option<String>,
}

/// A position drawn without its table (`/api/{game}/{rules}/board`): what the page shows while
/// the table is being solved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub fen: String,
    pub board: Board,
    pub palette: Palette,
}

/// A position among the longest wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LongWin {
    pub fen: String,
    pub dtm: u16,
}

/// A table's statistics, counted from its entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableStats {
    pub description: String,
    /// The table's file name, or "solved in memory".
    pub origin: String,
    pub entries: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Index entries the table holds no value for: no legal position, or one whose value the
    /// rules decide (Dobutsu: the side to move can take the lion).
    pub unused: u64,
    /// The longest distance of any decided entry: a win's (odd) or a loss's (even).
    pub max_dtm: u16,
    /// The longest win in plies (odd), `None` where nothing is won.
    pub longest_win: Option<u16>,
    /// The longest loss in plies (even; 0 where every loss is over at once), `None` where
    /// nothing is lost.
    pub longest_loss: Option<u16>,
    /// `per_dtm[d]`: decided entries at distance `d` plies (wins at odd, losses at even `d`).
    pub per_dtm: Vec<u64>,
    /// The longest wins (at most [`LONGEST_WINS`](crate::LONGEST_WINS), longest first), one
    /// position per index entry.
    pub longest_wins: Vec<LongWin>,
    /// Whether `longest_wins` was left empty because finding it reads every entry, which a
    /// reader by range does not (the static site's large tables); written only where true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub longest_wins_omitted: bool,
}

/// A game and its rule sets, as `GET /api/games` lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    pub game: String,
    pub rule_sets: Vec<RuleSetInfo>,
    /// How the page words the game.
    pub words: Words,
}

/// A rule set of [`GameInfo`]: its name in URLs, its rules and options in words, and its state
/// (`"state": "ready"` with the table's `origin`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetInfo {
    pub name: String,
    pub description: String,
    #[serde(flatten)]
    pub status: Status,
}

/// A rule set's state, as `/api/health` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetState {
    pub game: String,
    pub rules: String,
    #[serde(flatten)]
    pub status: Status,
}

/// `GET /api/health`: the server answers; `status` is `ok` when every rule set is served,
/// `solving` while some wait for their solve, `degraded` when some will not be served.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Health {
    pub status: &'static str,
    pub rule_sets: Vec<RuleSetState>,
}
