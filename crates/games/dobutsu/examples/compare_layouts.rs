//! Compares a table of the census index's layout (layout version 1, whose entries are indexed
//! by [`wide`]) with one of the tables' index (layout version 2, [`index`]) of the same rule set,
//! position by position: every used entry of the new index must hold the value the old table
//! holds for its position, and the old table must hold exactly as many positions. Prints the
//! counts, or the first difference and exits with status 1.
//!
//! `cargo run --release -p dobutsu-shogi --example compare_layouts -- OLD.tb NEW.tb`
use std::path::Path;

use dobutsu_shogi::{index, wide};
use nana_tablebase::Tablebase;
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [old, new] = &args[..] else { panic!("usage: compare_layouts OLD.tb NEW.tb") };
    let open = |path: &str| Tablebase::open(Path::new(path)).expect("a readable table");
    let (old, new) = (open(old), open(new));
    for (table, layout, entries) in [(&old, 1, wide::SIZE), (&new, index::LAYOUT_VERSION, index::SIZE)] {
        let h = table.header();
        assert_eq!((h.layout_version, h.entries, h.rule_set_id), (layout, entries, new.header().rule_set_id));
    }
    let (old, new) = (old.entries().expect("old entries"), new.entries().expect("new entries"));
    let differ = (0..index::SIZE).into_par_iter().find_first(|&i| {
        index::unrank(i).is_some_and(|pos| old[wide::rank(&pos) as usize] != new[i as usize])
    });
    if let Some(i) = differ {
        let pos = index::unrank(i).unwrap();
        println!("entry {i} ({pos}): old {} new {}", old[wide::rank(&pos) as usize], new[i as usize]);
        std::process::exit(1);
    }
    let used = (0..index::SIZE).into_par_iter().filter(|&i| index::unrank(i).is_some()).count();
    let old_set = (0..wide::SIZE)
        .into_par_iter()
        .filter(|&i| wide::unrank(i).is_some_and(|p| !p.can_capture_lion()))
        .count();
    println!("{used} positions, the same value in both tables; the old table's set: {old_set}");
    assert_eq!(used, old_set);
}
