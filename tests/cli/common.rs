//! Running the binary, the test run's tables (`nana-fixture`) and JSON helpers.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value as Json;
use tempfile::TempDir;

/// What one run of `nana` produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Asserts exit status 0 and no panic; returns `self` for chaining.
    #[track_caller]
    pub(crate) fn success(&self) -> &Run {
        assert_eq!(self.code, Some(0), "expected success, got {self:#?}");
        assert_no_panic(self);
        self
    }

    pub(crate) fn json(&self) -> Json {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {self:#?}"))
    }

    pub(crate) fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `nana ARGS` in `cwd` with `stdin` as standard input.
pub(crate) fn nana_at(cwd: &Path, args: &[&str], stdin: &str) -> Run {
    let out = Command::cargo_bin("nana")
        .expect("the nana binary is built for integration tests")
        .args(args)
        .current_dir(cwd)
        .write_stdin(stdin)
        .timeout(Duration::from_secs(300))
        .output()
        .expect("nana runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `nana ARGS` in a fresh empty directory (so no default `tablebase/` folder exists).
pub(crate) fn nana(args: &[&str]) -> Run {
    nana_stdin(args, "")
}

pub(crate) fn nana_stdin(args: &[&str], stdin: &str) -> Run {
    let cwd = tempfile::tempdir().expect("temp dir");
    nana_at(cwd.path(), args, stdin)
}

#[track_caller]
pub(crate) fn assert_no_panic(run: &Run) {
    assert!(!run.stderr.contains("panicked"), "the binary panicked: {run:#?}");
    assert_ne!(run.code, Some(101), "exit code 101 is Rust's panic exit code: {run:#?}");
}

/// A failure reported the way `main` reports errors: exit 1, exactly one stderr line starting
/// with `error: `, containing every needle.
#[track_caller]
pub(crate) fn assert_error(run: &Run, needles: &[&str]) {
    assert_no_panic(run);
    assert_eq!(run.code, Some(1), "expected exit code 1: {run:#?}");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected a single stderr line: {run:#?}");
    assert!(lines[0].starts_with("error: "), "stderr must start with `error: `: {run:#?}");
    for n in needles {
        assert!(lines[0].contains(n), "stderr should mention {n:?}: {run:#?}");
    }
}

/// A command-line usage error reported by the argument parser: exit 2, first line `error: ...`.
#[track_caller]
pub(crate) fn assert_usage_error(run: &Run, needles: &[&str]) {
    assert_no_panic(run);
    assert_eq!(run.code, Some(2), "expected the usage-error exit code 2: {run:#?}");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("error: "), "stderr must start with `error: `: {run:#?}");
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "a usage error is one line: {run:#?}");
    for n in needles {
        assert!(run.stderr.contains(n), "stderr should mention {n:?}: {run:#?}");
    }
    assert!(run.stdout.is_empty(), "nothing on stdout: {run:#?}");
}

/// The test run's Nana table of `rules` (`current` or `original`), from `nana-fixture`: solved
/// once per run and shared with every test binary, so a test that damages a table or writes
/// beside it works on a copy in its own folder. `nana solve` itself is checked against these
/// files byte for byte (`solve.rs`).
pub(crate) fn table(rules: &str) -> &'static str {
    static TABLES: OnceLock<[PathBuf; 2]> = OnceLock::new();
    let [current, original] = TABLES.get_or_init(|| {
        [nana_fixture::path(nana_shogi::Rules::CURRENT), nana_fixture::path(nana_shogi::Rules::ORIGINAL)]
    });
    let path = match rules {
        "current" => current,
        "original" => original,
        other => panic!("no fixture for {other}"),
    };
    path.to_str().expect("temp paths are UTF-8")
}

/// Wins, losses and draws of a table, from its header.
pub(crate) fn header_counts(path: &str) -> [u64; 3] {
    let (header, _) =
        nana_tablebase::Header::decode(&std::fs::read(path).unwrap()).expect("a table's header");
    [header.counts.wins, header.counts.losses, header.counts.draws]
}

/// `nana query --rules RULES --tablebase <fixture> ARGS`.
pub(crate) fn query(rules: &str, args: &[&str]) -> Run {
    let mut all = vec!["query", "--rules", rules, "--tablebase", table(rules)];
    all.extend_from_slice(args);
    nana(&all)
}

/// `nana query --json` of the position reached by `moves` from `position` (start if `None`).
pub(crate) fn query_json(rules: &str, position: Option<&str>, moves: &[&str]) -> Json {
    let mut args = vec!["--json"];
    args.extend(position);
    if !moves.is_empty() {
        args.push("--moves");
        args.extend_from_slice(moves);
    }
    let run = query(rules, &args);
    run.success();
    run.json()
}

/// A temporary copy of a fixture table, to damage.
pub(crate) fn copy_of(rules: &str) -> (TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(format!("nana-{rules}.tb"));
    let bytes = std::fs::read(table(rules)).expect("fixture readable");
    (dir, path, bytes)
}

pub(crate) fn s(v: &Json) -> &str {
    v.as_str().unwrap_or_else(|| panic!("expected a string, got {v}"))
}

pub(crate) fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| s(x).to_string())
        .collect()
}

pub(crate) fn keys(v: &Json) -> BTreeSet<String> {
    v.as_object().unwrap_or_else(|| panic!("expected an object, got {v}")).keys().cloned().collect()
}

