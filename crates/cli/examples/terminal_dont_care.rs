//! A candidate value coding: a table whose terminal positions (mate, stalemate, a try
//! completed, no move) are don't-care entries too, as the format fills unused entries, so that
//! a reader would ask the rules whether a position is over before it looks it up. Writes each
//! table of DIR again so, in its own layout, into DIR/terminal-dont-care/, and prints how many
//! entries became don't-care and the file's size against the original's.
//!
//! `cargo run --release -p nana-cli --example terminal_dont_care -- DIR` (a folder with
//! `dobutsu-tanaka.tb`, `nana-current.tb` and `nana-original.tb`, each where present).

use std::path::Path;

use nana_probe::table::{Table, TableRules};
use nana_tablebase::Tablebase;
use rayon::prelude::*;

fn run<G: TableRules + Clone + Sync>(game: G, path: &Path, out: &Path) {
    let Ok(file) = Tablebase::open(path) else { return };
    let header = file.header().clone();
    let layout = file.storage().layout;
    let table = Table::from_tablebase(game.clone(), file).expect("a table of these rules");
    let mut entries = table.entries().to_vec();
    let terminal: u64 = entries
        .par_iter_mut()
        .enumerate()
        .map(|(i, e)| {
            if *e != 255 && game.unindex(i as u64).is_some_and(|p| game.terminal(&p).is_some()) {
                *e = 255;
                1
            } else {
                0
            }
        })
        .sum();
    let mut h = header.clone();
    h.dont_care = true;
    let stored = game.file_order().to_file_order(entries, h.entry_width as usize);
    nana_tablebase::write_with(out, &h, &stored, layout).expect("written");
    println!(
        "{}: {terminal} terminal entries made don't-care: {} bytes (was {})",
        path.display(),
        std::fs::metadata(out).unwrap().len(),
        std::fs::metadata(path).unwrap().len()
    );
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: terminal_dont_care DIR");
    let dir = Path::new(&dir);
    let out = dir.join("terminal-dont-care");
    std::fs::create_dir_all(&out).expect("a folder for the tables written again");
    for name in ["dobutsu-tanaka.tb", "nana-current.tb", "nana-original.tb"] {
        let (from, to) = (dir.join(name), out.join(name));
        match name {
            "dobutsu-tanaka.tb" => run(dobutsu_shogi::Rules::TANAKA, &from, &to),
            "nana-current.tb" => run(nana_shogi::Rules::CURRENT, &from, &to),
            _ => run(nana_shogi::Rules::ORIGINAL, &from, &to),
        }
    }
}
