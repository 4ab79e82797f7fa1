//! Tables in files (the `files` feature): [`add_game`] opens each rule set's table from its file
//! in the tablebase folder, and a queued solve writes its table there. The static site's
//! WebAssembly module is built without it: it adds its tables from bytes.

use std::path::Path;

use nana_engine::{Progress, SolveError};
use nana_front::{solve_command, Explorable, Game};
use nana_probe::table::{Table, TableRules};
use nana_probe::ProbeRules;

use super::{board_of, file_name, Missing, Registry, SolveJob, Solved, Status};

/// Adds every rule set of `G` ([`Game::RULE_SETS`]) to `registry` under the game's name, each
/// by its name in URLs: opened from its file in `dir` (and checked) where there is one,
/// reported damaged where that file cannot be served, and otherwise queued for
/// [`Registry::solve_queued`] (which writes the table to `dir`) or reported missing, as
/// `missing` says. Returns a line for the console about each rule set not opened, naming its
/// file in full and the command that makes it.
pub fn add_game<G: Game>(registry: &mut Registry, dir: &Path, missing: Missing) -> Vec<String> {
    let mut notes = Vec::new();
    for rule_set in G::RULE_SETS {
        let rules = rule_set.rules;
        let path = dir.join(rules.file_name());
        let file = file_name(&path);
        let command = solve_command::<G>(&rules);
        let (description, words) = (rules.describe(), rules.words());
        if path.exists() {
            match Table::open(rules, &path) {
                Ok(table) => registry.add(G::NAME, rule_set.name, Box::new(table)),
                Err(e) => {
                    notes.push(format!("{e}; make it again with `{command}`"));
                    // The server's folder stays its own: the file is named alone.
                    let error = e.to_string().replace(&path.display().to_string(), &file);
                    let status = Status::Damaged { file, error, command };
                    registry.add_pending(G::NAME, rule_set.name, description, words, status, None);
                }
            }
            continue;
        }
        match missing {
            Missing::Refuse => {
                notes.push(format!(
                    "no tablebase at {} (solving at start is turned off); make it with `{command}`",
                    path.display()
                ));
                let status = Status::Missing { file, command };
                registry.add_pending(G::NAME, rule_set.name, description, words, status, None);
            }
            Missing::Solve => {
                notes.push(format!(
                    "no tablebase at {}; {} {} will be solved in the background and written there",
                    path.display(),
                    G::NAME,
                    rule_set.name
                ));
                let dir = dir.to_path_buf();
                let job: SolveJob = Box::new(move |progress| solve_and_save(rules, &dir, progress));
                registry.add_pending(
                    G::NAME,
                    rule_set.name,
                    description,
                    words,
                    Status::Queued,
                    Some((rules.size(), job)),
                );
            }
        }
    }
    // Every rule set draws its positions, ready or not.
    for rule_set in G::RULE_SETS {
        registry.set_board(G::NAME, rule_set.name, board_of(rule_set.rules));
    }
    notes
}

/// Solves `rules`, writes the table to `dir` and serves it from there; where it cannot be
/// written, from memory.
fn solve_and_save<R>(rules: R, dir: &Path, progress: &dyn Progress) -> Result<Solved, SolveError>
where
    R: Explorable + Clone + Send + Sync + 'static,
{
    let solution = rules.solve(progress)?;
    // Not saved is not failed: the note says why, and the table is served from memory.
    let saved = match nana_probe::table::write(&rules, dir, &solution) {
        Ok(path) => Table::open(rules.clone(), &path).map(|table| (table, path)),
        Err(e) => Err(e),
    };
    Ok(match saved {
        Ok((table, path)) => Solved { table: Box::new(table), note: format!("saved to {}", path.display()) },
        Err(e) => Solved {
            table: Box::new(Table::from_solution(rules, solution)),
            note: format!("could not save it ({e}); served from memory"),
        },
    })
}
