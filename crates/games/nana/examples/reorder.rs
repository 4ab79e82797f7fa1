//! Writes a Nana table's entries in another order, for the codec tool to measure (`RAW=1`,
//! docs/PERFORMANCE.md, "Index orders and block sizes per part"): one byte an entry, the unused
//! entries (of no legal position) as 255, the entries sorted by a key of their positions, the
//! index's order within each key.
//!
//! `cargo run --release -p nana-shogi --example reorder -- TABLE.tb OUT.bin [ORDER]`
//!
//! `ORDER` (the empty order is the index's own):
//! - `file`: the order the table files store their entries in ([`index::file_position`]: the
//!   King pair, the material, the hands, the pattern, the owners, the faces);
//! - `material`: the O cubes and the D cubes Black, to move, owns on the board and in hand
//!   (0 to 2 each: 9 classes, the O cubes outermost);
//! - `kings,material`: the King pair (the index's outermost part), then the material;
//! - `material,hands`: the material, then the cubes of each kind in each hand (81);
//! - `hands`: the cubes of each kind in each hand alone.

use std::path::Path;

use nana_probe::table::{Table, TableRules};
use nana_shogi::{index, Color, Cube, Position, Role, Rules, Square};
use nana_tablebase::Tablebase;
use rayon::prelude::*;

/// Entries a King pair has in the index's main part.
const PER_KING_PAIR: u64 = index::MAIN / 17;

/// The O and D cubes `color` owns, on the board and in hand.
fn material(pos: &Position, color: Color) -> [u64; 2] {
    let mut owned = Cube::ALL.map(|cube| u64::from(pos.hand(color, cube)));
    for sq in Square::ALL {
        match pos.piece_at(sq) {
            Some(piece) if piece.color == color && piece.role != Role::King => {
                let cube = if Cube::O.faces().contains(&piece.role) { Cube::O } else { Cube::D };
                owned[cube.index()] += 1;
            }
            _ => {}
        }
    }
    owned
}

/// The key of entry `i` in `order`, outermost first; the index itself breaks ties.
fn key(order: &str, i: u64, pos: &Position) -> u64 {
    let [o, d] = material(pos, Color::Black);
    let material = 3 * o + d;
    let hands = [Color::Black, Color::White]
        .iter()
        .flat_map(|&color| Cube::ALL.map(|cube| u64::from(pos.hand(color, cube))))
        .fold(0, |key, n| 3 * key + n);
    match order {
        "" => 0,
        "material" => material,
        "kings,material" => (i / PER_KING_PAIR) * 9 + material,
        "material,hands" => material * 81 + hands,
        "hands" => hands,
        _ => panic!("ORDER is one of file, material, kings,material, material,hands, hands or empty"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, out, order) = match &args[..] {
        [t, o] => (t, o, ""),
        [t, o, order] => (t, o, order.as_str()),
        _ => panic!("usage: reorder TABLE.tb OUT.bin [ORDER]"),
    };
    let file = Tablebase::open(Path::new(path)).expect("a readable table");
    let rules = Rules::from_header(file.header()).expect("a Nana table");
    // The entries as the solve gave them: the unused ones 255 again.
    let table = Table::from_tablebase(rules, file).expect("a table of these rules");
    let entries = table.entries();
    if order == "file" {
        let mut stream = vec![0; entries.len()];
        for (i, &entry) in entries.iter().enumerate() {
            stream[index::file_position(rules.variant, i as u64) as usize] = entry;
        }
        std::fs::write(out, stream).expect("the stream written");
        println!("{path}: {} entries in the file's order to {out}", entries.len());
        return;
    }
    let mut keyed: Vec<(u64, u32)> = (0..index::SIZE)
        .into_par_iter()
        .map(|i| (index::unrank(i).map_or(0, |pos| key(order, i, &pos)), i as u32))
        .collect();
    keyed.par_sort_unstable();
    let stream: Vec<u8> = keyed.iter().map(|&(_, i)| entries[i as usize]).collect();
    std::fs::write(out, stream).expect("the stream written");
    println!("{path}: {} entries in the order {order:?} to {out}", keyed.len());
}
