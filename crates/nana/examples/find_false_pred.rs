use nana_shogi::*;
use nana_engine::Game;
use rayon::prelude::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = if args[1] == "original" { Variant::Original } else { Variant::Current };
    let rules = Rules::new(variant);
    let pos = fen::parse_position(&args[2], variant).unwrap();
    let game = NanaGame::new(rules);
    let i = index::rank(&pos);
    let mut succ = vec![]; game.successors(i, &mut succ);
    let bad: Vec<u64> = (0..index::SIZE).into_par_iter().filter(|&q| {
        if game.position(q).is_none() { return false; }
        let mut preds = vec![]; game.predecessors(q, &mut preds);
        preds.contains(&i) && !succ.contains(&q)
    }).collect();
    let p = index::unrank(i).unwrap();
    println!("parent canonical {p}");
    for q in bad { let qp = index::unrank(q).unwrap(); println!("false pred edge: q={q} {qp} (flip {})", qp.flip()); }
}
