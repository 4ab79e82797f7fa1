//! What every front end shows of a game, supplied by the game itself, in one trait a role:
//!
//! - [`Game`]: what the game is called and how it is shown (its name, rule sets and options,
//!   sides, the board diagram, why the game is over); every front end asks for it;
//! - [`Explorable`] (on the rule-set type): the board view, the editor's palette and the words
//!   of the explorer page;
//! - [`Perft`]: the move tree as the game's published figures count it (the command line's
//!   `perft`, the engine's `go perft`);
//! - [`Claims`]: the published claims with their verdicts, the generated results document and
//!   the reachable-state lines of `stats` (the command line);
//! - [`ProtocolNotation`]: its name and its position and move forms in the engine protocol
//!   (`nana engine`), with the protocol's [`Dialect`] and [`PositionForm`];
//! - [`DynGame`] on [`GameType`]: a game as a value whatever its type, the face of a game every
//!   front end's list of games extends.
//!
//! The front ends (the command line, the explorer server, the engine protocol, the page) name
//! no game: they see a game through these traits, each asking only for the roles it uses, and
//! the binary lists the games it is built with in one registry. The crate graph is game → front
//! → probe → engine.

pub mod claims;
pub mod protocol;
#[cfg(feature = "testing")]
pub mod testing;
pub mod view;

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::marker::PhantomData;

use nana_engine::Value;
use nana_probe::table::TableRules;
use nana_probe::{GameAnalysis, ProbeRules};

pub use claims::{CheckFailed, Claims, Load, Report, ReportError, WholeCheck};
pub use protocol::{Dialect, PositionForm, ProtocolNotation};
pub use view::{
    Board, EndingWords, Explorable, Hand, HandPiece, MoveSquares, Palette, PieceView, SquareView, Words,
};

/// A named rule set of a game with its options at their defaults: a value of `--rules` and a
/// rule set the explorer serves under that name in URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleSet<R: 'static> {
    /// Its name: `current`, `tanaka`.
    pub name: &'static str,
    /// One line for `--help`: `Version 3.0: short rook.`
    pub help: &'static str,
    pub rules: R,
}

/// A rule option switched on or off by a flag of its name (`--drop-stalemate on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleOption {
    /// The flag's name: `drop-stalemate`.
    pub name: &'static str,
    /// One line for `--help`.
    pub help: &'static str,
    /// Whether the rule sets of [`Game::RULE_SETS`] have it on.
    pub default: bool,
}

/// The rules of a game as the front ends use them: a rule set whose table can be written,
/// opened and solved ([`TableRules`](nana_probe::table::TableRules)), shown by the explorer
/// ([`Explorable`]), whose positions can be hashed (for repetitions in `play`) and shared
/// between threads (for `perft` and the server).
pub trait FrontRules:
    Explorable<Position: Copy + Eq + Hash + Send + Sync + Display, Move: Send + Sync>
    + Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
{
}

impl<R> FrontRules for R where
    R: Explorable<Position: Copy + Eq + Hash + Send + Sync + Display, Move: Send + Sync>
        + Copy
        + Eq
        + Debug
        + Send
        + Sync
        + 'static
{
}

/// A position of a game.
pub type Pos<G> = <<G as Game>::Rules as ProbeRules>::Position;

/// A move of a game.
pub type Mv<G> = <<G as Game>::Rules as ProbeRules>::Move;

/// A game's error about a position or a move it cannot read.
pub type ParseError<G> = <<G as Game>::Rules as ProbeRules>::ParseError;

