//! What the 855,232,344 entries of the index are, under Tanaka's rules: unused (the mirror
//! images of self-mirrored lion pairs), a position where the side to move can take the lion (a
//! win in 1 the probe decides from the rules), a terminal position of the solved set (a try or
//! both tries), or an inner one; the last two make the solved set (docs/DOBUTSU.md).
//!
//! `cargo run --release -p dobutsu-shogi --example legal_census`
use dobutsu_shogi::{index, Rules};
use rayon::prelude::*;

fn main() {
    let rules = Rules::TANAKA;
    let t = std::time::Instant::now();
    let [unused, capture, terminal, inner] = (0..index::SIZE.div_ceil(4096))
        .into_par_iter()
        .map(|b| {
            let mut c = [0u64; 4];
            for i in b * 4096..((b + 1) * 4096).min(index::SIZE) {
                let k = match index::unrank(i) {
                    None => 0,
                    Some(p) if p.can_capture_lion() => 1,
                    Some(p) if p.solver_end(&rules).is_some() => 2,
                    Some(_) => 3,
                };
                c[k] += 1;
            }
            c
        })
        .reduce(|| [0; 4], |a, b| std::array::from_fn(|k| a[k] + b[k]));
    println!("unused {unused}, the lion can be taken {capture}");
    println!("solved set {}: terminal {terminal}, inner {inner}", terminal + inner);
    println!("({:.1} s)", t.elapsed().as_secs_f64());
}
