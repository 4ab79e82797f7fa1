//! `nana verify`: the published results.

use crate::common::*;

#[test]
fn verify_confirms_the_published_results() {
    let cwd = tempfile::tempdir().unwrap();
    let dir = cwd.path().join("tablebase");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(table("current"), dir.join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), dir.join("nana-original.tb")).unwrap();
    let run = nana_at(cwd.path(), &["verify"], "");
    run.success();
    assert!(run.stderr.is_empty(), "the tables in tablebase/ are used, nothing solved: {run:#?}");
    let out = &run.stdout;
    assert_eq!(out.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{out}");
    assert!(!out.contains("NOT CONFIRMED"), "{out}");
    assert!(out.contains("| current | start | draw | - |"), "{out}");
    assert!(out.contains("| original | start | win, Black mates on ply 31 | 31 |"), "{out}");
    let lines = run.lines();
    let at =
        lines.iter().position(|l| l.starts_with("principal variation, original rules")).expect("pv header");
    let pv = lines[at + 1];
    assert!(pv.starts_with("1. K*2a 2. K*2c "), "{pv}");
    assert!(pv.contains(" 31. ") && !pv.contains(" 32. "), "{pv}");
    // --dir points elsewhere.
    let run = nana(&["verify", "--dir", cwd.path().join("tablebase").to_str().unwrap()]);
    run.success();
    assert_eq!(run.stdout, *out);
}

/// `verify --check` re-checks every entry of each claimed table before the claims, and stops at
/// a table whose entries disagree with the rules although its checksums hold.
#[test]
fn verify_check_rechecks_every_entry_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), dir.path().join("nana-original.tb")).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = nana(&["verify", "--check", "--dir", d]);
    let out = &run.success().stdout;
    for file in ["nana-current.tb", "nana-original.tb"] {
        let line =
            out.lines().find(|l| l.contains(file)).unwrap_or_else(|| panic!("{file} not checked: {out}"));
        assert!(line.contains(": all 18609858 entries consistent with the forward rules"), "{line}");
    }
    assert_eq!(out.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{out}");
    let path = dir.path().join("nana-current.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    reseal_the_start_as_a_win_in_1(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let run = nana(&["verify", "--check", "--dir", d]);
    assert_no_panic(&run);
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(run.stderr.contains("check failed") && run.stderr.contains("win in 1"), "{run:#?}");
    assert!(!run.stdout.contains("CONFIRMED"), "no claim is confirmed over a table that fails: {run:#?}");
}
