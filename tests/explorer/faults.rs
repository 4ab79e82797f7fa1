//! Faults from the world around the server: a device that fails to read some of a table's bytes
//! (EIO). A [`nana_fixture::FailingReads`] source stands in for the device: the table's bytes,
//! with the reads that touch a chosen range failing while it is armed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use nana_fixture::FailingReads;
use nana_front::Game;
use nana_probe::table::Table;
use nana_probe::ProbeRules;
use nana_server::Registry;
use nana_shogi::{Nana, Rules};
use nana_tablebase::Tablebase;

use crate::common::{request, table, tables};

/// Nana's original rules, read from the fixture's file through a source that fails to read the
/// block holding the start's entry while the switch it returns is on (it starts on).
fn failing_table() -> (Table<Rules>, Arc<AtomicBool>, u64) {
    let game = *table("original").game();
    let bytes = std::fs::read(nana_fixture::path(game)).expect("the fixture's file");
    let (fail, block) =
        nana_fixture::block_bytes_of(&bytes, game.file_order().place(game.index(&game.start())));
    let armed = Arc::new(AtomicBool::new(true));
    let source = FailingReads { bytes: Arc::new(bytes), fail, armed: armed.clone() };
    let tb = Tablebase::from_reader(Box::new(source), "nana-original.tb").expect("the index reads");
    (Table::from_tablebase(game, tb).expect("the table opens"), armed, block)
}

/// The probe: the start's value is an error naming the failed read, each time it is asked,
/// never a value; positions whose values read entries of other blocks alone (a win's, those of
/// its moves too) answer as the intact table does;
/// once the device reads again, so does the start.
#[test]
fn a_failing_read_is_an_error_for_the_positions_that_read_its_block_alone() {
    let (failing, armed, block) = failing_table();
    let intact = table("original");
    let game = *intact.game();
    let start = game.start();
    let (probe, good) = (failing.probe(), intact.probe());
    for _ in 0..2 {
        let error = probe.value(&start).unwrap_err().to_string();
        assert!(error.contains("cannot read bytes") && error.contains("os error 5"), "{error}");
        assert!(probe.answer(&start, 10).is_err());
    }
    let nana_probe::table::Source::File(file) = failing.source() else {
        panic!("a table read from a source")
    };
    let block_entries = u64::from(file.storage().layout.block_entries());
    let mut compared = 0;
    let outside = |pos: &_| nana_fixture::reads_outside_block(&good, pos, block_entries, block);
    for i in (0..game.size()).step_by(997) {
        match game.unindex(i) {
            Some(pos) if game.value_by_rules(&pos).is_none() && outside(&pos) => {
                assert_eq!(probe.value(&pos), good.value(&pos), "entry {i}");
                compared += 1;
            }
            _ => {}
        }
    }
    assert!(compared > 100, "{compared} positions compared");
    armed.store(false, Ordering::SeqCst);
    assert_eq!(probe.value(&start), good.value(&start), "read again once the device reads");
}

/// The server: the request that needs the block is a 500 with the failed read in words, the
/// same when asked again; its health, the other rule set and the game's list answer meanwhile;
/// once the device reads again, the request answers as the intact table does.
#[tokio::test]
async fn the_server_answers_an_error_for_a_failing_read_and_serves_the_rest() {
    let (failing, armed, _) = failing_table();
    let mut r = Registry::new();
    r.add(Nana::NAME, "original", Box::new(failing));
    let current = tables().iter().find(|(n, _)| *n == "current").expect("current").1.clone();
    r.add(Nana::NAME, "current", Box::new(current));
    let registry = Arc::new(r);
    let get = |uri: &str| {
        let request = Request::get(uri).body(Body::empty()).expect("a request");
        self::request(registry.clone(), request)
    };
    let start = "/api/nana/original?position=3/3/3_b_KRBkrb_1";
    for _ in 0..2 {
        let reply = get(start).await;
        assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", reply.text());
        let message = reply.json()["error"].as_str().expect("an error message").to_owned();
        assert!(message.contains("cannot read bytes") && message.contains("os error 5"), "{message}");
    }
    let health = get("/api/health").await;
    assert_eq!(health.status, StatusCode::OK, "{}", health.text());
    let other = get("/api/nana/current?position=3/3/3_b_KRBkrb_1").await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text());
    armed.store(false, Ordering::SeqCst);
    let again = get(start).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    let (name, original) = &tables()[1];
    assert_eq!(*name, "original");
    let mut intact = Registry::new();
    intact.add(Nana::NAME, "original", Box::new(original.clone()));
    let want = request(Arc::new(intact), Request::get(start).body(Body::empty()).expect("a request")).await;
    assert_eq!(again.json(), want.json());
}

/// One GET on a new connection, blocking: the status and how long the answer took.
fn get_blocking(addr: std::net::SocketAddr, path: &str) -> (u16, std::time::Duration) {
    use std::io::{Read, Write};
    let start = std::time::Instant::now();
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(std::time::Duration::from_secs(5))).expect("a timeout");
    write!(s, "GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").expect("sent");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("an answer");
    let status = String::from_utf8_lossy(&answer).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, start.elapsed())
}

