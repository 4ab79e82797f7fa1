//! How many of the index's unused entries (mirror images) fill whole pages of the solver's
//! cells, one byte an entry: memory a solve would not touch if it never wrote them.
//! `cargo run --release -p dobutsu-shogi --example unused_pages`

use dobutsu_shogi::survey::{byte, survey};
use dobutsu_shogi::Rules;

fn main() {
    let rules = Rules::from_name("tanaka").expect("Tanaka's rules");
    let bytes = survey(&rules, &|_| {}).bytes;
    let unused = bytes.iter().filter(|&&b| b == byte::UNUSED).count();
    println!("unused entries: {unused} of {}", bytes.len());
    // Pages counted as if the cells began on one (a large allocation begins a few bytes in).
    for page in [4096usize, 65536, 2 << 20] {
        let whole: usize =
            bytes.chunks(page).filter(|c| c.iter().all(|&b| b == byte::UNUSED)).map(<[u8]>::len).sum();
        println!("in whole pages of {page} bytes: {whole}");
    }
}
