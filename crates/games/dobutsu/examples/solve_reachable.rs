//! The whole job over the reachable positions: enumeration, the retrograde solve of the dense
//! game, and the figures Tanaka published; with `--check`, the engine's independent check of
//! every entry and the probe's consistency check along random games; with `--threads`, a second
//! solve on one thread, compared byte for byte.
//!
//! `cargo run --release -p dobutsu-shogi --example solve_reachable -- [tanaka|safe-try] [--check] [--threads]`
use std::time::Instant;

use dobutsu_shogi::dense::Dense;
use dobutsu_shogi::probe::Probe;
use dobutsu_shogi::{index, reach, DobutsuGame, Position, Rules};
use nana_engine::{EntryWidth, Graph, NoProgress};

fn main() {
    let rules = Rules::from_name(std::env::args().nth(1).as_deref().unwrap_or("tanaka")).unwrap();
    let check = std::env::args().any(|a| a == "--check");
    let threads = std::env::args().any(|a| a == "--threads");
    let t = Instant::now();
    let reached = reach::reachable(&rules, &|_| {});
    let t_reach = t.elapsed().as_secs_f64();
    let game = Dense::new(DobutsuGame::new(rules), &reached);
    let s = nana_engine::solve(&game, &NoProgress).unwrap();
    let t_solve = t.elapsed().as_secs_f64();
    let full = game.spread(&s.bytes());
    let t_spread = t.elapsed().as_secs_f64();
    println!(
        "rules {}: reach {t_reach:.1} s, solve {:.1} s, spread {:.1} s",
        rules.name(),
        t_solve - t_reach,
        t_spread - t_solve
    );
    println!(
        "dense entries {} (wins {}, draws {}, losses {}), longest distance {} plies",
        game.size(),
        s.stats.wins,
        s.stats.draws,
        s.stats.losses,
        s.stats.max_dtm
    );
    println!("per distance: {:?}", s.stats.per_dtm);
    let counts = reach::count(&rules, &reached, Some((&full, EntryWidth::One)));
    println!("{counts:#?}");
    let probe = Probe::new(rules, &full).unwrap();
    let start = Position::start();
    println!("start (first player to move): {:?}", probe.value(&start).unwrap());
    let line = probe.mainline(&start, 400).unwrap();
    println!(
        "mainline from the start: {} plies: {}",
        line.len(),
        line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
    );
    if check {
        nana_engine::check_with(&game, &s.bytes(), EntryWidth::One, &|_| {}).unwrap();
        // The probe's check (value against the moves' values) along random games.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut positions = 0;
        for _ in 0..2000 {
            let mut pos = start;
            for _ in 0..60 {
                let moves = probe.ranked_moves(&pos).unwrap();
                positions += 1;
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos = moves[(x % moves.len() as u64) as usize].child;
                assert_eq!(index::rank(&pos), index::rank(&pos.mirror()));
                assert_eq!(index::rank(&pos), index::rank(&pos.rotate()));
            }
        }
        println!(
            "check: ok, and {positions} positions probed along random games ({:.1} s total)",
            t.elapsed().as_secs_f64()
        );
    }
    if threads {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let s1 = one.install(|| nana_engine::solve(&game, &NoProgress).unwrap());
        assert!(s1.bytes() == s.bytes(), "one thread and {} threads differ", rayon::current_num_threads());
        println!("one thread: the same bytes ({:.1} s total)", t.elapsed().as_secs_f64());
    }
}
