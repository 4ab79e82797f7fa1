//! One game behind the protocol: its rule options, its tables, the position a GUI set and the
//! answers to `go` and `go perft`, generic over the roles of a game the engine uses: the front
//! layer's [`Game`], [`Perft`] and [`ProtocolNotation`]. [`DynEngine`] is its object-safe
//! face, so that one engine holds games of different types: a list of fresh engines, one a
//! game ([`GameEngine::boxed`]).

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nana_engine::{Progress, Value};
use nana_front::{solve_command, Dialect, Game, Mv, Perft, Pos, PositionForm, ProtocolNotation};
use nana_probe::table::{Table, TableRules};
use nana_probe::{ProbeRules, Ranked};

use crate::error::EngineError;
use crate::options::{EngineOption, OptionKind};
use crate::{score, Search};

/// A drawing line in a `pv` stops after this many plies.
const DRAW_PV: usize = 12;

/// The deepest `go perft` answered (deeper trees take minutes and block the engine).
pub const PERFT_MAX: u32 = 10;

/// `Dobutsu` for `dobutsu`.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The name of a game's rule-set option: `DobutsuRules`.
pub fn rules_option<G: ProtocolNotation>() -> String {
    format!("{}Rules", capitalised(G::PROTOCOL_NAME))
}

/// The name of a rule switch's option: `NanaDropStalemate` for Nana's `drop-stalemate`.
pub fn switch_option<G: ProtocolNotation>(flag: &str) -> String {
    let words: String = flag.split('-').map(capitalised).collect();
    format!("{}{words}", capitalised(G::PROTOCOL_NAME))
}

/// What `go` answers: the `info` lines and the move (`None`: no move, the game is over).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoAnswer {
    pub info: Vec<String>,
    pub best: BestMove,
}

/// The word after `bestmove`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BestMove {
    Move(String),
    /// The game is over with the side to move the winner (`win` over USI).
    Won,
    /// The game is over otherwise, or no position was read.
    None,
}

/// A game's engine, whatever its type.
pub trait DynEngine {
    /// Its game's value of `UCI_Variant` ([`ProtocolNotation::PROTOCOL_NAME`]).
    fn protocol_name(&self) -> &'static str;
    /// Its game's rule options: the rule set and each rule switch.
    fn options(&self) -> Vec<EngineOption>;
    /// Sets one of the game's options; `None` where `name` is not one of them.
    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), EngineError>>;
    /// The rule set in words.
    fn describe(&self) -> String;
    /// Opens the table of the rule set from `dir` (or solves it in memory where it is missing,
    /// with progress through `say`), unless it is open already. `abandon` is asked while a
    /// missing table is solved: where it says so, [`EngineError::Abandoned`] comes back at
    /// once, the solve's thread left to run until it ends or the process does (it writes no file).
    fn load(
        &mut self,
        dir: &Path,
        say: &mut dyn FnMut(String),
        abandon: &mut dyn FnMut() -> bool,
    ) -> Result<(), EngineError>;
    /// Forgets the tables opened (the folder changed).
    fn forget_tables(&mut self);
    /// The start position.
    fn reset(&mut self);
    /// Sets the position of a `position` command: the start (`None`) or a position in `form`,
    /// then `moves` in the dialect's notation. On an error the engine has no position until
    /// the next one is read.
    fn set_position(
        &mut self,
        position: Option<(PositionForm, &str)>,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(), EngineError>;
    /// Forgets the position: no answer to `go` until the next `position` is read.
    fn clear_position(&mut self);
    /// The position set, in `form` (`None`: none was read).
    fn position(&self, form: PositionForm) -> Option<String>;
    /// The answer to `go` from the table (which [`DynEngine::load`] opened).
    fn go(&self, dialect: Dialect, search: &Search) -> Result<GoAnswer, EngineError>;
    /// `go perft depth`: each move with its count, then the total.
    fn perft(&self, dialect: Dialect, depth: u32) -> Result<(Vec<(String, u64)>, u64), EngineError>;
}

