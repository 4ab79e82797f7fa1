//! The explorer inside a web page: the answers of the HTTP API (`crates/server`), with the same
//! JSON types and errors, computed in WebAssembly over tables the page fetches by byte range.
//!
//! The page asks [`Site::handle`] for the URL it would ask the server (`/api/games`,
//! `/api/nana/current/view?fen=...`). The tables are [`Remote`]s: the bytes fetched so far.
//! Where an answer needs bytes not fetched yet, the answer is [`Outcome::Need`]: every range it
//! needs, found at once; the page fetches them all (HTTP Range requests, in parallel), hands
//! them over with [`Site::supply`] and asks again. A position's value and ranked moves need the
//! entries of the position and of every position a move leads to: before answering, each of
//! them is read once ([`Lazy`]'s prefetch), so that the first round finds every block's index
//! record and the second every block. Where a table stores every win as one value, its
//! distance searched, the entries two moves on are read as well where the answer searches them
//! (the position asked about, and the mainline's lost positions). The
//! tablebase reader keeps decoded blocks (its per-thread cache), so a block is fetched and
//! decoded once.
//!
//! A view's mainline takes two more rounds a ply (each ply ranks every move of its position):
//! while it is not whole, [`Outcome::Need`] carries the view so far, the value and the ranked
//! moves with the mainline as far as it is known, for the page to show at once.
//!
//! The games are composed here as the command line's registry composes them; the answers are
//! the server's own code ([`nana_server::Registry`], [`nana_server::Explorer`]), built without
//! its HTTP layer. [`abi`] is the module's interface to JavaScript.

pub mod abi;
mod error;
pub mod remote;
mod route;
mod sizes;

use std::sync::{Arc, OnceLock};

use nana_engine::Value;
use nana_front::{solve_command, Explorable, Game, Words};
use nana_probe::table::{Source, Table, TableRules};
use nana_probe::{Analysis, Wins};
use nana_server::{ApiError, Explorer, Mainline, Registry, Status, TableStats, View, DRAW_LINE};
use nana_tablebase::Tablebase;
use serde::Deserialize;

pub use error::WebError;
pub use remote::{Range, Remote, MERGE_GAP};
pub use sizes::{HEADER, TAIL, WHOLE_LIMIT};

const _: () = assert!(HEADER == nana_tablebase::HEADER_SIZE as u64, "sizes.rs: HEADER is the header's size");

/// A table file the site holds, as its `tables.json` lists it.
#[derive(Debug, Clone, Deserialize)]
pub struct SiteTable {
    pub file: String,
    pub size: u64,
}

/// What a request gets: the answer (its HTTP status and JSON body), or the byte ranges it needs
/// first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Answer {
        status: u16,
        body: String,
    },
    /// The ranges to fetch before asking again. For a view (`/api/{game}/{rules}/view`) whose
    /// value and ranked moves are known but not its whole mainline, `so_far` is the JSON of
    /// that view with the mainline (and its answer's mainline) as far as it is known: the
    /// server's [`View`], its mainline cut short.
    Need {
        ranges: Vec<Range>,
        so_far: Option<String>,
    },
}

/// A rule set's table as far as its bytes are fetched ([`Lazy`]).
trait Fetched: Send + Sync {
    /// The view of a position as far as the bytes fetched allow ([`Lazy::view_so_far`]).
    fn view_so_far(&self, game: &str, rules: &str, position: Option<&str>) -> Option<View>;
    /// The bytes of the table's block index, while they are not all fetched
    /// ([`Lazy::block_index`]).
    fn block_index(&self) -> Option<Range>;
}

/// The registry of every game's tables, as the page reads them.
pub struct Site {
    registry: Registry,
    remotes: Vec<Arc<Remote>>,
    /// Every rule set whose table the site holds: (game, rule set, its table).
    tables: Vec<(&'static str, &'static str, Arc<dyn Fetched>)>,
}

impl std::fmt::Debug for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Site").field("registry", &self.registry).field("remotes", &self.remotes).finish()
    }
}

