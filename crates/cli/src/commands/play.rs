//! `nana play`: a game in the terminal against perfect play.

use nana_probe::table::TableGame;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use nana_probe::ProbeGame;
use nana_shogi::{hodges, parse_move, usi, Color, Position};

use crate::args::RuleArgs;
use crate::commands::query::{describe, diagram};
use crate::table;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    Black,
    White,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The side you play.
    #[arg(long, value_enum, default_value = "black")]
    pub side: SideArg,
    /// The game is drawn when a position occurs this often (4 as in shogi; 3 for Dunkel's 2001 rule).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(2..))]
    pub repetition: u32,
    /// Tablebase file (default: tablebase/nana-<rules>.tb, else solved in memory).
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
}

const HELP: &str = "enter a move (USI-like 2c2b, T*1a or Hodges B-2b=TG), or: undo, hint, quit";

pub fn run(args: &PlayArgs, dir: &Path) -> Result<(), String> {
    let rules = args.rules.rules();
    let table = table::load_or_solve(rules, args.tablebase.as_deref(), dir)?;
    let probe = table.probe();
    let human = match args.side {
        SideArg::Black => Color::Black,
        SideArg::White => Color::White,
    };
    let err = |e: nana_shogi::probe::ProbeError| e.to_string();
    let mut history: Vec<Position> = vec![Position::start()];
    let mut seen: HashMap<Position, u32> = HashMap::from([(Position::start(), 1)]);
    let mut stdin = std::io::stdin().lock();
    let mut bytes = Vec::new();
    println!("You play {} ({}). {HELP}.", human.name(), rules.describe());
    loop {
        let pos = *history.last().expect("history starts with the start position");
        println!();
        print!("{}", diagram(&pos));
        let value = probe.value(&pos).map_err(err)?;
        println!("evaluation: {} for {}", describe(value), pos.side_to_move().name());
        let moves = probe.ranked_moves(&pos).map_err(err)?;
        if let Some(over) = rules.terminal(&pos) {
            let how = over.ending.name;
            let winner = pos.side_to_move().other();
            println!("{how}: {} wins.", winner.name());
            return Ok(());
        }
        if seen[&pos] >= args.repetition {
            println!("the position occurred {} times: the game is drawn by repetition.", args.repetition);
            return Ok(());
        }
        let mv = if pos.side_to_move() == human {
            print!("your move> ");
            std::io::stdout().flush().map_err(|e| e.to_string())?;
            bytes.clear();
            if stdin.read_until(b'\n', &mut bytes).map_err(|e| e.to_string())? == 0 {
                println!("\nend of input: game abandoned.");
                return Ok(());
            }
            let Ok(line) = std::str::from_utf8(&bytes) else {
                println!("that line is not valid UTF-8; try again ({HELP})");
                continue;
            };
            match line.trim() {
                "" => continue,
                "quit" | "exit" => {
                    println!("game abandoned.");
                    return Ok(());
                }
                "help" => {
                    println!("{HELP}");
                    continue;
                }
                "hint" => {
                    let m = &moves[0];
                    println!(
                        "hint: {} ({}), {}",
                        usi::format(m.mv),
                        hodges::format(&pos, &rules, m.mv),
                        describe(m.value_before())
                    );
                    continue;
                }
                "undo" => {
                    // Back to the position before your last move, taking back the replies to
                    // it; the engine's opening move (you play White) is not yours to undo.
                    let before_current = &history[..history.len() - 1];
                    match before_current.iter().rposition(|p| p.side_to_move() == human) {
                        None => println!("nothing to undo."),
                        Some(yours) => {
                            for p in history.drain(yours + 1..) {
                                *seen.get_mut(&p).expect("counted when played") -= 1;
                            }
                        }
                    }
                    continue;
                }
                input => match parse_move(&pos, &rules, input) {
                    Ok(mv) => mv,
                    Err(e) => {
                        println!("{e}; try again ({HELP})");
                        continue;
                    }
                },
            }
        } else {
            let m = &moves[0];
            println!("engine plays {} ({})", usi::format(m.mv), hodges::format(&pos, &rules, m.mv));
            m.mv
        };
        let next = pos.play_unchecked(mv);
        *seen.entry(next).or_insert(0) += 1;
        history.push(next);
    }
}
