//! `nana verify`: the published results, checked against our own solution.

use std::path::Path;

use nana_engine::{Dtm, Value};
use nana_shogi::probe::Probe;
use nana_shogi::{hodges, usi, Position, Rules};

use crate::table;

/// A published claim about the start position.
struct Claim {
    rules: Rules,
    text: &'static str,
    value: Value,
}

const CLAIMS: [Claim; 2] = [
    Claim { rules: Rules::CURRENT, text: "current rules: the start is a draw", value: Value::Draw },
    Claim {
        rules: Rules::ORIGINAL,
        text: "original rules: Black wins, mating on ply 31",
        value: Value::Win(Dtm(31)),
    },
];

/// Black's value, with the ply of the mate counted from the start (`plies_before` plies have
/// been played to reach the position whose distance `v` holds).
fn show(v: Value, plies_before: u16) -> String {
    match v {
        Value::Win(d) => format!("win, Black mates on ply {}", d.0 + plies_before),
        Value::Loss(d) => format!("loss, Black is mated on ply {}", d.0 + plies_before),
        Value::Draw => "draw".to_string(),
    }
}

pub fn run(dir: &Path) -> Result<(), String> {
    let start = Position::start();
    let mut results = Vec::new();
    println!("| rules | position | value for Black | distance to mate from there (plies) |");
    println!("|---|---|---|---|");
    for claim in &CLAIMS {
        let table = table::load_or_solve(&claim.rules, None, dir)?;
        let probe = table.probe();
        let value = probe.value(&start).map_err(|e| e.to_string())?;
        let dtm = |v: Value| v.dtm().map_or("-".to_string(), |d| d.0.to_string());
        let name = claim.rules.variant.name();
        println!("| {name} | start | {} | {} |", show(value, 0), dtm(value));
        for m in probe.ranked_moves(&start).map_err(|e| e.to_string())? {
            // Black's value after its first move; the distance is White's, from ply 2 on.
            let v = m.value();
            println!("| {name} | after {} | {} | {} |", usi::format(m.mv), show(v, 1), dtm(v));
        }
        results.push((claim, value, probe_line(&probe, &start)?));
    }
    println!();
    let mut failed = 0;
    for (claim, value, _) in &results {
        let ok = *value == claim.value;
        failed += usize::from(!ok);
        println!(
            "{} {} (solver: {})",
            if ok { "CONFIRMED    " } else { "NOT CONFIRMED" },
            claim.text,
            show(*value, 0)
        );
    }
    for (claim, value, line) in &results {
        if matches!(value, Value::Win(_)) {
            println!();
            println!("principal variation, {} rules ({}):", claim.rules.variant.name(), show(*value, 0));
            println!("{line}");
        }
    }
    if failed > 0 {
        return Err(format!(
            "{failed} of {} published claims not confirmed (see docs/RESULTS.md for the analysis)",
            CLAIMS.len()
        ));
    }
    Ok(())
}

/// The principal variation in Hodges notation, numbered by ply.
fn probe_line(probe: &Probe<'_>, start: &Position) -> Result<String, String> {
    let line = probe.mainline(start, 12).map_err(|e| e.to_string())?;
    let mut pos = *start;
    let mut out = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        out.push(format!("{}. {}", i + 1, hodges::format(&pos, probe.rules(), *mv)));
        pos = pos.play_unchecked(*mv);
    }
    Ok(out.join(" "))
}
