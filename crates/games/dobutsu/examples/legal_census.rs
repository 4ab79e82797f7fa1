//! What the 855,232,344 entries of the census index ([`dobutsu_shogi::wide`]) are, under Tanaka's rules: unused (the mirror
//! images of self-mirrored lion pairs), a position where the side to move can take the lion (a
//! win in 1 the probe decides from the rules), a terminal position of the solved set (a try,
//! both tries or no move), or an inner one; the last two make the solved set (docs/DOBUTSU.md).
//! The positions where the side to move has no move are printed too.
//!
//! `cargo run --release -p dobutsu-shogi --example legal_census`
use dobutsu_shogi::{wide, End, Rules};
use rayon::prelude::*;

fn main() {
    let rules = Rules::TANAKA;
    let t = std::time::Instant::now();
    let (counts, no_move) = (0..wide::SIZE.div_ceil(4096))
        .into_par_iter()
        .map(|b| {
            let mut c = [0u64; 4];
            let mut no_move = Vec::new();
            for i in b * 4096..((b + 1) * 4096).min(wide::SIZE) {
                let k = match wide::unrank(i) {
                    None => 0,
                    Some(p) if p.can_capture_lion() => 1,
                    Some(p) => match p.solver_end(&rules) {
                        Some((_, end)) => {
                            if end == End::NoMove {
                                no_move.push(p.to_string());
                            }
                            2
                        }
                        None => 3,
                    },
                };
                c[k] += 1;
            }
            (c, no_move)
        })
        .reduce(
            || ([0; 4], Vec::new()),
            |(a, mut x), (b, y)| {
                x.extend(y);
                (std::array::from_fn(|k| a[k] + b[k]), x)
            },
        );
    let [unused, capture, terminal, inner] = counts;
    println!("unused {unused}, the lion can be taken {capture}");
    println!("solved set {}: terminal {terminal}, inner {inner}", terminal + inner);
    println!("no move, {} positions:", no_move.len());
    for fen in &no_move {
        println!("  {fen}");
    }
    println!("({:.1} s)", t.elapsed().as_secs_f64());
}
