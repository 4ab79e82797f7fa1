//! The tablebase explorer: an HTTP JSON API over solved tables and one web page, embedded in
//! the binary, that browses them. `nana serve` builds a [`Registry`] of tables and runs
//! [`serve`]; the handlers only parse, probe and serialise (the probe layer knows nothing of
//! HTTP), and the JSON of a position is the probe's [`Answer`], the same as `nana query --json`.
//!
//! A game plugs in with two traits: the probe layer's [`TableGame`] (its tables) and
//! [`Explorable`] (how its board looks and how its moves are clicked). Any
//! `Table<G>` of such a game is an [`Explorer`], the object-safe interface the handlers call,
//! so a registry holds tables of different games side by side.
//!
//! # Endpoints
//!
//! | path | answer |
//! |---|---|
//! | `GET /api/health` | `{"status":"ok"}` |
//! | `GET /api/games` | every game with its rule sets |
//! | `GET /api/{game}/{rules}?position=POS` | the probe's [`Answer`]: value, DTM, how the game ended, every move ranked best first, mainline |
//! | `GET /api/{game}/{rules}/mainline?position=POS` | [`Mainline`]: the principal variation with each position |
//! | `GET /api/{game}/{rules}/view?position=POS` | [`View`]: the answer with the board, the moves' squares and the positions they lead to |
//! | `GET /api/{game}/{rules}/stats` | [`TableStats`]: counts, DTM histogram, longest wins |
//! | `GET /`, `GET /{game}/{rules}`, `GET /{game}/{rules}/stats` | the page |
//!
//! `POS` is the game's position string, with `_` accepted for spaces; without it, the start.
//! Errors are JSON `{"error": "..."}`: 400 for a malformed position or query, 404 for an
//! unknown game or rule set (with `valid`, the names that exist), a position outside the table
//! or an unknown path.

mod dobutsu;
mod nana;
mod view;

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path as UrlPath, Query, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use nana_engine::{Progress, Value};
use nana_probe::table::{Table, TableGame};
use nana_probe::{Answer, ProbeError, ProbeGame};
use serde::Serialize;
use tower_http::cors::{Any, CorsLayer};

pub use dobutsu::{add_dobutsu, GAME as DOBUTSU, RULE_SETS as DOBUTSU_RULE_SETS};
pub use nana::{add_nana, GAME as NANA, RULE_SETS as NANA_RULE_SETS};
pub use view::{
    Board, EndingWords, Explorable, Hand, HandPiece, MoveSquares, Palette, PieceView, SquareView, Words,
};

/// How many plies of a drawing line the answers show (as `nana query` does).
pub const DRAW_LINE: usize = 10;

/// The longest position string read; longer input is refused before parsing.
pub const MAX_POSITION_LEN: usize = 256;

/// How many of the longest wins [`TableStats`] lists.
pub const LONGEST_WINS: usize = 10;

/// A failed request: its status and the JSON body `{"error": ..., "valid": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: String,
    /// For an unknown name, the names that exist.
    pub valid: Option<Vec<String>>,
}

impl ApiError {
    pub fn bad_request(error: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, error: error.into(), valid: None }
    }

    pub fn not_found(error: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, error: error.into(), valid: None }
    }

    fn probe(e: ProbeError) -> ApiError {
        match e {
            // The index has room for the position, but the table holds no value for it.
            ProbeError::Unused { .. } => {
                ApiError::not_found(format!("the position is not in the table: {e}"))
            }
            // A damaged or mismatched table is the server's fault, never a wrong answer.
            _ => ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, error: e.to_string(), valid: None },
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status, self.error)
    }
}

impl std::error::Error for ApiError {}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<&'a [String]>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: &self.error, valid: self.valid.as_deref() };
        (self.status, Json(body)).into_response()
    }
}

/// One ply of a [`Mainline`]: the move in both notations and the value of the position after
/// it for the side to move there (as a move of [`Answer`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinePly {
    pub usi: String,
    pub hodges: String,
    /// The position after the move.
    pub fen: String,
    pub category: &'static str,
    pub dtm: Option<u16>,
}

