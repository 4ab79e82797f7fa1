//! A soak of `nana serve` (the program, in a process of its own): a mixed load of both games,
//! every API route and the page, good requests and bad, from several clients at once over
//! kept-alive connections, for 60 s (`NANA_SOAK_SECONDS` for longer). A third of the way in,
//! Nana's original table is replaced by a copy written beside it and renamed over it; two
//! thirds in, Nana's current table is cut to half its length under the server. The server's
//! resident memory is read from `/proc/PID/status` every 250 ms. Prints the requests answered,
//! the answers by kind, the latency percentiles and the peak memory:
//!
//! `cargo test -p nana-cli --test explorer soak -- --ignored --nocapture`

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::link_into;

/// How much the resident memory of the run's last quarter may exceed its first quarter's peak,
/// in percent of that peak: the blocks cached by the lookup threads still fill after the first
/// quarter (each thread's cache holds up to 64 MiB; there are 4 to 16 threads), and a failed
/// count of the table cut short decodes it anew each time it is asked.
const RSS_MARGIN_PERCENT: u64 = 25;

/// The clients sending requests at once.
const CLIENTS: usize = 6;

/// One answer: its status (0 for a connection that failed) and how long it took.
#[derive(Debug, Default)]
struct Tally {
    /// Answers by kind: `200`, `404 unknown game`, `io error`, ...
    kinds: BTreeMap<String, u64>,
    latencies: Vec<Duration>,
    /// 500s met before the current table was cut short, or naming anything but a read.
    unexpected: Vec<String>,
}