/// A game as every front end sees it: what it is called and how it is shown. The command
/// line's `--game NAME`, the explorer's URLs and the engine's rule options are built from this;
/// the other roles of a game are traits of their own ([`Perft`], [`Claims`],
/// [`ProtocolNotation`]), each asked for by the front ends that use it.
pub trait Game: Debug + Send + Sync + 'static {
    /// A rule set with its options.
    type Rules: FrontRules;

    /// Its name in `--game` and in URLs: `nana`, `dobutsu`.
    const NAME: &'static str;
    /// In words, for `--game`'s help: `Nana shogi (3×3, cube pieces)`.
    const ABOUT: &'static str;
    /// Its named rule sets, the default first; the explorer serves each of them.
    const RULE_SETS: &'static [RuleSet<Self::Rules>];
    /// The help of `--rules`.
    const RULES_HELP: &'static str = "Rule set.";
    /// Its rule options, each a flag of every command (none for a game without options).
    const OPTIONS: &'static [RuleOption] = &[];
    /// Whether `solve` makes every rule set when `--rules` is not given (else the default one).
    const SOLVE_ALL: bool = false;

    /// `rules` with the options switched as `options` says, in the order of [`Game::OPTIONS`].
    fn with_options(rules: Self::Rules, options: &[bool]) -> Self::Rules {
        let _ = options;
        rules
    }

    /// The names of the two sides, the one that moves first first (`--side` of `play`).
    const SIDES: [&'static str; 2];
    /// Which side is to move: 0 for the side that moves first, 1 for the other.
    fn side_to_move(pos: &Pos<Self>) -> usize;
    /// A side in a sentence (`value: loss in 78 plies for the first player`): by default its
    /// name in [`Game::SIDES`].
    fn side_name(side: usize) -> String {
        Self::SIDES[side].to_string()
    }
    /// How a move is entered, for `play`'s prompt help, e.g. "USI-like 2c2b, T*1a or Hodges
    /// B-2b=TG".
    const MOVE_HELP: &'static str;
    /// The value of a position where the side to move has lost (a loss in 0 plies), e.g.
    /// `loss (no legal move)`; the line after it says why ([`Game::game_over`]).
    const LOST: &'static str;
    /// What a win is called where `solve` and `stats` give the longest one (`longest distance
    /// to mate: 181 plies`): `mate`, `win`.
    const WIN_NAME: &'static str;
    /// Why the game is over at a position, as a sentence (`white has no legal move
    /// (checkmate) and has lost`); `None` while it goes on.
    fn game_over(rules: &Self::Rules, pos: &Pos<Self>) -> Option<String>;
    /// The board as text for a terminal.
    fn diagram(pos: &Pos<Self>) -> String;
    /// An example position string for `query`'s help.
    const EXAMPLE_POSITION: &'static str;
}

/// The move tree as a game's published perft figures count it (which may generate moves where
/// the solver sees the game as decided): the command line's `perft` and the engine's `go
/// perft`.
pub trait Perft: Game {
    /// The leaf nodes of the move tree of depth `depth`.
    fn perft(rules: &Self::Rules, pos: &Pos<Self>, depth: u32) -> u64;
    /// The positions after each move at the root of that tree, for splitting it across threads.
    fn perft_children(rules: &Self::Rules, pos: &Pos<Self>) -> Vec<Pos<Self>>;
}

/// A game as a value, whatever its type: the one object-safe face of a game every front end
/// shares (its name and what it is). Each front end's own face of a game (the command line's
/// registry, the engine's list of games, the explorer's games, the Python package's games) is
/// a trait with this one as its supertrait, implemented on [`GameType`], so that one value per
/// game ([`game_type`]) serves them all.
pub trait DynGame: Debug + Sync {
    /// Its name in `--game` and URLs ([`Game::NAME`]).
    fn name(&self) -> &'static str;
    /// In words, for `--game`'s help ([`Game::ABOUT`]).
    fn about(&self) -> &'static str;
}

/// The type of a game held in a value: what each front end implements its face of a game on.
pub struct GameType<G>(PhantomData<fn() -> G>);

impl<G: Game> Debug for GameType<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("GameType").field(&G::NAME).finish()
    }
}

/// The value of the game `G`, for a list of games of different types.
pub const fn game_type<G: Game>() -> &'static GameType<G> {
    &GameType(PhantomData)
}

impl<G: Game> DynGame for GameType<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn about(&self) -> &'static str {
        G::ABOUT
    }
}

/// The rule set named `name` of a game.
pub fn rule_set<G: Game>(name: &str) -> Option<&'static RuleSet<G::Rules>> {
    G::RULE_SETS.iter().find(|r| r.name == name)
}