/// The principal variation from a position (a drawing line of at most [`DRAW_LINE`] plies for
/// a draw).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mainline {
    pub fen: String,
    /// For the side to move at `fen`.
    pub category: &'static str,
    pub dtm: Option<u16>,
    pub mainline: Vec<LinePly>,
}

/// A move of a [`View`], in the order of the answer's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveView {
    pub usi: String,
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
    /// The file, or "solved in memory".
    pub origin: String,
    pub entries: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Index entries that hold no legal position.
    pub illegal: u64,
    pub max_dtm: u16,
    /// `per_dtm[d]`: decided entries at distance `d` plies (wins at odd, losses at even `d`).
    pub per_dtm: Vec<u64>,
    /// The longest wins (at most [`LONGEST_WINS`], longest first), one position per index entry.
    pub longest_wins: Vec<LongWin>,
}

/// A table as the handlers see it, whatever its game: the object-safe face of `Table<G>`.
/// Positions are the game's strings, with `_` accepted for spaces (`None` for the start).
pub trait Explorer: Send + Sync {
    /// The rule set and options in words.
    fn description(&self) -> String;
    /// Where the table came from: its file, or "solved in memory".
    fn origin(&self) -> String;
    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError>;
    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError>;
    fn view(&self, game: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError>;
    /// Counts every entry: call once, the registry keeps the result.
    fn stats(&self) -> TableStats;
    /// How the page words the game ([`Explorable::words`]).
    fn words(&self) -> Words;
}

fn parse<G: ProbeGame>(game: &G, position: Option<&str>) -> Result<G::Position, ApiError> {
    let Some(input) = position else { return Ok(game.start()) };
    if input.len() > MAX_POSITION_LEN {
        return Err(ApiError::bad_request(format!(
            "position too long: {} bytes, at most {MAX_POSITION_LEN}",
            input.len()
        )));
    }
    // As Lichess does: underscores for spaces keep URLs readable.
    let text = input.replace('_', " ");
    if text.trim().is_empty() {
        return Err(ApiError::bad_request("empty position; leave `position` out for the start"));
    }
    // The game's error names the input and the problem.
    game.parse_position(&text).map_err(ApiError::bad_request)
}

fn line<G: ProbeGame>(
    game: &G,
    probe: &nana_probe::Probe<'_, G>,
    from: &G::Position,
    usis: &[String],
) -> Result<Vec<LinePly>, ApiError> {
    let mut pos = from.clone();
    let mut plies = Vec::with_capacity(usis.len());
    for usi in usis {
        let mv = game.parse_move(&pos, usi).map_err(|e| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            error: format!("the mainline's move {usi} does not read back: {e}"),
            valid: None,
        })?;
        let hodges = game.human_notation(&pos, mv);
        pos = game.play(&pos, mv);
        let value = probe.value(&pos).map_err(ApiError::probe)?;
        plies.push(LinePly {
            usi: usi.clone(),
            hodges,
            fen: game.position_string(&pos),
            category: value.category(),
            dtm: value.dtm().map(|d| d.0),
        });
    }
    Ok(plies)
}

