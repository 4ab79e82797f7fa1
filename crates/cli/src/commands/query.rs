//! `nana query`: a position's value, every move ranked, the best move and the principal variation.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use nana_probe::echo::cut;
use nana_probe::{Probe, ProbeError, ProbeRules, Summary};
use serde::Serialize;

use crate::error::CliError;
use crate::flags::RuleFlags;
use crate::out::{out, outln};
use crate::table;
use nana_front::{analysis_in_words, Game};

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

pub fn run<G: Game>(args: &QueryArgs<G>, dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules;
    // Read the input before loading (or solving) a table, so that a typo fails at once.
    let mut pos = super::position::<G>(&rules, args.position.as_deref())?;
    for (i, m) in args.moves.iter().enumerate() {
        let mv = rules.parse_move(&pos, m).map_err(|e| CliError::Move {
            number: i + 1,
            count: args.moves.len(),
            input: m.clone(),
            error: Box::new(e),
        })?;
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
        outln!(out, "{}", serde_json::to_string(&answer)?);
        return Ok(());
    }
    let analysis = probe.analyse(&pos, DRAW_LINE).map_err(e)?;
    out!(out, "{}", analysis_in_words::<G>(&rules, &pos, &analysis, &table.origin()));
    Ok(())
}

/// Answers the positions of `source` a line each. A line's own error (a position that does not
/// read, or has no value) is its answer; a damaged table ends the batch with `fatal`'s error.
fn run_batch<R: ProbeRules>(
    probe: &Probe<'_, R>,
    source: &str,
    fatal: &dyn Fn(ProbeError) -> CliError,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // Standard input may be a program feeding one position at a time and waiting for each
    // answer: flush every line. A file is read to its end anyway: buffer.
    let interactive = source == "-";
    let mut reader: Box<dyn BufRead> = if interactive {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(source).map_err(|e| file_error(source, e))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut out = std::io::BufWriter::new(out);
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(|e| file_error(source, e))? == 0 {
            break;
        }
        let input = String::from_utf8_lossy(&bytes);
        let input = input.trim();
        if input.is_empty() {
            continue;
        }
        let json = match batch_line(probe, &bytes) {
            Ok(v) => serde_json::to_string(&v),
            Err(LineError::Damaged(e)) => return Err(fatal(e)),
            Err(error) => serde_json::to_string(&JsonError {
                line: number,
                input: &cut(input),
                error: error.to_string(),
            }),
        }?;
        writeln!(out, "{json}").map_err(CliError::Output)?;
        if interactive {
            out.flush().map_err(CliError::Output)?;
        }
    }
    out.flush().map_err(CliError::Output)
}

/// The batch's input `source` (a file, or `-`) could not be read.
fn file_error(source: &str, e: std::io::Error) -> CliError {
    CliError::File { path: source.into(), source: e }
}

/// Why a line of a batch has no answer. Every one but [`LineError::Damaged`] is the line's
/// own, given as its JSON answer; a damaged table ends the batch.
#[derive(Debug)]
enum LineError<E> {
    /// The line's bytes are not UTF-8 from byte `byte` (from 1) on.
    NotUtf8 { byte: usize },
    /// The line is not a position of the game.
    Position(E),
    /// The position has no value in the table (an entry the table leaves unused, a table
    /// that contradicts the rules).
    Probe(ProbeError),
    /// The table's file is damaged where the position's entry is.
    Damaged(ProbeError),
}

impl<E: std::fmt::Display> std::fmt::Display for LineError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::NotUtf8 { byte } => write!(f, "not valid UTF-8 (byte {byte} of the line)"),
            LineError::Position(e) => write!(f, "{e}"),
            LineError::Probe(e) | LineError::Damaged(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for LineError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LineError::NotUtf8 { .. } => None,
            LineError::Position(e) => Some(e),
            LineError::Probe(e) | LineError::Damaged(e) => Some(e),
        }
    }
}

/// A batch line's answer (`line` as read, untrimmed), or why it has none.
fn batch_line<R: ProbeRules>(probe: &Probe<'_, R>, line: &[u8]) -> Result<Summary, LineError<R::ParseError>> {
    // Bytes that are not UTF-8 spoil their line only, not the batch.
    let text = std::str::from_utf8(line).map_err(|e| LineError::NotUtf8 { byte: e.valid_up_to() + 1 })?;
    let pos = probe.game().parse_position(text.trim()).map_err(LineError::Position)?;
    probe.summary(&pos).map_err(|e| {
        if e.needs_regeneration() {
            LineError::Damaged(e)
        } else {
            LineError::Probe(e)
        }
    })
}
