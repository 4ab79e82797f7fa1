//! Dobutsu shogi's hot paths: the index both ways, the successors and predecessors the solver
//! asks for, and perft. The whole solve is timed by the example `solve_reachable` (figures in
//! `docs/DOBUTSU.md`): it takes minutes, too long for criterion's repetitions.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::{perft, DobutsuGame, Position, Rules};
use nana_engine::Game;

fn sample() -> Vec<u64> {
    (0..4096u64).map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) % SIZE).collect()
}

fn index(c: &mut Criterion) {
    let entries = sample();
    let positions: Vec<Position> = entries.iter().filter_map(|&i| unrank(i)).collect();
    c.bench_function("dobutsu unrank (4096 entries)", |b| {
        b.iter(|| entries.iter().filter_map(|&i| unrank(black_box(i))).count())
    });
    c.bench_function("dobutsu rank (4096 positions)", |b| {
        b.iter(|| positions.iter().map(|p| rank(black_box(p))).sum::<u64>())
    });
}

fn game(c: &mut Criterion) {
    let entries = sample();
    let game = DobutsuGame::new(Rules::TANAKA);
    let mut out = Vec::new();
    c.bench_function("dobutsu successors (4096 entries)", |b| {
        b.iter(|| {
            for &i in &entries {
                out.clear();
                black_box(game.successors(i, &mut out));
            }
        })
    });
    c.bench_function("dobutsu predecessors (4096 entries)", |b| {
        b.iter(|| {
            for &i in &entries {
                out.clear();
                game.predecessors(i, &mut out);
            }
        })
    });
    c.bench_function("dobutsu perft 5 from the start", |b| {
        b.iter(|| perft(&Position::start(), &Rules::SAFE_TRY, 5))
    });
}

criterion_group!(benches, index, game);
criterion_main!(benches);
