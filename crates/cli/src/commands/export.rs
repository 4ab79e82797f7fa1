//! `nana export`: every stored position of a table to an Apache Parquet or CSV file
//! ([`nana_export`]: the columns, and how the rows are made).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use nana_export::Format;
use nana_probe::table::TableRules;
use nana_probe::ProbeRules;

use crate::error::CliError;
use crate::flags::RuleFlags;
use crate::out::outln;
use crate::progress::bar;
use crate::table;
use nana_front::Game;

#[derive(Debug, Args)]
pub struct ExportArgs<G: Game> {
    #[command(flatten)]
    pub rules: RuleFlags<G>,
    /// Tablebase file (default: the rule set's file in the tablebase folder, else solved in
    /// memory).
    #[arg(long)]
    pub tablebase: Option<PathBuf>,
    /// The file to write (replaced if it exists).
    pub out: PathBuf,
    /// The file format [default: csv for a name ending in .csv, else parquet]. CSV is for small
    /// tables (Nana's); Parquet is compressed and typed, for any table.
    #[arg(long, value_enum)]
    pub format: Option<FileFormat>,
    /// The most memory, in MiB, that a compressed table file's decoded entries take while the
    /// export reads them (a row reads the entries of its moves, all over the index): a cache of
    /// decoded pages of 262,144 entries, each thread keeping its share. A smaller budget holds
    /// less and decodes pages more often.
    #[arg(long, value_name = "MIB", default_value_t = nana_export::DEFAULT_BUDGET >> 20)]
    pub cache: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FileFormat {
    Parquet,
    Csv,
}

pub fn run<G: Game>(args: &ExportArgs<G>, dir: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let rules = args.rules.rules;
    let csv = args.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let format = match args.format {
        Some(FileFormat::Csv) => Format::Csv,
        Some(FileFormat::Parquet) => Format::Parquet,
        None if csv => Format::Csv,
        None => Format::Parquet,
    };
    if args.out.is_dir() {
        return Err(CliError::OutputIsDirectory(args.out.clone()));
    }
    let table = table::load_or_solve::<G>(rules, args.tablebase.as_deref(), dir)?;
    crate::pool::start()?;
    let pages = nana_export::pages(&table, args.cache << 20);
    // Written to a file beside the output and renamed at the end: an export that fails or is
    // stopped leaves no partial file under the output's name.
    let partial = partial_path(&args.out);
    let file =
        std::fs::File::create(&partial).map_err(|source| CliError::File { path: partial.clone(), source })?;
    let progress = bar(rules.size(), format!("{}: export", rules.rule_set_name()));
    let written = nana_export::with_probe(&table, pages.as_ref(), |probe| {
        nana_export::write(probe, format, file, &|n| progress.inc(n))
    });
    progress.finish_and_clear();
    let rows = match written {
        Ok(rows) => rows,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(match e {
                nana_export::ExportError::Probe(e) => table::probe_error::<G>(&table, e),
                error => CliError::Export { path: args.out.clone(), error },
            });
        }
    };
    std::fs::rename(&partial, &args.out)
        .map_err(|source| CliError::File { path: args.out.clone(), source })?;
    outln!(out, "{}: {rows} positions of {} ({})", args.out.display(), rules.describe(), table.origin());
    Ok(())
}

/// `DIR/.NAME.partial` for the output `DIR/NAME`.
fn partial_path(out: &Path) -> PathBuf {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    out.with_file_name(format!(".{name}.partial"))
}
