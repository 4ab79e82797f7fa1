//! The tables a server serves ([`Registry`]) and the state of each rule set ([`Status`]):
//! ready, waiting for its solve, being solved (with the solve's progress), missing or damaged.
//!
//! At start each rule set of a game is opened from its file in the tablebase folder
//! ([`add_game`]); a missing one is
//! queued, and [`Registry::solve_queued`] solves the queue on a thread of its own, smallest
//! table first, one at a time, while the server answers: each table solved is written to the
//! folder (atomically, by the tablebase writer), so a restart opens it, and then served.
//!
//! Long: every state a rule set's table goes through, and the moves between them,
//! read together; its tests are a twentieth of it.

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

use nana_engine::{PhasePlan, Progress, SolveError};
use nana_front::{Explorable, Words};
use serde::Serialize;

use crate::error::ApiError;
use crate::explorer::Explorer;
use crate::response::{BoardView, GameInfo, Health, RuleSetInfo, RuleSetState, TableStats};

#[cfg(feature = "files")]
mod file;
#[cfg(feature = "files")]
pub use file::add_game;

/// What to do when a table's file is missing at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Solve it in the background, write it to the tablebase folder, then serve it.
    Solve,
    /// Report it as missing (`nana serve --no-solve`).
    Refuse,
}

/// How far a solve has got: the engine's current phase, its number among the phases announced
/// (from 1) and how many there are, its units of work done and in all (0 for a phase that does
/// not count), the seconds the phase has left at its rate so far (none before a share is done,
/// or for a phase that does not count), and the seconds since the solve began.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SolveProgress {
    pub phase: String,
    pub step: usize,
    pub steps: usize,
    pub done: u64,
    pub total: u64,
    pub phase_seconds_left: Option<u64>,
    pub seconds: u64,
}

impl SolveProgress {
    /// `phase 3 of 3 (retrograde), 42% of it, about 20 s left in it, 35 s so far`.
    fn words(&self) -> String {
        let share = match self.total {
            0 => String::new(),
            total => format!(", {}% of it", self.done.min(total) * 100 / total),
        };
        let left = self.phase_seconds_left.map_or(String::new(), |s| format!(", about {s} s left in it"));
        format!(
            "phase {} of {} ({}){share}{left}, {} s so far",
            self.step, self.steps, self.phase, self.seconds
        )
    }
}

/// A rule set's state, as `/api/health` and `/api/games` report it (`"state": "ready"`, ...,
/// with the fields of its kind beside it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Served; `origin` is the table's file name, or "solved in memory".
    Ready { origin: String },
    /// Waiting for the solves before it.
    Queued,
    /// Being solved.
    Solving { progress: SolveProgress },
    /// No file, and solving was turned off: `file` in the tablebase folder, made by `command`.
    Missing { file: String, command: String },
    /// The file cannot be served (damaged, of another format, rule set or game): why, and the
    /// command that makes it again.
    Damaged { file: String, error: String, command: String },
    /// The solve failed.
    Failed { error: String },
}

impl Status {
    /// Whether the rule set will be served once its solve is done.
    pub fn pending(&self) -> bool {
        matches!(self, Status::Queued | Status::Solving { .. })
    }

    /// Why the rule set `game rules` is not served, in a sentence.
    pub fn why_not(&self, game: &str, rules: &str) -> String {
        match self {
            Status::Ready { .. } => format!("{game} {rules} is ready"),
            Status::Queued => {
                format!("the table of {game} {rules} is not ready: it waits for the solves before it")
            }
            Status::Solving { progress } => {
                format!("the table of {game} {rules} is not ready: being solved ({})", progress.words())
            }
            Status::Missing { file, command } => format!(
                "no table for {game} {rules}: {file} is missing and solving at start was turned off; \
                 make it with `{command}`"
            ),
            Status::Damaged { error, command, .. } => {
                format!(
                    "the table of {game} {rules} cannot be served: {error}; make it again with `{command}`"
                )
            }
            Status::Failed { error } => format!("the solve of {game} {rules} failed: {error}"),
        }
    }
}

