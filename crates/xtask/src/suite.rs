//! The whole suite as two `cargo test` processes at once. `cargo test --workspace` runs one test
//! binary at a time, and few of them keep both cores busy; the front ends' test binaries
//! (processes, servers, a browser) run beside the rest.
//!
//! Both processes select the whole workspace (`--workspace`), so that cargo resolves the same
//! features as the tests' build and builds nothing again; they differ in the test targets they
//! name (`--test NAME`). The targets come from `cargo metadata`, so a new test file lands in one
//! of the two without a list to keep. The tests' fixture makes each table once for both: a
//! process that asks for a table the other is making waits on the fixture's lock.

use std::ffi::OsStr;
use std::process::{Command, Output, Stdio};

use crate::error::XtaskError;

/// The packages whose integration tests run beside the rest.
const BESIDE: [&str; 2] = ["nana-cli", "nana-web"];

/// The suite's two halves: the test targets of [`BESIDE`] (but a name another package's target
/// shares, which goes with the rest), and every other one, `--lib` and `--bins` with them; the
/// doc-tests follow the second.
pub struct Halves {
    pub beside: Vec<String>,
    pub rest: Vec<String>,
}

/// Parts of `cargo metadata --no-deps`: each workspace package's name and the names of its
/// integration tests.
fn test_targets(cargo: &OsStr) -> Result<Vec<(String, String)>, XtaskError> {
    let command = "cargo metadata --no-deps --format-version 1";
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|source| XtaskError::Start { command: command.to_string(), source })?;
    if !output.status.success() {
        return Err(XtaskError::Failed { command: command.to_string(), status: output.status });
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| XtaskError::Metadata(format!("not JSON: {e}")))?;
    let packages = metadata["packages"].as_array().ok_or(XtaskError::Metadata("no packages".into()))?;
    let mut targets = Vec::new();
    for package in packages {
        let name = package["name"].as_str().ok_or(XtaskError::Metadata("a package without a name".into()))?;
        for target in package["targets"].as_array().into_iter().flatten() {
            let is_test = target["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|k| k == "test"));
            if let (true, Some(test)) = (is_test, target["name"].as_str()) {
                targets.push((name.to_string(), test.to_string()));
            }
        }
    }
    Ok(targets)
}

/// Splits `targets` (package, test) into the two halves.
fn split(targets: &[(String, String)]) -> Halves {
    let beside_only = |test: &str| {
        targets.iter().filter(|(_, t)| t == test).all(|(package, _)| BESIDE.contains(&package.as_str()))
    };
    let (mut beside, mut rest): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (_, test) in targets {
        let half = if beside_only(test) { &mut beside } else { &mut rest };
        if !half.contains(test) {
            half.push(test.clone());
        }
    }
    Halves { beside, rest }
}

/// The halves of this workspace's suite.
pub fn halves(cargo: &OsStr) -> Result<Halves, XtaskError> {
    Ok(split(&test_targets(cargo)?))
}

impl Halves {
    /// `cargo test --workspace` of the integration tests beside the rest.
    pub fn beside_command(&self, cargo: &OsStr) -> Command {
        let mut command = Command::new(cargo);
        command.args(["test", "--workspace"]).args(self.beside.iter().flat_map(|t| ["--test", t]));
        command
    }

    /// `cargo test --workspace` of the libraries', binaries' and other integration tests, then
    /// of the doc-tests.
    pub fn rest_commands(&self, cargo: &OsStr) -> [Command; 2] {
        let mut tests = Command::new(cargo);
        tests
            .args(["test", "--workspace", "--lib", "--bins"])
            .args(self.rest.iter().flat_map(|t| ["--test", t]));
        let mut docs = Command::new(cargo);
        docs.args(["test", "--workspace", "--doc"]);
        [tests, docs]
    }

    /// The command that runs the beside half, as printed.
    pub fn beside_line(&self) -> String {
        let tests: Vec<String> = self.beside.iter().map(|t| format!("--test {t}")).collect();
        format!("cargo test --workspace {}", tests.join(" "))
    }
}

/// Runs `main` (each command after the one before, its output as it comes, up to the first that
/// fails) and `beside` at the same time, `beside`'s output kept and printed once both have ended,
/// under a line naming it `what`. Whether both succeeded.
pub fn beside_each_other(
    main: impl IntoIterator<Item = Command>,
    mut beside: Command,
    what: &str,
) -> Result<bool, XtaskError> {
    let start = |command: &str| {
        let command = command.to_string();
        move |source| XtaskError::Start { command, source }
    };
    let began = std::time::Instant::now();
    let beside = beside.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(start(what))?;
    // Waited for on a thread of its own, so that its end is timed.
    let beside = std::thread::spawn(move || (beside.wait_with_output(), began.elapsed()));
    let mut passed = Ok(true);
    for mut command in main {
        match command.status() {
            Ok(status) if status.success() => {}
            Ok(_) => {
                passed = Ok(false);
                break;
            }
            Err(source) => {
                passed = Err(XtaskError::Start { command: format!("{command:?}"), source });
                break;
            }
        }
    }
    eprintln!("xtask: the rest ended after {:.1} s", began.elapsed().as_secs_f64());
    let (output, took) = beside.join().expect("the waiting thread does not panic");
    let Output { status, stdout, stderr } = output.map_err(start(what))?;
    eprintln!("xtask: {what}, run beside the rest, ended after {:.1} s:", took.as_secs_f64());
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(&stdout);
    let _ = std::io::stderr().write_all(&stderr);
    if !status.success() {
        eprintln!("xtask: {what} failed (its output is above)");
    }
    Ok(passed? && status.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_test_target_runs_in_exactly_one_half() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let targets = test_targets(&cargo).expect("cargo metadata");
        let Halves { beside, rest } = split(&targets);
        assert!(!beside.is_empty() && !rest.is_empty(), "{beside:?} {rest:?}");
        for (package, test) in &targets {
            let runs = usize::from(beside.contains(test)) + usize::from(rest.contains(test));
            assert_eq!(runs, 1, "{package}'s test {test}: in {beside:?} and {rest:?}");
        }
        for test in &beside {
            assert!(targets.iter().any(|(p, t)| t == test && BESIDE.contains(&p.as_str())), "{test}");
        }
    }

    #[test]
    fn a_name_shared_with_another_package_stays_with_the_rest() {
        let targets =
            [("nana-cli", "cli"), ("nana-cli", "solve"), ("nana-shogi", "solve"), ("nana-shogi", "rules")]
                .map(|(p, t)| (p.to_string(), t.to_string()));
        let Halves { beside, rest } = split(&targets);
        assert_eq!(beside, ["cli"]);
        assert_eq!(rest, ["solve", "rules"]);
    }
}
