//! `nana`: solve Nana shogi and use the solution. Thin glue over the rules, engine and
//! tablebase crates; see `nana --help`.

mod commands;
mod games;
mod pool;
mod progress;
mod table;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use games::{CliGame, GameName};

/// Strong solutions of small shogi variants (Nana shogi): rules, tablebases, queries, perfect
/// play.
#[derive(Debug, Parser)]
#[command(name = "nana", version, about, propagate_version = true)]
struct Cli<G: CliGame> {
    /// The game [default: nana; `serve`: every game]. Each game has its own rule flags (see `nana --game G COMMAND --help`).
    #[arg(long, global = true, value_enum)]
    game: Option<GameName>,
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
enum Command<G: CliGame> {
    /// List the legal moves of a position (machine notation<TAB>human notation).
    Moves {
        #[command(flatten)]
        rules: G::RuleArgs,
        /// Position string (default: the start).
        #[arg(long)]
        position: Option<String>,
    },
    /// Count the leaf nodes of the legal-move tree, for every depth from 1 to DEPTH (`perft 0`:
    /// the position itself, one node).
    Perft {
        #[command(flatten)]
        rules: G::RuleArgs,
        /// Position string (default: the start).
        #[arg(long)]
        position: Option<String>,
        depth: u32,
    },
    /// Index size and the states reachable from the start.
    Stats {
        #[command(flatten)]
        rules: G::RuleArgs,
        /// Also print the solution's counts from this tablebase (or the default one, if present).
        #[arg(long)]
        tablebase: Option<PathBuf>,
    },
    /// Solve and write tablebases.
    Solve {
        #[command(flatten)]
        rules: G::SolveArgs,
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
    /// Look up a position: value, ranked moves, best move, principal variation.
    Query(commands::query::QueryArgs<G>),
    /// Play against perfect play in the terminal.
    Play(commands::play::PlayArgs<G>),
    /// Serve the tablebase explorer: a web page and an HTTP JSON API over every game's tables,
    /// or only the game --game names (docs/EXPLORER.md).
    ///
    /// Every rule set of the games served is loaded from its file in --tablebase-dir; a missing
    /// one is solved at start (Nana: seconds per rule set; Dobutsu: minutes and about 3 GB of
    /// memory per rule set) unless --no-solve is given. `nana --game nana serve` serves Nana
    /// alone and starts in seconds.
    Serve {
        /// Port to listen on (0: any free port, printed at start).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on (`0.0.0.0` for every interface).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// Refuse to start when a table is missing (naming every missing file), instead of
        /// solving it at start.
        #[arg(long)]
        no_solve: bool,
    },
}

fn run<G: CliGame>(cli: Cli<G>) -> Result<(), String> {
    // The pool itself is started by the work that uses it (`pool::start`).
    pool::set_threads(cli.threads);
    let tb_dir = cli.tablebase_dir.unwrap_or_else(|| table::DEFAULT_DIR.into());
    match cli.command {
        Command::Moves { rules, position } => {
            commands::moves::run::<G>(&G::rules(&rules), position.as_deref())
        }
        Command::Perft { rules, position, depth } => {
            commands::perft::run::<G>(&G::rules(&rules), position.as_deref(), depth)
        }
        Command::Stats { rules, tablebase } => {
            commands::stats::run::<G>(&G::rules(&rules), tablebase.as_deref(), &tb_dir)
        }
        Command::Solve { rules, out } => {
            commands::solve::run::<G>(&G::rule_sets(&rules), &out.unwrap_or(tb_dir))
        }
        Command::Verify { dir, solve, check, all_games } => {
            let (dir, steps) = (dir.unwrap_or(tb_dir), commands::verify::Steps { solve, check });
            if all_games {
                commands::verify::run_all(&dir, steps)
            } else {
                commands::verify::run::<G>(&dir, steps)
            }
        }
        Command::Results { dir } => commands::results::run::<G>(&dir.unwrap_or(tb_dir)),
        Command::CheckTable { file } => commands::check::run::<G>(&file),
        Command::Query(args) => commands::query::run(&args, &tb_dir),
        Command::Play(args) => commands::play::run(&args, &tb_dir),
        // The explorer serves every game, or only the one --game names.
        Command::Serve { port, bind, no_solve } => {
            commands::serve::run(bind, port, no_solve, cli.game, &tb_dir)
        }
    }
}

/// Parses the arguments as the game's command line and runs the command.
fn parse_and_run<G: CliGame>(args: Vec<OsString>) -> ExitCode {
    let cli = match Cli::<G>::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Help and version go to stdout as clap writes them; a usage error becomes one line on stderr
/// (clap's message, with its list of possible values if it has one) and exit code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        let _ = e.print();
        return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
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

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`nana query | head`), as command-line tools do, instead of
    // panicking in `println!`.
    #[cfg(unix)]
    // Safety: restoring the default disposition of SIGPIPE at start-up, before any thread
    // exists, has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Each game parses its own rule flags: find the game first, then parse for it.
    let args: Vec<OsString> = std::env::args_os().collect();
    match GameName::from_args(&args) {
        GameName::Nana => parse_and_run::<games::nana::Nana>(args),
        GameName::Dobutsu => parse_and_run::<games::dobutsu::Dobutsu>(args),
    }
}