/// The engine's progress, kept for [`Status::Solving`] and passed on to `forward` (a progress
/// bar on the console).
struct Tracker {
    plan: Mutex<PhasePlan>,
    /// The current phase: its name, number, how many there are, its units and when it began.
    phase: Mutex<(String, (usize, usize), u64, Instant)>,
    done: AtomicU64,
    start: Instant,
    forward: Box<dyn Progress + Send>,
}

impl Tracker {
    fn snapshot(&self) -> SolveProgress {
        let (phase, (step, steps), total, began) =
            self.phase.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let done = self.done.load(Ordering::Relaxed).min(total);
        // The phase's rate so far, once some of it is done.
        let elapsed = began.elapsed().as_secs_f64();
        let phase_seconds_left =
            (done > 0 && total > 0).then(|| (elapsed * (total - done) as f64 / done as f64).round() as u64);
        SolveProgress {
            phase,
            step,
            steps,
            done,
            total,
            phase_seconds_left,
            seconds: self.start.elapsed().as_secs(),
        }
    }
}

impl Progress for Tracker {
    fn plan(&self, phases: &[&str]) {
        self.plan.lock().unwrap_or_else(|e| e.into_inner()).announce(phases);
        self.forward.plan(phases);
    }
    fn begin(&self, phase: &str, total: u64) {
        let number = self.plan.lock().unwrap_or_else(|e| e.into_inner()).number(phase);
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) =
            (phase.to_string(), number, total, Instant::now());
        self.done.store(0, Ordering::Relaxed);
        self.forward.begin(phase, total);
    }
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.forward.advance(n);
    }
    fn end(&self) {
        self.forward.end();
    }
}

/// A table a solve made, and what became of its file (for the console).
pub struct Solved {
    pub table: Box<dyn Explorer>,
    /// `saved to tablebase/dobutsu-tanaka.tb`, or why it could not be.
    pub note: String,
}

impl fmt::Debug for Solved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solved").field("origin", &self.table.origin()).field("note", &self.note).finish()
    }
}

/// A queued solve: makes the table, reporting to the progress given.
pub type SolveJob = Box<dyn FnOnce(&dyn Progress) -> Result<Solved, SolveError> + Send>;

struct Job {
    game: String,
    rules: String,
    /// Index entries: the smallest table is solved first.
    entries: u64,
    run: SolveJob,
}

enum Slot {
    Ready(Arc<dyn Explorer>),
    Solving(Arc<Tracker>),
    /// Any other state.
    Other(Status),
}

/// How a rule set draws a position from its string, with no table: [`board_of`].
pub type BoardFn = Box<dyn Fn(Option<&str>) -> Result<BoardView, ApiError> + Send + Sync>;

/// How `rules` draws a position (`None`: the start), whatever the state of its table: what the
/// page shows while the table is being solved.
pub fn board_of<R: Explorable + Send + Sync + 'static>(rules: R) -> BoardFn {
    Box::new(move |position| {
        let pos = crate::request::position(&rules, position)?;
        Ok(BoardView { fen: rules.position_string(&pos), board: rules.board(&pos), palette: rules.palette() })
    })
}

struct ServedRuleSet {
    name: String,
    description: String,
    slot: RwLock<Slot>,
    stats: OnceLock<TableStats>,
    board: Option<BoardFn>,
}

impl ServedRuleSet {
    fn status(&self) -> Status {
        match &*self.slot.read().unwrap_or_else(|e| e.into_inner()) {
            Slot::Ready(table) => Status::Ready { origin: table.origin() },
            Slot::Solving(tracker) => Status::Solving { progress: tracker.snapshot() },
            Slot::Other(status) => status.clone(),
        }
    }

