//! `nana engine` over UCI and USI: a transcript of each dialect, perfect play after random legal
//! move sequences, the same commands sent to Fairy-Stockfish 11.1 where both engines read the
//! rules alike, a match against it adjudicated by our rules, and the program `nana-engine`
//! started as a GUI starts it (docs/ENGINE-PROTOCOL.md).
//!
//! Fairy-Stockfish is a test tool like Chromium: `cargo xtask test` installs it; a test that
//! cannot find it fails, saying so. The tables come from the shared fixture.

mod fairy;
mod faults;
mod launch;
mod matches;
mod solve;
mod transcript;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use dobutsu_shogi::Rules;

/// How long a test waits for one line from an engine.
const LINE_TIMEOUT: Duration = Duration::from_secs(120);

/// An engine process spoken to line by line.
#[derive(Debug)]
pub struct Engine {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `program` with `args`.
    pub fn start(program: &Path, args: &[&str]) -> Engine {
        let mut command = Command::new(program);
        command.args(args);
        Engine::spawn(command)
    }

    /// Starts `command`, its standard input and output piped.
    pub fn spawn(mut command: Command) -> Engine {
        let program = PathBuf::from(command.get_program());
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { name: program.display().to_string(), child, input, lines }
    }

    /// `nana engine` with the tables of `dir`.
    pub fn nana(dir: &Path) -> Engine {
        let nana = assert_cmd::cargo::cargo_bin("nana");
        Engine::start(&nana, &["--tablebase-dir", dir.to_str().expect("a UTF-8 path"), "engine"])
    }

    pub fn send(&mut self, command: &str) {
        writeln!(self.input, "{command}").unwrap_or_else(|e| panic!("{}: {command}: {e}", self.name));
        self.input.flush().expect("flush");
    }

    /// Sends a line of raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.input.write_all(bytes).and_then(|()| self.input.write_all(b"\n")).expect("write");
        self.input.flush().expect("flush");
    }

    /// The next line.
    pub fn line(&mut self) -> String {
        self.lines
            .recv_timeout(LINE_TIMEOUT)
            .unwrap_or_else(|e| panic!("{}: no line within {LINE_TIMEOUT:?}: {e}", self.name))
    }

    /// Every line up to the first one that starts with `end` (included).
    pub fn until(&mut self, end: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(end);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Waits for the engine to end (after `quit`): every line it printed first, and it must end
    /// with success.
    pub fn finish(&mut self) -> Vec<String> {
        let lines: Vec<String> = std::iter::from_fn(|| self.lines.recv_timeout(LINE_TIMEOUT).ok()).collect();
        let status = self.child.wait().expect("the engine's status");
        assert!(status.success(), "{}: {status}", self.name);
        lines
    }

    /// The engine's status if it ends within `limit`; else it is killed, and `None`.
    pub fn ends_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("the engine's status") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }

    /// Every line printed and not read yet, once the engine has ended.
    pub fn rest(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.lines.recv_timeout(Duration::from_secs(5)).ok()).collect()
    }

    /// Sends `isready` and waits for `readyok`: every line before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// The folder of the fixture's Dobutsu tables (Tanaka's rules).
pub fn dobutsu_dir() -> PathBuf {
    let path = nana_fixture::path(Rules::TANAKA);
    path.parent().expect("a folder").to_path_buf()
}

/// A small deterministic generator (xorshift64*), so that every run plays the same games.
#[derive(Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}
