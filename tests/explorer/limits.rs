//! The server's limits, each alone on a server of its own ([`nana_server::Limits`]): the
//! connection cap, the per-request time limit and the idle timeout. (The header-read and
//! write timeouts are tried with other clients at once in `faults.rs`.)

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nana_front::Game;
use nana_probe::table::Table;
use nana_probe::ProbeRules;
use nana_server::{Limits, Registry};
use nana_shogi::Nana;
use nana_tablebase::{ReadAt, Tablebase};

use crate::common::{table, tables, Server};
use crate::faults::{closed_within, greedy_client};

/// A table's bytes whose reads touching `slow` take `delay` while `armed` is set: a device
/// that stalls.
#[derive(Debug)]
struct SlowReads {
    bytes: Vec<u8>,
    slow: std::ops::Range<usize>,
    delay: Duration,
    armed: Arc<AtomicBool>,
}

impl ReadAt for SlowReads {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let end = offset + buf.len() as u64;
        if self.armed.load(Ordering::SeqCst)
            && offset < self.slow.end as u64
            && (self.slow.start as u64) < end
        {
            std::thread::sleep(self.delay);
        }
        self.bytes.read_at(buf, offset)
    }
}

/// Nana's two rule sets, ready.
fn nana_registry() -> Arc<Registry> {
    let mut registry = Registry::new();
    for (name, table) in tables() {
        registry.add(Nana::NAME, name, Box::new(table.clone()));
    }
    Arc::new(registry)
}

/// One GET on a connection of its own: the status, the body and how long the answer took.
fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String, Duration) {
    let (status, _, body, took) = get_with_head(addr, path);
    (status, body, took)
}

/// [`get`], with the answer's head.
fn get_with_head(addr: std::net::SocketAddr, path: &str) -> (u16, String, String, Duration) {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
    write!(s, "GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").expect("sent");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("an answer");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (status, head.to_string(), body.to_string(), start.elapsed())
}

/// A request whose table read stalls for 3 s, on a server whose time limit is 500 ms: a JSON
/// 503 naming the limit within 1.5 s, with `Retry-After`, while `/api/health` and the other rule set answer at
/// once; once the device reads again, the position's answer.
#[test]
fn a_request_over_the_time_limit_is_a_503_and_the_server_goes_on() {
    let _turn = crate::common::heavy();
    let game = *table("original").game();
    let bytes = std::fs::read(nana_fixture::path(game)).expect("the fixture's file");
    let (slow, _) = nana_fixture::block_bytes_of(&bytes, game.file_order().place(game.index(&game.start())));
    let armed = Arc::new(AtomicBool::new(false));
    let source = SlowReads { bytes, slow, delay: Duration::from_secs(3), armed: armed.clone() };
    let tb = Tablebase::from_reader(Box::new(source), "nana-original.tb").expect("the index reads");
    let mut registry = Registry::new();
    registry.add(Nana::NAME, "original", Box::new(Table::from_tablebase(game, tb).expect("the table opens")));
    let current = tables().iter().find(|(n, _)| *n == "current").expect("current").1.clone();
    registry.add(Nana::NAME, "current", Box::new(current));
    let limits = Limits { request_timeout: Duration::from_millis(500), ..Limits::default() };
    let server = Server::start_with(Arc::new(registry), 2, limits);
    armed.store(true, Ordering::SeqCst);
    let start = "/api/nana/original?position=3/3/3_b_KRBkrb_1";
    let stalled = std::thread::spawn(move || get_with_head(server.addr, start));
    std::thread::sleep(Duration::from_millis(100));
    for path in ["/api/health", "/api/nana/current?position=3/3/3_b_KRBkrb_1"] {
        let (status, body, took) = get(server.addr, path);
        assert_eq!(status, 200, "{path}: {body}");
        assert!(took < Duration::from_millis(300), "{path} took {took:?} beside the stalled read");
    }
    let (status, head, body, took) = stalled.join().expect("the stalled request ends");
    assert_eq!(status, 503, "{body}");
    // The client is told when to ask again (the explorer's page does, by itself).
    assert!(head.to_ascii_lowercase().contains("\r\nretry-after: 5"), "{head}");
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON body");
    let error = error["error"].as_str().expect("an error message");
    assert!(error.contains("time limit of 500ms"), "{error}");
    assert!(took < Duration::from_millis(1500), "answered after {took:?}");
    armed.store(false, Ordering::SeqCst);
    let (status, body, _) = get(server.addr, start);
    assert_eq!(status, 200, "{body}");
    eprintln!("the stalled request answered 503 after {took:?}");
}