/// Raises the process's soft open-file limit to hold `files` descriptors, or fails saying why.
pub fn open_file_room(files: libc::rlim_t) {
    // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) }, 0, "getrlimit");
    if limit.rlim_cur < files {
        assert!(
            limit.rlim_max >= files,
            "the open-file limit's hard bound is {}, the test needs {files} (`ulimit -Hn`; raise it as root)",
            limit.rlim_max
        );
        limit.rlim_cur = files;
        // SAFETY: as above.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) }, 0, "setrlimit");
    }
}

/// Whether the server has closed `s`: reads what it holds for up to `within`, and says whether
/// the connection ended (end of file or reset) rather than falling silent.
pub fn closed_within(s: &mut std::net::TcpStream, within: std::time::Duration) -> bool {
    use std::io::{ErrorKind, Read};
    let start = std::time::Instant::now();
    s.set_read_timeout(Some(std::time::Duration::from_millis(300))).expect("a timeout");
    let mut scratch = vec![0u8; 1 << 16];
    while start.elapsed() < within {
        match s.read(&mut scratch) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => return false,
            Err(_) => return true,
        }
    }
    false
}

/// A client that pipelines requests for a view until the server stops reading them (its
/// answers fill both sockets' buffers) and reads none: the connection and the requests sent.
pub fn greedy_client(addr: std::net::SocketAddr) -> (std::net::TcpStream, usize) {
    use std::io::Write;
    let mut greedy = std::net::TcpStream::connect(addr).expect("connects");
    greedy.set_write_timeout(Some(std::time::Duration::from_millis(500))).expect("a timeout");
    let mut sent = 0;
    while sent < 1_000_000
        && write!(greedy, "GET /api/nana/original/view?position=3/3/3_b_KRBkrb_1 HTTP/1.1\r\nhost: x\r\n\r\n")
            .is_ok()
    {
        sent += 1;
    }
    (greedy, sent)
}

/// A client that sends a request's head a byte every 50 ms: how long until the server closed
/// its connection, or `None` if it had not after 2.5 s.
fn slowloris(addr: std::net::SocketAddr) -> Option<std::time::Duration> {
    use std::io::{Read, Write};
    use std::time::{Duration, Instant};
    let start = Instant::now();
    let mut s = std::net::TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_millis(50))).expect("a timeout");
    let head = b"GET /api/health HTTP/1.1\r\nhost: x\r\nx-slow: ".iter().chain(std::iter::repeat(&b'a'));
    for &b in head {
        if start.elapsed() > Duration::from_millis(2500) {
            return None;
        }
        let mut one = [0u8; 1];
        if let Ok(0) = s.read(&mut one) {
            return Some(start.elapsed());
        }
        if s.write_all(&[b]).is_err() {
            return Some(start.elapsed());
        }
    }
    None
}

/// Slow and greedy clients at once, on a server whose header-read and write timeouts are 1 s: a
/// client that sends its headers a byte every 50 ms (slowloris) has its connection closed
/// within 2.5 s; 2,000 idle connections stay open; a client that pipelines requests and never
/// reads the answers has its connection closed once its answers have waited 1 s; through it
/// all, `/api/health` is 200 and a position's answer comes within 500 ms, each on a new
/// connection.
#[test]
fn slow_and_greedy_clients_leave_the_server_answering() {
    use std::io::Read;
    use std::time::{Duration, Instant};
    const IDLE: usize = 2_000;
    let _turn = crate::common::heavy();
    // Both ends of every connection are in this process.
    open_file_room(2 * IDLE as libc::rlim_t + 256);
    let limits = nana_server::Limits {
        header_timeout: Duration::from_secs(1),
        write_timeout: Duration::from_secs(1),
        ..nana_server::Limits::default()
    };
    let server = crate::common::Server::start_with(crate::common::registry(), 2, limits);
    let addr = server.addr;
    let idle: Vec<_> =
        (0..IDLE).map(|_| std::net::TcpStream::connect(addr).expect("an idle connection")).collect();
    let (mut greedy, sent) = greedy_client(addr);
    let slowloris = std::thread::spawn(move || slowloris(addr));
    let mut slowest = Duration::ZERO;
    let mut answered = 0;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        let (status, took) = get_blocking(addr, "/api/health");
        assert_eq!(status, 200);
        slowest = slowest.max(took);
        let (status, took) = get_blocking(addr, "/api/nana/current?position=3/3/3_b_KRBkrb_1");
        assert_eq!(status, 200);
        slowest = slowest.max(took);
        answered += 2;
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(slowest < Duration::from_millis(500), "the slowest answer took {slowest:?}");
    let closed = slowloris.join().expect("the slow client ends");
    let closed = closed.expect("the slow client's connection is closed within 2.5 s");
    assert!(closed >= Duration::from_millis(900), "closed after {closed:?}, before the timeout");
    assert!(
        closed_within(&mut greedy, Duration::from_secs(3)),
        "the client that reads no answer ({sent} requests sent) still holds its connection 2.5 s on"
    );
    let mut still_open = 0;
    for mut s in idle {
        s.set_nonblocking(true).expect("non-blocking");
        let mut one = [0u8; 1];
        if matches!(s.read(&mut one), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock) {
            still_open += 1;
        }
    }
    assert_eq!(still_open, IDLE, "idle connections closed before the idle timeout");
    eprintln!(
        "{answered} answers, the slowest {slowest:?}; slow client closed after {closed:?}; the client that does not \
         read sent {sent} requests and was closed; {IDLE} idle connections open; all in {:?}",
        start.elapsed()
    );
}
