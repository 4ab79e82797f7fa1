//! Tables that are damaged, missing, of other rules or of another game; `nana check-table`; the tablebase folder.

use crate::common::*;

/// CRC-32 (IEEE), as the file format uses.
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *slot = c;
    }
    !data.iter().fold(!0u32, |crc, &b| table[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8))
}

#[test]
fn a_table_of_other_rules_is_refused() {
    assert!(query("current", &[]).stdout.contains("value: draw"), "the current table itself works");
    let run = nana(&["query", "--rules", "current", "--tablebase", table("original")]);
    assert_error(
        &run,
        &[
            table("original"),
            "original, drop-stalemate on, hand-stalemate on",
            "current, drop-stalemate on, hand-stalemate on",
        ],
    );
    // Other rule options are other tables too.
    let run =
        nana(&["query", "--rules", "current", "--hand-stalemate", "off", "--tablebase", table("current")]);
    assert_error(&run, &["hand-stalemate off", "hand-stalemate on"]);
    // play and stats check the same way.
    assert_error(
        &nana(&["play", "--rules", "original", "--tablebase", table("current")]),
        &["current, drop"],
    );
    assert_error(
        &nana(&["stats", "--rules", "original", "--tablebase", table("current")]),
        &["current, drop"],
    );
}

/// Where the current rules' table file stores the entry of a position.
fn place_of(position: &str) -> u64 {
    use nana_probe::ProbeRules;
    let rules = nana_shogi::Rules::CURRENT;
    rules.file_order().place(rules.index(&rules.parse_position(position).expect("a position")))
}

/// The entries per block of a table file in compressed blocks (header bytes 184..188).
fn block_entries(bytes: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes(bytes[184..188].try_into().unwrap()))
}

#[test]
fn damaged_tables_are_refused() {
    let (dir, path, bytes) = copy_of("current");
    let p = path.to_str().unwrap();
    // The batch reads the start, so that a damaged block of the start's is read.
    let check = |needles: &[&str]| {
        assert_error(&nana(&["query", "--tablebase", p]), needles);
        assert_error(&nana_stdin(&["query", "--tablebase", p, "--batch", "-"], "3/3/3 b KRBkrb\n"), needles);
        assert_error(&nana_stdin(&["play", "--tablebase", p], "quit\n"), needles);
    };
    // Damage that a new table cures comes with the command that makes one.
    let hint = &format!(
        "regenerate it with `nana --game nana solve --rules current --out {}`",
        path.parent().unwrap().display()
    );
    // Truncated payload.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    check(&[p, "truncated", hint]);
    // Truncated header.
    std::fs::write(&path, &bytes[..100]).unwrap();
    check(&[p, "truncated", hint]);
    // Empty file.
    std::fs::write(&path, b"").unwrap();
    check(&[p, "truncated", hint]);
    // One flipped byte of the block index.
    let mut flipped = bytes.clone();
    flipped[256 + 1_000] ^= 0x01;
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "corrupted", "payload checksum", hint]);
    // One flipped byte of the block that holds the start's entry: met when the start is looked up.
    let mut flipped = bytes.clone();
    let block = nana_fixture::damage_block_of(&mut flipped, place_of("3/3/3 b KRBkrb"));
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "corrupted", &format!("checksum mismatch in compressed block {block} "), hint]);
    // One flipped header byte (in the rule set name, `current` at bytes 48..55).
    assert_eq!(&bytes[48..55], b"current");
    let mut flipped = bytes.clone();
    flipped[50] ^= 0x04;
    std::fs::write(&path, &flipped).unwrap();
    check(&[p, "header checksum", hint]);
    // A trailing byte.
    let mut longer = bytes.clone();
    longer.push(b'x');
    std::fs::write(&path, &longer).unwrap();
    check(&[p, "corrupted", hint]);
    // A table of the old format (version 1), its header laid out by hand as the old writer did.
    let mut old = vec![0u8; 256];
    old[..8].copy_from_slice(b"NANATB\r\n");
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    old[12..16].copy_from_slice(&256u32.to_le_bytes());
    old[16..26].copy_from_slice(b"nana-shogi");
    old[40..47].copy_from_slice(b"current");
    old[104..112].copy_from_slice(&(bytes.len() as u64 - 256).to_le_bytes());
    old[112..116].copy_from_slice(&1u32.to_le_bytes());
    old[156..160].copy_from_slice(&crc32(&bytes[256..]).to_le_bytes());
    let header_crc = crc32(&old[..252]);
    old[252..256].copy_from_slice(&header_crc.to_le_bytes());
    old.extend_from_slice(&bytes[256..]);
    std::fs::write(&path, &old).unwrap();
    check(&[p, "old tablebase format (version 1)", hint]);
    // Not a tablebase at all: no table to regenerate, so no hint.
    std::fs::write(&path, "hello, not a table\n").unwrap();
    check(&[p, "not a tablebase"]);
    assert!(!nana(&["query", "--tablebase", p]).stderr.contains("nana solve"));
    // Missing file and a directory.
    std::fs::remove_file(&path).unwrap();
    check(&[p, "No such file"]);
    let d = dir.path().to_str().unwrap();
    assert_error(&nana(&["query", "--tablebase", d]), &[d]);
}

