//! What finding wins' distances by search ([`Wins::Searched`]) costs the explorer's answers,
//! and that it changes none: every position of a line (the start's mainline, then positions
//! along random games) answered by a probe over the table's entries as stored, and by one over
//! the same entries with every win rewritten as a win in 1 and its distance searched. The two
//! answers must be equal; prints the time of each kind over all positions, best of five rounds.
//!
//! `cargo run --release -p nana-cli --example searched_wins_answers -- DIR [GAMES]` (a folder
//! with `dobutsu-tanaka.tb` and `nana-current.tb`; GAMES random games of 40 plies, default 50).

use std::path::Path;
use std::time::Instant;

use nana_engine::EntryWidth;
use nana_probe::table::{Table, TableRules};
use nana_probe::{Probe, Wins};
use nana_tablebase::Tablebase;

/// The explorer's longest drawing line.
const DRAW_PLIES: usize = 20;

/// xorshift64: reproducible games without a dependency.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn compare<G: TableRules + Clone>(game: G, path: &Path, games: usize) {
    let Ok(file) = Tablebase::open(path) else { return };
    let table = Table::from_tablebase(game.clone(), file).expect("a table of these rules");
    let stored = table.entries().to_vec();
    let wins_as_one: Vec<u8> =
        stored.iter().map(|&v| if v != 0 && v != 255 && v % 2 == 0 { 2 } else { v }).collect();
    let plain = Probe::with_width(game.clone(), &stored, EntryWidth::One).expect("the table's size");
    let searched = Probe::with_width(game.clone(), &wins_as_one, EntryWidth::One)
        .expect("the table's size")
        .with_wins(Wins::Searched);
    let mut positions = vec![game.start()];
    let mut pos = game.start();
    for mv in plain.mainline(&pos, DRAW_PLIES).expect("the start's mainline") {
        pos = game.play(&pos, mv);
        positions.push(pos.clone());
    }
    let mut state = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..games {
        let mut pos = game.start();
        for _ in 0..40 {
            let mut children = Vec::new();
            game.for_each_move(&pos, |_, child| children.push(child.clone()));
            if children.is_empty() || game.value_by_rules(&pos).is_some() {
                break;
            }
            pos = children.swap_remove(next(&mut state) as usize % children.len());
            if game.value_by_rules(&pos).is_none() {
                positions.push(pos.clone());
            }
        }
    }
    let answers = |probe: &Probe<G>| -> (f64, Vec<String>) {
        let start = Instant::now();
        let out: Vec<String> = positions
            .iter()
            .map(|p| serde_json::to_string(&probe.answer(p, DRAW_PLIES).expect("an answer")).unwrap())
            .collect();
        (start.elapsed().as_secs_f64(), out)
    };
    let (mut best_plain, mut best_searched) = (f64::MAX, f64::MAX);
    for _ in 0..5 {
        let (t, a) = answers(&plain);
        let (u, b) = answers(&searched);
        if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
            println!(
                "{}: the answers differ at {}:\n{}\n{}",
                path.display(),
                game.position_string(&positions[i]),
                a[i],
                b[i]
            );
            std::process::exit(1);
        }
        (best_plain, best_searched) = (best_plain.min(t), best_searched.min(u));
    }
    println!(
        "{}: {} positions, the same answers; stored wins {:.1} µs an answer, searched wins {:.1} µs ({:.2}×)",
        path.display(),
        positions.len(),
        best_plain * 1e6 / positions.len() as f64,
        best_searched * 1e6 / positions.len() as f64,
        best_searched / best_plain
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: searched_wins_answers DIR [GAMES]");
    let games = args.next().map_or(50, |g| g.parse().expect("a number of games"));
    let dir = Path::new(&dir);
    compare(dobutsu_shogi::Rules::TANAKA, &dir.join("dobutsu-tanaka.tb"), games);
    compare(nana_shogi::Rules::CURRENT, &dir.join("nana-current.tb"), games);
}
