//! A bounded load test on loopback: 20,000 requests for ranked-moves answers from Nana's tables,
//! then 20,000 from Dobutsu's, 64 at a time, over keep-alive connections; no request may fail.
//! Prints the throughput and the latencies of each (docs/PERFORMANCE.md, section "The
//! explorer's server"):
//!
//! `cargo test -p nana-cli --test explorer load -- --nocapture`

use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use nana_probe::ProbeRules;
use nana_shogi::Rules;

use crate::common::{heavy, registry, Server};

const REQUESTS: usize = 20_000;
const CONCURRENCY: usize = 64;

/// One GET over a kept-alive connection; the status and the body.
async fn get(conn: &mut BufReader<TcpStream>, path: &str) -> std::io::Result<(u16, Vec<u8>)> {
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n");
    conn.get_mut().write_all(request.as_bytes()).await?;
    let mut line = String::new();
    conn.read_line(&mut line).await?;
    let status: u16 = line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = None;
    loop {
        line.clear();
        if conn.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let mut body = vec![0; length.ok_or(std::io::ErrorKind::InvalidData)?];
    conn.read_exact(&mut body).await?;
    Ok((status, body))
}

#[test]
fn twenty_thousand_requests_without_an_error() {
    let _turn = heavy();
    let registry = registry();
    // Positions along both mainlines from the start, so the answers vary.
    let mut paths = Vec::new();
    for rules in ["original", "current"] {
        let line = registry.get("nana", rules).unwrap().mainline(None).unwrap();
        for ply in &line.mainline {
            paths.push(format!("/api/nana/{rules}?position={}", ply.fen.replace(' ', "_")));
        }
        paths.push(format!("/api/nana/{rules}"));
    }
    // The same answers in process, one thread, without HTTP: what the lookups cost alone.
    let in_process = {
        let positions: Vec<(String, Option<String>)> = paths
            .iter()
            .map(|p| {
                let (rules, query) =
                    p["/api/nana/".len()..].split_once('?').unwrap_or((&p["/api/nana/".len()..], ""));
                (rules.to_string(), query.strip_prefix("position=").map(|f| f.replace('_', " ")))
            })
            .collect();
        let start = Instant::now();
        let n = 2_000;
        for i in 0..n {
            let (rules, fen) = &positions[i % positions.len()];
            registry.get("nana", rules).unwrap().answer(fen.as_deref()).unwrap();
        }
        let answers = start.elapsed() / n as u32;
        // The same positions' ranked moves alone, without the mainline and the notations.
        let parsed: Vec<_> = positions
            .iter()
            .map(|(rules, fen)| {
                let table = crate::common::table(rules);
                let pos = fen
                    .as_deref()
                    .map_or_else(|| Rules::ORIGINAL.start(), |f| table.game().parse_position(f).unwrap());
                (table, pos)
            })
            .collect();
        let start = Instant::now();
        for i in 0..n {
            let (table, pos) = &parsed[i % parsed.len()];
            table.probe().ranked_moves(pos).unwrap();
        }
        (answers, start.elapsed() / n as u32)
    };
    let server = Server::start(registry.clone(), 2);
    hammer(&server, "nana", paths);
    // Dobutsu: positions along the mainline of Tanaka's rules.
    let mut paths = Vec::new();
    for rules in ["tanaka"] {
        let line = registry.get("dobutsu", rules).unwrap().mainline(None).unwrap();
        for ply in &line.mainline {
            // `_` for a space, and a hen's `+` escaped (a bare one reads as a space).
            paths.push(format!(
                "/api/dobutsu/{rules}?position={}",
                ply.fen.replace(' ', "_").replace('+', "%2B")
            ));
        }
        paths.push(format!("/api/dobutsu/{rules}"));
    }
    hammer(&server, "dobutsu", paths);
    let (answer, ranked) = in_process;
    eprintln!(
        "load: in process, one thread, no HTTP: one answer {:.0} us ({:.0} answers/s per core), its ranked moves alone {:.1} us",
        answer.as_secs_f64() * 1e6,
        1.0 / answer.as_secs_f64(),
        ranked.as_secs_f64() * 1e6
    );
}

/// Sends [`REQUESTS`] requests for `paths` in turn to `server`, [`CONCURRENCY`] at a time, and
/// prints the throughput and the latencies; every answer must be a ranked-moves answer.
fn hammer(server: &Server, game: &str, paths: Vec<String>) {
    let addr = server.addr;
    let positions = paths.len();
    let client = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (elapsed, mut latencies, errors) = client.block_on(async move {
        let start = Instant::now();
        let mut tasks = Vec::new();
        for t in 0..CONCURRENCY {
            let paths = paths.clone();
            tasks.push(tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut errors = Vec::new();
                let mut conn = BufReader::new(TcpStream::connect(addr).await.expect("connects"));
                for i in (t..REQUESTS).step_by(CONCURRENCY) {
                    let path = &paths[i % paths.len()];
                    let sent = Instant::now();
                    match get(&mut conn, path).await {
                        Ok((200, body))
                            if body.starts_with(b"{\"fen\":")
                                && body.windows(8).any(|w| w == b"\"moves\":") =>
                        {
                            latencies.push(sent.elapsed())
                        }
                        Ok((status, body)) => {
                            errors.push(format!("{path}: {status} {}", String::from_utf8_lossy(&body)))
                        }
                        Err(e) => {
                            errors.push(format!("{path}: {e}"));
                            conn = BufReader::new(TcpStream::connect(addr).await.expect("reconnects"));
                        }
                    }
                }
                (latencies, errors)
            }));
        }
        let (mut latencies, mut errors) = (Vec::new(), Vec::new());
        for t in tasks {
            let (l, e) = t.await.expect("a client task");
            latencies.extend(l);
            errors.extend(e);
        }
        (start.elapsed(), latencies, errors)
    });
    assert!(errors.is_empty(), "{} errors, first: {:?}", errors.len(), errors.first());
    assert_eq!(latencies.len(), REQUESTS);
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "load, {game}: {REQUESTS} requests over {positions} positions, {CONCURRENCY} concurrent, in {:.2} s: {:.0} req/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        elapsed.as_secs_f64(),
        REQUESTS as f64 / elapsed.as_secs_f64(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(*latencies.last().unwrap())
    );
    // Bounded: even on a loaded machine this is seconds, not minutes.
    assert!(elapsed < Duration::from_secs(120), "took {elapsed:?}");
}
