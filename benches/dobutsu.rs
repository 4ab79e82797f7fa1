//! Dobutsu shogi's hot paths: the index both ways, the successors and predecessors the solver
//! asks for, perft, and the dense numbering's gather (a table's bytes by dense number, as the
//! check gathers a table's entries of the solved set). The whole solve is timed by `nana --game
//! dobutsu solve` (figures in `docs/PERFORMANCE.md`): it takes tens of seconds, too long for
//! criterion's repetitions.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use dobutsu_shogi::dense::Dense;
use dobutsu_shogi::index::{rank, unrank, SIZE};
use dobutsu_shogi::{perft, DobutsuGame, Position, Rules};
use nana_engine::Graph;
use rayon::prelude::*;

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

/// The gather over an eighth of Dobutsu's index with the enumeration's density of reachable
/// entries (about 29 %), against what it replaced: a `select` (a binary search) per dense number.
fn dense(c: &mut Criterion) {
    let words = (SIZE / 8).div_ceil(64) as usize;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let bits: Vec<u64> = (0..words)
        .map(|_| {
            let (a, b, m) = (next(), next(), next());
            ((a & a >> 1) | (b & b >> 1)) & (m >> 5 | m >> 9)
        })
        .collect();
    let full: Vec<u8> = (0..words * 64).map(|i| (i % 251) as u8).collect();
    let dense = Dense::from_words(DobutsuGame::new(Rules::TANAKA), &bits);
    let n = dense.size();
    let mut group = c.benchmark_group("dobutsu dense");
    group.sample_size(10);
    group.bench_function(format!("gather ({n} of {} entries)", words * 64), |b| {
        b.iter(|| dense.gather(black_box(&full)))
    });
    group.bench_function(format!("select per dense number ({n} of {} entries)", words * 64), |b| {
        b.iter(|| (0..n).into_par_iter().map(|d| full[dense.select(d) as usize]).collect::<Vec<u8>>())
    });
    group.finish();
}

criterion_group!(benches, index, game, dense);
criterion_main!(benches);
