//! `nana`: solve Nana shogi and use the solution. Thin glue over the rules, engine and
//! tablebase crates; see `nana --help`.

mod args;
mod commands;
mod pool;
mod progress;
mod table;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use args::{PositionArg, RuleArgs, SolveRuleArgs};

/// Strong solution of Nana shogi: rules, tablebases, queries, perfect play.
#[derive(Debug, Parser)]
#[command(name = "nana", version, about, propagate_version = true)]
struct Cli {
    /// Worker threads for the commands that solve or enumerate, 1 to 256 (default: one per core).
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=pool::MAX_THREADS))]
    threads: Option<u16>,
    /// Folder of the tablebases, read and written by every command [default: tablebase].
    #[arg(long, global = true, value_name = "DIR", env = "NANA_TABLEBASE_DIR")]
    tablebase_dir: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the legal moves of a position (USI<TAB>Hodges).
    Moves {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        position: PositionArg,
    },
    /// Count the leaf nodes of the legal-move tree, for every depth from 1 to DEPTH (`perft 0`:
    /// the position itself, one node).
    Perft {
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        position: PositionArg,
        depth: u32,
    },
    /// Index size and the states reachable from the start.
    Stats {
        #[command(flatten)]
        rules: RuleArgs,
        /// Also print the solution's counts from this tablebase (or the default one, if present).
        #[arg(long)]
        tablebase: Option<std::path::PathBuf>,
    },
    /// Solve and write tablebases.
    Solve {
        #[command(flatten)]
        rules: SolveRuleArgs,
        /// Output directory (default: --tablebase-dir).
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
    /// Confirm the published results (start values and the original-rules mate).
    Verify {
        /// Where to look for tablebases (default: --tablebase-dir); solved in memory when none is found.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Regenerate both tablebases into --dir first (the main job: `nana verify --solve`).
        #[arg(long)]
        solve: bool,
    },
    /// Print the tables of docs/RESULTS.md (Markdown), generated from the solutions.
    Results {
        /// Where to look for tablebases (default: --tablebase-dir); each one missing is solved in memory.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
    /// Re-check every entry of a tablebase against its successors with the forward rules.
    CheckTable { file: std::path::PathBuf },
    /// Look up a position: value, ranked moves, best move, principal variation.
    Query(commands::query::QueryArgs),
    /// Play against perfect play in the terminal.
    Play(commands::play::PlayArgs),
}

fn run(cli: Cli) -> Result<(), String> {
    // The pool itself is started by the work that uses it (`pool::start`).
    pool::set_threads(cli.threads);
    let tb_dir = cli.tablebase_dir.unwrap_or_else(|| table::DEFAULT_DIR.into());
    match cli.command {
        Command::Moves { rules, position } => commands::moves::run(&rules.rules(), &position),
        Command::Perft { rules, position, depth } => commands::perft::run(&rules.rules(), &position, depth),
        Command::Stats { rules, tablebase } => {
            commands::stats::run(&rules.rules(), tablebase.as_deref(), &tb_dir)
        }
        Command::Solve { rules, out } => commands::solve::run(&rules.rule_sets()?, &out.unwrap_or(tb_dir)),
        Command::Verify { dir, solve } => {
            let dir = dir.unwrap_or(tb_dir);
            if solve {
                commands::solve::run(&[nana_shogi::Rules::CURRENT, nana_shogi::Rules::ORIGINAL], &dir)?;
                println!();
            }
            commands::verify::run(&dir)
        }
        Command::Results { dir } => commands::results::run(&dir.unwrap_or(tb_dir)),
        Command::CheckTable { file } => commands::check::run(&file),
        Command::Query(args) => commands::query::run(&args, &tb_dir),
        Command::Play(args) => commands::play::run(&args, &tb_dir),
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
    let cli = match Cli::try_parse() {
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
