//! `nana query`: a position's value, every move ranked, the best move and the principal variation.

use nana_probe::table::TableGame;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use nana_engine::Value;
use nana_probe::{ProbeGame, Summary};
use nana_shogi::probe::Probe;
use nana_shogi::{hodges, parse_move, usi, Color, Position, Rules, Square};
use serde::Serialize;

use crate::args::{parse_position, RuleArgs};
use crate::table;

#[derive(Debug, Args)]
pub struct QueryArgs {
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Tablebase file (default: tablebase/nana-<rules>.tb, else solved in memory).
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
    /// Position string, e.g. "3/3/3 b KRBkrb 1" (default: the start).
    pub position: Option<String>,
    /// Moves to play from the position first (USI-like or Hodges style).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Read one position per line from FILE (`-` for standard input, each answer written as
    /// soon as its line is read); print one JSON line each.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves"])]
    pub batch: Option<String>,
}

/// A batch line that gave no answer: its number (from 1, counting blank lines), the input as
/// read (cut to a readable length) and why.
#[derive(Debug, Serialize)]
struct JsonError<'a> {
    line: usize,
    input: &'a str,
    error: String,
}

/// How many plies of a drawing line to show.
const DRAW_LINE: usize = 10;

pub fn run(args: &QueryArgs, dir: &Path) -> Result<(), String> {
    let rules = args.rules.rules();
    // Read the input before loading (or solving) a table, so that a typo fails at once.
    let mut pos = parse_position(args.position.as_deref(), &rules)?;
    for (i, m) in args.moves.iter().enumerate() {
        let mv = parse_move(&pos, &rules, m).map_err(|e| {
            let over = game_over(&pos, &rules).map(|s| format!(" ({s})")).unwrap_or_default();
            format!("--moves, move {} of {}: {e}{over}", i + 1, args.moves.len())
        })?;
        pos = pos.play_unchecked(mv);
    }
    let table = table::load_or_solve(rules, args.tablebase.as_deref(), dir)?;
    let probe = table.probe();
    if let Some(batch) = &args.batch {
        return run_batch(&probe, batch);
    }
    let e = |e: nana_probe::ProbeError| e.to_string();
    if args.json {
        let answer = probe.answer(&pos, DRAW_LINE).map_err(e)?;
        println!("{}", serde_json::to_string(&answer).map_err(|e| e.to_string())?);
        return Ok(());
    }
    let value = probe.value(&pos).map_err(e)?;
    let moves = probe.ranked_moves(&pos).map_err(e)?;
    let mainline = probe.mainline(&pos, DRAW_LINE).map_err(e)?;
    print!("{}", diagram(&pos));
    println!("position: {pos}");
    println!("rules: {} ({})", rules.describe(), table.origin());
    let side = pos.side_to_move().name();
    println!("value: {} for {side}", describe(value));
    if let Some(over) = game_over(&pos, &rules) {
        println!("{over}");
        return Ok(());
    }
    let best = &moves[0];
    println!("best move: {} ({})", usi::format(best.mv), hodges::format(&pos, &rules, best.mv));
    println!("moves:");
    for m in &moves {
        println!(
            "  {:<6} {:<10} {}",
            usi::format(m.mv),
            hodges::format(&pos, &rules, m.mv),
            describe(m.value_before())
        );
    }
    let label = if value == Value::Draw { "drawing line" } else { "principal variation" };
    println!("{label}: {}", hodges_line(&pos, &rules, &mainline));
    Ok(())
}

fn run_batch(probe: &Probe<'_>, source: &str) -> Result<(), String> {
    // Standard input may be a program feeding one position at a time and waiting for each
    // answer: flush every line. A file is read to its end anyway: buffer.
    let interactive = source == "-";
    let mut reader: Box<dyn BufRead> = if interactive {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(source).map_err(|e| format!("{source}: {e}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let rules = *probe.game();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(|e| format!("{source}: {e}"))? == 0 {
            break;
        }
        let json = match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let input = text.trim();
                if input.is_empty() {
                    continue;
                }
                match batch_line(probe, &rules, input) {
                    Ok(v) => serde_json::to_string(&v),
                    Err(error) => {
                        serde_json::to_string(&JsonError { line: number, input: &usi::cut(input), error })
                    }
                }
            }
            // Bytes that are not UTF-8 spoil their line only, not the batch.
            Err(e) => {
                let input = String::from_utf8_lossy(&bytes);
                let error = format!("not valid UTF-8 (byte {} of the line)", e.valid_up_to() + 1);
                serde_json::to_string(&JsonError { line: number, input: &usi::cut(input.trim()), error })
            }
        }
        .map_err(|e| e.to_string())?;
        writeln!(out, "{json}").map_err(|e| e.to_string())?;
        if interactive {
            out.flush().map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())
}

fn batch_line(probe: &Probe<'_>, rules: &Rules, input: &str) -> Result<Summary, String> {
    let pos = parse_position(Some(input), rules)?;
    probe.summary(&pos).map_err(|e| e.to_string())
}

/// `white has no legal move (checkmate) and has lost` when the game is over, else `None`.
pub fn game_over(pos: &Position, rules: &Rules) -> Option<String> {
    let how = rules.terminal(pos)?.ending.name;
    Some(format!("{} has no legal move ({how}) and has lost", pos.side_to_move().name()))
}

/// `win, mate in 27 plies`, `draw`, …
pub fn describe(v: Value) -> String {
    let plies = |n: u16| if n == 1 { "1 ply".to_string() } else { format!("{n} plies") };
    match v {
        Value::Win(d) => format!("win, mate in {}", plies(d.0)),
        Value::Loss(d) if d.0 == 0 => "loss (no legal move)".to_string(),
        Value::Loss(d) => format!("loss, mated in {}", plies(d.0)),
        Value::Draw => "draw".to_string(),
    }
}

/// A line of moves in Hodges style, numbered by ply.
pub fn hodges_line(pos: &Position, rules: &Rules, line: &[nana_shogi::Move]) -> String {
    let mut pos = *pos;
    let mut out = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        out.push(format!("{}. {}", i + 1, hodges::format(&pos, rules, mv)));
        pos = pos.play_unchecked(mv);
    }
    if out.is_empty() {
        "(none)".to_string()
    } else {
        out.join(" ")
    }
}

/// A small board diagram, as Black sees it, with the hands.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::from("     3   2   1\n   +---+---+---+\n");
    for rank in 0..3u8 {
        s.push_str("   |");
        for file in (1..=3u8).rev() {
            let sq = Square::from_file_rank(file, rank).expect("on the board");
            let cell = match pos.piece_at(sq) {
                None => "   ".to_string(),
                Some(p) => {
                    let name = p.role.hodges();
                    let name = if p.color == Color::White { name.to_lowercase() } else { name.to_string() };
                    format!("{name:^3}")
                }
            };
            s.push_str(&cell);
            s.push('|');
        }
        s.push_str(&format!(" {}\n   +---+---+---+\n", (b'a' + rank) as char));
    }
    for color in Color::ALL {
        let mut hand = Vec::new();
        if pos.king_in_hand(color) {
            hand.push("K".to_string());
        }
        for cube in nana_shogi::Cube::ALL {
            for _ in 0..pos.hand(color, cube) {
                hand.push(format!("{cube:?}"));
            }
        }
        let hand = if hand.is_empty() { "-".to_string() } else { hand.join(" ") };
        s.push_str(&format!("   {} hand: {hand}\n", color.name()));
    }
    s.push_str(&format!("   {} to move\n", pos.side_to_move().name()));
    s
}