impl Site {
    /// The site over the table files `tables` (those the site holds): every rule set of every
    /// game, served from its file if the site holds it, else reported missing with the command
    /// that makes it.
    pub fn new(tables: &[SiteTable]) -> Site {
        struct Adding<'a>(Site, &'a [SiteTable]);
        impl nana_catalog::Visit for Adding<'_> {
            fn game<G: nana_catalog::Complete>(&mut self) {
                self.0.add::<G>(self.1);
            }
        }
        let site = Site { registry: Registry::new(), remotes: Vec::new(), tables: Vec::new() };
        let mut adding = Adding(site, tables);
        nana_catalog::each_game(&mut adding);
        adding.0
    }

    fn add<G: Game>(&mut self, tables: &[SiteTable]) {
        for rule_set in G::RULE_SETS {
            let rules = rule_set.rules;
            let file = rules.file_name();
            let command = solve_command::<G>(&rules);
            match tables.iter().find(|t| t.file == file) {
                Some(t) => {
                    let remote = Arc::new(Remote::new(file, t.size, t.size <= WHOLE_LIMIT));
                    self.remotes.push(remote.clone());
                    let lazy = Arc::new(Lazy { rules, remote, command, table: OnceLock::new() });
                    self.tables.push((G::NAME, rule_set.name, lazy.clone()));
                    self.registry.add(G::NAME, rule_set.name, Box::new(lazy));
                }
                None => {
                    let command = format!("{command}, then write the site again");
                    let status = Status::Missing { file, command };
                    self.registry.add_pending(
                        G::NAME,
                        rule_set.name,
                        rules.describe(),
                        rules.words(),
                        status,
                        None,
                    );
                }
            }
        }
        for rule_set in G::RULE_SETS {
            self.registry.set_board(G::NAME, rule_set.name, nana_server::board_of(rule_set.rules));
        }
    }

    /// Answers the API's URL `url` (a path from `/api/`, with its query), or names the bytes
    /// it needs first.
    pub fn handle(&self, url: &str) -> Outcome {
        for remote in &self.remotes {
            remote.take_missing();
        }
        let answer = route::answer(&self.registry, url);
        let so_far = match &answer {
            Err(_) if self.remotes.iter().any(|r| r.wanting()) => self.view_so_far(url),
            _ => None,
        };
        let ranges: Vec<Range> = self.remotes.iter().flat_map(|r| r.take_missing()).collect();
        match answer {
            Err(_) if !ranges.is_empty() => Outcome::Need { ranges, so_far },
            Ok(body) => Outcome::Answer { status: 200, body },
            Err(e) => Outcome::Answer { status: e.code(), body: e.body() },
        }
    }

    /// The JSON of the view `url` asks for as far as the bytes fetched allow, if it is a view
    /// whose value and ranked moves are known.
    fn view_so_far(&self, url: &str) -> Option<String> {
        let (game, rules, position) = route::view_request(url)?;
        let (_, _, table) = self.tables.iter().find(|(g, r, _)| *g == game && *r == rules)?;
        let view = table.view_so_far(&game, &rules, position.as_deref())?;
        serde_json::to_string(&view).ok()
    }

    /// The block index of every table read by range that has been opened, while it is not
    /// fetched whole: for the page to fetch in the background once it has shown a view. With
    /// the index fetched (12 bytes a block, Dobutsu's 760 KB), each later ply of a mainline
    /// takes one round of fetching, its blocks, not two (the blocks' index records first).
    pub fn block_indexes(&self) -> Vec<Range> {
        self.tables.iter().filter_map(|(_, _, table)| table.block_index()).collect()
    }

    /// Keeps the fetched bytes `data` of `file` from `offset`.
    ///
    /// # Errors
    /// For a file the site does not hold, or bytes that are not whole pages of it.
    pub fn supply(&self, file: &str, offset: u64, data: &[u8]) -> Result<(), WebError> {
        let remote = self
            .remotes
            .iter()
            .find(|r| r.file() == file)
            .ok_or_else(|| WebError::NoTable(file.to_string()))?;
        remote.supply(offset, data)
    }
}

/// A rule set's table, opened the first time it is asked for once its header has been fetched.
struct Lazy<R> {
    rules: R,
    remote: Arc<Remote>,
    /// The command that makes the table.
    command: String,
    table: OnceLock<Table<R>>,
}

impl<R> Lazy<R>
where
    R: Explorable + Clone + Send + Sync + 'static,
{
    /// The table, opened (its header and histogram read) on first use; an error while the bytes
    /// are not fetched (their pages are then wanted) or where the file is not the table.
    fn table(&self) -> Result<&Table<R>, ApiError> {
        if let Some(table) = self.table.get() {
            return Ok(table);
        }
        let file = self.remote.file().to_string();
        let damaged = |e: String| ApiError::Damaged(format!("{e}; make it again with `{}`", self.command));
        let tb =
            Tablebase::from_reader(Box::new(remote::Shared(self.remote.clone())), &file).map_err(|e| {
                // The histogram, at the file's end, is wanted in the same round as the header.
                self.remote.want(self.remote.len().saturating_sub(TAIL), self.remote.len());
                damaged(format!("{file}: {e}"))
            })?;
        let table = Table::from_tablebase(self.rules.clone(), tb).map_err(|e| damaged(e.to_string()))?;
        Ok(self.table.get_or_init(|| table))
    }

    /// Reads the entries an answer about `position` reads, as far as the bytes fetched so far
    /// allow, whatever they hold: those of the position and of every position a move leads to,
    /// then the same along the mainline for as long as its best move is known. Each entry whose
    /// bytes are not fetched yet is wanted: one round of fetching finds every block's index
    /// record that the next ply of the answer needs, the next round every such block.
    fn prefetch(&self, position: Option<&str>) {
        let Ok(table) = self.table() else { return };
        let Ok(mut pos) = nana_server::request::position(&self.rules, position) else { return };
        let probe = table.probe();
        let mut draw_plies = 0;
        // Where wins' distances are searched, a won position's value reads the entries of the
        // positions its moves lead to. Those of every move's moves are read in the same round
        // where the answer searches them: for the position asked about (its moves ranked) and
        // for a lost one (its best move is the slowest win), not for the mainline's others.
        let searched = probe.wins() == Wins::Searched;
        for ply in 0..MAX_PREFETCH_PLIES {
            let lost = matches!(probe.stored_value(&pos), Ok(Value::Loss(_)));
            self.rules.for_each_move(&pos, |_, child| {
                let _ = probe.stored_value(child);
                if searched && (ply == 0 || lost) {
                    self.rules.for_each_move(child, |_, next| {
                        let _ = probe.stored_value(next);
                    });
                }
            });
            let value = probe.value(&pos);
            let Ok(value) = value else { return };
            if value.dtm().is_none() {
                draw_plies += 1;
                if draw_plies > nana_server::DRAW_LINE {
                    return;
                }
            }
            match probe.best_move(&pos) {
                Ok(Some(best)) => pos = best.child,
                _ => return,
            }
        }
    }
}

