//! The tablebase explorer: an HTTP JSON API over solved tables and one web page, embedded in
//! the binary, that browses them. `nana serve` builds a [`Registry`] of tables and runs
//! [`serve`]; the handlers only parse, probe and serialise (the probe layer knows nothing of
//! HTTP), and the JSON of a position is the probe's [`Answer`](nana_probe::Answer), the same as
//! `nana query --json`.
//!
//! The server names no game. A game plugs in through the front layer's
//! [`Game`](nana_front::Game) (its name and rule sets: [`add_game`]) and
//! [`Explorable`](nana_front::Explorable) (how its board looks and how its moves are clicked).
//! Any `Table<G>` of such a game is an [`Explorer`], the object-safe interface the handlers
//! call, so a registry holds tables of different games side by side.
//!
//! | module | what it holds |
//! |---|---|
//! | [`error`] | [`ApiError`]: why a request failed, its status and JSON body |
//! | [`request`] | reading a request's path and query |
//! | [`response`] | the JSON types of the answers |
//! | [`explorer`] | [`Explorer`]: a table as the handlers see it |
//! | [`guard`] | the connections' limits: a request line too long answered with a JSON 414, the timeouts, the connection cap |
//! | [`registry`] | [`Registry`]: the tables served, and how they are found at start |
//! | [`routes`] | the handlers and the [`router`] |
//! | [`run`](mod@run) | serving on a listener until a shutdown signal |
//!
//! # Endpoints (API v1, docs/EXPLORER.md)
//!
//! | path | answer |
//! |---|---|
//! | `GET /api/health` | [`Health`]: `ok`, `solving` or `degraded`, and every rule set's [`Status`] |
//! | `GET /api/games` | every game with its rule sets and their states |
//! | `GET /api/{game}/{rules}?fen=POS` | the probe's [`Answer`](nana_probe::Answer): value, DTM, how the game ended, every move ranked best first (`uci`, `san`), mainline |
//! | `GET /api/{game}/{rules}/mainline?fen=POS` | [`Mainline`]: the principal variation with each position |
//! | `GET /api/{game}/{rules}/view?fen=POS` | [`View`]: the answer with the board, the moves' squares and the positions they lead to |
//! | `GET /api/{game}/{rules}/stats` | [`TableStats`]: counts, DTM histogram, longest wins |
//! | `GET /api/{game}/{rules}/board?fen=POS` | [`BoardView`]: the position drawn, whatever the state of its table |
//! | `GET /`, `GET /{game}/{rules}`, `GET /{game}/{rules}/stats` | the page |
//!
//! `POS` is the game's position string, with `_` accepted for spaces (`position` is read as
//! another name of `fen`); without it, the start. Every error is JSON `{"error": "..."}`: 400
//! for a malformed position or query or an unknown parameter, 404 for an unknown game or rule
//! set (with `valid`, the names that exist), a position outside the table or an unknown path,
//! 405 for a method other than GET, 414 for a line too long, 503 for a rule set whose table is
//! not ready (with its state; `Retry-After` while it is being solved) or a request over the
//! time limit ([`Limits`]).

pub mod error;
pub mod explorer;
#[cfg(feature = "http")]
pub mod guard;
pub mod registry;
pub mod request;
pub mod response;
#[cfg(feature = "http")]
pub mod routes;
#[cfg(feature = "http")]
pub mod run;

pub use error::ApiError;
pub use explorer::{longest_at, view_of, Explorer, DRAW_LINE, LONGEST_WINS};
#[cfg(feature = "http")]
pub use guard::Limits;
#[cfg(feature = "files")]
pub use registry::add_game;
pub use registry::{board_of, BoardFn, Missing, Registry, SolveJob, SolveProgress, Solved, Status};
pub use request::MAX_POSITION_LEN;
pub use response::{
    BoardView, GameInfo, Health, LinePly, LongWin, Mainline, MoveView, RuleSetInfo, RuleSetState, TableStats,
    View,
};
#[cfg(feature = "http")]
pub use routes::{router, router_within};
#[cfg(feature = "http")]
pub use run::{ctrl_c, lookup_threads, run, serve, serve_with, RunError};
