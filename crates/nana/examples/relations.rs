use nana_shogi::*;
fn main() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL, Rules { variant: Variant::Original, drop_stalemate: false, hand_stalemate: false }, Rules { variant: Variant::Current, drop_stalemate: true, hand_stalemate: false }] {
        let t = std::time::Instant::now();
        let r = nana_engine::check_relations(&NanaGame::new(rules));
        println!("{}: {:?} {:?}", rules.describe(), r, t.elapsed());
    }
}
