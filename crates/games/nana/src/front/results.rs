//! `nana results --game nana`: every table of docs/RESULTS.md that holds a figure, printed as
//! Markdown from the solutions, so that the document is generated rather than typed (a test
//! compares them).

use std::collections::{BTreeMap, BTreeSet};

use nana_engine::Value;
use nana_front::{grouped, Load, ReportError};
use nana_probe::table::Table;

use super::{report, show};
use crate::{index, reach, usi, Position, Rules, Variant};

/// The document's tables, from the tables of every rule set and option combination.
pub fn generate<E: From<ReportError>>(load: Load<'_, Rules, E>) -> Result<String, E> {
    // Everything is loaded (or solved) and computed before the first line is printed, so that
    // a damaged table gives its error alone.
    let tables = Rules::all().map(&mut *load).collect::<Result<Vec<_>, _>>()?;
    let claims = report(&tables)?;
    let combinations = combinations_table(&tables)?;
    let identical = identical_tables(&tables)?;
    let first_moves = first_moves_table(&tables)?;
    let reachable = reachable_table();
    Ok(format!(
        "## The published claims\n\n\
         `nana verify`, default options (R1 and R2S on):\n\n\
         {}\n```text\n{}```\n\n\
         ## Every rule set and option combination\n\n\
         Counts are index entries of the solution of each rule set and option combination (an\n\
         entry stands for one Black-to-move position and its colour flip, up to mirror symmetry;\n\
         see `INDEX.md`); the start's value is for Black.\n\n\
         {combinations}\n\
         {identical}\n\
         ## First moves\n\n\
         Black's value after each first move, with best play by both sides from there: `win N`\n\
         means that Black mates on ply N, `loss N` that Black is mated on ply N (plies counted\n\
         from the start). The best first moves are those of the best value.\n\n\
         {first_moves}\n\
         ## Reachable states\n\n\
         The states reachable from the start with default options (R1 and R2S on), as `nana\n\
         stats` counts them; a position and its mirror image count as two.\n\n\
         {reachable}",
        claims.table, claims.summary
    ))
}

/// `| on |` or `| off |`.
fn switch(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

fn combinations_table(tables: &[Table<Rules>]) -> Result<String, ReportError> {
    let mut out = String::from(
        "| rules | R1 drop-stalemate | R2S hand-stalemate | wins | losses | draws | unused | longest DTM | start |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for t in tables {
        let s = t.stats();
        let start = t.probe().value(&Position::start())?;
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.game().variant.name(),
            switch(t.game().drop_stalemate),
            switch(t.game().hand_stalemate),
            grouped(s.wins),
            grouped(s.losses),
            grouped(s.draws),
            grouped(s.illegal),
            s.max_dtm,
            show(start, 0)
        );
    }
    Ok(out)
}

/// Whether R1 changes the solution, for each rule set and each setting of R2S: the tables with
/// R1 on and off compared entry by entry.
fn identical_tables(tables: &[Table<Rules>]) -> Result<String, ReportError> {
    let find =
        |rules: Rules| tables.iter().find(|t| (*t.game()) == rules).expect("every combination is loaded");
    let mut out = String::new();
    for variant in Variant::ALL {
        for hand_stalemate in [true, false] {
            let on = find(Rules { variant, drop_stalemate: true, hand_stalemate });
            let off = find(Rules { variant, drop_stalemate: false, hand_stalemate });
            let (on, off) = (on.try_entries()?, off.try_entries());
            let off = off?;
            let differing = on.iter().zip(off).filter(|(a, b)| a != b).count();
            let verdict = if differing == 0 {
                "are identical".to_string()
            } else {
                format!("differ in {} entries", grouped(differing as u64))
            };
            out += &format!(
                "- {}, R2S {}: the tables with R1 on and R1 off {verdict}.\n",
                variant.name(),
                switch(hand_stalemate)
            );
        }
    }
    Ok(out)
}

/// Black's value after a first move, with the ply of the mate counted from the start.
fn first_move_cell(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win {}", d.0 + 1),
        Value::Loss(d) => format!("loss {}", d.0 + 1),
        Value::Draw => "draw".to_string(),
    }
}

fn first_moves_table(tables: &[Table<Rules>]) -> Result<String, ReportError> {
    let start = Position::start();
    let mut rows = Vec::new();
    let mut columns = BTreeSet::new();
    for t in tables {
        // `value()` is for Black, the player making the move; the JSON output's move categories
        // are for the opponent instead, which is why they are not used here.
        let moves = t.probe().ranked_moves(&start)?;
        let best_value = moves.first().map(|m| m.value());
        let best: Vec<String> =
            moves.iter().filter(|m| Some(m.value()) == best_value).map(|m| usi::format(m.mv)).collect();
        let cells: BTreeMap<String, String> =
            moves.iter().map(|m| (usi::format(m.mv), first_move_cell(m.value()))).collect();
        columns.extend(cells.keys().cloned());
        rows.push(((*t.game()), cells, best.join(", ")));
    }
    let mut out = String::from("| rules | R1 | R2S |");
    for c in &columns {
        out += &format!(" {c} |");
    }
    out += " best first moves |\n|---|---|---|";
    out += &"---|".repeat(columns.len() + 1);
    out.push('\n');
    for (rules, cells, best) in rows {
        out += &format!(
            "| {} | {} | {} |",
            rules.variant.name(),
            switch(rules.drop_stalemate),
            switch(rules.hand_stalemate)
        );
        for c in &columns {
            out += &format!(" {} |", cells.get(c).map_or("-", String::as_str));
        }
        out += &format!(" {best} |\n");
    }
    Ok(out)
}

fn reachable_table() -> String {
    let mut out = String::from(
        "| rules | reachable positions | Black to move | White to move | reachable entries | index size |\n\
         |---|---|---|---|---|---|\n",
    );
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let c = reach::reachable(&rules, &|_| {}).counts();
        out += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            rules.variant.name(),
            grouped(c.positions()),
            grouped(c.black_positions),
            grouped(c.white_positions),
            grouped(c.entries),
            grouped(index::SIZE)
        );
    }
    out
}
