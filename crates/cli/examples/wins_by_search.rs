//! Whether a table's wins need their distances stored: for every won position of a table, the
//! distance to mate found by a search of its moves alone, each move valued by the rules or by
//! the table with every win's distance left out (`1 + the least distance of a lost position a
//! move leads to`), against the distance the table stores. A table whose wins all agree can
//! store its wins as one value, as a candidate value coding does (docs/PERFORMANCE.md, "Value
//! coding"); the search is what a lookup of a win then costs. Prints, per table, the wins
//! checked, the moves and the distinct blocks of 4096 entries a win's search reads (their
//! mean), the time of the whole pass, and the first disagreement if any (exit status 1).
//!
//! `cargo run --release -p nana-cli --example wins_by_search -- DIR` (a folder `nana solve` and
//! `nana --game dobutsu solve` wrote into; each of `nana-current.tb`, `nana-original.tb` and
//! `dobutsu-tanaka.tb` that it holds).

use std::path::Path;
use std::time::Instant;

use nana_engine::{Dtm, Value};
use nana_probe::table::{Table, TableRules};
use nana_probe::ProbeRules;
use nana_tablebase::Tablebase;
use rayon::prelude::*;

/// Entries a block of Dobutsu's tables holds: the block a lookup decodes.
const BLOCK: u64 = 4096;

/// What the search of one win read, or where it disagreed.
#[derive(Default, Clone, Copy)]
struct Tally {
    wins: u64,
    moves: u64,
    blocks: u64,
    disagreements: u64,
    first: Option<u64>,
}

impl Tally {
    fn add(mut self, other: Tally) -> Tally {
        self.wins += other.wins;
        self.moves += other.moves;
        self.blocks += other.blocks;
        self.disagreements += other.disagreements;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

/// The value of a position with a win's distance left out: `None` for a win.
fn known<G: ProbeRules>(game: &G, entries: &[u8], pos: &G::Position) -> Option<Value> {
    let value =
        game.value_by_rules(pos).or_else(|| nana_engine::EntryWidth::One.value(entries, game.index(pos)))?;
    (!matches!(value, Value::Win(_))).then_some(value)
}

/// The win's distance found by searching the moves of entry `i`'s position, with what it read.
fn search<G: ProbeRules>(game: &G, entries: &[u8], i: u64) -> (Option<Dtm>, u64, Vec<u64>) {
    let pos = game.unindex(i).expect("a used entry has a position");
    if let Some(t) = game.terminal(&pos) {
        return (
            match t.value {
                Value::Win(d) => Some(d),
                _ => None,
            },
            0,
            Vec::new(),
        );
    }
    let (mut best, mut moves, mut blocks) = (None::<u16>, 0, Vec::new());
    game.for_each_move(&pos, |_, child| {
        moves += 1;
        if game.value_by_rules(child).is_none() {
            blocks.push(game.index(child) / BLOCK);
        }
        if let Some(Value::Loss(d)) = known(game, entries, child) {
            best = Some(best.map_or(d.0 + 1, |b| b.min(d.0 + 1)));
        }
    });
    blocks.sort_unstable();
    blocks.dedup();
    (best.map(Dtm), moves, blocks)
}

fn check<G: TableRules + Clone + Sync>(game: G, path: &Path) {
    let Ok(file) = Tablebase::open(path) else { return };
    let table = Table::from_tablebase(game.clone(), file).expect("a table of these rules");
    let entries = table.entries();
    let start = Instant::now();
    let tally = (0..entries.len() as u64)
        .into_par_iter()
        .fold(Tally::default, |t, i| {
            let Some(Value::Win(stored)) = nana_engine::EntryWidth::One.value(entries, i) else { return t };
            let (found, moves, blocks) = search(&game, entries, i);
            let mut read = Tally { wins: 1, moves, blocks: blocks.len() as u64, ..Tally::default() };
            if found != Some(stored) {
                read.disagreements = 1;
                read.first = Some(i);
            }
            t.add(read)
        })
        .reduce(Tally::default, Tally::add);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{}: {} wins, {} disagree; a win's search: {:.1} moves, {:.1} blocks of {BLOCK} entries; the whole pass {seconds:.1} s on {} threads",
        path.display(),
        tally.wins,
        tally.disagreements,
        tally.moves as f64 / tally.wins as f64,
        tally.blocks as f64 / tally.wins as f64,
        rayon::current_num_threads()
    );
    if let Some(i) = tally.first {
        let pos = game.unindex(i).expect("a used entry");
        let (found, _, _) = search(&game, entries, i);
        println!(
            "entry {i} ({}): stored {:?}, found {found:?}",
            game.position_string(&pos),
            entries[i as usize]
        );
        std::process::exit(1);
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: wins_by_search DIR");
    let dir = Path::new(&dir);
    check(nana_shogi::Rules::CURRENT, &dir.join("nana-current.tb"));
    check(nana_shogi::Rules::ORIGINAL, &dir.join("nana-original.tb"));
    check(dobutsu_shogi::Rules::TANAKA, &dir.join("dobutsu-tanaka.tb"));
}
