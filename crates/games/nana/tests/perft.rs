//! Checks every count of `tests/data/perft.txt` with `nana_shogi::perft`.
//!
//! The file holds lines `position <FEN> rules <current|original> r2s <on|off> [r1 <on|off>]`
//! followed by `<depth> <nodes>` lines; `#` starts a comment.

use nana_shogi::{fen, perft, Position, Rules, Variant};

struct Section {
    header: String,
    pos: Position,
    rules: Rules,
    counts: Vec<(u32, u64)>,
}

fn on_off(word: Option<&&str>, line: &str) -> bool {
    match word {
        Some(&"on") => true,
        Some(&"off") => false,
        other => panic!("expected on or off, found {other:?}: {line}"),
    }
}

fn parse_header(line: &str) -> Section {
    let rest = line.strip_prefix("position ").expect("a position line");
    let (fen_str, opts) = rest.split_once(" rules ").unwrap_or_else(|| panic!("no rules: {line}"));
    let words: Vec<&str> = opts.split_whitespace().collect();
    let variant = match words.first() {
        Some(&"current") => Variant::Current,
        Some(&"original") => Variant::Original,
        other => panic!("unknown rule set {other:?}: {line}"),
    };
    let mut rules = Rules::new(variant);
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "r2s" => rules.hand_stalemate = on_off(words.get(i + 1), line),
            "r1" => rules.drop_stalemate = on_off(words.get(i + 1), line),
            other => panic!("unknown option {other:?}: {line}"),
        }
        i += 2;
    }
    let pos = fen::parse_position(fen_str, variant).unwrap_or_else(|e| panic!("{e}"));
    Section { header: line.to_string(), pos, rules, counts: Vec::new() }
}

fn read_sections() -> Vec<Section> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut sections: Vec<Section> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("position ") {
            sections.push(parse_header(line));
            continue;
        }
        let mut it = line.split_whitespace();
        let mut number = || -> u64 {
            it.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("bad count line {line:?}"))
        };
        let (depth, nodes) = (number() as u32, number());
        sections.last_mut().expect("a count before any position line").counts.push((depth, nodes));
    }
    sections
}

#[test]
fn perft_data_file() {
    let sections = read_sections();
    assert!(sections.len() >= 11, "the data file lost positions");
    assert!(sections.iter().all(|s| !s.counts.is_empty()), "a position without counts");
    // The positions are independent: check them on all cores, the slowest first.
    let mut order: Vec<&Section> = sections.iter().collect();
    order.sort_by_key(|s| std::cmp::Reverse(s.counts.iter().map(|c| c.1).max()));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(s) = order.get(i) else { break };
                        for &(depth, nodes) in &s.counts {
                            let got = perft(&s.pos, &s.rules, depth);
                            if got != nodes {
                                failures.push(format!(
                                    "{}: depth {depth}: expected {nodes}, got {got}",
                                    s.header
                                ));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

/// The start counts of both rule sets, written out so a broken data file cannot hide them.
#[test]
fn perft_start_shallow() {
    let start = Position::start();
    let counts = |rules: &Rules| (0..=4).map(|d| perft(&start, rules, d)).collect::<Vec<_>>();
    assert_eq!(counts(&Rules::CURRENT), [1, 8, 32, 1292, 43948]);
    assert_eq!(counts(&Rules::ORIGINAL), [1, 8, 32, 1200, 38272]);
}

/// The header reader accepts both option words in either order and rejects junk.
#[test]
fn header_options() {
    let s = parse_header("position 3/3/3 b KRBkrb 1 rules original r1 off r2s on");
    assert_eq!(s.rules, Rules { variant: Variant::Original, drop_stalemate: false, hand_stalemate: true });
    let s = parse_header("position 3/3/3 b KRBkrb rules current r2s off");
    assert_eq!(s.rules, Rules { variant: Variant::Current, drop_stalemate: true, hand_stalemate: false });
    assert!(std::panic::catch_unwind(|| parse_header("position 3/3/3 b KRBkrb rules current r3 on")).is_err());
}

/// Every count of the shared reference file (an independent implementation) is in the data
/// file. `tests/data/reference-perft.txt` is a verbatim copy of the project's
/// `shared/reference/perft.txt`; `.ci/run` checks that the copy still equals the original.
#[test]
fn data_file_holds_the_shared_reference_counts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reference-perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let ours = read_sections();
    let mut header: Option<Section> = None;
    let mut n = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with("position ") {
            header = Some(parse_header(line));
            continue;
        }
        let h = header.as_ref().expect("a count before any position line");
        let mut it = line.split_whitespace().map(|w| w.parse::<u64>().unwrap());
        let (depth, nodes) = (it.next().unwrap() as u32, it.next().unwrap());
        let found =
            ours.iter().any(|s| s.pos == h.pos && s.rules == h.rules && s.counts.contains(&(depth, nodes)));
        assert!(found, "{}: depth {depth} {nodes} is missing from the data file", h.header);
        n += 1;
    }
    assert!(n > 0);
}