pub(crate) fn key_set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|k| k.to_string()).collect()
}

/// `nana moves` as (USI, Hodges) pairs.
pub(crate) fn legal_moves(rules: &str, position: Option<&str>) -> Vec<(String, String)> {
    let mut args = vec!["moves", "--rules", rules];
    if let Some(p) = position {
        args.extend(["--position", p]);
    }
    let run = nana(&args);
    run.success();
    run.lines()
        .into_iter()
        .map(|l| {
            let (u, h) = l.split_once('\t').unwrap_or_else(|| panic!("USI<TAB>Hodges expected: {l:?}"));
            assert!(!h.contains('\t'));
            (u.to_string(), h.to_string())
        })
        .collect()
}

/// The original rules' winning line from the start, in USI.
pub(crate) fn original_mainline() -> Vec<String> {
    strings(&query_json("original", None, &[])["mainline"])
}

/// A table file with its last entry (the start's, under the current rules) set to `value`,
/// written anew by the format's writer with the same header, so that every checksum holds and
/// the file opens.
pub(crate) fn with_last_entry(bytes: &[u8], value: u8) -> Vec<u8> {
    let table = nana_tablebase::Tablebase::from_bytes(bytes.to_vec()).expect("a valid table");
    let mut entries = table.entries().expect("decodable entries").into_owned();
    *entries.last_mut().unwrap() = value;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("resealed.tb");
    // The entries as stored, unused ones filled where they are don't-care. An entry marked
    // unused is written in a table whose unused entries are not don't-care (which would store it
    // filled with its neighbour's value), so that it holds `value`.
    let dont_care = table.header().dont_care && value != 255;
    let header = nana_tablebase::Header { dont_care, ..table.header().clone() };
    nana_tablebase::write(&path, &header, &entries).expect("a table written");
    std::fs::read(&path).expect("the table just written")
}

/// A current-rules table's start entry (the last one), a draw, changed to "win in 1", the file
/// written anew so that it opens.
pub(crate) fn reseal_the_start_as_a_win_in_1(bytes: &mut Vec<u8>) {
    let table = nana_tablebase::Tablebase::from_bytes(bytes.clone()).expect("a valid table");
    let start = table.header().entries - 1;
    assert_eq!(table.entry(start).unwrap(), Some(0), "the start is a draw under the current rules (entry 0)");
    *bytes = with_last_entry(bytes, 2);
}

pub(crate) fn play(rules: &str, extra: &[&str], stdin: &str) -> Run {
    let mut args = vec!["play", "--rules", rules, "--tablebase", table(rules)];
    args.extend_from_slice(extra);
    let run = nana_stdin(&args, stdin);
    run.success();
    run
}

pub(crate) fn engine_moves(run: &Run) -> Vec<String> {
    run.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("engine plays "))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

pub(crate) fn number_after(out: &str, prefix: &str) -> u64 {
    let line =
        out.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no {prefix:?} in\n{out}"));
    let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("no number after {prefix:?}: {line:?}"))
}

/// Runs `nana ARGS` in a fresh empty directory with extra environment variables and raw stdin.
pub(crate) fn nana_with(args: &[&str], env: &[(&str, &Path)], stdin: &[u8]) -> Run {
    let cwd = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::cargo_bin("nana").expect("the nana binary is built for integration tests");
    cmd.args(args).current_dir(cwd.path()).env_remove("NANA_TABLEBASE_DIR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.write_stdin(stdin.to_vec()).timeout(Duration::from_secs(300)).output().expect("nana runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// The Tanaka table of the test run (`nana-fixture`: solved once per run, by the first test
/// binary that needs it).
pub(crate) fn dobutsu_table() -> &'static str {
    static TABLE: OnceLock<PathBuf> = OnceLock::new();
    TABLE
        .get_or_init(|| nana_fixture::path(dobutsu_shogi::Rules::TANAKA))
        .to_str()
        .expect("temp paths are UTF-8")
}

/// A small tmpfs, mounted for a test and unmounted when it ends (as root, else through `sudo
/// -n`); the test fails, saying why, where it cannot mount one.
#[cfg(target_os = "linux")]
pub(crate) struct Tmpfs(tempfile::TempDir);

#[cfg(target_os = "linux")]
impl Tmpfs {
    pub(crate) fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let root = unsafe { libc::geteuid() } == 0;
        let mut mount = std::process::Command::new(if root { "mount" } else { "sudo" });
        if !root {
            mount.args(["-n", "mount"]);
        }
        let out =
            mount.args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(dir.path()).output();
        let ok = out.as_ref().is_ok_and(|o| o.status.success());
        let why = out.map_or_else(|e| e.to_string(), |o| String::from_utf8_lossy(&o.stderr).into_owned());
        assert!(ok, "this test mounts a tmpfs, as root or with `sudo -n mount`, and could not: {why}");
        Tmpfs(dir)
    }

    pub(crate) fn path(&self) -> &Path {
        self.0.path()
    }
}

#[cfg(target_os = "linux")]
impl Drop for Tmpfs {
    fn drop(&mut self) {
        let root = unsafe { libc::geteuid() } == 0;
        let mut umount = std::process::Command::new(if root { "umount" } else { "sudo" });
        if !root {
            umount.args(["-n", "umount"]);
        }
        let _ = umount.arg(self.0.path()).status();
    }
}