    fn set(&self, slot: Slot) {
        *self.slot.write().unwrap_or_else(|e| e.into_inner()) = slot;
    }
}

struct GameTables {
    name: String,
    words: Words,
    rule_sets: Vec<ServedRuleSet>,
}

/// The tables a server serves: games by name (`nana`), each with its rule sets by name
/// (`current`, `original`) in the order added (the first is the page's default), each in its
/// state ([`Status`]), and the solves queued.
#[derive(Default)]
pub struct Registry {
    games: Vec<GameTables>,
    queue: Mutex<Vec<Job>>,
    /// Held while a table's statistics are counted: one count at a time, since a count holds
    /// the whole table decoded (Dobutsu's: hundreds of MB), and requests that come meanwhile
    /// wait for it and read what it kept rather than counting again.
    counting: Mutex<()>,
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

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds (or replaces) the rule set `rules` of `game` in the state `slot`; the game's words
    /// are those of its first rule set.
    fn put(&mut self, game: &str, rules: &str, description: String, words: Words, slot: Slot) {
        let rule_set = ServedRuleSet {
            name: rules.to_string(),
            description,
            slot: RwLock::new(slot),
            stats: OnceLock::new(),
            board: None,
        };
        match self.games.iter_mut().find(|g| g.name == game) {
            Some(g) => match g.rule_sets.iter_mut().find(|r| r.name == rules) {
                Some(r) => *r = rule_set,
                None => g.rule_sets.push(rule_set),
            },
            None => self.games.push(GameTables { name: game.to_string(), words, rule_sets: vec![rule_set] }),
        }
    }

    /// Adds (or replaces) the table of rule set `rules` of `game`, ready.
    pub fn add(&mut self, game: &str, rules: &str, table: Box<dyn Explorer>) {
        let (description, words) = (table.description(), table.words());
        self.put(game, rules, description, words, Slot::Ready(Arc::from(table)));
    }

    /// Adds the rule set `rules` of `game` in a state other than ready (`status` is not
    /// [`Status::Ready`]); for [`Status::Queued`], `solve` makes its table.
    pub fn add_pending(
        &mut self,
        game: &str,
        rules: &str,
        description: String,
        words: Words,
        status: Status,
        solve: Option<(u64, SolveJob)>,
    ) {
        if let Some((entries, run)) = solve {
            let job = Job { game: game.to_string(), rules: rules.to_string(), entries, run };
            self.queue.get_mut().unwrap_or_else(|e| e.into_inner()).push(job);
        }
        self.put(game, rules, description, words, Slot::Other(status));
    }

    /// Sets how the rule set `rules` of `game` (added before) draws a position without its
    /// table ([`board_of`]).
    pub fn set_board(&mut self, game: &str, rules: &str, board: BoardFn) {
        if let Some(r) = self
            .games
            .iter_mut()
            .find(|g| g.name == game)
            .and_then(|g| g.rule_sets.iter_mut().find(|r| r.name == rules))
        {
            r.board = Some(board);
        }
    }

    /// A position of a rule set drawn without its table, ready or not: a 404 for an unknown rule
    /// set or one that cannot draw (none set), a 400 for a malformed position.
    pub fn board(&self, game: &str, rules: &str, position: Option<&str>) -> Result<BoardView, ApiError> {
        let r = self.rule_set(game, rules)?;
        let draw =
            r.board.as_ref().ok_or_else(|| ApiError::NoSuchPage(format!("/api/{game}/{rules}/board")))?;
        draw(position)
    }