/// The state of one game.
pub struct GameEngine<G: Game + Perft + ProtocolNotation> {
    rule_set: usize,
    switches: Vec<bool>,
    tables: Vec<Table<G::Rules>>,
    position: Option<Pos<G>>,
}

impl<G: Game + Perft + ProtocolNotation> GameEngine<G> {
    /// A lookup's error, with the command that makes the table again where it is damaged.
    fn probe_error(&self, e: nana_probe::ProbeError) -> EngineError {
        EngineError::probe(e, || solve_command::<G>(&self.rules()))
    }

    /// A fresh engine for the game, for [`crate::Setup`]'s list: its default rules, its start
    /// position, no table open.
    pub fn boxed() -> Box<dyn DynEngine> {
        Box::new(GameEngine::<G>::new())
    }

    pub fn new() -> GameEngine<G> {
        let rules = G::RULE_SETS[0].rules;
        GameEngine {
            rule_set: 0,
            switches: G::OPTIONS.iter().map(|o| o.default).collect(),
            tables: Vec::new(),
            position: Some(rules.start()),
        }
    }

    /// The same engine with `table` open: its rule set answered from it, whatever its bytes'
    /// source (a file, bytes in memory, any other reader of them), and never loaded from
    /// the folder.
    #[must_use]
    pub fn with_table(mut self, table: Table<G::Rules>) -> GameEngine<G> {
        self.tables.retain(|t| t.game() != table.game());
        self.tables.push(table);
        self
    }

    fn rules(&self) -> G::Rules {
        G::with_options(G::RULE_SETS[self.rule_set].rules, &self.switches)
    }

    fn table(&self) -> Option<&Table<G::Rules>> {
        let rules = self.rules();
        self.tables.iter().find(|t| *t.game() == rules)
    }

    /// The principal variation after `first`: the best moves to the end, a drawing line of
    /// [`DRAW_PV`] plies.
    fn pv(
        &self,
        pos: &Pos<G>,
        first: &Ranked<G::Rules>,
        dialect: Dialect,
    ) -> Result<Vec<String>, EngineError> {
        let rules = self.rules();
        let probe = self.table().ok_or(EngineError::NoTable)?.probe();
        let mut pv = vec![G::protocol_move(&rules, pos, first.mv, dialect)];
        let line = probe.walk(&first.child, DRAW_PV - 1).map_err(|e| self.probe_error(e))?;
        for ply in &line {
            pv.push(G::protocol_move(&rules, &ply.from, ply.ranked.mv, dialect));
        }
        Ok(pv)
    }

    /// The move played at strength `search.strength` ([`crate::choose`]).
    fn choose<'m>(
        &self,
        pos: &Pos<G>,
        moves: &'m [Ranked<G::Rules>],
        search: &Search,
    ) -> &'m Ranked<G::Rules> {
        let text = G::protocol_position(&self.rules(), pos, PositionForm::Fen);
        &moves[crate::choose(moves.len(), search.strength, search.seed, &text)]
    }
}

impl<G: Game + Perft + ProtocolNotation> std::fmt::Debug for GameEngine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEngine")
            .field("rules", &self.rules())
            .field("tables", &self.tables.len())
            .field("position", &self.position(PositionForm::Fen))
            .finish()
    }
}

impl<G: Game + Perft + ProtocolNotation> Default for GameEngine<G> {
    fn default() -> Self {
        GameEngine::new()
    }
}

/// A solve's progress, read by the thread that writes the `info string` lines.
#[derive(Debug, Default)]
struct Shared {
    phase: Mutex<(String, u64)>,
    done: AtomicU64,
}

impl Progress for Shared {
    fn begin(&self, phase: &str, total: u64) {
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) = (phase.to_string(), total);
        self.done.store(0, Ordering::Relaxed);
    }

    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    fn end(&self) {}
}

