//! Dobutsu shogi in the front ends: its name and rule sets ([`Game`]), its board view in the
//! explorer ([`view`]), perft as Fairy-Stockfish counts it ([`Perft`]), Tanaka's published
//! figures with their verdicts and the results section ([`Claims`]), Fairy-Stockfish's notation
//! in the engine protocol ([`ProtocolNotation`]).

mod view;

use nana_engine::Value;
use nana_front::{
    grouped, Claims, Dialect, Game, Load, Perft, PositionForm, ProtocolNotation, Report, ReportError,
    RuleSet, WholeCheck,
};
use nana_probe::table::{Table, TableRules};
use nana_probe::ProbeRules;

use crate::claims::{CLAIMS, TANAKA_COUNTS};
use crate::fen::ParseError;
use crate::{index, reach, usi, Move, Position, Rules};

/// Dobutsu shogi, as the front ends list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dobutsu;

impl Game for Dobutsu {
    type Rules = Rules;

    const NAME: &'static str = "dobutsu";
    const ABOUT: &'static str = "Dobutsu shogi (3×4, lions, giraffes, elephants, chicks)";
    const RULE_SETS: &'static [RuleSet<Rules>] = &[
        RuleSet {
            name: "tanaka",
            help: "Tanaka (2009): a try wins unless the lion is captured at once.",
            rules: Rules::TANAKA,
        },
        RuleSet {
            name: "safe-try",
            help: "Fairy-Stockfish: a try wins at once onto a square the opponent does not attack.",
            rules: Rules::SAFE_TRY,
        },
    ];
    const RULES_HELP: &'static str = "Rule set: how a try (the lion reaching the far rank) ends the game.";

    const SIDES: [&'static str; 2] = ["first", "second"];

    fn side_name(side: usize) -> String {
        format!("the {} player", Self::SIDES[side])
    }

    fn side_to_move(pos: &Position) -> usize {
        usize::from(pos.side_to_move() != crate::Side::First)
    }

    const MOVE_HELP: &'static str = "Fairy-Stockfish style b2b3, b3b4+, C@b3";

    const EXAMPLE_POSITION: &'static str = "gle/1c1/1C1/ELG[-] w 0 1";

    /// Where the rules give a loss in 0, the opponent's lion has completed a try (the line after
    /// it says so); the side to move capturing the lion is a win in 1.
    const LOST: &'static str = "loss (the game is over)";

    const WIN_NAME: &'static str = "win";

    fn game_over(rules: &Rules, pos: &Position) -> Option<String> {
        let t = rules.terminal(pos)?;
        let side = pos.side_to_move().name();
        Some(match t.value {
            Value::Win(_) => format!("the {side} player wins ({})", t.ending.words()),
            Value::Loss(_) => format!("the {side} player has lost ({})", t.ending.words()),
            Value::Draw => format!("a draw ({})", t.ending.words()),
        })
    }

    fn diagram(pos: &Position) -> String {
        crate::diagram(pos)
    }
}

impl Perft for Dobutsu {
    /// Fairy-Stockfish's count: moves are generated until a lion is captured or a try has won.
    fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
        crate::perft(pos, rules, depth)
    }

    fn perft_children(rules: &Rules, pos: &Position) -> Vec<Position> {
        let mut children = Vec::new();
        if pos.outcome(rules).is_none() {
            pos.for_each_move(|mv| children.push(pos.play_unchecked(mv)));
        }
        children
    }
}

impl Claims for Dobutsu {
    fn claimed_rule_sets() -> Vec<Rules> {
        CLAIMS.iter().map(|c| c.rules).collect()
    }

    fn reachable_stats(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Vec<String> {
        let reached = reach::reachable(rules, progress);
        census_lines(&reach::count(rules, &reached, None))
    }

    fn verify(tables: &[Table<Rules>]) -> Result<Report, ReportError> {
        report(tables)
    }

    /// Both readings of the try: the safe-try table is shipped too (`nana serve` serves it).
    fn self_check_rule_sets() -> Vec<Rules> {
        Rules::all().to_vec()
    }

    /// None in a build without the feature `parallel`, which has no self-check.
    fn whole_space_checks() -> Vec<WholeCheck> {
        #[cfg(feature = "parallel")]
        return crate::self_check::whole_space_checks();
        #[cfg(not(feature = "parallel"))]
        Vec::new()
    }

    fn results<E: From<ReportError>>(load: Load<'_, Rules, E>) -> Result<String, E> {
        let tables = Self::claimed_rule_sets().into_iter().map(load).collect::<Result<Vec<_>, _>>()?;
        let r = report(&tables)?;
        Ok(format!(
            "## Dobutsu shogi\n\n`nana verify --game dobutsu`:\n\n{}\n```text\n{}```\n",
            r.table, r.summary
        ))
    }
}

/// `nana stats`' lines about the reachable positions: the same census as `verify`'s table of
/// Tanaka's figures ([`reach::count`]), worded for `stats`.
fn census_lines(c: &reach::ReachCounts) -> Vec<String> {
    vec![
        format!("index size: {}", index::SIZE),
        format!(
            "reachable positions: {} (first player to move {}, second player to move {})",
            c.positions, c.first_to_move, c.second_to_move
        ),
        format!("terminal: {}, not terminal: {}", c.terminal, c.non_terminal),
        format!("most legal moves in a reachable position: {}", c.max_moves),
    ]
}

/// Fairy-Stockfish's notation: a GUI drives `nana engine` as it drives Fairy-Stockfish.
impl ProtocolNotation for Dobutsu {
    /// Fairy-Stockfish's FEN after `fen`, its SFEN after `sfen` (a captured lion refused, as
    /// the probe refuses it).
    fn parse_protocol_position(
        rules: &Rules,
        input: &str,
        form: PositionForm,
    ) -> Result<Position, ParseError> {
        let text = match form {
            PositionForm::Fen => return rules.parse_position(input),
            PositionForm::Sfen => usi::parse_position(input)?,
        };
        // The probe's reason, about the SFEN given rather than the FEN it was read as.
        rules.parse_position(&text.to_string()).map_err(|e| ParseError::new(input, e.reason))
    }

