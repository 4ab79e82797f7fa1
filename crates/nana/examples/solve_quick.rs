use nana_shogi::*;
fn main() {
    let variants: Vec<Variant> = match std::env::args().nth(1).as_deref() { Some("original") => vec![Variant::Original], Some("current") => vec![Variant::Current], _ => Variant::ALL.to_vec() };
    for variant in variants { for (r1, r2s) in [(true,true),(true,false),(false,true),(false,false)] {
        let rules = Rules { variant, drop_stalemate: r1, hand_stalemate: r2s };
        let t = std::time::Instant::now();
        let game = NanaGame::new(rules);
        let sol = nana_engine::solve(&game, &nana_engine::NoProgress).unwrap();
        let v = sol.entry(index::START).value();
        let s = &sol.stats;
        println!("{}: W {} L {} D {} I {} max {} start={:?} time={:?}", rules.describe(), s.wins, s.losses, s.draws, s.illegal, s.max_dtm, v, t.elapsed());
    }}
}
