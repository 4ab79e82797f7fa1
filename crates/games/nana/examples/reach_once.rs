use nana_shogi::{reach, Rules};
fn main() {
    let rules =
        if std::env::args().nth(1).as_deref() == Some("current") { Rules::CURRENT } else { Rules::ORIGINAL };
    println!("{:?}", reach::reachable(&rules, &|_| {}).counts());
}
