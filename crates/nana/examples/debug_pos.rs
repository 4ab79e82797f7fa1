use nana_shogi::*;
use nana_engine::{Entry, Game};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = if args[1] == "original" { Variant::Original } else { Variant::Current };
    let rules = Rules::new(variant);
    let pos = fen::parse_position(&args[2], variant).unwrap();
    let data = std::fs::read(format!("tablebase/nana-{}.tb", variant.name())).unwrap();
    let entries = &data[256..];
    let game = NanaGame::new(rules);
    let i = index::rank(&pos);
    println!("pos {pos} index {i} value {:?}", Entry(entries[i as usize]).value());
    let canon = index::unrank(i).unwrap();
    println!("canonical {canon}");
    for mv in pos.legal_moves(&rules) {
        let c = pos.play_unchecked(mv);
        let ci = index::rank(&c);
        let mut preds = vec![];
        game.predecessors(ci, &mut preds);
        println!("  {} -> {c} idx {ci} value {:?} pred-contains-parent {}", usi::format(mv), Entry(entries[ci as usize]).value(), preds.contains(&i));
    }
    let mut succ = vec![]; game.successors(i, &mut succ); succ.sort(); succ.dedup();
    println!("succ entries {}", succ.len());
}
