//! The whole job of `nana solve`: both rule sets, solving and writing the tables.

use criterion::{criterion_group, criterion_main, Criterion};
use nana_shogi::{index, NanaGame, Rules};
use nana_tablebase::{Counts, Encoding, Header};

fn solve_both(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("nana-bench-{}", std::process::id()));
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    g.bench_function("both rule sets (solve + write)", |b| {
        b.iter(|| {
            for rules in [Rules::CURRENT, Rules::ORIGINAL] {
                let s = nana_engine::solve(&NanaGame::solver(rules), &nana_engine::NoProgress).unwrap();
                let header = Header {
                    game: "nana-shogi".into(),
                    rule_set: rules.variant.name().into(),
                    rule_set_id: rules.variant as u32,
                    options: "drop-stalemate on, hand-stalemate on".into(),
                    option_bits: 3,
                    layout_version: index::LAYOUT_VERSION,
                    entries: index::SIZE,
                    entry_width: 1,
                    encoding: Encoding::DtmPlies,
                    counts: Counts {
                        wins: s.stats.wins,
                        losses: s.stats.losses,
                        draws: s.stats.draws,
                        illegal: s.stats.illegal,
                    },
                    max_dtm: u32::from(s.stats.max_dtm),
                    // As `nana solve` writes them: unused entries filled.
                    dont_care: true,
                };
                nana_tablebase::write(&dir.join(format!("{}.tb", rules.variant)), &header, &s.bytes())
                    .unwrap();
            }
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, solve_both);
criterion_main!(benches);
