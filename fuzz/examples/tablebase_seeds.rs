//! Writes the tablebase target's seeds, the intact tables' files, into the folder given:
//! `cargo +nightly run --example tablebase_seeds -- corpus/tablebase_bytes`.

fn main() {
    let dir = std::env::args().nth(1).expect("usage: tablebase_seeds DIR");
    for (i, intact) in nana_fuzz::intact_tables().iter().enumerate() {
        std::fs::write(format!("{dir}/intact-{i}.tb"), &intact.bytes).expect("written");
    }
}
