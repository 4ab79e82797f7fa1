//! `nana solve`: reports, early checks, thread counts, killed solves.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;

/// What `nana solve` printed for a table it wrote to `path`: its rule set, counts that agree
/// with the file's header, and a file smaller than its entries (compressed).
#[track_caller]
fn assert_solve_report(out: &str, rules: &str, path: &Path) {
    assert_eq!(out.lines().next(), Some(rules), "{out}");
    assert!(out.contains(&format!(" to {}\n", path.display())), "{out}");
    let legal = number_after(out, "  positions (index entries): ");
    let wins = number_after(out, "  wins ");
    assert!(wins > 0 && wins < legal, "{out}");
    assert!(number_after(out, "  longest distance to mate: ") >= 31, "{out}");
    let [w, l, d] = header_counts(path.to_str().unwrap());
    assert!(out.contains(&format!("  wins {w}, losses {l}, draws {d}\n")), "{out}");
    assert_eq!(legal, w + l + d, "{out}");
    // The header counts one entry per index entry (bytes 24..32); the file stores them
    // compressed, in fewer bytes.
    let line = out.lines().find(|l| l.contains(" legal, ")).unwrap();
    let counts: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    let bytes = std::fs::read(path).unwrap();
    let entries = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    assert_eq!(entries, counts[0] + counts[1], "{line}");
    assert!((bytes.len() as u64) < 256 + entries / 2, "{line}: {} bytes", bytes.len());
}

/// `nana solve` reports its rule set and writes the same bytes as the test run's table, which
/// the fixture solved in its own process (the current rules' solve: the killed-solve test).
#[test]
fn solve_reports_its_rule_set_and_writes_the_runs_table() {
    let dir = tempfile::tempdir().unwrap();
    let run = nana(&["solve", "--rules", "original", "--out", dir.path().to_str().unwrap()]);
    let path = dir.path().join("nana-original.tb");
    assert_solve_report(&run.success().stdout, "original, drop-stalemate on, hand-stalemate on", &path);
    assert!(std::fs::read(&path).unwrap() == std::fs::read(table("original")).unwrap(), "the run's bytes");
}

#[test]
fn threads_are_bounded_and_checked_before_anything_else() {
    for n in ["10000", "4294967296", "257"] {
        let started = std::time::Instant::now();
        let run = nana(&["--threads", n, "query"]);
        assert_usage_error(&run, &["--threads", n, "1..=256"]);
        assert!(started.elapsed() < Duration::from_secs(5), "refused at once: {:?}", started.elapsed());
    }
    assert_usage_error(&nana(&["--threads", "10000", "moves"]), &["1..=256"]);
    // The bound itself is accepted, and `moves` starts no pool at all (see also the batch test).
    let started = std::time::Instant::now();
    let run = nana(&["--threads", "256", "moves"]);
    run.success();
    assert_eq!(run.lines().len(), 8, "{run:#?}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // perft works in parallel and takes the bound too.
    let run = nana(&["--threads", "3", "perft", "2"]);
    run.success();
    assert_eq!(run.stdout, nana(&["perft", "2"]).stdout);
}

#[test]
fn solve_refuses_an_unwritable_output_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let f = file.to_str().unwrap();
    let below = file.join("below");
    for (out, needle) in [(f, "not a directory"), (below.to_str().unwrap(), "cannot create the directory")] {
        let started = std::time::Instant::now();
        let run = nana(&["solve", "--rules", "current", "--out", out]);
        assert_error(&run, &[out, needle]);
        assert!(run.stdout.is_empty(), "{run:#?}");
        assert!(started.elapsed() < Duration::from_secs(5), "nothing solved first: {:?}", started.elapsed());
    }
    // The global folder flag is checked the same way.
    assert_error(&nana(&["--tablebase-dir", f, "solve", "--rules", "original"]), &[f, "not a directory"]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder");
}

/// Every `*.tb` in `dir` and every leftover temporary file that opens must be the complete table.
#[track_caller]
fn only_complete_tables_load(dir: &Path, complete: &[u8]) {
    let mut tables = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let p = path.to_str().unwrap();
        let run = nana(&["query", "--json", "--tablebase", p]);
        if p.ends_with(".tb") {
            tables += 1;
            run.success();
            assert_eq!(run.json()["category"], "draw");
        }
        if run.code == Some(0) {
            assert!(std::fs::read(&path).unwrap() == complete, "{p} loads but is not the complete table");
        } else {
            assert_error(&run, &[p]);
        }
    }
    assert_eq!(tables, 1, "the table written before is still there");
}

