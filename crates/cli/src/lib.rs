//! `nana`: solve small shogi variants and use the solutions. Thin glue over the games, the
//! engine, the tablebase files and the explorer; see `nana --help`.
//!
//! The command line names no game: it is generic over the roles of a game in the front layer
//! ([`Game`], [`Perft`], [`Claims`], [`ProtocolNotation`]; each command asks for those it uses),
//! and the games
//! it is built with are one list, [`games::GAMES`]. [`main`] picks the game from `--game` before
//! the arguments are parsed, so that each game parses its own rule flags.

pub mod commands;
mod error;
mod flags;
pub mod games;
mod out;
mod pool;
mod progress;
mod table;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use nana_front::{Claims, Game, Perft, ProtocolNotation};

pub use error::CliError;
use flags::{RuleFlags, SolveFlags};
use games::Registered;

/// Strong solutions of small shogi variants: rules, tablebases, queries, perfect
/// play.
#[derive(Debug, Parser)]
#[command(name = "nana", version, about, propagate_version = true)]
struct Cli<G: Game> {
    /// The game (its help, with the default, is set from the games the command line is built
    /// with).
    #[arg(long, global = true)]
    game: Option<String>,
    /// Worker threads for the commands that solve or enumerate, 1 to 256 (default: one per core).
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=pool::MAX_THREADS))]
    threads: Option<u16>,
    /// Folder of the tablebases, read and written by every command [default: tablebase].
    #[arg(long, global = true, value_name = "DIR", env = "NANA_TABLEBASE_DIR")]
    tablebase_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command<G>,
}

