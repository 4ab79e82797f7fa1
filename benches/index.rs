//! Rank and unrank throughput over the whole index space, and one enumeration of the reachable
//! states per rule set.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use nana_shogi::index::{rank, unrank, SIZE};
use nana_shogi::{reach, Rules};

fn index(c: &mut Criterion) {
    // A fixed, spread-out sample of entries (legal or not, unrank takes any).
    let indices: Vec<u64> = (0..100_000u64).map(|k| k * 186_091 % SIZE).collect();
    let positions: Vec<_> = indices.iter().map(|&i| unrank(i).unwrap()).collect();
    let mut g = c.benchmark_group("index");
    g.throughput(Throughput::Elements(indices.len() as u64));
    g.bench_function("unrank", |b| {
        b.iter(|| {
            indices
                .iter()
                .map(|&i| unrank(i).unwrap())
                .fold(0u64, |a, p| a ^ p.hand(nana_shogi::Color::Black, nana_shogi::Cube::O) as u64)
        })
    });
    g.bench_function("rank", |b| b.iter(|| positions.iter().map(rank).fold(0u64, |a, i| a ^ i)));
    g.finish();
}

fn enumeration(c: &mut Criterion) {
    let mut g = c.benchmark_group("enumerate");
    g.sample_size(10);
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        g.bench_function(format!("reachable/{}", rules.variant), |b| {
            b.iter_batched(|| (), |()| reach::reachable(&rules, &|_| {}).counts(), BatchSize::PerIteration)
        });
    }
    g.finish();
}

criterion_group!(benches, index, enumeration);
criterion_main!(benches);
