//! The games the command line knows, and what it needs of each beyond the probe layer: the
//! name given to `--game`, the rule flags, the board diagram, the enumeration counts of
//! `stats`, the published claims of `verify` and the tables of `results`.
//!
//! Every command is generic over [`CliGame`]; `main` picks the game from `--game` before the
//! command line is parsed, so that each game parses its own rule flags. Adding a game is one
//! module here implementing [`CliGame`] and one line in [`GameName`].

pub mod dobutsu;
pub mod nana;

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::path::Path;

use clap::ValueEnum;
use nana_engine::Value;
use nana_probe::table::{Table, TableGame};
use nana_server::Explorable;

/// The values of `--game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Nana shogi (3×3, cube pieces).
    Nana,
    /// Dobutsu shogi (3×4, lions, giraffes, elephants, chicks).
    Dobutsu,
}

impl GameName {
    /// The game named by `--game NAME` or `--game=NAME` among the arguments (before a `--`),
    /// if it is one we know; otherwise the default, and clap reports an unknown name when it
    /// parses the arguments for that game.
    pub fn from_args(args: &[std::ffi::OsString]) -> GameName {
        let mut value = None;
        let mut iter = args.iter().skip(1).map(|a| a.to_str());
        while let Some(arg) = iter.next() {
            match arg {
                Some("--") => break,
                Some("--game") => value = iter.next().flatten(),
                Some(a) if a.starts_with("--game=") => value = Some(&a["--game=".len()..]),
                _ => {}
            }
        }
        value.and_then(|v| GameName::from_str(v, false).ok()).unwrap_or(GameName::Nana)
    }
}

/// A rule set of a game, as the command line uses it: a table of its own whose positions can
/// be hashed (for repetitions in `play`) and shared between threads (for `perft`), worded as
/// the explorer words it ([`Explorable::words`]).
pub trait CliRules:
    TableGame<Position: Copy + Eq + Hash + Send + Sync + Display, Move: Send + Sync>
    + Explorable
    + Copy
    + Eq
    + Debug
    + Send
    + Sync
{
}

impl<R> CliRules for R where
    R: TableGame<Position: Copy + Eq + Hash + Send + Sync + Display, Move: Send + Sync>
        + Explorable
        + Copy
        + Eq
        + Debug
        + Send
        + Sync
{
}

/// What `verify` prints, in two parts so that `nana results` can set the second in a code block.
#[derive(Debug)]
pub struct Report {
    /// The Markdown table of the start and every first move, per claimed rule set.
    pub table: String,
    /// The CONFIRMED / NOT CONFIRMED lines and the principal variation of every win.
    pub summary: String,
    /// How many claims the solution contradicts.
    pub failed: usize,
    /// How many claims there are.
    pub claims: usize,
}

/// A position of a game.
pub type Pos<G> = <<G as CliGame>::Rules as nana_probe::ProbeGame>::Position;