    fn protocol_position(_: &Rules, pos: &Position, form: PositionForm) -> String {
        match form {
            PositionForm::Fen => pos.to_string(),
            PositionForm::Sfen => usi::format_position(pos),
        }
    }

    /// Fairy-Stockfish's forms: `b2b3`, `C@b3` over UCI; `2c2b`, `C*2b` over USI.
    fn protocol_move(_: &Rules, _: &Position, mv: Move, dialect: Dialect) -> String {
        match dialect {
            Dialect::Uci => mv.to_string(),
            Dialect::Usi => usi::format_move(mv),
        }
    }

    fn parse_protocol_move(
        rules: &Rules,
        pos: &Position,
        input: &str,
        dialect: Dialect,
    ) -> Result<Move, ParseError> {
        match dialect {
            Dialect::Uci => rules.parse_move(pos, input),
            Dialect::Usi => match pos.outcome(rules) {
                // The probe's reading says why the game is over.
                Some(_) => rules.parse_move(pos, input),
                None => usi::parse_move(pos, rules, input),
            },
        }
    }
}

/// The first player's value at the start, in words.
fn show(v: Value) -> String {
    match v {
        Value::Win(d) => format!("the first player wins in {} plies", d.0),
        Value::Loss(d) => format!("the second player wins in {} plies", d.0),
        Value::Draw => "draw".to_string(),
    }
}

/// Tanaka's figures and the start's value against the solution.
fn report(tables: &[Table<Rules>]) -> Result<Report, ReportError> {
    let claim = &CLAIMS[0];
    let table = tables
        .iter()
        .find(|t| *t.game() == claim.rules)
        .ok_or_else(|| ReportError::Missing { rules: claim.rules.describe() })?;
    let rules = claim.rules;
    let start = table.probe().value(&rules.start())?;
    let reached = reach::reachable(&rules, &|_| {});
    // Counted by outcome alone: the entries as stored serve (no win's distance restored).
    let entries = table.try_stored_entries()?;
    let c = reach::count(&rules, &reached, Some((&entries, table.width())));
    let longest_win = u64::from(table.stats().max_dtm);
    let t = TANAKA_COUNTS;
    let figures = [
        ("reachable positions", t.reachable, c.positions),
        ("of which not terminal", t.non_terminal, c.non_terminal),
        ("wins for the side to move (not terminal)", t.wins, c.wins),
        ("draws (not terminal)", t.draws, c.draws),
        ("losses for the side to move (not terminal)", t.losses, c.losses),
        ("longest win (plies)", t.longest_win, longest_win),
        ("most legal moves in a position", t.most_moves, c.max_moves),
    ];
    let mut out =
        String::from("| figure (Tanaka 2009, rules `tanaka`) | published | solver | |\n|---|---|---|---|\n");
    let mut failed = 0;
    let verdict = |ok: bool| if ok { "CONFIRMED" } else { "NOT CONFIRMED" };
    for (name, published, measured) in figures {
        failed += usize::from(published != measured);
        out += &format!(
            "| {name} | {} | {} | {} |\n",
            grouped(published),
            grouped(measured),
            verdict(published == measured)
        );
    }
    let ok = start == claim.value;
    failed += usize::from(!ok);
    out += &format!("| start | {} | {} | {} |\n", show(claim.value), show(start), verdict(ok));
    // Every row of the table is one of Tanaka's figures: the counts and the start's value.
    let rows = figures.len() + 1;
    let summary = format!(
        "{} {} (solver: {})\n{} of {rows} figures of Tanaka (2009) reproduced\n",
        if ok { "CONFIRMED    " } else { "NOT CONFIRMED" },
        claim.text,
        show(start),
        rows - failed,
    );
    Ok(Report { table: out, summary, failed, claims: figures.len() + 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `stats`' wording of the census; its figures are the ones `verify` checks against
    /// Tanaka's (`tests/results_doc.rs` and the main job run the census itself).
    #[test]
    fn census_lines_word_tanakas_figures() {
        let c = reach::ReachCounts {
            positions: 246_803_167,
            first_to_move: 246_803_167,
            second_to_move: 246_803_167,
            terminal: 147_317_599,
            non_terminal: 99_485_568,
            max_moves: 38,
            ..reach::ReachCounts::default()
        };
        assert_eq!(
            census_lines(&c),
            [
                "index size: 259374340",
                "reachable positions: 246803167 (first player to move 246803167, second player to move 246803167)",
                "terminal: 147317599, not terminal: 99485568",
                "most legal moves in a reachable position: 38",
            ]
        );
    }
}