impl<R> Fetched for Lazy<R>
where
    R: Explorable + Clone + Send + Sync + 'static,
{
    /// The view of `position` with its mainline as far as the bytes fetched allow: `None`
    /// until its value and every move's are known.
    fn view_so_far(&self, game: &str, rules: &str, position: Option<&str>) -> Option<View> {
        let table = self.table().ok()?;
        let pos = nana_server::request::position(&self.rules, position).ok()?;
        let probe = table.probe();
        let value = probe.value(&pos).ok()?;
        let moves = probe.ranked_moves(&pos).ok()?;
        let (mainline, _) = probe.walk_so_far(&pos, DRAW_LINE);
        Some(nana_server::view_of(&probe, game, rules, &pos, &Analysis { value, moves, mainline }))
    }

    /// `None` for a table fetched whole, a plain one, one not opened yet, or one whose index is
    /// fetched.
    fn block_index(&self) -> Option<Range> {
        if self.remote.whole() {
            return None;
        }
        let Source::File(tb) = self.table.get()?.source() else { return None };
        let index = tb.block_index()?;
        let file = self.remote.file().to_string();
        (!self.remote.has(index.start, index.end)).then_some(Range {
            file,
            start: index.start,
            end: index.end,
        })
    }
}

/// How far along the mainline [`Lazy::prefetch`] reads ahead: past the longest win of any
/// table (Dobutsu's, 78 plies from the start), and no further for a draw (whose line is cut
/// short by the answer).
const MAX_PREFETCH_PLIES: usize = 256;

impl<R> Explorer for Lazy<R>
where
    R: Explorable + Clone + Send + Sync + 'static,
{
    fn description(&self) -> String {
        self.rules.describe()
    }

    fn origin(&self) -> String {
        self.remote.file().to_string()
    }

    fn answer(&self, position: Option<&str>) -> Result<nana_probe::Answer, ApiError> {
        self.prefetch(position);
        Explorer::answer(self.table()?, position)
    }

    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError> {
        self.prefetch(position);
        Explorer::mainline(self.table()?, position)
    }

    fn view(&self, game: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError> {
        self.prefetch(position);
        Explorer::view(self.table()?, game, rules, position)
    }

    /// A table fetched whole counts every entry, as the server does. A table read by range
    /// (Dobutsu's) gives the counts of its histogram, read when it was opened: the entries of
    /// each value and of each distance, the longest win and loss; not the longest wins, which
    /// only a read of every entry finds (the list is empty, and the answer says so:
    /// `"longest_wins_omitted": true`).
    fn stats(&self) -> Result<TableStats, ApiError> {
        let table = self.table()?;
        if self.remote.whole() {
            return Explorer::stats(table);
        }
        let Source::File(tb) = table.source() else { return Explorer::stats(table) };
        if tb.histogram().is_none() {
            return Err(ApiError::Internal(format!(
                "the statistics read every entry of {} ({} MB), which this page fetches by range, \
                 a position at a time: `nana serve` shows them",
                self.remote.file(),
                self.remote.len() >> 20
            )));
        }
        let s = table.stats();
        Ok(TableStats {
            description: self.rules.describe(),
            origin: self.remote.file().to_string(),
            entries: s.wins + s.losses + s.draws + s.illegal,
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            unused: s.illegal,
            max_dtm: s.max_dtm,
            longest_win: nana_server::longest_at(&s.per_dtm, 1),
            longest_loss: nana_server::longest_at(&s.per_dtm, 0),
            per_dtm: s.per_dtm.clone(),
            longest_wins: Vec::new(),
            longest_wins_omitted: true,
        })
    }

    fn words(&self) -> Words {
        self.rules.words()
    }
}