    /// Every game with its rule sets and their states.
    pub fn games(&self) -> Vec<GameInfo> {
        self.games
            .iter()
            .map(|g| GameInfo {
                game: g.name.clone(),
                words: g.words.clone(),
                rule_sets: g
                    .rule_sets
                    .iter()
                    .map(|r| RuleSetInfo {
                        name: r.name.clone(),
                        description: r.description.clone(),
                        status: r.status(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// `/api/health`: `ok` when every rule set is served, `solving` while some wait for their
    /// solve, `degraded` when some will not be served; and every rule set's state.
    pub fn health(&self) -> Health {
        let mut states = Vec::new();
        for g in &self.games {
            for r in &g.rule_sets {
                states.push(RuleSetState { game: g.name.clone(), rules: r.name.clone(), status: r.status() });
            }
        }
        let status = if states.iter().all(|s| matches!(s.status, Status::Ready { .. })) {
            "ok"
        } else if states.iter().all(|s| matches!(s.status, Status::Ready { .. }) || s.status.pending()) {
            "solving"
        } else {
            "degraded"
        };
        Health { status, rule_sets: states }
    }

    /// Every rule set that is not served and will not be (missing, damaged, failed), in a
    /// sentence each.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for g in &self.games {
            for r in &g.rule_sets {
                let status = r.status();
                if !matches!(status, Status::Ready { .. }) && !status.pending() {
                    out.push(status.why_not(&g.name, &r.name));
                }
            }
        }
        out
    }

    /// Whether any rule set is served or will be.
    pub fn serves_anything(&self) -> bool {
        self.games.iter().flat_map(|g| &g.rule_sets).any(|r| {
            let status = r.status();
            matches!(status, Status::Ready { .. }) || status.pending()
        })
    }

    fn rule_set(&self, game: &str, rules: &str) -> Result<&ServedRuleSet, ApiError> {
        let Some(g) = self.games.iter().find(|g| g.name == game) else {
            return Err(ApiError::UnknownGame {
                name: game.to_string(),
                valid: self.games.iter().map(|g| g.name.clone()).collect(),
            });
        };
        g.rule_sets.iter().find(|r| r.name == rules).ok_or_else(|| ApiError::UnknownRuleSet {
            game: game.to_string(),
            name: rules.to_string(),
            valid: g.rule_sets.iter().map(|r| r.name.clone()).collect(),
        })
    }

    /// Whether `game` has a rule set `rules`, ready or not; a 404 listing the valid names
    /// otherwise.
    pub fn exists(&self, game: &str, rules: &str) -> Result<(), ApiError> {
        self.rule_set(game, rules).map(|_| ())
    }

    /// The table of a rule set of a game; a 404 listing the valid names for an unknown one, a
    /// 503 with its state for one not ready.
    pub fn get(&self, game: &str, rules: &str) -> Result<Arc<dyn Explorer>, ApiError> {
        let r = self.rule_set(game, rules)?;
        if let Slot::Ready(table) = &*r.slot.read().unwrap_or_else(|e| e.into_inner()) {
            return Ok(table.clone());
        }
        Err(ApiError::NotReady {
            game: game.to_string(),
            rules: rules.to_string(),
            status: Box::new(r.status()),
        })
    }

    /// The table of a rule set of a game to answer about `position`: as [`Registry::get`], but
    /// a malformed position is a 400 whatever the state of the table, read by the rule set's
    /// rules ([`board_of`]) where the table is not ready.
    pub fn get_for(
        &self,
        game: &str,
        rules: &str,
        position: Option<&str>,
    ) -> Result<Arc<dyn Explorer>, ApiError> {
        let not_ready = match self.get(game, rules) {
            Err(e @ ApiError::NotReady { .. }) => e,
            ready_or_unknown => return ready_or_unknown,
        };
        if let Some(draw) = &self.rule_set(game, rules)?.board {
            draw(position)?;
        }
        Err(not_ready)
    }

    /// A table's statistics, counted on first use, one table at a time; an error (a damaged
    /// block) is not kept.
    pub fn stats(&self, game: &str, rules: &str) -> Result<TableStats, ApiError> {
        let table = self.get(game, rules)?;
        let r = self.rule_set(game, rules)?;
        if let Some(stats) = r.stats.get() {
            return Ok(stats.clone());
        }
        let _counting = self.counting.lock().unwrap_or_else(|e| e.into_inner());
        // Counted while this request waited its turn.
        if let Some(stats) = r.stats.get() {
            return Ok(stats.clone());
        }
        let stats = table.stats()?;
        Ok(r.stats.get_or_init(|| stats).clone())
    }

    /// Solves the queued rule sets on a thread of its own, the smallest table first, one at a
    /// time, each served once made. `progress` makes a progress report to pass a solve's
    /// progress on to (from the game's and the rule set's names); `note` is told when a solve
    /// begins and how it ended. `None` when nothing is queued.
    pub fn solve_queued(
        self: &Arc<Registry>,
        progress: impl Fn(&str, &str) -> Box<dyn Progress + Send> + Send + 'static,
        note: impl Fn(&str) + Send + 'static,
    ) -> Option<std::thread::JoinHandle<()>> {
        let mut jobs = std::mem::take(&mut *self.queue.lock().unwrap_or_else(|e| e.into_inner()));
        if jobs.is_empty() {
            return None;
        }
        // Stable: tables of one size keep the order they were added in.
        jobs.sort_by_key(|j| j.entries);
        let registry = self.clone();
        Some(std::thread::spawn(move || {
            for job in jobs {
                let Ok(r) = registry.rule_set(&job.game, &job.rules) else { continue };
                let tracker = Arc::new(Tracker {
                    plan: Mutex::new(PhasePlan::default()),
                    phase: Mutex::new(("starting".to_string(), (1, 1), 0, Instant::now())),
                    done: AtomicU64::new(0),
                    start: Instant::now(),
                    forward: progress(&job.game, &job.rules),
                });
                r.set(Slot::Solving(tracker.clone()));
                note(&format!("solving {} {} ({})", job.game, job.rules, r.description));
                let solved = (job.run)(tracker.as_ref());
                let seconds = tracker.start.elapsed().as_secs_f64();
                match solved {
                    Ok(Solved { table, note: saved }) => {
                        r.set(Slot::Ready(Arc::from(table)));
                        note(&format!(
                            "{} {} solved in {seconds:.1} s and served; {saved}",
                            job.game, job.rules
                        ));
                    }
                    Err(error) => {
                        note(&format!("the solve of {} {} failed: {error}", job.game, job.rules));
                        r.set(Slot::Other(Status::Failed { error: error.to_string() }));
                    }
                }
            }
        }))
    }
}

/// The file name of `path`, for what the server shows: no folder of the server's is given away.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| "the table".to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solve's progress numbers its phase among those announced and estimates the phase's
    /// time left from its rate once some of it is done; the words say both.
    #[test]
    fn progress_numbers_the_phase_and_estimates_its_time_left() {
        let tracker = Tracker {
            plan: Mutex::new(PhasePlan::default()),
            phase: Mutex::new(("starting".to_string(), (1, 1), 0, Instant::now())),
            done: AtomicU64::new(0),
            start: Instant::now(),
            forward: Box::new(nana_engine::NoProgress),
        };
        tracker.plan(&["survey", "count moves", "retrograde"]);
        tracker.plan(&["count moves", "retrograde"]);
        tracker.begin("count moves", 100);
        let p = tracker.snapshot();
        assert_eq!((p.phase.as_str(), p.step, p.steps, p.phase_seconds_left), ("count moves", 2, 3, None));
        assert!(p.words().starts_with("phase 2 of 3 (count moves), 0% of it, "), "{}", p.words());
        std::thread::sleep(std::time::Duration::from_millis(20));
        tracker.advance(50);
        let p = tracker.snapshot();
        assert_eq!(p.phase_seconds_left, Some(0), "half done in 20 ms: about as long again");
        assert!(p.words().contains("50% of it, about 0 s left in it, "), "{}", p.words());
        tracker.begin("write", 0);
        let p = tracker.snapshot();
        assert_eq!((p.step, p.steps, p.phase_seconds_left), (4, 4, None));
    }
}
