//! Nana shogi's tablebases on disk: file names, header fields, writing, opening (memory-mapped)
//! and the in-memory fallback when no file is found.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nana_engine::{EntryWidth, Solution, Stats};
use nana_shogi::probe::Probe;
use nana_shogi::{index, NanaGame, Rules, Variant};
use nana_tablebase::{Counts, Expected, Header, Tablebase};

use crate::progress::Bars;

/// Where `solve` writes and every other command looks.
pub const DEFAULT_DIR: &str = "tablebase";
/// The game name in the header.
pub const GAME: &str = "nana-shogi";

/// `nana-current.tb`, `nana-original-hand-stalemate-off.tb`, …
pub fn file_name(rules: &Rules) -> String {
    let mut name = format!("nana-{}", rules.variant.name());
    if !rules.drop_stalemate {
        name.push_str("-drop-stalemate-off");
    }
    if !rules.hand_stalemate {
        name.push_str("-hand-stalemate-off");
    }
    name + ".tb"
}

fn variant_id(v: Variant) -> u32 {
    match v {
        Variant::Current => 0,
        Variant::Original => 1,
    }
}

fn option_bits(rules: &Rules) -> u32 {
    u32::from(rules.drop_stalemate) | u32::from(rules.hand_stalemate) << 1
}

/// The full rule description stored in headers, e.g. `original, drop-stalemate on, hand-stalemate on`.
pub fn describe(rules: &Rules) -> String {
    let sw = |b: bool| if b { "on" } else { "off" };
    format!(
        "{}, drop-stalemate {}, hand-stalemate {}",
        rules.variant.name(),
        sw(rules.drop_stalemate),
        sw(rules.hand_stalemate)
    )
}

/// The rules a header says its table was built with.
pub fn rules_of(header: &Header) -> Result<Rules, String> {
    let variant = match header.variant {
        0 => Variant::Current,
        1 => Variant::Original,
        v => return Err(format!("unknown rule set id {v} in the header")),
    };
    if header.options > 3 {
        return Err(format!("unknown rule option bits {:#x} in the header", header.options));
    }
    Ok(Rules { variant, drop_stalemate: header.options & 1 != 0, hand_stalemate: header.options & 2 != 0 })
}

fn expected(rules: &Rules) -> Expected<'static> {
    Expected {
        game: GAME,
        variant: variant_id(rules.variant),
        options: option_bits(rules),
        layout_version: index::LAYOUT_VERSION,
        entries: index::SIZE,
    }
}

/// Solves one rule set with progress bars; also returns how long each phase took.
pub fn solve(rules: &Rules) -> Result<(Solution, Vec<(String, Duration)>), String> {
    crate::pool::start()?;
    let bars = Bars::new(rules.variant.name());
    let start = Instant::now();
    let spinner = crate::progress::bar(0, format!("{}: prepare", rules.variant.name()));
    let game = NanaGame::prepared(*rules);
    spinner.finish_and_clear();
    let prepared = start.elapsed();
    let solution = nana_engine::solve(&game, &bars).map_err(|e| e.to_string())?;
    let mut times = vec![("prepare".to_string(), prepared)];
    times.extend(bars.times());
    Ok((solution, times))
}