impl<G> Explorer for Table<G>
where
    G: Explorable + Clone + Send + Sync + 'static,
{
    fn description(&self) -> String {
        self.game().describe()
    }

    fn origin(&self) -> String {
        Table::origin(self)
    }

    fn words(&self) -> Words {
        self.game().words()
    }

    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError> {
        let pos = parse(self.game(), position)?;
        self.probe().answer(&pos, DRAW_LINE).map_err(ApiError::probe)
    }

    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError> {
        let game = self.game();
        let pos = parse(game, position)?;
        let probe = self.probe();
        let value = probe.value(&pos).map_err(ApiError::probe)?;
        let moves: Vec<String> = probe
            .mainline(&pos, DRAW_LINE)
            .map_err(ApiError::probe)?
            .into_iter()
            .scan(pos.clone(), |at, mv| {
                let usi = game.machine_notation(at, mv);
                *at = game.play(at, mv);
                Some(usi)
            })
            .collect();
        Ok(Mainline {
            fen: game.position_string(&pos),
            category: value.category(),
            dtm: value.dtm().map(|d| d.0),
            mainline: line(game, &probe, &pos, &moves)?,
        })
    }

    fn view(&self, game_name: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError> {
        let game = self.game();
        let pos = parse(game, position)?;
        let probe = self.probe();
        let answer = probe.answer(&pos, DRAW_LINE).map_err(ApiError::probe)?;
        let ranked = probe.ranked_moves(&pos).map_err(ApiError::probe)?;
        let moves = ranked
            .iter()
            .map(|m| MoveView {
                usi: game.machine_notation(&pos, m.mv),
                squares: game.move_squares(&pos, m.mv),
                fen: game.position_string(&m.child),
            })
            .collect();
        let mainline = line(game, &probe, &pos, &answer.mainline)?;
        Ok(View {
            game: game_name.to_string(),
            rules: rules.to_string(),
            description: game.describe(),
            moves,
            mainline,
            board: game.board(&pos),
            palette: game.palette(),
            answer,
        })
    }

    fn stats(&self) -> TableStats {
        let s = Table::stats(self);
        let game = self.game();
        let width = self.width();
        let entries = self.entries();
        // The shortest win distance that still belongs among the longest LONGEST_WINS.
        let mut threshold = u16::MAX;
        let mut seen = 0;
        for d in (1..s.per_dtm.len()).rev().filter(|d| d % 2 == 1) {
            if seen >= LONGEST_WINS as u64 {
                break;
            }
            seen += s.per_dtm[d];
            threshold = d as u16;
        }
        let mut wins: Vec<(u16, u64)> = Vec::new();
        if threshold != u16::MAX {
            for i in 0..game.size() {
                if let Some(Value::Win(d)) = width.value(entries, i) {
                    if d.0 >= threshold {
                        wins.push((d.0, i));
                    }
                }
            }
        }
        wins.sort_by_key(|&(d, i)| (std::cmp::Reverse(d), i));
        let longest_wins = wins
            .into_iter()
            .filter_map(|(dtm, i)| game.unindex(i).map(|p| LongWin { fen: game.position_string(&p), dtm }))
            .take(LONGEST_WINS)
            .collect();
        TableStats {
            description: game.describe(),
            origin: Table::origin(self),
            entries: game.size(),
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            illegal: s.illegal,
            max_dtm: s.max_dtm,
            per_dtm: s.per_dtm,
            longest_wins,
        }
    }
}

/// A shared table serves as well (a registry may share tables with other users).
impl<E: Explorer + ?Sized> Explorer for Arc<E> {
    fn description(&self) -> String {
        (**self).description()
    }
    fn origin(&self) -> String {
        (**self).origin()
    }
    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError> {
        (**self).answer(position)
    }
    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError> {
        (**self).mainline(position)
    }
    fn view(&self, game: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError> {
        (**self).view(game, rules, position)
    }
    fn stats(&self) -> TableStats {
        (**self).stats()
    }
    fn words(&self) -> Words {
        (**self).words()
    }
}

/// What to do when a table's file is missing at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Solve it in memory.
    Solve,
    /// Refuse to start (`nana serve --no-solve`).
    Refuse,
}

/// The command that makes a game's tables: `nana --game dobutsu solve` (`nana solve` where the
/// game is not known).
fn solve_command(game: Option<&str>) -> String {
    match game {
        Some(g) => format!("`nana --game {g} solve`"),
        None => "`nana solve`".to_string(),
    }
}

/// The error of `--no-solve` when files are missing: every missing file (with its game, where
/// known), and the commands that make them.
fn missing_message(missing: &[(Option<&str>, PathBuf)]) -> String {
    let paths: Vec<String> = missing.iter().map(|(_, p)| p.display().to_string()).collect();
    let mut commands: Vec<String> = Vec::new();
    for (game, _) in missing {
        let command = solve_command(*game);
        if !commands.contains(&command) {
            commands.push(command);
        }
    }
    format!(
        "no tablebase at {} (and solving at start was turned off); make {} with {}",
        paths.join(", "),
        if paths.len() == 1 { "it" } else { "them" },
        commands.join(" and ")
    )
}

/// The table of `game` from its file in `dir` (memory-mapped and checked), or, where the file
/// is missing, solved in memory (after `announce` with the rule set's name and the path looked
/// for) or refused, as `missing` says.
pub fn load_table<G: TableGame>(
    game: G,
    dir: &Path,
    missing: Missing,
    progress: &dyn Progress,
    announce: &mut dyn FnMut(&str, &Path),
) -> Result<Table<G>, String> {
    load(None, game, dir, missing, progress, announce)
}

/// [`load_table`], its messages naming the game's command line (`--game NAME`) where known.
fn load<G: TableGame>(
    name: Option<&str>,
    game: G,
    dir: &Path,
    missing: Missing,
    progress: &dyn Progress,
    announce: &mut dyn FnMut(&str, &Path),
) -> Result<Table<G>, String> {
    let path = dir.join(game.file_name());
    if missing == Missing::Refuse && !path.exists() {
        return Err(missing_message(&[(name, path)]));
    }
    Table::load_or_solve(game, None, dir, progress, |g, p| announce(&g.describe(), p)).map_err(|e| {
        if e.needs_regeneration() {
            format!("{e}; regenerate it with {}", solve_command(name))
        } else {
            e.to_string()
        }
    })
}

/// The files of `rule_sets` missing from `dir`, with the game's name.
fn missing_files<G: TableGame>(
    game: &'static str,
    rule_sets: &[(&str, G)],
    dir: &Path,
) -> Vec<(Option<&'static str>, PathBuf)> {
    rule_sets
        .iter()
        .map(|(_, rules)| dir.join(rules.file_name()))
        .filter(|path| !path.exists())
        .map(|path| (Some(game), path))
        .collect()
}

/// Adds the rule sets of one game to `registry` under the name `game`, each by its name in
/// URLs, from its file in `dir` (memory-mapped), solving a missing one in memory or refusing to
/// start as `missing` says (naming every missing file at once). `progress` makes the progress
/// report of a rule set's solve from its name; `announce` is called before a solve with the
/// rule set and options in words and the path looked for.
pub fn add_rule_sets<G>(
    registry: &mut Registry,
    game: &'static str,
    rule_sets: &[(&str, G)],
    dir: &Path,
    missing: Missing,
    progress: &dyn Fn(&str) -> Box<dyn Progress>,
    announce: &mut dyn FnMut(&str, &Path),
) -> Result<(), String>
where
    G: Explorable + Clone + Send + Sync + 'static,
{
    if missing == Missing::Refuse {
        let absent = missing_files(game, rule_sets, dir);
        if !absent.is_empty() {
            return Err(missing_message(&absent));
        }
    }
    for (name, rules) in rule_sets {
        let table = load(Some(game), rules.clone(), dir, missing, progress(name).as_ref(), announce)?;
        registry.add(game, name, Box::new(table));
    }
    Ok(())
}

/// The games the explorer serves, by their names in URLs, in the page's order.
pub const GAMES: [&str; 2] = [NANA, DOBUTSU];

/// Adds every rule set of each of `games` (names of [`GAMES`]) to `registry`, as
/// [`add_rule_sets`] does; with `Missing::Refuse`, every missing file of every game is named
/// at once, before anything is loaded. `progress` gets the game's and the rule set's names.
pub fn add_games(
    registry: &mut Registry,
    games: &[&str],
    dir: &Path,
    missing: Missing,
    progress: &dyn Fn(&str, &str) -> Box<dyn Progress>,
    announce: &mut dyn FnMut(&str, &Path),
) -> Result<(), String> {
    if let Some(unknown) = games.iter().find(|g| !GAMES.contains(g)) {
        return Err(format!("unknown game \"{}\" (known: {})", cut(unknown), GAMES.join(", ")));
    }
    if missing == Missing::Refuse {
        let mut absent = Vec::new();
        for &game in games {
            match game {
                NANA => absent.extend(missing_files(NANA, &NANA_RULE_SETS, dir)),
                _ => absent.extend(missing_files(DOBUTSU, &DOBUTSU_RULE_SETS, dir)),
            }
        }
        if !absent.is_empty() {
            return Err(missing_message(&absent));
        }
    }
    for &game in games {
        let progress = |rules: &str| progress(game, rules);
        match game {
            NANA => add_nana(registry, dir, missing, &progress, announce)?,
            _ => add_dobutsu(registry, dir, missing, &progress, announce)?,
        }
    }
    Ok(())
}

struct RuleSet {
    name: String,
    table: Box<dyn Explorer>,
    stats: OnceLock<TableStats>,
}

struct GameTables {
    name: String,
    rule_sets: Vec<RuleSet>,
}

/// The tables a server serves: games by name (`nana`), each with its rule sets by name
/// (`current`, `original`), in the order added (the first is the page's default).
#[derive(Default)]
pub struct Registry {
    games: Vec<GameTables>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<(String, Vec<String>)> = self
            .games
            .iter()
            .map(|g| (g.name.clone(), g.rule_sets.iter().map(|r| r.name.clone()).collect()))
            .collect();
        f.debug_struct("Registry").field("games", &names).finish()
    }
}

