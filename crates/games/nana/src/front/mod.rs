//! Nana shogi in the front ends: its name and rule flags ([`Game`]), its board view in the
//! explorer ([`view`]), perft ([`Perft`]), the published claims with their verdicts and the
//! results document ([`Claims`]), its notation in the engine protocol ([`ProtocolNotation`]).

mod results;
mod view;

use nana_engine::Value;
use nana_front::{
    Claims, Game, Load, Perft, ProtocolNotation, Report, ReportError, RuleOption, RuleSet, WholeCheck,
};
use nana_probe::table::Table;

use crate::claims::CLAIMS;
use crate::{hodges, index, reach, usi, Position, Rules};

/// Nana shogi, as the front ends list it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nana;

impl Game for Nana {
    type Rules = Rules;

    const NAME: &'static str = "nana";
    const ABOUT: &'static str = "Nana shogi (3×3, cube pieces)";
    const RULE_SETS: &'static [RuleSet<Rules>] = &[
        RuleSet { name: "current", help: "Version 3.0: short rook.", rules: Rules::CURRENT },
        RuleSet { name: "original", help: "Version 2.1: unlimited rook.", rules: Rules::ORIGINAL },
    ];
    const OPTIONS: &'static [RuleOption] = &[
        RuleOption { name: "drop-stalemate", help: "R1: a drop may not stalemate.", default: true },
        RuleOption {
            name: "hand-stalemate",
            help: "R2S: a player with pieces in hand may not stalemate.",
            default: true,
        },
    ];
    const SOLVE_ALL: bool = true;

    fn with_options(rules: Rules, options: &[bool]) -> Rules {
        Rules { variant: rules.variant, drop_stalemate: options[0], hand_stalemate: options[1] }
    }

    const SIDES: [&'static str; 2] = ["black", "white"];

    fn side_to_move(pos: &Position) -> usize {
        pos.side_to_move().index()
    }

    const MOVE_HELP: &'static str = "USI-like 2c2b, T*1a or Hodges B-2b=TG";

    const EXAMPLE_POSITION: &'static str = "3/3/3 b KRBkrb 1";

    const LOST: &'static str = "loss (no legal move)";

    const WIN_NAME: &'static str = "mate";

    fn game_over(rules: &Rules, pos: &Position) -> Option<String> {
        let how = nana_probe::ProbeRules::terminal(rules, pos)?.ending.name;
        Some(format!("{} has no legal move ({how}) and has lost", pos.side_to_move().name()))
    }

    fn diagram(pos: &Position) -> String {
        crate::diagram(pos)
    }
}

impl Perft for Nana {
    fn perft(rules: &Rules, pos: &Position, depth: u32) -> u64 {
        crate::perft(pos, rules, depth)
    }

    fn perft_children(rules: &Rules, pos: &Position) -> Vec<Position> {
        pos.legal_moves(rules).into_iter().map(|mv| pos.play_unchecked(mv)).collect()
    }
}

impl Claims for Nana {
    fn claimed_rule_sets() -> Vec<Rules> {
        CLAIMS.iter().map(|c| c.rules).collect()
    }

    fn reachable_stats(rules: &Rules, progress: &(dyn Fn(u64) + Sync)) -> Vec<String> {
        let c = reach::reachable(rules, progress).counts();
        vec![
            format!("index size: {}", index::SIZE),
            format!(
                "reachable positions: {} (black to move {}, white to move {})",
                c.positions(),
                c.black_positions,
                c.white_positions
            ),
            format!("reachable index entries: {}", c.entries),
        ]
    }

    fn verify(tables: &[Table<Rules>]) -> Result<Report, ReportError> {
        report(tables)
    }

    /// None in a build without the feature `parallel`, which has no self-check.
    fn whole_space_checks() -> Vec<WholeCheck> {
        #[cfg(feature = "parallel")]
        return crate::self_check::whole_space_checks();
        #[cfg(not(feature = "parallel"))]
        Vec::new()
    }

    fn results<E: From<ReportError>>(load: Load<'_, Rules, E>) -> Result<String, E> {
        results::generate(load)
    }
}

/// No other engine plays Nana shogi: the protocol reads and writes its own strings.
impl ProtocolNotation for Nana {}

/// Black's value, with the ply of the mate counted from the start (`plies_before` plies have
/// been played to reach the position whose distance `v` holds).
fn show(v: Value, plies_before: u16) -> String {
    match v {
        Value::Win(d) => format!("win, Black mates on ply {}", d.0 + plies_before),
        Value::Loss(d) => format!("loss, Black is mated on ply {}", d.0 + plies_before),
        Value::Draw => "draw".to_string(),
    }
}

/// A line of moves in Hodges style, numbered by ply.
fn hodges_line(pos: &Position, rules: &Rules, line: &[crate::Move]) -> String {
    let mut pos = *pos;
    let mut out = Vec::new();
    for (i, &mv) in line.iter().enumerate() {
        out.push(format!("{}. {}", i + 1, hodges::format(&pos, rules, mv)));
        pos = pos.play_unchecked(mv);
    }
    out.join(" ")
}

/// Checks the published claims against `tables`, which must hold the table of every claimed
/// rule set. Nothing is printed: the caller prints only once every table has loaded.
fn report(tables: &[Table<Rules>]) -> Result<Report, ReportError> {
    use nana_probe::table::TableRules;
    let start = Position::start();
    let mut results = Vec::new();
    let mut table = String::from(
        "| rules | position | value for Black | distance to mate from there (plies) |\n|---|---|---|---|\n",
    );
    for claim in &CLAIMS {
        let probe = tables
            .iter()
            .find(|t| *t.game() == claim.rules)
            .ok_or_else(|| ReportError::Missing { rules: claim.rules.describe() })?
            .probe();
        let value = probe.value(&start)?;
        let dtm = |v: Value| v.dtm().map_or("-".to_string(), |d| d.0.to_string());
        let name = claim.rules.variant.name();
        table += &format!("| {name} | start | {} | {} |\n", show(value, 0), dtm(value));
        for m in probe.ranked_moves(&start)? {
            // Black's value after its first move; the distance is White's, from ply 2 on.
            let v = m.value();
            table += &format!("| {name} | after {} | {} | {} |\n", usi::format(m.mv), show(v, 1), dtm(v));
        }
        let line = probe.mainline(&start, 12)?;
        results.push((claim, value, hodges_line(&start, &claim.rules, &line)));
    }
    let mut summary = String::new();
    let mut failed = 0;
    for (claim, value, _) in &results {
        let ok = *value == claim.value;
        failed += usize::from(!ok);
        summary += &format!(
            "{} {} (solver: {})\n",
            if ok { "CONFIRMED    " } else { "NOT CONFIRMED" },
            claim.text,
            show(*value, 0)
        );
    }
    for (claim, value, line) in &results {
        if matches!(value, Value::Win(_)) {
            summary += &format!(
                "\nprincipal variation, {} rules ({}):\n{line}\n",
                claim.rules.variant.name(),
                show(*value, 0)
            );
        }
    }
    Ok(Report { table, summary, failed, claims: CLAIMS.len() })
}
