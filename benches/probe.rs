//! In-process lookups: the value of a position, and a full ranked move list.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nana_shogi::probe::Probe;
use nana_shogi::{NanaGame, Position, Rules};

fn probe(c: &mut Criterion) {
    let rules = Rules::ORIGINAL;
    let solution = nana_engine::solve(&NanaGame::prepared(rules), &nana_engine::NoProgress).unwrap();
    let probe = Probe::new(rules, &solution.entries).unwrap();
    // Positions from a deterministic walk along best and second-best moves.
    let mut positions = Vec::new();
    let mut pos = Position::start();
    let mut k = 0usize;
    while positions.len() < 10_000 {
        positions.push(pos);
        let moves = pos.legal_moves(&rules);
        if moves.is_empty() {
            pos = Position::start();
            continue;
        }
        k = k.wrapping_mul(31).wrapping_add(7);
        pos = pos.play_unchecked(moves[k % moves.len()]);
    }
    let mut g = c.benchmark_group("probe");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("value", |b| {
        b.iter(|| positions.iter().filter(|p| probe.value(p).unwrap() == nana_engine::Value::Draw).count())
    });
    g.bench_function("ranked moves", |b| {
        b.iter(|| positions.iter().map(|p| probe.ranked_moves(p).unwrap().len()).sum::<usize>())
    });
    g.finish();
}

criterion_group!(benches, probe);
criterion_main!(benches);