impl<G: Game + Perft + ProtocolNotation> DynEngine for GameEngine<G> {
    fn protocol_name(&self) -> &'static str {
        G::PROTOCOL_NAME
    }

    fn options(&self) -> Vec<EngineOption> {
        let mut options = vec![EngineOption {
            name: rules_option::<G>(),
            kind: OptionKind::Combo {
                default: G::RULE_SETS[0].name,
                vars: G::RULE_SETS.iter().map(|r| r.name).collect(),
            },
        }];
        for o in G::OPTIONS {
            options
                .push(EngineOption { name: switch_option::<G>(o.name), kind: OptionKind::Check(o.default) });
        }
        options
    }

    fn set_option(&mut self, name: &str, value: &str) -> Option<Result<(), EngineError>> {
        if name.eq_ignore_ascii_case(&rules_option::<G>()) {
            return Some(match G::RULE_SETS.iter().position(|r| r.name.eq_ignore_ascii_case(value)) {
                Some(i) => {
                    self.rule_set = i;
                    self.reset();
                    Ok(())
                }
                None => Err(EngineError::UnknownRuleSet {
                    option: name.to_string(),
                    value: value.to_string(),
                    known: G::RULE_SETS.iter().map(|r| r.name).collect(),
                }),
            });
        }
        let i = G::OPTIONS.iter().position(|o| name.eq_ignore_ascii_case(&switch_option::<G>(o.name)))?;
        Some(match value.to_ascii_lowercase().as_str() {
            "true" | "on" => {
                self.switches[i] = true;
                self.reset();
                Ok(())
            }
            "false" | "off" => {
                self.switches[i] = false;
                self.reset();
                Ok(())
            }
            _ => Err(EngineError::NotBoolean { option: name.to_string(), value: value.to_string() }),
        })
    }

    fn describe(&self) -> String {
        format!("{} rules \"{}\"", G::PROTOCOL_NAME, self.rules().describe())
    }

    fn load(
        &mut self,
        dir: &Path,
        say: &mut dyn FnMut(String),
        abandon: &mut dyn FnMut() -> bool,
    ) -> Result<(), EngineError> {
        if self.table().is_some() {
            return Ok(());
        }
        let rules = self.rules();
        let path = dir.join(rules.file_name());
        let start = Instant::now();
        let solving = !path.exists();
        if solving {
            say(format!(
                "no table at {}: solving {} in memory (`{}` keeps one)",
                path.display(),
                self.describe(),
                solve_command::<G>(&rules)
            ));
        }
        let shared = Arc::new(Shared::default());
        let (sender, finished) = mpsc::channel();
        // A thread of its own, not a scoped one: an abandoned solve is not waited for.
        std::thread::spawn({
            let (shared, dir) = (shared.clone(), dir.to_path_buf());
            move || {
                let table = Table::load_or_solve(rules, None, &dir, &*shared, |_, _| {})
                    .map_err(|e| EngineError::table(e, || solve_command::<G>(&rules)));
                // Nobody receives it where the solve was abandoned.
                let _ = sender.send(table);
            }
        });
        let mut said = Instant::now();
        // Woken as soon as the table is ready (opening a file takes milliseconds); every 50 ms
        // until then, to see whether a solve is abandoned and to say how far it is.
        let table = loop {
            match finished.recv_timeout(Duration::from_millis(50)) {
                Ok(table) => break table?,
                // The thread ended without sending: it panicked.
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::SolvePanicked),
                Err(RecvTimeoutError::Timeout) => {}
            }
            // Only a solve is abandoned: opening a file takes no time worth saving.
            if solving && abandon() {
                return Err(EngineError::Abandoned);
            }
            if said.elapsed() >= Duration::from_secs(2) {
                said = Instant::now();
                let (phase, total) = shared.phase.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let done = shared.done.load(Ordering::Relaxed);
                let percent = (done.min(total) * 100).checked_div(total).unwrap_or(0);
                say(format!("solving: {phase} {percent}%"));
            }
        };
        if solving {
            say(format!("solved in {:.1} s", start.elapsed().as_secs_f64()));
        } else {
            say(format!("table {} open", path.display()));
        }
        self.tables.push(table);
        Ok(())
    }

    fn forget_tables(&mut self) {
        self.tables.clear();
    }

    fn reset(&mut self) {
        self.position = Some(self.rules().start());
    }

    fn set_position(
        &mut self,
        position: Option<(PositionForm, &str)>,
        moves: &[&str],
        dialect: Dialect,
    ) -> Result<(), EngineError> {
        self.position = None;
        let rules = self.rules();
        let mut pos = match position {
            None => rules.start(),
            Some((form, text)) => G::parse_protocol_position(&rules, text, form)
                .map_err(|e| EngineError::Position(Box::new(e)))?,
        };
        for (i, text) in moves.iter().enumerate() {
            let mv = G::parse_protocol_move(&rules, &pos, text, dialect).map_err(|e| EngineError::Move {
                number: i + 1,
                count: moves.len(),
                error: Box::new(e),
            })?;
            pos = rules.play(&pos, mv);
        }
        self.position = Some(pos);
        Ok(())
    }

    fn clear_position(&mut self) {
        self.position = None;
    }

    fn position(&self, form: PositionForm) -> Option<String> {
        self.position.as_ref().map(|pos| G::protocol_position(&self.rules(), pos, form))
    }

    fn go(&self, dialect: Dialect, search: &Search) -> Result<GoAnswer, EngineError> {
        let rules = self.rules();
        let pos = self.position.as_ref().ok_or(EngineError::NoPosition)?;
        // Where the game is over, there is no move to name.
        if let Some(over) = rules.terminal(pos) {
            let why = G::game_over(&rules, pos).unwrap_or_else(|| over.ending.name.to_string());
            let best = if matches!(over.value, Value::Win(_)) { BestMove::Won } else { BestMove::None };
            return Ok(GoAnswer { info: vec![format!("info string the game is over: {why}")], best });
        }
        let probe = self.table().ok_or(EngineError::NoTable)?.probe();
        let mut moves = probe.ranked_moves(pos).map_err(|e| self.probe_error(e))?;
        if !search.moves.is_empty() {
            let wanted: Vec<Mv<G>> = search
                .moves
                .iter()
                .map(|m| G::parse_protocol_move(&rules, pos, m, dialect))
                .collect::<Result<_, _>>()
                .map_err(|e| EngineError::SearchMove(Box::new(e)))?;
            let text = |mv| rules.machine_notation(pos, mv);
            moves.retain(|m| wanted.iter().any(|&w| text(w) == text(m.mv)));
            if moves.is_empty() {
                return Err(EngineError::NoSearchMove);
            }
        }
        let mut info = Vec::new();
        for (k, m) in moves.iter().take(search.multipv).enumerate() {
            let pv = self.pv(pos, m, dialect)?;
            info.push(format!(
                "info depth 1 seldepth {} multipv {} score {} pv {}",
                pv.len(),
                k + 1,
                score(m.value_before(), dialect),
                pv.join(" ")
            ));
        }
        let best = self.choose(pos, &moves, search);
        Ok(GoAnswer { info, best: BestMove::Move(G::protocol_move(&rules, pos, best.mv, dialect)) })
    }

    fn perft(&self, dialect: Dialect, depth: u32) -> Result<(Vec<(String, u64)>, u64), EngineError> {
        if depth > PERFT_MAX {
            return Err(EngineError::PerftTooDeep { depth });
        }
        let rules = self.rules();
        let pos = self.position.as_ref().ok_or(EngineError::NoPosition)?;
        let mut split = Vec::new();
        if depth > 0 {
            rules.for_each_move(pos, |mv, child| {
                split.push((G::protocol_move(&rules, pos, mv, dialect), G::perft(&rules, child, depth - 1)));
            });
        }
        Ok((split, G::perft(&rules, pos, depth)))
    }
}
