//! A perfect-play engine for GUIs: `nana engine` speaks UCI to a GUI that opens with `uci` and
//! USI to one that opens with `usi`, as Fairy-Stockfish does, and answers every `go` at once
//! from the game's table (see `docs/ENGINE-PROTOCOL.md`).
//!
//! The crate names no game: a game is one [`GameEngine::<G>::boxed()`](GameEngine::boxed) (a
//! [`DynEngine`]) over three roles of the front layer:
//! [`nana_front::Game`] (its rule sets and options, why the game is over),
//! [`nana_front::ProtocolNotation`] (its protocol name, its position and move forms per dialect)
//! and [`nana_front::Perft`] (`go perft`). [`run`] reads commands until `quit` or the end of the
//! input; [`run_concurrent`] too, reading them on a thread of its own, so that a `quit` sent
//! while a missing table is solved ends the engine at once.
//!
//! What a score says: `score mate N` for a decided position, positive where the side to move
//! wins, `N` counted in moves over UCI (a win in `d` plies is mate `(d + 1) / 2`, a loss in `d`
//! plies mate `-d / 2`) and in plies over USI (mate `d`, `-d`), as Fairy-Stockfish counts them;
//! `score cp 0` for a draw.
//!
//! Long: the dialogue is one state machine, `Dialogue`, whose handler of each command (`uci`,
//! `setoption`, `position`, `go`, ...) reads and sets the state they share: the dialect, the
//! game, its engine, the options.

mod error;
mod game;
mod input;
mod options;

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use nana_engine::Value;

use crate::input::{Input, Line, MAX_LINE};

pub use error::{EngineError, ParseError};
pub use game::{rules_option, switch_option, BestMove, DynEngine, GameEngine, GoAnswer, PERFT_MAX};
pub use nana_front::{Dialect, PositionForm};
pub use options::{dialect_name, EngineOption, OptionKind};

/// The highest `Strength`: perfect play.
pub const STRENGTH_MAX: i64 = 20;

/// The most lines `MultiPV` asks for.
pub const MULTIPV_MAX: i64 = 500;

/// What a `go` asks beyond the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// How many best moves get an `info` line (`MultiPV`).
    pub multipv: usize,
    /// `Strength`, 0 to [`STRENGTH_MAX`].
    pub strength: i64,
    /// `Seed`.
    pub seed: u64,
    /// `searchmoves`: the moves to choose among (empty: every move).
    pub moves: Vec<String>,
}

/// A score as the dialect writes it (see the crate docs).
pub fn score(value: Value, dialect: Dialect) -> String {
    match (value, dialect) {
        (Value::Draw, _) => "cp 0".to_string(),
        (Value::Win(d), Dialect::Uci) => format!("mate {}", d.0.div_ceil(2)),
        (Value::Loss(d), Dialect::Uci) => format!("mate -{}", d.0 / 2),
        (Value::Win(d), Dialect::Usi) => format!("mate {}", d.0),
        (Value::Loss(d), Dialect::Usi) => format!("mate -{}", d.0),
    }
}

/// Which of `count` moves, ranked best first, is played at `strength` (see
/// `docs/ENGINE-PROTOCOL.md`): the best at [`STRENGTH_MAX`]; below it, a draw from the seed and
/// the position (`position`, its string form) alone decides: with probability
/// `(STRENGTH_MAX - strength) / STRENGTH_MAX` a move drawn uniformly from all of them, else the
/// best. The same seed against the same moves gives the same game.
pub fn choose(count: usize, strength: i64, seed: u64, position: &str) -> usize {
    if strength >= STRENGTH_MAX || count <= 1 {
        return 0;
    }
    // FNV-1a of the position, mixed with the seed by SplitMix64.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in position.bytes() {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = hash ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let roll = (z % STRENGTH_MAX as u64) as i64;
    if roll < STRENGTH_MAX - strength.max(0) {
        ((z >> 32) % count as u64) as usize
    } else {
        0
    }
}

