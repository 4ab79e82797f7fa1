use nana_shogi::*;
fn main() {
    let text = std::fs::read_to_string("/work/shared/reference/perft.txt").unwrap();
    let mut pos = None; let mut rules = Rules::CURRENT;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() { continue; }
        if let Some(rest) = line.strip_prefix("position ") {
            let (fenpart, opts) = rest.split_once(" rules ").unwrap();
            let o: Vec<&str> = opts.split_whitespace().collect();
            let variant = if o[0] == "current" { Variant::Current } else { Variant::Original };
            rules = Rules { variant, drop_stalemate: true, hand_stalemate: o[2] == "on" };
            pos = Some(fen::parse_position(fenpart, variant).unwrap());
            println!("{line}");
            continue;
        }
        let mut it = line.split_whitespace();
        let d: u32 = it.next().unwrap().parse().unwrap();
        let n: u64 = it.next().unwrap().parse().unwrap();
        let got = perft(pos.as_ref().unwrap(), &rules, d);
        println!("{d} {n} {got} {}", if n == got { "ok" } else { "MISMATCH" });
    }
}