/// Makes sure `dir` is (or can be made) a folder we can write tables to, so that `solve` fails
/// at once rather than after minutes of solving.
pub fn check_writable(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(format!("{shown}: not a directory, cannot write tablebases there"));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{shown}: cannot create the directory: {e}"))?;
    // Permissions alone do not tell (read-only mounts, ACLs): try writing.
    let trial = dir.join(format!(".nana-write-test-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&trial)
        .map_err(|e| format!("{shown}: cannot write tablebases there: {e}"))?;
    std::fs::remove_file(&trial).map_err(|e| format!("{}: {e}", trial.display()))
}

/// Writes a solution atomically to `dir/file_name(rules)`.
pub fn write(dir: &Path, rules: &Rules, solution: &Solution) -> Result<PathBuf, String> {
    let path = dir.join(file_name(rules));
    let s = &solution.stats;
    let header = Header {
        game: GAME.to_string(),
        variant: variant_id(rules.variant),
        options: option_bits(rules),
        rules: describe(rules),
        entries: index::SIZE,
        entry_width: 1,
        layout_version: index::LAYOUT_VERSION,
        counts: Counts { wins: s.wins, losses: s.losses, draws: s.draws, illegal: s.illegal },
        max_dtm: u32::from(s.max_dtm),
    };
    nana_tablebase::write(&path, &header, &solution.entries).map_err(|e| e.to_string())?;
    Ok(path)
}

/// A solution in memory or memory-mapped from a file.
#[derive(Debug)]
pub enum Source {
    File(Tablebase),
    Memory(Solution),
}

/// One rule set's solution, ready for lookups.
#[derive(Debug)]
pub struct Table {
    pub rules: Rules,
    pub source: Source,
}

impl Table {
    pub fn entries(&self) -> &[u8] {
        match &self.source {
            Source::File(tb) => tb.payload(),
            Source::Memory(s) => &s.entries,
        }
    }

    pub fn probe(&self) -> Probe<'_> {
        Probe::new(self.rules, self.entries()).expect("size checked when the table was opened")
    }

    /// Counts of the solution (from the header for a file).
    pub fn stats(&self) -> Stats {
        match &self.source {
            Source::File(tb) => Stats::of(tb.payload(), EntryWidth::One),
            Source::Memory(s) => s.stats.clone(),
        }
    }

    /// Where the table came from, for messages.
    pub fn origin(&self) -> String {
        match &self.source {
            Source::File(tb) => tb.path().display().to_string(),
            Source::Memory(_) => "solved in memory".to_string(),
        }
    }
}

fn open_file(path: &Path) -> Result<Tablebase, String> {
    if path.is_dir() {
        return Err(format!("{}: is a directory, not a tablebase file", path.display()));
    }
    Tablebase::open(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Opens a tablebase and checks that it was built for `rules`.
pub fn open(path: &Path, rules: &Rules) -> Result<Table, String> {
    let tb = open_file(path)?;
    let built = rules_of(tb.header());
    if built.as_ref().ok() != Some(rules) {
        let found = built.map(|r| describe(&r)).unwrap_or_else(|e| e);
        return Err(format!(
            "{}: the table was built with rules \"{found}\", but \"{}\" were asked for",
            path.display(),
            describe(rules)
        ));
    }
    tb.check_expected(&expected(rules)).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Table { rules: *rules, source: Source::File(tb) })
}

/// Opens a tablebase built with any rules.
pub fn open_any(path: &Path) -> Result<Table, String> {
    let tb = open_file(path)?;
    let rules = rules_of(tb.header()).map_err(|e| format!("{}: {e}", path.display()))?;
    tb.check_expected(&expected(&rules)).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Table { rules, source: Source::File(tb) })
}

/// The table for `rules`: the file given, else the default file in `dir` if it exists, else a
/// fresh in-memory solve (announced on stderr).
pub fn load_or_solve(rules: &Rules, explicit: Option<&Path>, dir: &Path) -> Result<Table, String> {
    if let Some(path) = explicit {
        return open(path, rules);
    }
    let path = dir.join(file_name(rules));
    if path.exists() {
        return open(&path, rules);
    }
    eprintln!(
        "note: no tablebase at {}; solving {} in memory (several seconds). Run `nana solve` to keep one.",
        path.display(),
        describe(rules)
    );
    let start = Instant::now();
    let (solution, _) = solve(rules)?;
    eprintln!("note: solved in {:.1} s", start.elapsed().as_secs_f64());
    Ok(Table { rules: *rules, source: Source::Memory(solution) })
}