/// At most 4 connections at once: with 4 open and idle, a fifth is not answered; once one of
/// the four closes, it is.
#[test]
fn connections_beyond_the_cap_wait_until_one_closes() {
    let limits = Limits { max_connections: 4, ..Limits::default() };
    let server = Server::start_with(nana_registry(), 2, limits);
    let mut held: Vec<_> = (0..4).map(|_| TcpStream::connect(server.addr).expect("connects")).collect();
    let addr = server.addr;
    let waiting = std::thread::spawn(move || get(addr, "/api/health"));
    std::thread::sleep(Duration::from_millis(800));
    assert!(!waiting.is_finished(), "the fifth connection was answered with four others open");
    let freed = Instant::now();
    held.pop();
    let (status, body, _) = waiting.join().expect("the fifth request ends");
    let after = freed.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(after < Duration::from_millis(500), "answered {after:?} after a connection closed");
    eprintln!("the fifth connection waited until one closed, then was answered in {after:?}");
}

/// A write timeout of 1 s (the header-read timeout left at its 10 s): a client that pipelines
/// requests until the server stops reading them and never reads an answer is closed, while
/// another is answered. The client reads nothing for 3 s (a read would let the server's write
/// go on), then drains what the server wrote before it closed, and must meet the end of the
/// connection within 10 s: without the timeout the server would answer its tens of thousands
/// of requests and keep the connection open.
#[test]
fn a_client_that_reads_no_answer_is_closed_after_the_write_timeout() {
    let limits = Limits { write_timeout: Duration::from_secs(1), ..Limits::default() };
    let server = Server::start_with(nana_registry(), 2, limits);
    let start = Instant::now();
    let (mut greedy, sent) = greedy_client(server.addr);
    let (status, body, _) = get(server.addr, "/api/health");
    assert_eq!(status, 200, "{body}");
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        closed_within(&mut greedy, Duration::from_secs(10)),
        "the client that reads no answer ({sent} requests sent) still holds its connection {:?} on",
        start.elapsed()
    );
    eprintln!(
        "the client that read no answer sent {sent} requests and was closed within {:?}",
        start.elapsed()
    );
}

/// Whether the server ends `s` (end of file or reset) within `within`, however long it stays
/// silent before: [`closed_within`] instead gives up at a silence, which a connection waiting
/// for its idle timeout is until it ends.
fn ended_within(s: &mut TcpStream, within: Duration) -> bool {
    let start = Instant::now();
    let mut scratch = [0u8; 4096];
    while let Some(left) = within.checked_sub(start.elapsed()).filter(|left| !left.is_zero()) {
        s.set_read_timeout(Some(left)).expect("a timeout");
        match s.read(&mut scratch) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return false
            }
            Err(_) => return true,
        }
    }
    false
}

/// An idle timeout of 1 s: a connection that sends nothing, and one that sends nothing after
/// its first answer, are closed after it, not before.
#[test]
fn an_idle_connection_is_closed_after_the_idle_timeout() {
    let limits = Limits { idle_timeout: Duration::from_secs(1), ..Limits::default() };
    let server = Server::start_with(nana_registry(), 2, limits);
    let start = Instant::now();
    let mut silent = TcpStream::connect(server.addr).expect("connects");
    let mut kept = TcpStream::connect(server.addr).expect("connects");
    write!(kept, "GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n").expect("sent");
    std::thread::sleep(Duration::from_millis(700));
    for s in [&mut silent, &mut kept] {
        s.set_nonblocking(true).expect("non-blocking");
        let mut scratch = [0u8; 4096];
        while s.read(&mut scratch).is_ok_and(|n| n > 0) {}
        s.set_nonblocking(false).expect("blocking");
    }
    for (name, s) in [("the silent connection", &mut silent), ("the kept-alive one", &mut kept)] {
        assert!(ended_within(s, Duration::from_secs(2)), "{name} still open {:?} on", start.elapsed());
    }
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(900), "closed after {took:?}, before the timeout");
    assert!(took < Duration::from_millis(2500), "closed after {took:?}");
    eprintln!("both idle connections closed {took:?} after they opened");
}
