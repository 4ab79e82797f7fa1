//! The tables a server serves ([`Registry`]), and how they are found at start: each rule set of
//! a game from its file in the tablebase folder, a missing one solved in memory or refused
//! ([`Missing`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use nana_engine::Progress;
use nana_front::{solve_command, Game};
use nana_probe::table::{Table, TableGame};

use crate::error::ApiError;
use crate::explorer::Explorer;
use crate::response::{GameInfo, RuleSetInfo, TableStats};

struct RuleSet {
    name: String,
    table: Box<dyn Explorer>,
    stats: OnceLock<TableStats>,
}

struct GameTables {
    name: String,
    rule_sets: Vec<RuleSet>,
}

/// The tables a server serves: games by name (`nana`), each with its rule sets by name
/// (`current`, `original`), in the order added (the first is the page's default).
#[derive(Default)]
pub struct Registry {
    games: Vec<GameTables>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<(String, Vec<String>)> = self
            .games
            .iter()
            .map(|g| (g.name.clone(), g.rule_sets.iter().map(|r| r.name.clone()).collect()))
            .collect();
        f.debug_struct("Registry").field("games", &names).finish()
    }
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds (or replaces) the table of rule set `rules` of `game`.
    pub fn add(&mut self, game: &str, rules: &str, table: Box<dyn Explorer>) {
        let entry = RuleSet { name: rules.to_string(), table, stats: OnceLock::new() };
        match self.games.iter_mut().find(|g| g.name == game) {
            Some(g) => match g.rule_sets.iter_mut().find(|r| r.name == rules) {
                Some(r) => *r = entry,
                None => g.rule_sets.push(entry),
            },
            None => self.games.push(GameTables { name: game.to_string(), rule_sets: vec![entry] }),
        }
    }

    /// Every game with its rule sets.
    pub fn games(&self) -> Vec<GameInfo> {
        self.games
            .iter()
            .map(|g| GameInfo {
                game: g.name.clone(),
                // A game has at least one rule set: the one it was added with.
                words: g.rule_sets[0].table.words(),
                rule_sets: g
                    .rule_sets
                    .iter()
                    .map(|r| RuleSetInfo {
                        name: r.name.clone(),
                        description: r.table.description(),
                        origin: r.table.origin(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn rule_set(&self, game: &str, rules: &str) -> Result<&RuleSet, ApiError> {
        let Some(g) = self.games.iter().find(|g| g.name == game) else {
            return Err(ApiError::UnknownGame {
                name: game.to_string(),
                valid: self.games.iter().map(|g| g.name.clone()).collect(),
            });
        };
        g.rule_sets.iter().find(|r| r.name == rules).ok_or_else(|| ApiError::UnknownRuleSet {
            game: game.to_string(),
            name: rules.to_string(),
            valid: g.rule_sets.iter().map(|r| r.name.clone()).collect(),
        })
    }

    /// The table of a rule set of a game; a 404 listing the valid names otherwise.
    pub fn get(&self, game: &str, rules: &str) -> Result<&dyn Explorer, ApiError> {
        self.rule_set(game, rules).map(|r| r.table.as_ref())
    }

    /// A table's statistics, counted on first use.
    pub fn stats(&self, game: &str, rules: &str) -> Result<&TableStats, ApiError> {
        let r = self.rule_set(game, rules)?;
        Ok(r.stats.get_or_init(|| r.table.stats()))
    }
}

/// What to do when a table's file is missing at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Solve it in memory.
    Solve,
    /// Refuse to start (`nana serve --no-solve`).
    Refuse,
}

/// A table file that is not in the tablebase folder, and the command that writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingTable {
    pub path: PathBuf,
    /// `nana --game dobutsu solve --rules safe-try`.
    pub command: String,
}

/// The tables of `G`'s rule sets ([`Game::RULE_SETS`]) missing from `dir`.
pub fn missing_tables<G: Game>(dir: &Path) -> Vec<MissingTable> {
    G::RULE_SETS
        .iter()
        .map(|r| (dir.join(r.rules.file_name()), solve_command::<G>(&r.rules)))
        .filter(|(path, _)| !path.exists())
        .map(|(path, command)| MissingTable { path, command })
        .collect()
}

/// The error of `--no-solve` when files are missing: every missing file, and the commands that
/// write them.
pub fn missing_message(missing: &[MissingTable]) -> String {
    let paths: Vec<String> = missing.iter().map(|m| m.path.display().to_string()).collect();
    let commands: Vec<String> = missing.iter().map(|m| format!("`{}`", m.command)).collect();
    format!(
        "no tablebase at {} (and solving at start was turned off); make {} with {}",
        paths.join(", "),
        if paths.len() == 1 { "it" } else { "them" },
        commands.join(" and ")
    )
}

/// Adds every rule set of `G` ([`Game::RULE_SETS`]) to `registry` under the game's name, each
/// by its name in URLs, from its file in `dir` (memory-mapped), solving a missing one in memory
/// or refusing to start as `missing` says (naming every missing file at once). `progress`
/// makes the progress report of a rule set's solve from its name; `announce` is called before
/// a solve with the rule set and options in words and the path looked for.
pub fn add_game<G: Game>(
    registry: &mut Registry,
    dir: &Path,
    missing: Missing,
    progress: &dyn Fn(&str) -> Box<dyn Progress>,
    announce: &mut dyn FnMut(&str, &Path),
) -> Result<(), String> {
    if missing == Missing::Refuse {
        let absent = missing_tables::<G>(dir);
        if !absent.is_empty() {
            return Err(missing_message(&absent));
        }
    }
    for rule_set in G::RULE_SETS {
        let rules = rule_set.rules;
        let progress = progress(rule_set.name);
        let table =
            Table::load_or_solve(rules, None, dir, progress.as_ref(), |g, p| announce(&g.describe(), p))
                .map_err(|e| {
                    if e.needs_regeneration() {
                        format!("{e}; regenerate it with `{}`", solve_command::<G>(&rules))
                    } else {
                        e.to_string()
                    }
                })?;
        registry.add(G::NAME, rule_set.name, Box::new(table));
    }
    Ok(())
}