#[derive(Debug, Subcommand)]
enum Command<G: Game> {
    /// List the legal moves of a position (machine notation<TAB>human notation).
    Moves {
        #[command(flatten)]
        rules: RuleFlags<G>,
        /// Position string (default: the start).
        #[arg(long)]
        position: Option<String>,
    },
    /// Count the leaf nodes of the legal-move tree, for every depth from 1 to DEPTH (`perft 0`:
    /// the position itself, one node).
    Perft {
        #[command(flatten)]
        rules: RuleFlags<G>,
        /// Position string (default: the start).
        #[arg(long)]
        position: Option<String>,
        depth: u32,
    },
    /// Index size and the states reachable from the start.
    Stats {
        #[command(flatten)]
        rules: RuleFlags<G>,
        /// Also print the solution's counts from this tablebase (or the default one, if present).
        #[arg(long)]
        tablebase: Option<PathBuf>,
        /// Skip the enumeration of the states reachable from the start (tens of seconds for
        /// Dobutsu): print only the tablebase's counts.
        #[arg(long)]
        no_reachable: bool,
    },
    /// Solve and write tablebases.
    Solve {
        #[command(flatten)]
        rules: SolveFlags<G>,
        /// Output directory (default: --tablebase-dir).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Confirm the published results about the game.
    Verify {
        /// Where to look for tablebases (default: --tablebase-dir); solved in memory when none is found.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Regenerate the tablebases the claims are about into --dir first.
        #[arg(long)]
        solve: bool,
        /// Re-check every entry of each table the claims are about against the rules first, as
        /// `check-table` does (the tables must be files in --dir).
        #[arg(long)]
        check: bool,
        /// The exhaustive self-check (with --solve and --check): solve with every fast path
        /// checked against the plain way as it runs, solve and check every table the game
        /// ships, then run the game's checks of its index, moves and enumeration over their
        /// whole spaces (docs/TESTING.md).
        #[arg(long, requires_all = ["solve", "check"])]
        self_check: bool,
        /// Every game in turn, not only --game's (the main job: `nana verify --solve --check --all-games`).
        #[arg(long, conflicts_with = "game")]
        all_games: bool,
    },
    /// Print the generated tables of the game's results document (Markdown; docs/RESULTS.md).
    Results {
        /// Where to look for tablebases (default: --tablebase-dir); each one missing is solved in memory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Re-check every entry of a tablebase against its successors with the forward rules.
    CheckTable { file: PathBuf },
    /// Write every stored position of a table to a Parquet or CSV file: FEN, side to move,
    /// category, DTM, best move, material in hand (docs/PYTHON.md).
    #[cfg(feature = "export")]
    Export(commands::export::ExportArgs<G>),
    /// Look up a position: value, ranked moves, best move, principal variation.
    Query(commands::query::QueryArgs<G>),
    /// Play against perfect play in the terminal.
    Play(commands::play::PlayArgs<G>),
    /// Serve the tablebase explorer: a web page and an HTTP JSON API over every game's tables,
    /// or only the game --game names (docs/EXPLORER.md).
    ///
    /// Every rule set of the games served is opened from its file in --tablebase-dir, and the
    /// server answers at once; a missing one is solved in the background (seconds to minutes per
    /// rule set, docs/EXPLORER.md), written to the folder and then served, unless --no-solve is
    /// given. `nana --game G serve` serves the game G alone.
    #[cfg(feature = "serve")]
    Serve {
        /// Port to listen on (0: any free port, printed at start).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on: an IP address or a host name such as `localhost` (`0.0.0.0`: every
        /// interface).
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Solve nothing: a missing table's rule set is reported missing (naming its file and
        /// the command that makes it); the server refuses to start only with nothing to serve.
        #[arg(long)]
        no_solve: bool,
        #[command(flatten)]
        limits: commands::serve::LimitArgs,
    },
    /// Run as an engine for GUIs: UCI or USI on standard input and output, every game a value
    /// of `UCI_Variant` (--game's the default), every answer from the tables
    /// (docs/ENGINE-PROTOCOL.md).
    ///
    /// A missing table is solved when the GUI first asks for it (`isready`), with progress on
    /// `info string` lines.
    Engine,
}

fn run<G: Game + Perft + Claims + ProtocolNotation>(
    cli: Cli<G>,
    games: &[&dyn Registered],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // The pool itself is started by the work that uses it (`pool::start`).
    pool::set_threads(cli.threads);
    let tb_dir = cli.tablebase_dir.unwrap_or_else(|| table::DEFAULT_DIR.into());
    match cli.command {
        Command::Moves { rules, position } => {
            commands::moves::run::<G>(&rules.rules, position.as_deref(), out)
        }
        Command::Perft { rules, position, depth } => {
            commands::perft::run::<G>(&rules.rules, position.as_deref(), depth, out)
        }
        Command::Stats { rules, tablebase, no_reachable } => {
            commands::stats::run::<G>(&rules.rules, tablebase.as_deref(), &tb_dir, !no_reachable, out)
        }
        Command::Solve { rules, out: dir } => {
            commands::solve::run::<G>(&rules.rule_sets, &dir.unwrap_or(tb_dir), out)
        }
        Command::Verify { dir, solve, check, self_check, all_games } => {
            let (dir, steps) = (dir.unwrap_or(tb_dir), commands::verify::Steps { solve, check, self_check });
            if all_games {
                commands::verify::run_all(games, &dir, steps, out)
            } else {
                commands::verify::run::<G>(&dir, steps, out)
            }
        }
        Command::Results { dir } => commands::results::run::<G>(&dir.unwrap_or(tb_dir), out),
        Command::CheckTable { file } => commands::check::run::<G>(&file, out),
        Command::Query(args) => commands::query::run(&args, &tb_dir, out),
        #[cfg(feature = "export")]
        Command::Export(args) => commands::export::run(&args, &tb_dir, out),
        Command::Play(args) => commands::play::run(&args, &tb_dir, out),
        // The explorer serves every game, or only the one --game names.
        #[cfg(feature = "serve")]
        Command::Serve { port, bind, no_solve, limits } => {
            let served: Vec<&dyn Registered> = match cli.game {
                Some(_) => games.iter().copied().filter(|g| g.name() == G::NAME).collect(),
                None => games.to_vec(),
            };
            commands::serve::run(&bind, port, no_solve, &limits, &served, &tb_dir)
        }
        Command::Engine => {
            pool::start()?;
            let stdin = std::io::BufReader::new(std::io::stdin());
            commands::engine::run(games, G::PROTOCOL_NAME, &tb_dir, stdin, out)
        }
    }
}

/// Parses the arguments as the command line of `G` (one of `games`) and runs the command,
/// writing its output to `out`.
pub fn parse_and_run<G: Game + Perft + Claims + ProtocolNotation>(
    args: Vec<OsString>,
    games: &[&dyn Registered],
    out: &mut dyn Write,
) -> ExitCode {
    let names: Vec<PossibleValue> =
        games.iter().map(|g| PossibleValue::new(g.name()).help(g.about())).collect();
    let example = format!("Position string, e.g. \"{}\" (default: the start).", G::EXAMPLE_POSITION);
    let solved: Vec<String> = games.iter().map(|g| format!("{}, {}", g.name(), g.about())).collect();
    let about = format!("Strong solutions of small shogi variants: {}.", solved.join("; "));
    let default = games.first().map_or("", |g| g.name());
    let game_help = format!(
        "The game [default: {default}; `serve`: every game]. Each game has its own rule flags (see `nana --game G COMMAND --help`)."
    );
    let command = Cli::<G>::command()
        .about(about)
        .mut_arg("game", |a| a.value_parser(PossibleValuesParser::new(names)).help(game_help))
        .mut_subcommand("query", |c| c.mut_arg("position", |a| a.help(example)));
    let cli = match command.try_get_matches_from(args).and_then(|m| Cli::<G>::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e, out),
    };
    match run(cli, games, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
/// Help and version go to the output (as plain text); a usage error becomes one line on stderr
/// (clap's message, with its list of possible values if it has one) and exit code 2.
fn usage_error(e: clap::Error, out: &mut dyn Write) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        if e.use_stderr() {
            let _ = e.print();
            return ExitCode::from(2);
        }
        return match write!(out, "{}", e.render()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: {}", CliError::Output(error));
                ExitCode::FAILURE
            }
        };
    }
    let rendered = e.render().to_string();
    let line = rendered
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information") && !l.starts_with("Usage:"))
        .map(|l| l.trim_start_matches("error: "))
        .collect::<Vec<_>>()
        .join(" ");
    eprintln!("error: {line} (see `nana --help`)");
    ExitCode::from(2)
}

/// Runs the `nana` command line over `games` (the first is the default): finds the game
/// first, then parses the arguments for it and runs the command, writing its output to `out`.
pub fn main(games: &[&dyn Registered], args: Vec<OsString>, out: &mut dyn Write) -> ExitCode {
    games::from_args(games, &args).run(args, games, out)
}
