//! `nana query`: a position's value, every move ranked, the best move and the principal variation.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use nana_engine::Value;
use nana_probe::echo::cut;
use nana_probe::table::TableGame;
use nana_probe::{Probe, ProbeError, ProbeGame, Summary};
use serde::Serialize;

use crate::flags::RuleFlags;
use crate::out::{out, outln};
use crate::table;
use nana_front::{describe, Game};

#[derive(Debug, Args)]
pub struct QueryArgs<G: Game> {
    #[command(flatten)]
    pub rules: RuleFlags<G>,
    /// Tablebase file (default: the rule set's file in the tablebase folder, else solved in
    /// memory).
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
    /// Position string (default: the start); the help shows one of the game's.
    pub position: Option<String>,
    /// Moves to play from the position first (in any notation the game reads).
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

pub fn run<G: Game>(args: &QueryArgs<G>, dir: &Path, out: &mut dyn Write) -> Result<(), String> {
    let rules = args.rules.rules;
    // Read the input before loading (or solving) a table, so that a typo fails at once.
    let mut pos = super::position::<G>(&rules, args.position.as_deref())?;
    for (i, m) in args.moves.iter().enumerate() {
        let mv = rules
            .parse_move(&pos, m)
            .map_err(|e| format!("--moves, move {} of {}: {e}", i + 1, args.moves.len()))?;
        pos = rules.play(&pos, mv);
    }
    let table = table::load_or_solve::<G>(rules, args.tablebase.as_deref(), dir)?;
    let probe = table.probe();
    let e = |e| table::probe_error::<G>(&table, e);
    if let Some(batch) = &args.batch {
        return run_batch(&probe, batch, &e, out);
    }
    if args.json {
        let answer = probe.answer(&pos, DRAW_LINE).map_err(e)?;
        outln!(out, "{}", serde_json::to_string(&answer).map_err(|e| e.to_string())?);
        return Ok(());
    }
    let value = probe.value(&pos).map_err(e)?;
    let moves = probe.ranked_moves(&pos).map_err(e)?;
    let mainline = probe.mainline(&pos, DRAW_LINE).map_err(e)?;
    out!(out, "{}", G::diagram(&pos));
    outln!(out, "position: {pos}");
    outln!(out, "rules: {} ({})", rules.describe(), table.origin());
    let side = G::side_name(G::side_to_move(&pos));
    outln!(out, "value: {} for {side}", describe::<G>(&rules, value));
    if let Some(over) = G::game_over(&rules, &pos) {
        outln!(out, "{over}");
        return Ok(());
    }
    let best = &moves[0];
    outln!(
        out,
        "best move: {} ({})",
        rules.machine_notation(&pos, best.mv),
        rules.human_notation(&pos, best.mv)
    );
    outln!(out, "moves:");
    for m in &moves {
        outln!(
            out,
            "  {:<6} {:<10} {}",
            rules.machine_notation(&pos, m.mv),
            rules.human_notation(&pos, m.mv),
            describe::<G>(&rules, m.value_before())
        );
    }
    let label = if value == Value::Draw { "drawing line" } else { "principal variation" };
    outln!(out, "{label}: {}", human_line(&rules, &pos, &mainline));
    Ok(())
}

/// Answers the positions of `source` a line each. A line's own error (a position that does not
/// read, or has no value) is its answer; a damaged table ends the batch with `fatal`'s words.
fn run_batch<R: ProbeGame>(
    probe: &Probe<'_, R>,
    source: &str,
    fatal: &dyn Fn(ProbeError) -> String,
    out: &mut dyn Write,
) -> Result<(), String> {
    // Standard input may be a program feeding one position at a time and waiting for each
    // answer: flush every line. A file is read to its end anyway: buffer.
    let interactive = source == "-";
    let mut reader: Box<dyn BufRead> = if interactive {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(source).map_err(|e| format!("{source}: {e}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut out = std::io::BufWriter::new(out);
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
                match batch_line(probe, input).map_err(fatal)? {
                    Ok(v) => serde_json::to_string(&v),
                    Err(error) => {
                        serde_json::to_string(&JsonError { line: number, input: &cut(input), error })
                    }
                }
            }
            // Bytes that are not UTF-8 spoil their line only, not the batch.
            Err(e) => {
                let input = String::from_utf8_lossy(&bytes);
                let error = format!("not valid UTF-8 (byte {} of the line)", e.valid_up_to() + 1);
                serde_json::to_string(&JsonError { line: number, input: &cut(input.trim()), error })
            }
        }
        .map_err(|e| e.to_string())?;
        writeln!(out, "{json}").map_err(crate::out::error)?;
        if interactive {
            out.flush().map_err(crate::out::error)?;
        }
    }
    out.flush().map_err(crate::out::error)
}

/// A batch line's answer, or its own error in words; the outer error is a damaged table's.
fn batch_line<R: ProbeGame>(
    probe: &Probe<'_, R>,
    input: &str,
) -> Result<Result<Summary, String>, ProbeError> {
    let pos = match probe.game().parse_position(input) {
        Ok(pos) => pos,
        Err(e) => return Ok(Err(e.to_string())),
    };
    match probe.summary(&pos) {
        Err(e) if e.needs_regeneration() => Err(e),
        answer => Ok(answer.map_err(|e| e.to_string())),
    }
}

/// A line of moves in the game's human notation (Hodges style for Nana), numbered by ply.
pub fn human_line<R: ProbeGame>(rules: &R, pos: &R::Position, line: &[R::Move]) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        out.push(format!("{}. {}", i + 1, rules.human_notation(&pos, mv)));
        pos = rules.play(&pos, mv);
    }
    if out.is_empty() {
        "(none)".to_string()
    } else {
        out.join(" ")
    }
}