/// A game and its rule sets, as `GET /api/games` lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    pub game: String,
    pub rule_sets: Vec<RuleSetInfo>,
    /// How the page words the game.
    pub words: Words,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetInfo {
    pub name: String,
    pub description: String,
    pub origin: String,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds (or replaces) the table of rule set `rules` of `game`.
    pub fn add(&mut self, game: &str, rules: &str, table: Box<dyn Explorer>) {
        let entry = RuleSet { name: rules.to_string(), table, stats: OnceLock::new() };
        match self.games.iter_mut().find(|g| g.name == game) {
            Some(g) => match g.rule_sets.iter_mut().find(|r| r.name == rules) {
                Some(r) => *r = entry,
                None => g.rule_sets.push(entry),
            },
            None => self.games.push(GameTables { name: game.to_string(), rule_sets: vec![entry] }),
        }
    }

    /// Every game with its rule sets.
    pub fn games(&self) -> Vec<GameInfo> {
        self.games
            .iter()
            .map(|g| GameInfo {
                game: g.name.clone(),
                // A game has at least one rule set: the one it was added with.
                words: g.rule_sets[0].table.words(),
                rule_sets: g
                    .rule_sets
                    .iter()
                    .map(|r| RuleSetInfo {
                        name: r.name.clone(),
                        description: r.table.description(),
                        origin: r.table.origin(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn rule_set(&self, game: &str, rules: &str) -> Result<&RuleSet, ApiError> {
        let Some(g) = self.games.iter().find(|g| g.name == game) else {
            return Err(ApiError {
                status: StatusCode::NOT_FOUND,
                error: format!("unknown game \"{}\"", cut(game)),
                valid: Some(self.games.iter().map(|g| g.name.clone()).collect()),
            });
        };
        g.rule_sets.iter().find(|r| r.name == rules).ok_or_else(|| ApiError {
            status: StatusCode::NOT_FOUND,
            error: format!("unknown rule set \"{}\" of {game}", cut(rules)),
            valid: Some(g.rule_sets.iter().map(|r| r.name.clone()).collect()),
        })
    }

    /// The table of a rule set of a game; a 404 listing the valid names otherwise.
    pub fn get(&self, game: &str, rules: &str) -> Result<&dyn Explorer, ApiError> {
        self.rule_set(game, rules).map(|r| r.table.as_ref())
    }

    /// A table's statistics, counted on first use.
    pub fn stats(&self, game: &str, rules: &str) -> Result<&TableStats, ApiError> {
        let r = self.rule_set(game, rules)?;
        Ok(r.stats.get_or_init(|| r.table.stats()))
    }
}

/// A name from a URL, cut to a readable length for an error message.
fn cut(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

type Shared = Arc<Registry>;

/// The query of a position request: `position` at most once.
fn position_param(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Option<String>, ApiError> {
    let Query(pairs) =
        query.map_err(|e| ApiError::bad_request(format!("malformed query string: {}", e.body_text())))?;
    let mut found = None;
    for (key, value) in pairs {
        if key == "position" {
            if found.is_some() {
                return Err(ApiError::bad_request("`position` given more than once"));
            }
            found = Some(value);
        }
    }
    Ok(found)
}

type Names = Result<UrlPath<(String, String)>, PathRejection>;

fn names(path: Names) -> Result<(String, String), ApiError> {
    path.map(|UrlPath(p)| p).map_err(|e| ApiError::bad_request(format!("malformed path: {}", e.body_text())))
}

async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok" }))
}

async fn games(State(registry): State<Shared>) -> Json<Vec<GameInfo>> {
    Json(registry.games())
}

/// Runs work on the blocking pool: the statistics count every entry once. (A lookup is a few
/// dozen index computations and stays on the async workers.)
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        error: format!("the lookup failed: {e}"),
        valid: None,
    })?
}

async fn answer(
    State(registry): State<Shared>,
    path: Names,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Answer>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    registry.get(&game, &rules)?.answer(position.as_deref()).map(Json)
}

async fn mainline(
    State(registry): State<Shared>,
    path: Names,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Mainline>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    registry.get(&game, &rules)?.mainline(position.as_deref()).map(Json)
}

async fn view(
    State(registry): State<Shared>,
    path: Names,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<View>, ApiError> {
    let (game, rules) = names(path)?;
    let position = position_param(query)?;
    registry.get(&game, &rules)?.view(&game, &rules, position.as_deref()).map(Json)
}

async fn stats(State(registry): State<Shared>, path: Names) -> Result<Json<TableStats>, ApiError> {
    let (game, rules) = names(path)?;
    registry.get(&game, &rules)?;
    blocking(move || registry.stats(&game, &rules).cloned()).await.map(Json)
}

/// The page: one HTML file with its script and style, the only file the server serves.
const PAGE: &str = include_str!("../assets/explorer.html");

fn page_response() -> Response {
    ([(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))], Html(PAGE)).into_response()
}

async fn index_page() -> Response {
    page_response()
}

async fn table_page(State(registry): State<Shared>, path: Names) -> Result<Response, ApiError> {
    let (game, rules) = names(path)?;
    registry.get(&game, &rules)?;
    Ok(page_response())
}

async fn not_found(request: Request) -> ApiError {
    ApiError::not_found(format!("no such page: {}", cut(request.uri().path())))
}

/// One log line per request: method, path, status and time taken.
async fn log_request(request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let response = next.run(request).await;
    tracing::info!(
        target: "nana_server",
        "{method} {uri} {} {}us",
        response.status().as_u16(),
        start.elapsed().as_micros()
    );
    response
}

/// The server's routes over `registry`: the API, the page, open CORS for GET, one log line per
/// request.
pub fn router(registry: Arc<Registry>) -> Router {
    let cors = CorsLayer::new().allow_origin(Any).allow_methods([Method::GET]);
    Router::new()
        .route("/api/health", get(health))
        .route("/api/games", get(games))
        .route("/api/{game}/{rules}", get(answer))
        .route("/api/{game}/{rules}/mainline", get(mainline))
        .route("/api/{game}/{rules}/view", get(view))
        .route("/api/{game}/{rules}/stats", get(stats))
        .route("/", get(index_page))
        .route("/{game}/{rules}", get(table_page))
        .route("/{game}/{rules}/stats", get(table_page))
        .fallback(not_found)
        .with_state(registry)
        .layer(cors)
        .layer(middleware::from_fn(log_request))
}

/// Serves `router(registry)` on `listener` until `shutdown` completes, then lets the requests
/// under way finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    registry: Arc<Registry>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(registry)).with_graceful_shutdown(shutdown).await
}

/// Completes on Ctrl-C (SIGINT), or on SIGTERM on Unix.
pub async fn ctrl_c() {
    let interrupt = async {
        // Without a signal handler there is nothing to wait for: run until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    {
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! { _ = interrupt => {}, _ = terminate => {} }
    }
    #[cfg(not(unix))]
    interrupt.await;
}

/// `nana serve` in one call, for a caller without an async runtime: starts one, logs requests
/// to standard error (unless a `tracing` subscriber is installed already), binds `addr`, calls
/// `listening` with the address bound (port 0 picks one), and serves until Ctrl-C.
pub fn run(
    addr: SocketAddr,
    registry: Arc<Registry>,
    listening: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        listening(listener.local_addr()?);
        serve(listener, registry, ctrl_c()).await
    })
}