/// A game as the command line sees it.
pub trait CliGame: Debug + 'static {
    /// A rule set with its options.
    type Rules: CliRules;
    /// The flags that pick one rule set (`--rules` and the options).
    type RuleArgs: clap::Args + Debug;
    /// The flags of `solve`, which may pick several rule sets.
    type SolveArgs: clap::Args + Debug;

    /// The rule set the flags pick.
    fn rules(args: &Self::RuleArgs) -> Self::Rules;
    /// The rule sets `solve` makes.
    fn rule_sets(args: &Self::SolveArgs) -> Vec<Self::Rules>;
    /// The rule sets of the published claims: what `verify --solve` makes and `verify` reads.
    fn claimed_rule_sets() -> Vec<Self::Rules>;

    /// The names of the two sides, the one that moves first first (`--side` of `play`).
    const SIDES: [&'static str; 2];
    /// Which side is to move: 0 for the side that moves first, 1 for the other.
    fn side_to_move(pos: &<Self::Rules as nana_probe::ProbeGame>::Position) -> usize;
    /// How a move is entered, for `play`'s prompt help, e.g. "USI-like 2c2b, T*1a or Hodges
    /// B-2b=TG".
    const MOVE_HELP: &'static str;
    /// The value of a position where the side to move has lost (a loss in 0 plies), e.g.
    /// `loss (no legal move)`; the line after it says why ([`CliGame::game_over`]).
    const LOST: &'static str;
    /// What a win is called where `solve` and `stats` give the longest one (`longest distance
    /// to mate: 181 plies`, `longest mate 181 plies`): `mate`, `win`.
    const WIN_NAME: &'static str;
    /// Why the game is over at a position, as a sentence (`white has no legal move
    /// (checkmate) and has lost`); `None` while it goes on.
    fn game_over(
        rules: &Self::Rules,
        pos: &<Self::Rules as nana_probe::ProbeGame>::Position,
    ) -> Option<String>;
    /// The board as text for a terminal.
    fn diagram(pos: &<Self::Rules as nana_probe::ProbeGame>::Position) -> String;

    /// The leaf nodes of the move tree of depth `depth`, as the game's published perft figures
    /// count them (which may generate moves where the solver sees the game as decided).
    fn perft(rules: &Self::Rules, pos: &Pos<Self>, depth: u32) -> u64;
    /// The positions after each move at the root of that tree, for splitting it across threads.
    fn perft_children(rules: &Self::Rules, pos: &Pos<Self>) -> Vec<Pos<Self>>;

    /// The lines `stats` prints about the index and the states reachable from the start
    /// (`progress` is called with units of work as they are found and done).
    fn reachable_stats(rules: &Self::Rules, progress: &(dyn Fn(u64) + Sync)) -> Vec<String>;

    /// The published claims checked against the tables of [`CliGame::claimed_rule_sets`]
    /// (all of them given, in any order).
    fn verify(tables: &[Table<Self::Rules>]) -> Result<Report, String>;

    /// The generated part of the game's results document (Markdown), from the tables in `dir`
    /// (each one missing is solved in memory).
    fn results(dir: &Path) -> Result<String, String>;
}

/// `1 ply`, `31 plies`: the explorer's `{plies}`.
pub fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// A value in the game's words: for Nana `win, mate in 27 plies`, `loss, mated in 4 plies`,
/// `loss (no legal move)`, `draw`; for Dobutsu `win in 27 plies`, `loss in 4 plies`, `loss (the
/// game is over)`, `draw`. A win or a loss with plies to go is worded as the explorer words a
/// move's value ([`nana_server::Words::move_win`] and `move_loss`), a lost game as
/// [`CliGame::LOST`] says.
pub fn describe<G: CliGame>(rules: &G::Rules, v: Value) -> String {
    let words = rules.words();
    match v {
        Value::Win(d) => words.move_win.replace("{plies}", &plies(d.0)),
        Value::Loss(d) if d.0 == 0 => G::LOST.to_string(),
        Value::Loss(d) => words.move_loss.replace("{plies}", &plies(d.0)),
        Value::Draw => "draw".to_string(),
    }
}

/// A count with thousands separators, as the result tables print them: `18,609,858`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(args: &[&str]) -> GameName {
        GameName::from_args(&args.iter().map(Into::into).collect::<Vec<_>>())
    }

    #[test]
    fn the_game_is_found_before_parsing() {
        assert_eq!(game(&["nana", "query"]), GameName::Nana);
        assert_eq!(game(&["nana", "--game", "nana", "query"]), GameName::Nana);
        assert_eq!(game(&["nana", "query", "--game=nana"]), GameName::Nana);
        assert_eq!(game(&["nana", "--game", "dobutsu", "query"]), GameName::Dobutsu);
        assert_eq!(game(&["nana", "query", "--game=dobutsu"]), GameName::Dobutsu);
        assert_eq!(game(&["nana", "--", "--game", "dobutsu"]), GameName::Nana);
        // Unknown names fall back to the default; clap then reports them.
        assert_eq!(game(&["nana", "--game", "chess"]), GameName::Nana);
        assert_eq!(game(&["nana", "--game"]), GameName::Nana);
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(18_609_858), "18,609,858");
    }
}
