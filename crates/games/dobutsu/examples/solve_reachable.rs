//! The whole job over the reachable positions: enumeration, the retrograde solve of the dense
//! game, the engine's independent check, and the figures Tanaka published.
//! `cargo run --release -p dobutsu-shogi --example solve_reachable -- [tanaka|safe-try]`
use std::time::Instant;

use dobutsu_shogi::dense::Dense;
use dobutsu_shogi::{index, reach, DobutsuGame, Position, Rules};
use nana_engine::{EntryWidth, NoProgress, Value};

fn main() {
    let rules = Rules::from_name(std::env::args().nth(1).as_deref().unwrap_or("tanaka")).unwrap();
    let check = std::env::args().any(|a| a == "--check");
    let t = Instant::now();
    let reached = reach::reachable(&rules, &|_| {});
    let t_reach = t.elapsed().as_secs_f64();
    let game = Dense::new(DobutsuGame::new(rules), &reached);
    let s = nana_engine::solve(&game, &NoProgress).unwrap();
    let t_solve = t.elapsed().as_secs_f64();
    println!("rules {}: reach {t_reach:.1} s, solve {:.1} s", rules.name(), t_solve - t_reach);
    println!(
        "dense entries {} (wins {}, draws {}, losses {}), max dtm {}",
        nana_engine::Game::size(&game),
        s.stats.wins,
        s.stats.draws,
        s.stats.losses,
        s.stats.max_dtm
    );
    // Values back onto the index, for the counts.
    let mut full = vec![0xffu8; index::SIZE as usize];
    for d in 0..s.entries.len() as u64 {
        full[game.select(d) as usize] = s.entries[d as usize];
    }
    let counts = reach::count(&rules, &reached, Some((&full, EntryWidth::One)));
    println!("{counts:#?}");
    let start = index::rank(&Position::start());
    let v = EntryWidth::One.value(&full, start);
    println!("start (first to move): {v:?}");
    let longest_win = (0..s.entries.len())
        .filter_map(|d| EntryWidth::One.value(&s.entries, d as u64))
        .filter_map(|v| if let Value::Win(d) = v { Some(d.0) } else { None })
        .max();
    println!("longest win: {longest_win:?} plies; per dtm: {:?}", s.stats.per_dtm);
    if check {
        nana_engine::check_with(&game, &s.entries, EntryWidth::One, &|_| {}).unwrap();
        println!("check: ok ({:.1} s total)", t.elapsed().as_secs_f64());
    }
}
