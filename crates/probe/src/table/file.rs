//! Tables in files (the `files` feature): writing a solution to its file, opening a file
//! ([`Tablebase::open`]) and checking that it is the table asked for, and solving one when no
//! file is found. The static site's WebAssembly module is built without it: it opens its tables from
//! bytes ([`Table::from_tablebase`]).

use std::path::{Path, PathBuf};

use nana_engine::{Progress, Solution};
use nana_tablebase::{Counts, Tablebase};

use super::{Identity, Table, TableError, TableRules};

/// Writes a solution atomically to `dir/`[`TableRules::file_name`], its entries in the game's
/// order ([`ProbeRules::file_order`](crate::ProbeRules::file_order)) and layout
/// ([`TableRules::layout`]), and returns that path.
pub fn write<G: TableRules>(game: &G, dir: &Path, solution: &Solution) -> Result<PathBuf, TableError> {
    let path = dir.join(game.file_name());
    let s = &solution.stats;
    let counts = Counts { wins: s.wins, losses: s.losses, draws: s.draws, illegal: s.illegal };
    let header = game.header(counts, u32::from(s.max_dtm));
    let width = solution.width.bytes();
    let order = game.file_order();
    let written = if order.is_index() {
        let fill = |first: u64, out: &mut [u8]| solution.fill(first / width as u64, out);
        nana_tablebase::write_from(&path, &header, game.layout(), &fill)
    } else {
        let entries = solution.bytes();
        let fill = |first: u64, out: &mut [u8]| order.fill_places(&entries, width, first / width as u64, out);
        nana_tablebase::write_from(&path, &header, game.layout(), &fill)
    };
    written.map_err(|error| TableError::File { path: path.clone(), error })?;
    Ok(path)
}

fn open_file(path: &Path) -> Result<Tablebase, TableError> {
    if path.is_dir() {
        return Err(TableError::IsDirectory(path.to_path_buf()));
    }
    Tablebase::open(path).map_err(|error| TableError::File { path: path.to_path_buf(), error })
}

impl<G: TableRules> Table<G> {
    /// Opens a table and checks that it was built for `game`'s rule set, with the index layout,
    /// entry encoding and size this build reads.
    pub fn open(game: G, path: &Path) -> Result<Table<G>, TableError> {
        let tb = open_file(path)?;
        let built = Table::<G>::rules_of(&tb, path, &game)?;
        let expected = game.expected();
        if (tb.header().rule_set_id, tb.header().option_bits) != (expected.rule_set_id, expected.option_bits)
        {
            let found = Identity { game: expected.game.to_string(), rules: built.describe() };
            let asked = Identity { game: expected.game.to_string(), rules: game.describe() };
            return Err(TableError::OtherRules { path: path.to_path_buf(), found, asked });
        }
        Table::checked(game, tb, path)
    }

    /// Opens a table of this game (`like` is any of its rule sets) built with any of its rule
    /// sets.
    pub fn open_any(like: &G, path: &Path) -> Result<Table<G>, TableError> {
        let tb = open_file(path)?;
        let game = Table::<G>::rules_of(&tb, path, like)?;
        Table::checked(game, tb, path)
    }

    /// The table of `game`: the file `explicit` if given, else its file in `dir` if there is
    /// one, else a solve in memory, announced first by `announce` with the path that was
    /// looked for.
    pub fn load_or_solve(
        game: G,
        explicit: Option<&Path>,
        dir: &Path,
        progress: &dyn Progress,
        announce: impl FnOnce(&G, &Path),
    ) -> Result<Table<G>, TableError> {
        if let Some(path) = explicit {
            return Table::open(game, path);
        }
        let path = dir.join(game.file_name());
        if path.exists() {
            return Table::open(game, &path);
        }
        announce(&game, &path);
        Table::solve(game, progress)
    }
}
