//! `cargo test --workspace`, its test binaries three at a time. Cargo runs a workspace's test
//! binaries one after another, and many of ours leave a core idle much of the time: they wait
//! on a browser, a server, Python or a child `nana`. Here the binaries that `cargo test
//! --workspace --no-run` lists, and the doc tests, are run by three workers from one queue, each
//! binary in its package's folder as cargo runs it; a binary's output is printed whole when it
//! ends, so that two binaries' lines never mix. The tables the tests read are the fixture's,
//! which two processes share through a lock file (`crates/fixture`), so the order changes
//! only how long the run takes, never what it checks.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use crate::error::XtaskError;

/// How many test binaries run at once: three, on the 2-core host the figures are measured on
/// (each binary runs its own tests on as many threads as the machine has cores), so that a
/// binary waiting on a browser, a server or a timeout leaves its core to the other two. With
/// every table to make, the tests ran in 132.9 s three at a time against 142.7 s two at a
/// time (91 % against 88 % of both cores busy); four at a time kept the cores less busy
/// (57 %), and the explorer's statistics, counted beside three other binaries, ran over the
/// server's time limit (`NANA_TEST_RUN=NAME cargo xtask test`, one run each).
const AT_ONCE: usize = 3;

/// The binaries that start first, by package folder and target, in this order: the one that
/// makes Dobutsu's table (the fixture's longest solve, which the front ends' tests read after
/// it); those that solve or search Nana's whole tables, which read no Dobutsu table and so run
/// beside that solve instead of waiting on it; then the longest of the others, longest first
/// (as measured in CI, docs/PERFORMANCE.md), so that short ones fill the end. The rest follow
/// in cargo's order, the doc tests last.
const FIRST: [(&str, &str); 11] = [
    ("crates/games/dobutsu", "golden"),
    ("crates/games/nana", "solve"),
    ("crates/games/nana", "reachable"),
    ("crates/games/nana", "dont_care"),
    (".", "cli"),
    (".", "explorer"),
    (".", "python"),
    ("crates/web", "browser"),
    ("crates/games/dobutsu", "solve"),
    ("crates/export", "pages"),
    (".", "engine"),
];

/// One test binary, or the doc tests.
struct Job {
    /// What the log calls it: the package folder, the target's kind and name.
    label: String,
    /// The command that runs it again alone.
    again: String,
    program: OsString,
    args: Vec<String>,
    /// The package's folder, where cargo runs its tests.
    dir: PathBuf,
    /// Its place in [`FIRST`], or `FIRST.len()`.
    rank: usize,
}

/// Runs every test binary of the workspace and its doc tests, [`AT_ONCE`] at a time, with
/// `path` as the tests' `PATH`; whether all passed.
pub(crate) fn workspace_tests(cargo: &OsStr, path: &OsStr) -> Result<bool, XtaskError> {
    let mut jobs = binaries(cargo)?;
    jobs.push(Job {
        label: "the doc tests".to_string(),
        again: "cargo test --workspace --doc".to_string(),
        program: cargo.to_owned(),
        args: ["test", "--workspace", "--doc"].map(String::from).to_vec(),
        dir: crate::workspace().to_path_buf(),
        rank: FIRST.len() + 1,
    });
    // A stable sort: the binaries of FIRST in its order, then cargo's order.
    jobs.sort_by_key(|job| job.rank);
    let count = jobs.len();
    eprintln!("xtask: {count} test runs, {AT_ONCE} at a time, each printed when it ends");
    let queue = Mutex::new(VecDeque::from(jobs));
    let failed = Mutex::new(Vec::new());
    let began = Instant::now();
    let cpu_before = children_cpu_seconds();
    std::thread::scope(|scope| {
        for _ in 0..AT_ONCE {
            scope.spawn(|| {
                // The queue's lock is held only to take a job (a guard in the loop's condition
                // would be held through the job).
                let next = || queue.lock().expect("the queue").pop_front();
                while let Some(job) = next() {
                    let ended = run(&job, path);
                    if !ended.as_ref().is_ok_and(|(o, _)| o.status.success()) {
                        failed.lock().expect("the failures").push(job.again.clone());
                    }
                    report(&job, &ended);
                }
            });
        }
    });
    let failed = failed.into_inner().expect("the failures");
    let seconds = began.elapsed().as_secs_f64();
    let cpu = match (cpu_before, children_cpu_seconds()) {
        (Some(before), Some(after)) => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let share = 100.0 * (after - before) / (seconds * cores as f64);
            format!("; {:.0} s of CPU, {share:.0} % of {cores} cores", after - before)
        }
        _ => String::new(),
    };
    eprintln!("xtask: the tests ran in {seconds:.1} s ({count} test runs, {AT_ONCE} at a time{cpu})");
    for again in &failed {
        eprintln!("error: failed: {again}");
    }
    Ok(failed.is_empty())
}