#[test]
fn a_killed_solve_leaves_no_partial_table() {
    let complete = std::fs::read(table("current")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    std::fs::write(dir.path().join("nana-current.tb"), &complete).unwrap();
    let spawn = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
            .args(["solve", "--rules", "current", "--out", out])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    // While preparing and while solving.
    for after in [Duration::from_millis(500), Duration::from_secs(2)] {
        let mut child = spawn();
        std::thread::sleep(after);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        only_complete_tables_load(dir.path(), &complete);
    }
    // While writing: as soon as the temporary file appears.
    let mut child = spawn();
    loop {
        let mut names = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name());
        if names.any(|n| n.to_string_lossy().contains(".tmp-")) {
            child.kill().unwrap();
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "solve ended before its temporary file was seen");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.wait().unwrap();
    only_complete_tables_load(dir.path(), &complete);

    // The killed writes left their temporary files (on Linux, where a writer can tell that
    // their processes are gone): the next solve of the table removes them.
    if cfg!(target_os = "linux") {
        let temp_files = || {
            let names = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name());
            names.filter(|n| n.to_string_lossy().contains(".tmp-")).count()
        };
        let pid = child.id();
        std::fs::write(dir.path().join(format!("nana-current.tb.tmp-{pid}-1")), b"partial").unwrap();
        assert!(temp_files() >= 1);
        let run = nana(&["solve", "--rules", "current", "--out", out]);
        let path = dir.path().join("nana-current.tb");
        assert_solve_report(&run.success().stdout, "current, drop-stalemate on, hand-stalemate on", &path);
        assert_eq!(temp_files(), 0);
        assert!(std::fs::read(&path).unwrap() == complete, "the run's bytes");
    }
}

/// `solve --out DIR` where a table's file is a folder fails before solving.
#[test]
fn solve_refuses_a_folder_in_the_way_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("nana-current.tb")).unwrap();
    let run = nana(&["solve", "--rules", "current", "--out", dir.path().to_str().unwrap()]);
    // The check before the solve says so (a write after it would fail with the system's words).
    assert_error(&run, &["nana-current.tb: is a directory, cannot write the table there"]);
}

/// A disk that fills up as `nana solve` writes: a tmpfs with room for the table already there
/// and little more. The solve fails with one line naming the file and the full disk, exits 1,
/// and leaves the old table as it was, with no partial or temporary file beside it.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_leaves_the_old_table_and_one_line_saying_so() {
    let old = std::fs::read(table("original")).unwrap();
    let disk = Tmpfs::mount(&format!("{}", old.len() + 512 * 1024));
    let path = disk.path().join("nana-current.tb");
    // Under the current rules' name, so that the solve of the current rules replaces it.
    std::fs::write(&path, &old).unwrap();
    let run = nana(&["solve", "--rules", "current", "--out", disk.path().to_str().unwrap()]);
    assert_no_panic(&run);
    assert_eq!(run.code, Some(1), "{run:#?}");
    let errors: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{run:#?}");
    assert!(
        errors[0].contains("nana-current.tb") && errors[0].contains("No space left on device"),
        "{run:#?}"
    );
    assert!(std::fs::read(&path).unwrap() == old, "the old table is as it was");
    let names: Vec<String> = std::fs::read_dir(disk.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["nana-current.tb"], "nothing beside the old table");
}

/// Where the first of two tables cannot be written, `nana solve` fails as it does for one table
/// (one line, exit 1, nothing left on the disk) and writes no table after it, although that
/// table's solve ran beside the failed write.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_stops_the_tables_after_it() {
    let disk = Tmpfs::mount("256k");
    let run = nana(&["solve", "--out", disk.path().to_str().unwrap()]);
    assert_no_panic(&run);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stdout.is_empty(), "{run:#?}");
    let errors: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{run:#?}");
    assert!(
        errors[0].contains("nana-current.tb") && errors[0].contains("No space left on device"),
        "{run:#?}"
    );
    assert_eq!(std::fs::read_dir(disk.path()).unwrap().count(), 0, "nothing written");
}
