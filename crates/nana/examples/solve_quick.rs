use nana_shogi::*;
fn main() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let t = std::time::Instant::now();
        let game = NanaGame::new(rules);
        let sol = nana_engine::solve(&game, &nana_engine::NoProgress).unwrap();
        let v = sol.entry(index::START).value();
        println!("{:?}: {:?} start={:?} time={:?}", rules.variant, sol.stats, v, t.elapsed());
    }
}
