//! The game's share of the Dobutsu solve (see docs/PERFORMANCE.md): the work the rules and the
//! index must do whatever the engine, timed apart from the engine's own.
//!
//! 1. The survey: every entry's position, and of each one in the solved set how the game is
//!    over there or how many distinct entries its moves reach (all of it the game's work).
//! 2. The solve, phase by phase, as `nana --game dobutsu solve` runs it.
//! 3. The retro-moves of exactly the entries the retrograde expands (every decided entry the
//!    survey does not mark as having no predecessors), each entry's position unranked and its
//!    predecessors ranked, distinct ones for a win, as the passes ask for them
//!    (`predecessors_of_each`, runs of entries in order), on every thread; nothing is dealt out
//!    or decided.
//!
//! The retrograde phase less pass 3 is the engine's own work; the survey and pass 3 together
//! are the floor of this index and these rules on this machine.
//!
//! `cargo run --release -p dobutsu-shogi --example game_floor [tanaka|safe-try]`
use std::hint::black_box;
use std::sync::Mutex;
use std::time::Instant;

use dobutsu_shogi::{survey, DobutsuGame, Rules};
use nana_engine::{ByteCode, Graph, Progress, Value};
use rayon::prelude::*;

/// Prints each phase of the solve with its time.
struct Phases(Mutex<Option<(String, Instant)>>);

impl Progress for Phases {
    fn begin(&self, phase: &str, _: u64) {
        *self.0.lock().unwrap() = Some((phase.to_string(), Instant::now()));
    }
    fn advance(&self, _: u64) {}
    fn end(&self) {
        if let Some((phase, start)) = self.0.lock().unwrap().take() {
            println!("  solve, {phase}: {:.2} s", start.elapsed().as_secs_f64());
        }
    }
}

fn main() {
    let rules = Rules::from_name(std::env::args().nth(1).as_deref().unwrap_or("tanaka")).unwrap();
    println!("rules {}, {} threads", rules.name(), rayon::current_num_threads());
    let start = Instant::now();
    let surveyed = survey::survey(&rules, &|_| {});
    println!("survey: {:.2} s", start.elapsed().as_secs_f64());
    let bytes: Vec<u8> = (0..surveyed.bytes.len() as u64).map(|e| surveyed.byte(e)).collect();
    let game = DobutsuGame::new(rules);
    let census = surveyed.into_census();
    let start = Instant::now();
    let solution = nana_engine::solve_census(&game, census, &Phases(Mutex::new(None))).unwrap();
    println!("solve: {:.2} s", start.elapsed().as_secs_f64());
    let values = solution.bytes();

    // The entries the retrograde expands, and whether each is a win (its predecessors are
    // counted down: distinct ones).
    let expands = |d: usize| {
        let value = ByteCode(values[d]).value();
        let decided = matches!(value, Some(Value::Win(_) | Value::Loss(_)));
        (decided && survey::counted(bytes[d]).has_predecessors, matches!(value, Some(Value::Win(_))))
    };
    const RUN: usize = 1 << 12;
    let runs = values.len().div_ceil(RUN);
    let start = Instant::now();
    let (expanded, predecessors) = (0..runs)
        .into_par_iter()
        .map(|r| {
            let (entries, wins): (Vec<u32>, Vec<bool>) = (r * RUN..((r + 1) * RUN).min(values.len()))
                .filter_map(|d| {
                    let (expand, win) = expands(d);
                    expand.then_some((d as u32, win))
                })
                .unzip();
            let (mut wins, mut predecessors) = (wins.into_iter(), 0u64);
            game.predecessors_of_each(&entries, &mut |out| {
                if wins.next() == Some(true) {
                    out.sort_unstable();
                    out.dedup();
                }
                predecessors += black_box(out.len()) as u64;
            });
            (entries.len() as u64, predecessors)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "retro-moves of the {expanded} entries the retrograde expands ({predecessors} predecessors): {:.2} s",
        start.elapsed().as_secs_f64()
    );
    println!("entries of the index: {}", values.len());
}
