use nana_shogi::*;
fn main() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let t = std::time::Instant::now();
        let game = NanaGame::new(rules);
        let r = reach::reachable(&game, &|_| {});
        println!("{:?}: {:?} time={:?}", rules.variant, r.counts(), t.elapsed());
    }
}