/// A table with a damaged block answers every position whose lookups read other blocks as the
/// intact table does, and refuses, every time, those that read the damaged one: alone, in a
/// batch (which stops there, after the lines before it), and with the start's moves.
#[test]
fn a_damaged_block_refuses_its_positions_and_no_other() {
    let (_dir, path, mut bytes) = copy_of("current");
    let p = path.to_str().unwrap();
    // A position in a block far from the start's (the last one), its moves' in other blocks too.
    let start = place_of("3/3/3 b KRBkrb");
    let elsewhere = "R1K/2B/2k b Rb";
    let block = nana_fixture::damage_block_of(&mut bytes, place_of(elsewhere));
    assert_ne!(block, start / block_entries(&bytes), "{elsewhere} and the start share a block");
    std::fs::write(&path, &bytes).unwrap();
    let intact = query("current", &["--json", "3/3/3 b KRBkrb"]);
    intact.success();
    let run = nana(&["query", "--tablebase", p, "--json", "3/3/3 b KRBkrb"]);
    run.success();
    assert_eq!(run.stdout, intact.stdout);
    let named = format!("checksum mismatch in compressed block {block} ");
    let hint = &format!(
        "regenerate it with `nana --game nana solve --rules current --out {}`",
        path.parent().unwrap().display()
    );
    for _ in 0..2 {
        assert_error(&nana(&["query", "--tablebase", p, elsewhere]), &[p, &named, hint]);
    }
    let lines = "3/3/3 b KRBkrb\nR1K/2B/2k b Rb\n3/3/3 b KRBkrb\n";
    let run = nana_stdin(&["query", "--tablebase", p, "--batch", "-"], lines);
    assert_error(&run, &[p, &named, hint]);
    assert_eq!(run.stdout.lines().count(), 1, "the line before the damaged one answered: {run:#?}");
    assert!(run.stdout.contains("\"fen\":\"3/3/3 b KRBkrb\""), "{run:#?}");
    // `stats` counts from the header, which the damaged block leaves intact: it checks every
    // block first and prints nothing but the error.
    let run = nana(&["stats", "--tablebase", p]);
    assert_error(&run, &[p, &named, hint]);
    assert!(run.stdout.is_empty(), "{run:#?}");
}