/// The command that writes the table of `rules`: `nana --game dobutsu solve --rules safe-try`,
/// with every option that differs from its default.
pub fn solve_command<G: Game>(rules: &G::Rules) -> String {
    let n = G::OPTIONS.len();
    for r in G::RULE_SETS {
        for flips in 0..1u32 << n {
            let options: Vec<bool> =
                G::OPTIONS.iter().enumerate().map(|(i, o)| o.default ^ (flips >> i & 1 == 1)).collect();
            if G::with_options(r.rules, &options) != *rules {
                continue;
            }
            let mut command = format!("nana --game {} solve --rules {}", G::NAME, r.name);
            for (o, &on) in G::OPTIONS.iter().zip(&options).filter(|(o, &on)| o.default != on) {
                command += &format!(" --{} {}", o.name, if on { "on" } else { "off" });
            }
            return command;
        }
    }
    format!("nana --game {} solve", G::NAME)
}

/// The command that makes the table file `file` of `rules` again: [`solve_command`], with
/// `--out` and the file's folder where the file has the name `solve` writes (`nana-current.tb`);
/// a file of another name is not one `solve` makes, and gets the bare command.
pub fn regenerate_command<G: Game>(rules: &G::Rules, file: &std::path::Path) -> String {
    let command = solve_command::<G>(rules);
    match file.parent() {
        Some(dir) if file.file_name() == Some(TableRules::file_name(rules).as_ref()) => {
            let dir = if dir.as_os_str().is_empty() { std::path::Path::new(".") } else { dir };
            format!("{command} --out {}", dir.display())
        }
        _ => command,
    }
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
/// move's value ([`Words::move_win`] and `move_loss`), a lost game as [`Game::LOST`] says.
pub fn value_in_words<G: Game>(rules: &G::Rules, v: Value) -> String {
    let words = rules.words();
    match v {
        Value::Win(d) => words.move_win.replace("{plies}", &plies(d.0)),
        Value::Loss(d) if d.0 == 0 => G::LOST.to_string(),
        Value::Loss(d) => words.move_loss.replace("{plies}", &plies(d.0)),
        Value::Draw => "draw".to_string(),
    }
}

/// A line of moves in the game's human notation (Hodges style for Nana), numbered by ply:
/// `1. K*1a 2. K*3a`; `(none)` for no move.
pub fn line_in_words<R: ProbeRules>(rules: &R, pos: &R::Position, line: &[R::Move]) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        out.push(format!("{}. {}", i + 1, rules.human_notation(&pos, mv)));
        pos = rules.play(&pos, mv);
    }
    if out.is_empty() {
        "(none)".to_string()
    } else {
        out.join(" ")
    }
}

/// The answer about `pos` as `nana query` prints it, lines of text: the board, the position,
/// the rule set with where its table came from (`origin`), the value for the side to move, then
/// why the game is over, or the best move, every move ranked with its value and the principal
/// variation (a drawing line for a draw).
pub fn analysis_in_words<G: Game>(
    rules: &G::Rules,
    pos: &Pos<G>,
    analysis: &GameAnalysis<G::Rules>,
    origin: &str,
) -> String {
    use std::fmt::Write;
    let mut out = G::diagram(pos);
    let side = G::side_name(G::side_to_move(pos));
    let value = value_in_words::<G>(rules, analysis.value);
    // Writing to a String cannot fail.
    let _ = writeln!(out, "position: {pos}");
    let _ = writeln!(out, "rules: {} ({origin})", rules.describe());
    let _ = writeln!(out, "value: {value} for {side}");
    if let Some(over) = G::game_over(rules, pos) {
        let _ = writeln!(out, "{over}");
        return out;
    }
    if let Some(best) = analysis.moves.first() {
        let (machine, human) = (rules.machine_notation(pos, best.mv), rules.human_notation(pos, best.mv));
        let _ = writeln!(out, "best move: {machine} ({human})");
    }
    let _ = writeln!(out, "moves:");
    for m in &analysis.moves {
        let (machine, human) = (rules.machine_notation(pos, m.mv), rules.human_notation(pos, m.mv));
        let _ = writeln!(out, "  {machine:<6} {human:<10} {}", value_in_words::<G>(rules, m.value_before()));
    }
    let label = if analysis.value == Value::Draw { "drawing line" } else { "principal variation" };
    let moves: Vec<_> = analysis.mainline.iter().map(|ply| ply.ranked.mv).collect();
    let _ = writeln!(out, "{label}: {}", line_in_words(rules, pos, &moves));
    out
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

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(18_609_858), "18,609,858");
    }

    #[test]
    fn plies_are_counted_in_words() {
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(78), "78 plies");
    }
}
