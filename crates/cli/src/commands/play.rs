//! `nana play`: a game in the terminal against perfect play.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use nana_probe::table::TableRules;
use nana_probe::{ProbeRules, Ranked};

use crate::error::CliError;
use crate::flags::RuleFlags;
use crate::out::{out, outln};
use crate::table;
use nana_front::{value_in_words, Game, Mv, Pos};

#[derive(Debug, Args)]
pub struct PlayArgs<G: Game> {
    #[command(flatten)]
    pub rules: RuleFlags<G>,
    /// The side you play, by the game's names of its players [default: the side that moves
    /// first].
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(G::SIDES))]
    pub side: Option<String>,
    /// The game is drawn when a position occurs this often (4 as in shogi; 3 for Dunkel's 2001 rule).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(2..))]
    pub repetition: u32,
    /// Tablebase file (default: the rule set's file in the tablebase folder, else solved in
    /// memory).
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
}

/// The side named by `--side` (clap has checked the name): 0 moves first.
fn side<G: Game>(name: Option<&str>) -> usize {
    name.and_then(|name| G::SIDES.iter().position(|&s| s == name)).unwrap_or(0)
}

/// The game so far: every position from the start, and how often each occurred.
struct Played<P> {
    history: Vec<P>,
    seen: HashMap<P, u32>,
}

impl<P: Copy + Eq + std::hash::Hash> Played<P> {
    fn new(start: P) -> Played<P> {
        Played { history: vec![start], seen: HashMap::from([(start, 1)]) }
    }

    fn current(&self) -> P {
        *self.history.last().expect("history starts with the start position")
    }

    fn push(&mut self, next: P) {
        *self.seen.entry(next).or_insert(0) += 1;
        self.history.push(next);
    }

    /// Back to the position before the player's last move (`mine` says which positions the
    /// player was to move in), taking back the replies to it; false if the player has not
    /// moved yet (the engine's opening move, when the player moves second, is not theirs to
    /// undo).
    fn undo(&mut self, mine: impl Fn(&P) -> bool) -> bool {
        let before_current = &self.history[..self.history.len() - 1];
        let Some(yours) = before_current.iter().rposition(mine) else {
            return false;
        };
        for p in self.history.drain(yours + 1..) {
            *self.seen.get_mut(&p).expect("counted when played") -= 1;
        }
        true
    }
}

/// What a line the player typed asks for.
enum Turn<M> {
    Play(M),
    /// Show the position and ask again (after an error, help, a hint or an undo).
    Again,
    /// The game is abandoned.
    Quit,
}

pub fn run<G: Game>(args: &PlayArgs<G>, dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules;
    let human = side::<G>(args.side.as_deref());
    let help = format!("enter a move ({}), or: undo, hint, quit", G::MOVE_HELP);
    let table = table::load_or_solve::<G>(rules, args.tablebase.as_deref(), dir)?;
    let probe = table.probe();
    let err = |e| table::probe_error::<G>(&table, e);
    let mut played = Played::new(rules.start());
    let mut stdin = std::io::stdin().lock();
    outln!(out, "You play {} ({}). {help}.", G::SIDES[human], rules.describe());
    loop {
        let pos = played.current();
        outln!(out);
        out!(out, "{}", G::diagram(&pos));
        let value = probe.value(&pos).map_err(err)?;
        let to_move = G::side_to_move(&pos);
        outln!(out, "evaluation: {} for {}", value_in_words::<G>(&rules, value), G::side_name(to_move));
        let moves = probe.ranked_moves(&pos).map_err(err)?;
        if let Some(over) = rules.terminal(&pos) {
            // Why, in the game's words, then what it means for the player.
            let why = G::game_over(&rules, &pos).unwrap_or_else(|| over.ending.name.to_string());
            outln!(out, "{why}.");
            let verdict = match over.value {
                nana_engine::Value::Draw => "the game is drawn.",
                nana_engine::Value::Win(_) if to_move == human => "you win.",
                nana_engine::Value::Loss(_) if to_move != human => "you win.",
                _ => "the engine wins.",
            };
            outln!(out, "{verdict}");
            return Ok(());
        }
        if played.seen[&pos] >= args.repetition {
            outln!(out, "the position occurred {} times: the game is drawn by repetition.", args.repetition);
            return Ok(());
        }
        let mv = if to_move == human {
            out!(out, "your move> ");
            out.flush().map_err(CliError::Output)?;
            let mut line = Vec::new();
            if stdin.read_until(b'\n', &mut line).map_err(CliError::Input)? == 0 {
                outln!(out, "\nend of input: game abandoned.");
                return Ok(());
            }
            match your_turn::<G>(&rules, &moves, &mut played, human, &line, &help, out)? {
                Turn::Play(mv) => mv,
                Turn::Again => continue,
                Turn::Quit => return Ok(()),
            }
        } else {
            let m = &moves[0];
            let (machine, human) = (rules.machine_notation(&pos, m.mv), rules.human_notation(&pos, m.mv));
            outln!(out, "engine plays {machine} ({human})");
            m.mv
        };
        played.push(rules.play(&pos, mv));
    }
}

/// What the player's `line` asks for at the current position, whose moves ranked best first
/// are `moves`; help, a hint or an error is printed here.
fn your_turn<G: Game>(
    rules: &G::Rules,
    moves: &[Ranked<G::Rules>],
    played: &mut Played<Pos<G>>,
    human: usize,
    line: &[u8],
    help: &str,
    out: &mut dyn Write,
) -> Result<Turn<Mv<G>>, CliError> {
    let pos = played.current();
    let Ok(line) = std::str::from_utf8(line) else {
        outln!(out, "that line is not valid UTF-8; try again ({help})");
        return Ok(Turn::Again);
    };
    match line.trim() {
        "" => {}
        "quit" | "exit" => {
            outln!(out, "game abandoned.");
            return Ok(Turn::Quit);
        }
        "help" => outln!(out, "{help}"),
        "hint" => {
            let m = &moves[0];
            let (machine, human) = (rules.machine_notation(&pos, m.mv), rules.human_notation(&pos, m.mv));
            outln!(out, "hint: {machine} ({human}), {}", value_in_words::<G>(rules, m.value_before()));
        }
        "undo" => {
            if !played.undo(|p| G::side_to_move(p) == human) {
                outln!(out, "nothing to undo.");
            }
        }
        input => match rules.parse_move(&pos, input) {
            Ok(mv) => return Ok(Turn::Play(mv)),
            Err(e) => outln!(out, "{e}; try again ({help})"),
        },
    }
    Ok(Turn::Again)
}
