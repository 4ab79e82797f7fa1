//! `nana play`: a game in the terminal against perfect play.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use nana_probe::table::TableGame;
use nana_probe::ProbeGame;

use crate::flags::RuleFlags;
use crate::out::{out, outln};
use crate::table;
use nana_front::{describe, Game};

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

pub fn run<G: Game>(args: &PlayArgs<G>, dir: &Path, out: &mut dyn Write) -> Result<(), String> {
    let rules = args.rules.rules;
    let human = side::<G>(args.side.as_deref());
    let help = format!("enter a move ({}), or: undo, hint, quit", G::MOVE_HELP);
    let table = table::load_or_solve::<G>(rules, args.tablebase.as_deref(), dir)?;
    let probe = table.probe();
    let err = |e| table::probe_error::<G>(&table, e);
    let name = |side: usize| G::SIDES[side];
    let start = rules.start();
    let mut history = vec![start];
    let mut seen = HashMap::from([(start, 1)]);
    let mut stdin = std::io::stdin().lock();
    let mut bytes = Vec::new();
    outln!(out, "You play {} ({}). {help}.", name(human), rules.describe());
    loop {
        let pos = *history.last().expect("history starts with the start position");
        outln!(out);
        out!(out, "{}", G::diagram(&pos));
        let value = probe.value(&pos).map_err(err)?;
        let to_move = G::side_to_move(&pos);
        outln!(out, "evaluation: {} for {}", describe::<G>(&rules, value), G::side_name(to_move));
        let moves = probe.ranked_moves(&pos).map_err(err)?;
        if let Some(over) = rules.terminal(&pos) {
            // Why, in the game's words, then what it means for the player.
            let why = G::game_over(&rules, &pos).unwrap_or_else(|| over.ending.name.to_string());
            outln!(out, "{why}.");
            let winner = match over.value {
                nana_engine::Value::Win(_) => Some(to_move),
                nana_engine::Value::Loss(_) => Some(1 - to_move),
                nana_engine::Value::Draw => None,
            };
            outln!(
                out,
                "{}",
                match winner {
                    Some(side) if side == human => "you win.",
                    Some(_) => "the engine wins.",
                    None => "the game is drawn.",
                }
            );
            return Ok(());
        }
        if seen[&pos] >= args.repetition {
            outln!(out, "the position occurred {} times: the game is drawn by repetition.", args.repetition);
            return Ok(());
        }
        let mv = if to_move == human {
            out!(out, "your move> ");
            out.flush().map_err(crate::out::error)?;
            bytes.clear();
            if stdin.read_until(b'\n', &mut bytes).map_err(|e| e.to_string())? == 0 {
                outln!(out, "\nend of input: game abandoned.");
                return Ok(());
            }
            let Ok(line) = std::str::from_utf8(&bytes) else {
                outln!(out, "that line is not valid UTF-8; try again ({help})");
                continue;
            };
            match line.trim() {
                "" => continue,
                "quit" | "exit" => {
                    outln!(out, "game abandoned.");
                    return Ok(());
                }
                "help" => {
                    outln!(out, "{help}");
                    continue;
                }
                "hint" => {
                    let m = &moves[0];
                    outln!(
                        out,
                        "hint: {} ({}), {}",
                        rules.machine_notation(&pos, m.mv),
                        rules.human_notation(&pos, m.mv),
                        describe::<G>(&rules, m.value_before())
                    );
                    continue;
                }
                "undo" => {
                    // Back to the position before your last move, taking back the replies to
                    // it; the engine's opening move (you play White) is not yours to undo.
                    let before_current = &history[..history.len() - 1];
                    match before_current.iter().rposition(|p| G::side_to_move(p) == human) {
                        None => outln!(out, "nothing to undo."),
                        Some(yours) => {
                            for p in history.drain(yours + 1..) {
                                *seen.get_mut(&p).expect("counted when played") -= 1;
                            }
                        }
                    }
                    continue;
                }
                input => match rules.parse_move(&pos, input) {
                    Ok(mv) => mv,
                    Err(e) => {
                        outln!(out, "{e}; try again ({help})");
                        continue;
                    }
                },
            }
        } else {
            let m = &moves[0];
            outln!(
                out,
                "engine plays {} ({})",
                rules.machine_notation(&pos, m.mv),
                rules.human_notation(&pos, m.mv)
            );
            m.mv
        };
        let next = rules.play(&pos, mv);
        *seen.entry(next).or_insert(0) += 1;
        history.push(next);
    }
}