/// The test binaries `cargo test --workspace` runs, as cargo lists them after building them.
fn binaries(cargo: &OsStr) -> Result<Vec<Job>, XtaskError> {
    let command = "cargo test --workspace --no-run --message-format=json";
    let listed = Command::new(cargo)
        .args(["test", "--workspace", "--no-run", "--message-format=json"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|source| XtaskError::Start { command: command.to_string(), source })?;
    if !listed.status.success() {
        return Err(XtaskError::Failed { command: command.to_string(), status: listed.status });
    }
    let workspace = crate::workspace();
    let mut jobs = Vec::new();
    for line in String::from_utf8_lossy(&listed.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let (Some(executable), Some(manifest)) =
            (message["executable"].as_str(), message["manifest_path"].as_str())
        else {
            continue;
        };
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let dir = Path::new(manifest).parent().unwrap_or(workspace).to_path_buf();
        // The root's own package (`nana-cli`, with the tests in tests/) is the folder `.`.
        let folder = match dir.strip_prefix(workspace).unwrap_or(&dir).display().to_string() {
            root if root.is_empty() => ".".to_string(),
            folder => folder,
        };
        let name = message["target"]["name"].as_str().unwrap_or("?").to_string();
        let kind = message["target"]["kind"][0].as_str().unwrap_or("?").to_string();
        let select = match kind.as_str() {
            "lib" | "cdylib" | "rlib" => "--lib".to_string(),
            "bin" => format!("--bin {name}"),
            other => format!("--{other} {name}"),
        };
        let rank = FIRST.iter().position(|&(f, n)| f == folder && n == name).unwrap_or(FIRST.len());
        jobs.push(Job {
            label: format!("{folder}: {kind} {name}"),
            again: format!("cargo test --manifest-path {folder}/Cargo.toml {select}"),
            program: executable.into(),
            args: Vec::new(),
            dir,
            rank,
        });
    }
    Ok(jobs)
}

/// Runs a job to its end, its output kept.
fn run(job: &Job, path: &OsStr) -> std::io::Result<(Output, f64)> {
    eprintln!("xtask: start {}", job.label);
    let began = Instant::now();
    let output = Command::new(&job.program)
        .args(&job.args)
        .current_dir(&job.dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()?;
    Ok((output, began.elapsed().as_secs_f64()))
}

/// Prints a job's output whole, under one lock so that two jobs' lines never mix.
fn report(job: &Job, ended: &std::io::Result<(Output, f64)>) {
    static PRINT: Mutex<()> = Mutex::new(());
    let _turn = PRINT.lock();
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
    match ended {
        Ok((output, seconds)) => {
            let _ = writeln!(err, "     Running {} ({seconds:.2} s)", job.label);
            let _ = out.write_all(&output.stdout);
            let _ = out.flush();
            let _ = err.write_all(&output.stderr);
            if !output.status.success() {
                let _ =
                    writeln!(err, "error: {} ended with {}; again: {}", job.label, output.status, job.again);
            }
        }
        Err(e) => {
            let _ = writeln!(err, "error: {} could not start: {e}; again: {}", job.label, job.again);
        }
    }
}

/// The CPU time, user and system, of this process's children that have ended and been waited
/// for, and of theirs (the test binaries, and the programs they ran: `nana`, Chromium, Python):
/// `cutime` and `cstime` of `/proc/self/stat`, in the kernel's clock ticks of 1/100 s for
/// user space. `None` off Linux.
fn children_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces: the
    // state is field 3, `cutime` and `cstime` fields 16 and 17.
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<f64>().ok();
    Some((ticks(16)? + ticks(17)?) / 100.0)
}