/// What the engine is started with.
pub struct Setup<'a> {
    /// A fresh engine for each game ([`GameEngine::boxed`]), each a value of `UCI_Variant`.
    pub engines: Vec<Box<dyn DynEngine>>,
    /// The game until a GUI sets one (a value of `UCI_Variant`).
    pub default_game: &'a str,
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// `TablebaseDir` until a GUI sets it.
    pub tablebase_dir: PathBuf,
}

impl std::fmt::Debug for Setup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let games: Vec<&str> = self.engines.iter().map(|e| e.protocol_name()).collect();
        f.debug_struct("Setup")
            .field("engines", &games)
            .field("default_game", &self.default_game)
            .field("name", &self.name)
            .field("author", &self.author)
            .field("tablebase_dir", &self.tablebase_dir)
            .finish()
    }
}

/// The engine between two commands.
struct Dialogue<'a, 'i> {
    /// The setup, its engines moved to `engines`.
    setup: Setup<'a>,
    input: Input<'i>,
    dialect: Dialect,
    /// The game played: an index into `engines`.
    game: usize,
    engines: Vec<Box<dyn DynEngine>>,
    dir: PathBuf,
    multipv: usize,
    strength: i64,
    seed: u64,
    /// The `bestmove` line of a `go infinite` or `go ponder`, sent on `stop` or `ponderhit`.
    pending: Option<String>,
    /// Whether the GUI has set up a game (an option, a new game or a position): from then on
    /// `isready` opens the table. The `isready` of a bare handshake answers at once, so that a
    /// GUI that asks before it sets the game does not wait for another game's table.
    set_up: bool,
    /// Whether `quit` came while a table was being solved: the engine ends.
    quit: bool,
    /// Whether the GUI has named the game (`UCI_Variant`): until it does, a position that only
    /// another game reads switches the engine to that game.
    variant_named: bool,
}

/// `say!(out, ...)`: one line to the GUI.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        writeln!($out, $($arg)*)?;
        $out.flush()?;
    }};
}

/// Runs the engine: reads commands from `input` until `quit` or its end, answering on `out`.
/// Only a failure to write the answers ends it with an error; bad input gets an
/// `info string error: ...` line. A line is read once the one before it is answered: while a
/// missing table is solved, nothing is read (see [`run_concurrent`]).
pub fn run(setup: Setup<'_>, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
    Dialogue::new(setup, Input::Direct(input)).run(out)
}

/// Runs the engine as [`run`] does, reading `input` on a thread of its own: the lines that come
/// while a missing table is solved are answered after it, in order, except `quit`, which ends
/// the engine at once, the solve abandoned (it writes no file; its thread runs on until the
/// process ends, which the caller is to end now). The end of the input is no `quit`: the lines
/// before it are answered first.
pub fn run_concurrent(
    setup: Setup<'_>,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
) -> io::Result<()> {
    Dialogue::new(setup, Input::reader(input)).run(out)
}

impl<'a, 'i> Dialogue<'a, 'i> {
    fn new(mut setup: Setup<'a>, input: Input<'i>) -> Dialogue<'a, 'i> {
        let engines = std::mem::take(&mut setup.engines);
        let game = engines.iter().position(|e| e.protocol_name() == setup.default_game).unwrap_or(0);
        Dialogue {
            input,
            dialect: Dialect::Uci,
            game,
            dir: setup.tablebase_dir.clone(),
            setup,
            engines,
            multipv: 1,
            strength: STRENGTH_MAX,
            seed: 0,
            pending: None,
            set_up: false,
            quit: false,
            variant_named: false,
        }
    }

