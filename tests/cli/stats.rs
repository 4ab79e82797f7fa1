//! `nana stats`.

use crate::common::*;

#[test]
fn stats_counts_reachable_positions() {
    let run = nana(&["stats", "--tablebase", table("current")]);
    run.success();
    let out = &run.stdout;
    let size = number_after(out, "index size: ");
    let header = std::fs::read(table("current")).unwrap();
    let entries = u64::from_le_bytes(header[24..32].try_into().unwrap());
    assert_eq!(size, entries, "one entry per index entry");
    let line = out.lines().find(|l| l.starts_with("reachable positions: ")).unwrap();
    assert!(line.contains(" (black to move ") && line.contains(", white to move "), "{line}");
    let counts: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert_eq!(counts.len(), 3, "{line}");
    assert_eq!(counts[0], counts[1] + counts[2], "{line}");
    assert!(counts[0] > 0, "{line}");
    let entries = number_after(out, "reachable index entries: ");
    assert!(entries > 0 && entries <= size, "{out}");
    // The table's counts, as its header has them.
    let [w, l, d] = header_counts(table("current"));
    assert!(out.contains(&format!("entries: wins {w}, losses {l}, draws {d}, unused")), "stats:\n{out}");
    assert!(out.contains("\nstart: draw\n"), "{out}");
    // Every reachable position is legal, so at most the legal entries are reachable.
    let legal = w + l + d;
    assert!(entries <= legal, "{entries} reachable > {legal} legal");
}

/// `--no-reachable`: the table's counts, as without it, and no enumeration.
#[test]
fn stats_without_the_enumeration_prints_the_tables_counts() {
    let full = nana(&["stats", "--tablebase", table("current")]);
    let run = nana(&["stats", "--tablebase", table("current"), "--no-reachable"]);
    let out = &run.success().stdout;
    assert!(!out.contains("reachable") && !out.contains("index size"), "{out}");
    let table_part = |text: &str| text[text.find("\ntablebase: ").expect("the table's lines")..].to_string();
    assert_eq!(table_part(out), table_part(&full.success().stdout));
    assert!(out.starts_with("rules: current, "), "{out}");
}