/// A small random number generator (xorshift), seeded per client.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A position string in a query: `_` for spaces, everything else but letters, digits and `/`
/// escaped.
fn encode(fen: &str) -> String {
    fen.bytes()
        .map(|b| match b {
            b' ' => "_".to_string(),
            b if b.is_ascii_alphanumeric() || b == b'/' || b == b'-' => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// A kept-alive connection to the server, opened again after the server closes it.
struct Client {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
}

impl Client {
    /// Sends `request` (a whole request head) and reads the answer: its status and body.
    fn send(&mut self, request: &str) -> std::io::Result<(u16, Vec<u8>)> {
        if self.conn.is_none() {
            let s = TcpStream::connect(&self.addr)?;
            s.set_read_timeout(Some(Duration::from_secs(30)))?;
            self.conn = Some(BufReader::new(s));
        }
        let result = Client::exchange(self.conn.as_mut().expect("connected"), request);
        if !matches!(&result, Ok((status, _)) if *status < 400) {
            // After an error the server may close the connection: start the next one afresh.
            self.conn = None;
        }
        result
    }

    fn exchange(conn: &mut BufReader<TcpStream>, request: &str) -> std::io::Result<(u16, Vec<u8>)> {
        conn.get_mut().write_all(request.as_bytes())?;
        let mut line = String::new();
        conn.read_line(&mut line)?;
        let status =
            line.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or(std::io::ErrorKind::InvalidData)?;
        let mut length = 0;
        loop {
            line.clear();
            if conn.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().map_err(|_| std::io::ErrorKind::InvalidData)?;
                }
            }
        }
        let mut body = vec![0; length];
        conn.read_exact(&mut body)?;
        Ok((status, body))
    }
}

/// The rule sets walked, each from its start.
const WALKED: [(&str, &str); 3] = [("nana", "current"), ("nana", "original"), ("dobutsu", "tanaka")];

/// The next request of a client: a GET path, or a whole request head for the bad ones sent
/// raw. `fens` holds each walked rule set's position (empty: the start), moved on by the
/// answers to `/view`.
fn next_request(rng: &mut Rng, fens: &[String; 3]) -> (String, String, usize) {
    let w = rng.below(WALKED.len());
    let (game, rules) = WALKED[w];
    let at = if fens[w].is_empty() { String::new() } else { format!("?fen={}", encode(&fens[w])) };
    let path = match rng.below(100) {
        0..=34 => format!("/api/{game}/{rules}/view{at}"),
        35..=49 => format!("/api/{game}/{rules}{at}"),
        50..=59 => format!("/api/{game}/{rules}/mainline{at}"),
        60..=64 => format!("/api/{game}/{rules}/board{at}"),
        65..=69 => "/api/health".to_string(),
        70..=72 => "/api/games".to_string(),
        73..=74 => format!("/{game}/{rules}"),
        75 => format!("/api/{game}/{rules}/stats"),
        76..=78 => format!("/api/{game}/{rules}?fen=not_a_position"),
        79..=80 => "/api/chess/current".to_string(),
        81..=82 => format!("/api/{game}/newest"),
        83..=84 => format!("/api/{game}/{rules}?depth=3"),
        85..=86 => "/api/dobutsu/safe-try".to_string(),
        87..=88 => "/api/%FF/current".to_string(),
        89..=90 => "/favicon.ico".to_string(),
        91 => {
            let long = "a".repeat(20_000);
            return (
                format!("GET /api/nana/current?fen={long} HTTP/1.1\r\nhost: x\r\n\r\n"),
                "long".into(),
                w,
            );
        }
        92..=93 => {
            return (
                "POST /api/health HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n".into(),
                "POST".into(),
                w,
            );
        }
        _ => format!("/api/{game}"),
    };
    (format!("GET {path} HTTP/1.1\r\nhost: x\r\n\r\n"), path, w)
}

/// The kind of an answer, for the report: its status, and for the errors a word of why.
fn kind(status: u16, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let why = match status {
        400 if text.contains("unknown query parameter") => " unknown parameter",
        400 if text.contains("malformed") => " malformed path",
        400 => " bad position",
        404 if text.contains("unknown game") => " unknown game",
        404 if text.contains("unknown rule set") => " unknown rule set",
        404 => " no such page",
        500 if text.contains("cannot read bytes") => " table read failed",
        503 if text.contains("time limit") => " over the time limit",
        503 => " table missing",
        _ => "",
    };
    format!("{status}{why}")
}

/// One client until `stop`: requests chosen by `next_request`, the walk moved on by each
/// `/view`, every answer tallied.
fn client(addr: String, seed: u64, stop: Arc<AtomicBool>, cut: Arc<AtomicBool>, tally: Arc<Mutex<Tally>>) {
    let mut rng = Rng(seed | 1);
    let mut fens = WALKED.map(|_| String::new());
    let mut client = Client { addr, conn: None };
    let mut mine = Tally::default();
    while !stop.load(Ordering::Relaxed) {
        let (request, path, w) = next_request(&mut rng, &fens);
        let start = Instant::now();
        let answer = client.send(&request);
        mine.latencies.push(start.elapsed());
        let (status, body) = match answer {
            Ok(answer) => answer,
            Err(e) => {
                *mine.kinds.entry(format!("io error {:?}", e.kind())).or_default() += 1;
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        let kind = kind(status, &body);
        if status == 500 && (kind != "500 table read failed" || !cut.load(Ordering::SeqCst)) {
            mine.unexpected.push(format!("{path}: {}", String::from_utf8_lossy(&body)));
        }
        *mine.kinds.entry(kind).or_default() += 1;
        // The walk: a random move of the view, or back to the start at the game's end or an error.
        if path.contains("/view") {
            let view: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            let moves = view["moves"].as_array().map(Vec::as_slice).unwrap_or_default();
            fens[w] = match moves.len() {
                0 => String::new(),
                n => moves[rng.below(n)]["fen"].as_str().unwrap_or_default().to_string(),
            };
        }
    }
    let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
    for (k, n) in mine.kinds {
        *tally.kinds.entry(k).or_default() += n;
    }
    tally.latencies.extend(mine.latencies);
    tally.unexpected.extend(mine.unexpected);
}

/// The resident memory of process `pid`, in KB: `VmRSS`, or `VmHWM` (its peak) for `field`.
fn memory_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The server's process, killed if the test ends before stopping it.
struct Serving(std::process::Child);

impl Drop for Serving {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `nana serve --no-solve` over `dir`, its log read on a thread: the child and its address.
fn start_server(dir: &Path) -> (Serving, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(["serve", "--port", "0", "--no-solve", "--tablebase-dir"])
        .arg(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("nana serve starts");
    let mut log = BufReader::new(child.stderr.take().expect("its log"));
    let child = Serving(child);
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(log.read_line(&mut line).expect("its log"), 0, "nana serve stopped before listening");
        if let Some(rest) = line.strip_prefix("listening on http://") {
            break rest.split('/').next().expect("an address").to_string();
        }
    };
    std::thread::spawn(move || for _ in log.lines() {});
    (child, addr)
}

/// The soak: see the module's docs. Asserts that every answer is one the request calls for (a
/// 500 only for a read of the table cut short, after it was cut), that no connection failed,
/// and that the last quarter's resident memory stays within [`RSS_MARGIN_PERCENT`] of the first
/// quarter's peak.
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check (60 s; NANA_SOAK_SECONDS for longer)"]
fn a_mixed_load_with_tables_replaced_and_cut_leaves_the_server_answering() {
    let seconds: u64 = std::env::var("NANA_SOAK_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let _turn = crate::common::heavy();
    let dir = tempfile::tempdir().expect("a folder");
    let original = nana_fixture::path(nana_shogi::Rules::ORIGINAL);
    let current = dir.path().join("nana-current.tb");
    std::fs::copy(nana_fixture::path(nana_shogi::Rules::CURRENT), &current).expect("a copy");
    std::fs::copy(&original, dir.path().join("nana-original.tb")).expect("a copy");
    link_into(&nana_fixture::path(dobutsu_shogi::Rules::TANAKA), dir.path());
    let (mut server, addr) = start_server(dir.path());
    let pid = server.0.id();
    let (stop, cut) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let clients: Vec<_> = (0..CLIENTS as u64)
        .map(|i| {
            let (addr, stop, cut, tally) = (addr.clone(), stop.clone(), cut.clone(), tally.clone());
            std::thread::spawn(move || {
                client(addr, 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(i + 1), stop, cut, tally)
            })
        })
        .collect();
    let run = Duration::from_secs(seconds);
    let (start, mut samples, mut events) = (Instant::now(), Vec::new(), 0);
    while start.elapsed() < run {
        std::thread::sleep(Duration::from_millis(250));
        samples.push((start.elapsed(), memory_kb(pid, "VmRSS:").expect("the server runs")));
        if events == 0 && start.elapsed() >= run / 3 {
            // Written beside it, then renamed over it: readers see the old file or the new.
            let beside = dir.path().join("nana-original.tb.new");
            std::fs::copy(&original, &beside).expect("a copy");
            std::fs::rename(&beside, dir.path().join("nana-original.tb")).expect("renamed");
            events = 1;
        } else if events == 1 && start.elapsed() >= run * 2 / 3 {
            let len = std::fs::metadata(&current).expect("the table").len();
            cut.store(true, Ordering::SeqCst);
            std::fs::OpenOptions::new()
                .write(true)
                .open(&current)
                .expect("opened")
                .set_len(len / 2)
                .expect("cut");
            events = 2;
        }
    }
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        c.join().expect("a client ends");
    }
    let peak = memory_kb(pid, "VmHWM:").expect("the server runs");
    let health =
        Client { addr: addr.clone(), conn: None }.send("GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n");
    assert!(server.0.try_wait().expect("a status").is_none(), "the server is running");
    // Safety: a signal to our own child process.
    unsafe { libc::kill(pid as i32, libc::SIGINT) };
    assert_eq!(server.0.wait().expect("it stops").code(), Some(0), "stopped by Ctrl-C");
    let tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
    report(&tally, &samples, peak, start.elapsed());
    assert_eq!(health.expect("health answers").0, 200);
    assert!(
        tally.unexpected.is_empty(),
        "unexpected 500s: {:?}",
        &tally.unexpected[..tally.unexpected.len().min(5)]
    );
    assert!(!tally.kinds.keys().any(|k| k.starts_with("io error") || k == "0"), "{:?}", tally.kinds);
    assert!(!tally.kinds.keys().any(|k| k.contains("time limit")), "{:?}", tally.kinds);
    assert!(tally.kinds.get("200").copied().unwrap_or(0) > 100 * seconds, "{:?}", tally.kinds);
    let quarter = samples.len() / 4;
    let first = samples[..quarter].iter().map(|s| s.1).max().expect("samples");
    let last = samples[samples.len() - quarter..].iter().map(|s| s.1).max().expect("samples");
    assert!(
        last <= first + first * RSS_MARGIN_PERCENT / 100,
        "resident memory grew: {first} KB at most in the first quarter, {last} KB in the last"
    );
}

/// Prints the soak's figures.
fn report(tally: &Tally, samples: &[(Duration, u64)], peak: u64, took: Duration) {
    let mut latencies = tally.latencies.clone();
    latencies.sort();
    let at = |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize];
    let quarter = samples.len() / 4;
    let first = samples[..quarter].iter().map(|s| s.1).max().unwrap_or(0);
    let last = samples[samples.len() - quarter..].iter().map(|s| s.1).max().unwrap_or(0);
    eprintln!("soak: {} requests answered in {took:.1?}, {CLIENTS} clients", latencies.len());
    for (kind, n) in &tally.kinds {
        eprintln!("soak:   {kind}: {n}");
    }
    eprintln!(
        "soak: latency p50 {:.2?}, p90 {:.2?}, p99 {:.2?}, max {:.2?}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    let every: Vec<String> =
        samples.iter().step_by(8).map(|(t, kb)| format!("{:.0}s {}", t.as_secs_f64(), kb / 1024)).collect();
    eprintln!("soak: server RSS every 2 s, MB: {}", every.join(", "));
    eprintln!(
        "soak: server RSS peak {peak} KB; first quarter at most {first} KB, last quarter at most {last} KB (margin {RSS_MARGIN_PERCENT} %)"
    );
}