    /// Reads and answers commands until `quit` or the input's end.
    fn run(mut self, out: &mut dyn Write) -> io::Result<()> {
        while let Some(line) = self.input.next()? {
            let bytes = match line {
                Line::Text(bytes) => bytes,
                Line::TooLong(len) => {
                    say!(out, "info string error: a line of {len} bytes, over the {MAX_LINE} read: ignored");
                    continue;
                }
            };
            let Ok(line) = std::str::from_utf8(&bytes) else {
                say!(out, "info string error: a line that is not UTF-8");
                continue;
            };
            if !self.command(line.trim(), out)? {
                break;
            }
        }
        Ok(())
    }

    fn engine(&mut self) -> &mut dyn DynEngine {
        self.engines[self.game].as_mut()
    }

    fn error(&self, out: &mut dyn Write, message: impl std::fmt::Display) -> io::Result<()> {
        say!(out, "info string error: {message}");
        Ok(())
    }

    /// One command; `false` for `quit`.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else { return Ok(true) };
        match command {
            "uci" | "usi" => {
                self.dialect = if command == "uci" { Dialect::Uci } else { Dialect::Usi };
                self.handshake(out)?;
                say!(out, "{command}ok");
            }
            "isready" => {
                if self.set_up {
                    self.load(out)?;
                }
                if !self.quit {
                    say!(out, "readyok");
                }
            }
            "setoption" => {
                self.set_up = true;
                self.set_option(args, out)?;
            }
            "ucinewgame" | "usinewgame" => self.set_up = true,
            "gameover" => {}
            "stop" | "ponderhit" => {
                if let Some(best) = self.pending.take() {
                    say!(out, "{best}");
                }
            }
            "position" => {
                self.set_up = true;
                self.position(line, args, out)?;
            }
            "go" => self.go(args, out)?,
            "quit" => return Ok(false),
            // Fairy-Stockfish's debugging command, without its board: the position in both forms.
            "d" => {
                match (self.engine().position(PositionForm::Fen), self.engine().position(PositionForm::Sfen))
                {
                    (Some(fen), Some(sfen)) => {
                        say!(out, "Fen: {fen}");
                        say!(out, "Sfen: {sfen}");
                    }
                    _ => self.error(out, EngineError::NoPosition)?,
                }
            }
            _ => self.error(out, EngineError::UnknownCommand { line: line.to_string() })?,
        }
        Ok(!self.quit)
    }

    fn options(&self) -> Vec<EngineOption> {
        let names: Vec<&'static str> = self.engines.iter().map(|e| e.protocol_name()).collect();
        let mut options = vec![EngineOption {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo { default: self.engines[self.game].protocol_name(), vars: names },
        }];
        for e in &self.engines {
            options.extend(e.options());
        }
        options.extend([
            EngineOption {
                name: "MultiPV".into(),
                kind: OptionKind::Spin { default: 1, min: 1, max: MULTIPV_MAX },
            },
            EngineOption {
                name: "Strength".into(),
                kind: OptionKind::Spin { default: STRENGTH_MAX, min: 0, max: STRENGTH_MAX },
            },
            EngineOption {
                name: "Seed".into(),
                kind: OptionKind::Spin { default: 0, min: 0, max: i64::from(u32::MAX) },
            },
            EngineOption {
                name: "TablebaseDir".into(),
                kind: OptionKind::String(self.setup.tablebase_dir.display().to_string()),
            },
        ]);
        options
    }

    fn handshake(&self, out: &mut dyn Write) -> io::Result<()> {
        say!(out, "id name {}", self.setup.name);
        say!(out, "id author {}", self.setup.author);
        for option in self.options() {
            say!(out, "{}", option.line(self.dialect));
        }
        Ok(())
    }

    fn load(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let dir = self.dir.clone();
        let mut failed = Ok(());
        // The progress lines are written as they come.
        let input = &mut self.input;
        let say = &mut |line| {
            if failed.is_ok() {
                failed = writeln!(out, "info string {line}").and_then(|()| out.flush());
            }
        };
        let result = self.engines[self.game].load(&dir, say, &mut || input.quit_sent());
        failed?;
        match result {
            Ok(()) => Ok(()),
            Err(EngineError::Abandoned) => {
                self.quit = true;
                Ok(())
            }
            Err(e) => self.error(out, e),
        }
    }

    fn set_option(&mut self, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
        let (name, value) = match args.split_first() {
            Some((&"name", rest)) => match rest.iter().position(|&w| w == "value") {
                Some(at) => (rest[..at].join(" "), rest[at + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return self.error(out, EngineError::SetOptionUsage),
        };
        let uci = options::uci_name(&name);
        let spin = |min: i64, max: i64| match value.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(EngineError::NotInRange { option: name.clone(), value: value.clone(), min, max }),
        };
        let result = match uci.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                match self.engines.iter().position(|e| e.protocol_name().eq_ignore_ascii_case(&value)) {
                    Some(i) => {
                        self.game = i;
                        self.variant_named = true;
                        self.engine().reset();
                        Ok(())
                    }
                    None => Err(EngineError::UnknownGame {
                        option: name.clone(),
                        value: value.clone(),
                        known: self.engines.iter().map(|e| e.protocol_name()).collect(),
                    }),
                }
            }
            "multipv" => spin(1, MULTIPV_MAX).map(|n| self.multipv = n as usize),
            "strength" => spin(0, STRENGTH_MAX).map(|n| self.strength = n),
            "seed" => spin(0, i64::from(u32::MAX)).map(|n| self.seed = n as u64),
            "tablebasedir" => {
                self.dir = PathBuf::from(&value);
                self.engines.iter_mut().for_each(|e| e.forget_tables());
                Ok(())
            }
            // What every USI GUI sends; the answers are from the table, so neither matters.
            "uci_hash" | "uci_ponder" | "hash" | "ponder" => Ok(()),
            _ => self
                .engines
                .iter_mut()
                .find_map(|e| e.set_option(&name, &value))
                .unwrap_or_else(|| Err(EngineError::UnknownOption { name: name.clone() })),
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(out, e),
        }
    }

    fn position(&mut self, line: &str, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
        let (moves, head) = match args.iter().position(|&w| w == "moves") {
            Some(at) => (&args[at + 1..], &args[..at]),
            None => (&args[..0], args),
        };
        let spec = match head.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"fen", rest)) if !rest.is_empty() => Some((PositionForm::Fen, rest.join(" "))),
            Some((&"sfen", rest)) if !rest.is_empty() => Some((PositionForm::Sfen, rest.join(" "))),
            _ => {
                // No answer to `go` until a position is read.
                self.engine().clear_position();
                return self.error(out, EngineError::PositionUsage { line: line.to_string() });
            }
        };
        let dialect = self.dialect;
        let spec = spec.as_ref().map(|(form, text)| (*form, text.as_str()));
        match self.engine().set_position(spec, moves, dialect) {
            Ok(()) => Ok(()),
            Err(e @ EngineError::Position(_)) if !self.variant_named => {
                match self.other_reader(spec, moves) {
                    Some(game) => {
                        self.game = game;
                        let name = self.engines[game].protocol_name();
                        say!(
                            out,
                            "info string a position of {name}: playing {name}, as after UCI_Variant {name}"
                        );
                        Ok(())
                    }
                    None => self.error(out, format_args!("position not set: {e}")),
                }
            }
            Err(e) => self.error(out, format_args!("position not set: {e}")),
        }
    }

    /// The one other game that reads the position `spec` and its moves, set there; `None`
    /// where no other game, or more than one, reads it (each left with no position).
    fn other_reader(&mut self, spec: Option<(PositionForm, &str)>, moves: &[&str]) -> Option<usize> {
        let dialect = self.dialect;
        let current = self.game;
        let readers: Vec<usize> = (0..self.engines.len())
            .filter(|&i| i != current && self.engines[i].set_position(spec, moves, dialect).is_ok())
            .collect();
        match readers[..] {
            [only] => Some(only),
            _ => {
                readers.iter().for_each(|&i| self.engines[i].clear_position());
                None
            }
        }
    }

    fn go(&mut self, args: &[&str], out: &mut dyn Write) -> io::Result<()> {
        if let Some(best) = self.pending.take() {
            say!(out, "{best}");
        }
        let none = match self.dialect {
            Dialect::Uci => "bestmove (none)",
            Dialect::Usi => "bestmove resign",
        };
        if args.first() == Some(&"perft") {
            let Some(depth) = args.get(1).and_then(|d| d.parse::<u32>().ok()) else {
                return self.error(out, EngineError::PerftUsage);
            };
            let dialect = self.dialect;
            return match self.engine().perft(dialect, depth) {
                Ok((split, total)) => {
                    for (mv, n) in split {
                        say!(out, "{mv}: {n}");
                    }
                    say!(out, "");
                    say!(out, "Nodes searched: {total}");
                    say!(out, "");
                    Ok(())
                }
                Err(e) => self.error(out, e),
            };
        }
        let wait = args.iter().any(|&w| w == "infinite" || w == "ponder");
        let moves = match args.iter().position(|&w| w == "searchmoves") {
            Some(at) => args[at + 1..].iter().map(|m| m.to_string()).collect(),
            None => Vec::new(),
        };
        let search = Search { multipv: self.multipv, strength: self.strength, seed: self.seed, moves };
        self.load(out)?;
        if self.quit {
            return Ok(());
        }
        let dialect = self.dialect;
        let best = match self.engines[self.game].go(dialect, &search) {
            Ok(answer) => {
                for line in &answer.info {
                    say!(out, "{line}");
                }
                match answer.best {
                    BestMove::Move(mv) => format!("bestmove {mv}"),
                    BestMove::Won if dialect == Dialect::Usi => "bestmove win".to_string(),
                    BestMove::Won | BestMove::None => none.to_string(),
                }
            }
            Err(e) => {
                self.error(out, format_args!("go: {e}"))?;
                none.to_string()
            }
        };
        if wait {
            self.pending = Some(best);
        } else {
            say!(out, "{best}");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nana_engine::Dtm;

    #[test]
    fn scores_count_moves_over_uci_and_plies_over_usi() {
        assert_eq!(score(Value::Win(Dtm(1)), Dialect::Uci), "mate 1");
        assert_eq!(score(Value::Win(Dtm(3)), Dialect::Uci), "mate 2");
        assert_eq!(score(Value::Loss(Dtm(2)), Dialect::Uci), "mate -1");
        assert_eq!(score(Value::Loss(Dtm(78)), Dialect::Uci), "mate -39");
        assert_eq!(score(Value::Win(Dtm(3)), Dialect::Usi), "mate 3");
        assert_eq!(score(Value::Loss(Dtm(78)), Dialect::Usi), "mate -78");
        assert_eq!(score(Value::Draw, Dialect::Usi), "cp 0");
    }

    #[test]
    fn strength_draws_depend_on_the_seed_and_position_alone() {
        assert_eq!(choose(10, STRENGTH_MAX, 7, "x"), 0);
        assert_eq!(choose(1, 0, 7, "x"), 0);
        let picks: Vec<usize> = (0..200).map(|i| choose(10, 0, 1, &format!("p{i}"))).collect();
        assert_eq!(picks, (0..200).map(|i| choose(10, 0, 1, &format!("p{i}"))).collect::<Vec<_>>());
        // At strength 0 every move is drawn; at 10 about half the moves are the best.
        assert!(picks.iter().filter(|&&p| p != 0).count() > 150);
        let half = (0..1000).filter(|i| choose(10, 10, 3, &format!("q{i}")) == 0).count();
        assert!((450..650).contains(&half), "{half}");
        assert_ne!(
            (0..50).map(|i| choose(10, 0, 1, &format!("p{i}"))).collect::<Vec<_>>(),
            (0..50).map(|i| choose(10, 0, 2, &format!("p{i}"))).collect::<Vec<_>>()
        );
    }
}
