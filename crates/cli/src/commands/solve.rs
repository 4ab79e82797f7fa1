//! `nana solve`: solve rule sets and write their tables.

use std::path::Path;
use std::time::Instant;

use nana_probe::table::TableGame;

use crate::games::CliGame;
use crate::table;

pub fn run<G: CliGame>(rule_sets: &[G::Rules], out: &Path) -> Result<(), String> {
    table::check_writable(out)?;
    let all = Instant::now();
    for rules in rule_sets {
        let start = Instant::now();
        let (solution, phases) = table::solve(rules)?;
        let solved = start.elapsed();
        let path = table::write(out, rules, &solution)?;
        let s = &solution.stats;
        println!("{}", rules.describe());
        println!("  positions (index entries): {} legal, {} unused", s.legal(), s.illegal);
        println!("  wins {}, losses {}, draws {}", s.wins, s.losses, s.draws);
        println!("  longest distance to {}: {} plies", G::WIN_NAME, s.max_dtm);
        println!(
            "  solved in {:.2} s, written in {:.2} s to {}",
            solved.as_secs_f64(),
            (start.elapsed() - solved).as_secs_f64(),
            path.display()
        );
        let phases: Vec<String> =
            phases.iter().map(|(p, t)| format!("{p} {:.2} s", t.as_secs_f64())).collect();
        println!("  phases: {}", phases.join(", "));
    }
    println!("total time: {:.2} s", all.elapsed().as_secs_f64());
    if let Some(kib) = peak_rss_kib() {
        println!("peak memory (RSS): {} MiB", kib / 1024);
    }
    Ok(())
}

/// The process's peak resident set size, where the system tells it (Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