#[test]
fn a_resealed_wrong_entry_is_an_error_not_a_wrong_answer() {
    // Change the start's entry (the last one) from draw to "win in 1" and fix both checksums, so
    // the file opens: the lookup must notice that the value disagrees with the moves' values, and
    // check-table must find the entry.
    let (_dir, path, mut bytes) = copy_of("current");
    reseal_the_start_as_a_win_in_1(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    assert_error(&nana(&["query", "--tablebase", p]), &["inconsistent", "3/3/3 b KRBkrb"]);
    // Wins are stored as one value, their distances found from their moves: the start, a draw
    // stored as a win, has no move to a loss.
    assert_error(
        &nana(&["check-table", p]),
        &[p, "check failed", "win in 1", "none of its successors is lost"],
    );
}

#[test]
fn check_table_accepts_the_solved_table_and_rejects_a_damaged_copy() {
    let run = nana(&["check-table", table("current")]);
    run.success();
    // The entry count, from the header (bytes 24..32).
    let header = std::fs::read(table("current")).unwrap();
    let size = u64::from_le_bytes(header[24..32].try_into().unwrap());
    assert!(
        run.stdout.starts_with(&format!(
            "{}: all {size} entries consistent with the forward rules (current,",
            table("current")
        )),
        "{run:#?}"
    );
    let (_dir, path, mut bytes) = copy_of("current");
    // A byte of a compressed block halfway through the file: the file opens, and the block is
    // refused when the check reads it.
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x80;
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    let hint = &format!(
        "regenerate it with `nana --game nana solve --rules current --out {}`",
        path.parent().unwrap().display()
    );
    assert_error(&nana(&["check-table", p]), &[p, "checksum mismatch in compressed block", hint]);
}

#[test]
fn stats_reports_a_bad_table_before_any_result() {
    let (_dir, path, mut bytes) = copy_of("current");
    bytes[256 + 1_000] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    for (table, needle) in [("/nonexistent/nana-current.tb", "No such file"), (p, "checksum")] {
        let run = nana(&["stats", "--tablebase", table]);
        assert_error(&run, &[table, needle]);
        assert!(run.stdout.is_empty(), "no partial result before the error: {run:#?}");
    }
}

#[test]
fn the_tablebase_folder_comes_from_the_flag_else_the_environment() {
    let good = tempfile::tempdir().unwrap();
    std::fs::copy(table("current"), good.path().join("nana-current.tb")).unwrap();
    std::fs::copy(table("original"), good.path().join("nana-original.tb")).unwrap();
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("nana-current.tb"), "not a table").unwrap();
    let (g, b) = (good.path().to_str().unwrap(), bad.path().to_str().unwrap());
    let env = "NANA_TABLEBASE_DIR";
    // Flag, environment, flag over environment: a table is found, nothing is solved in memory.
    for (args, envs) in [
        (vec!["--tablebase-dir", g, "query", "--json"], vec![]),
        (vec!["query", "--json"], vec![(env, good.path())]),
        (vec!["query", "--json", "--tablebase-dir", g], vec![(env, bad.path())]),
    ] {
        let run = nana_with(&args, &envs, b"");
        run.success();
        assert!(run.stderr.is_empty(), "{run:#?}");
        assert_eq!(run.json()["category"], "draw");
    }
    // The environment is used when no flag is given: its (bad) table is refused.
    let run = nana_with(&["query"], &[(env, bad.path())], b"");
    assert_error(&run, &[b, "not a tablebase"]);
    let run = nana_with(&["stats"], &[(env, bad.path())], b"");
    assert_error(&run, &[b, "not a tablebase"]);
    let run = nana_with(&["play"], &[(env, bad.path())], b"quit\n");
    assert_error(&run, &[b, "not a tablebase"]);
    // verify reads both tables from there.
    let run = nana_with(&["--tablebase-dir", g, "verify"], &[], b"");
    run.success();
    assert!(run.stderr.is_empty(), "{run:#?}");
    assert_eq!(run.stdout.lines().filter(|l| l.starts_with("CONFIRMED")).count(), 2, "{run:#?}");
    // --help names both.
    let help = nana(&["--help"]).stdout;
    assert!(help.contains("--tablebase-dir") && help.contains(env), "{help}");
}

#[test]
fn verify_with_a_damaged_table_prints_only_the_error() {
    // The current table is fine and is checked first; the original one is damaged. Every table
    // must load before the first line of the report, so stdout stays empty.
    let (dir, path, mut bytes) = copy_of("original");
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    // A byte in the middle of the file: inside a block, behind the block index.
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let run = nana(&["verify", "--dir", dir.path().to_str().unwrap()]);
    assert_error(&run, &[path.to_str().unwrap(), "checksum"]);
    assert!(run.stdout.is_empty(), "nothing but the error: {run:#?}");
}

/// A table of one game given to a command of the other is refused with the game and rule set
/// the file holds and those asked for, whichever command reads it.
#[test]
fn a_table_of_another_game_is_named_for_what_it_is() {
    let dobutsu = dobutsu_table();
    let holds =
        "the table is of dobutsu-shogi with rules \"tanaka, a try wins unless the lion is captured at once\"";
    let asked = "but nana-shogi with rules \"current, drop-stalemate on, hand-stalemate on\" was asked for";
    for run in [
        nana(&["query", "--tablebase", dobutsu]),
        nana(&["stats", "--tablebase", dobutsu]),
        nana_stdin(&["play", "--tablebase", dobutsu], "quit\n"),
        nana(&["check-table", dobutsu]),
    ] {
        assert_error(&run, &[dobutsu, holds, asked]);
    }
    let nana_table = table("current");
    let holds = "the table is of nana-shogi with rules \"current, drop-stalemate on, hand-stalemate on\"";
    let asked = "but dobutsu-shogi with rules \"tanaka, a try wins unless the lion is captured at once\" was asked for";
    for run in [
        nana(&["--game", "dobutsu", "query", "--tablebase", nana_table]),
        nana(&["--game", "dobutsu", "check-table", nana_table]),
    ] {
        assert_error(&run, &[nana_table, holds, asked]);
    }
}

/// A missing file is named once, by the I/O error that names it.
#[test]
fn a_missing_table_is_named_once() {
    let run = nana(&["query", "--tablebase", "/nonexistent/x.tb"]);
    assert_error(&run, &["I/O error on /nonexistent/x.tb: No such file"]);
    assert_eq!(run.stderr.matches("/nonexistent/x.tb").count(), 1, "{run:#?}");
}
