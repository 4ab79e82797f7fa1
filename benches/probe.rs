//! In-process lookups: the value of a position, and a full ranked move list; from the solve's
//! entries in memory, and from the table written as a file in compressed blocks and opened
//! (entries read one at a time, a block decoded on a miss of the thread's block cache).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use nana_probe::table::{self, Table};
use nana_shogi::probe::Probe;
use nana_shogi::{NanaGame, Position, Rules};

fn probe(c: &mut Criterion) {
    let rules = Rules::ORIGINAL;
    let solution = nana_engine::solve(&NanaGame::prepared(rules), &nana_engine::NoProgress).unwrap();
    let probe = Probe::of_solution(rules, &solution).unwrap();
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

    let dir = std::env::temp_dir().join(format!("nana-bench-probe-{}", std::process::id()));
    let path = table::write(&rules, &dir, &solution).unwrap();
    let file = Table::open(rules, &path).unwrap();
    let from_file = file.probe();
    g.bench_function("value, file", |b| {
        b.iter(|| {
            positions.iter().filter(|p| from_file.value(p).unwrap() == nana_engine::Value::Draw).count()
        })
    });
    g.bench_function("ranked moves, file", |b| {
        b.iter(|| positions.iter().map(|p| from_file.ranked_moves(p).unwrap().len()).sum::<usize>())
    });
    // Legal positions drawn uniformly from the index, 10,000 of them: the first pass over them
    // decodes a block for nearly every lookup of the file; the thread's cache (4096 blocks, all
    // of a Nana table's but 448) then holds them (a warm cache).
    let game = NanaGame::new(rules);
    let mut random = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    while random.len() < 10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        random.extend(game.position(x % nana_shogi::index::SIZE));
    }
    g.bench_function("value, random positions", |b| {
        b.iter(|| random.iter().filter(|p| probe.value(p).unwrap() == nana_engine::Value::Draw).count())
    });
    g.bench_function("value, random positions, file", |b| {
        b.iter(|| random.iter().filter(|p| from_file.value(p).unwrap() == nana_engine::Value::Draw).count())
    });
    g.finish();
    std::fs::remove_dir_all(&dir).unwrap();
}

criterion_group!(benches, probe);
criterion_main!(benches);
