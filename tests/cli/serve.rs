//! `nana serve`: the HTTP API from the command line.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value as Json;

use crate::common::*;

/// One HTTP/1.1 GET on a fresh connection: the status code and the body.
fn http_get(addr: &str, target: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts connections");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a whole response");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// `nana --game nana serve` opens Nana's tables of the folder (only Nana's: the folder has no
/// Dobutsu table), says where it listens, answers the API and the page, and stops cleanly (exit
/// 0) on Ctrl-C (SIGINT).
#[cfg(unix)]
#[test]
fn serve_answers_the_api_and_stops_on_ctrl_c() {
    use std::io::BufRead;
    let folder = tempfile::tempdir().unwrap();
    for rules in ["current", "original"] {
        std::fs::copy(table(rules), folder.path().join(format!("nana-{rules}.tb"))).unwrap();
    }
    let dir = folder.path();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_nana"))
        .args(["--game", "nana", "serve", "--port", "0", "--no-solve", "--tablebase-dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nana serve starts");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(stderr.read_line(&mut line).unwrap(), 0, "nana serve stopped before listening");
        if let Some(rest) = line.strip_prefix("listening on http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    let (status, body) = http_get(&addr, "/api/health");
    assert_eq!(status, 200, "{body}");
    let (status, body) = http_get(&addr, "/api/nana/original?position=3/3/3_b_KRBkrb_1");
    assert_eq!(status, 200, "{body}");
    let answer: Json = serde_json::from_str(&body).unwrap();
    assert_eq!((s(&answer["category"]), answer["dtm"].as_i64()), ("win", Some(31)));
    // The same answer as `nana query --json`: one source of truth.
    let query = query_json("original", None, &[]);
    assert_eq!(answer["moves"], query["moves"]);
    assert_eq!(answer["mainline"], query["mainline"]);
    assert_eq!(http_get(&addr, "/api/nana/original?position=nonsense").0, 400);
    assert_eq!(http_get(&addr, "/api/chess/standard").0, 404);
    // Only the game asked for is served.
    let (status, body) = http_get(&addr, "/api/dobutsu/tanaka");
    assert!(status == 404 && body.contains("[\"nana\"]"), "{status} {body}");
    let (status, page) = http_get(&addr, "/");
    assert!(status == 200 && page.contains("<html"), "{status} {page:.200}");

    // Safety: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "graceful shutdown on Ctrl-C");
}

/// `nana serve ARGS` started, its standard error read up to "listening on": the child, the
/// address and the lines before it.
#[cfg(unix)]
fn start_serve(args: &[&str]) -> (std::process::Child, String, Vec<String>) {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_nana"));
    command.args(args);
    start_serve_command(command)
}

/// [`start_serve`] of a command given whole.
#[cfg(unix)]
fn start_serve_command(mut command: std::process::Command) -> (std::process::Child, String, Vec<String>) {
    use std::io::BufRead;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nana serve starts");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut before = Vec::new();
    let mut line = String::new();
    let addr = loop {
        line.clear();
        assert_ne!(
            stderr.read_line(&mut line).unwrap(),
            0,
            "nana serve stopped before listening: {before:?}"
        );
        if let Some(rest) = line.strip_prefix("listening on http://") {
            break rest.split('/').next().unwrap().to_string();
        }
        before.push(line.trim_end().to_string());
    };
    // The log goes on: keep reading it, so that the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in stderr.lines() {});
    (child, addr, before)
}

/// Stops a server with Ctrl-C (SIGINT): it exits 0.
#[cfg(unix)]
fn stop_serve(mut child: std::process::Child) {
    // Safety: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    assert_eq!(child.wait().unwrap().code(), Some(0), "graceful shutdown on Ctrl-C");
}

/// On a folder that lacks a rule set's table `nana serve` answers at once (health within 2 s,
/// each rule set's state reported, a rule set being solved a 503 with its progress), answers a
/// query once the missing table is solved in the background, writes the table it solves, and
/// after a restart answers at once from the saved tables.
#[cfg(unix)]
#[test]
fn serve_on_a_folder_without_a_table_answers_at_once_and_saves_what_it_solves() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // One rule set's table there, the other's missing: one solve in the background.
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    let start = std::time::Instant::now();
    let (child, addr, notes) = start_serve(&["--game", "nana", "serve", "--port", "0", "--tablebase-dir", d]);
    let (status, body) = http_get(&addr, "/api/health");
    assert!(
        status == 200 && start.elapsed() < Duration::from_secs(2),
        "{:?}: {status} {body}",
        start.elapsed()
    );
    let health: Json = serde_json::from_str(&body).unwrap();
    assert!(["solving", "ok"].contains(&s(&health["status"])), "{health}");
    assert!(
        notes.iter().any(|n| n.contains("nana-original.tb") && n.contains("solved in the background")),
        "{notes:?}"
    );
    let (status, body) = loop {
        let (status, body) = http_get(&addr, "/api/nana/original?fen=3/3/3_b_KRBkrb");
        if status == 200 || start.elapsed() > Duration::from_secs(120) {
            break (status, body);
        }
        assert_eq!(status, 503, "{body}");
        let json: Json = serde_json::from_str(&body).unwrap();
        assert!(["queued", "solving"].contains(&s(&json["state"])), "{json}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(status, 200, "no answer within 120 s: {body}");
    let answer: Json = serde_json::from_str(&body).unwrap();
    assert_eq!((s(&answer["category"]), answer["dtm"].as_i64()), ("win", Some(31)));
    loop {
        let (_, body) = http_get(&addr, "/api/health");
        if serde_json::from_str::<Json>(&body).unwrap()["status"] == "ok" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "{body}");
        std::thread::sleep(Duration::from_millis(200));
    }
    stop_serve(child);
    for file in ["nana-current.tb", "nana-original.tb"] {
        assert!(dir.path().join(file).is_file(), "{file} is saved");
    }
    // A restart opens the saved tables: no solve, the answer at once.
    let start = std::time::Instant::now();
    let (child, addr, notes) = start_serve(&["--game", "nana", "serve", "--port", "0", "--tablebase-dir", d]);
    assert!(notes.is_empty(), "{notes:?}");
    let (status, body) = http_get(&addr, "/api/nana/current");
    assert!(status == 200 && start.elapsed() < Duration::from_secs(2), "{status} {body}");
    stop_serve(child);
}

/// A served table file cut short under the server (`truncate -s 100000`): a request that reads
/// a block past the new end is answered 500 with the problem in words (naming the bytes, not
/// the server's folder), and the server goes on: still running, still answering its health and
/// the other table, and it stops cleanly (a memory-mapped file would kill it there with SIGBUS,
/// without a word).
#[cfg(unix)]
#[test]
fn serve_answers_an_error_for_a_table_truncated_under_it_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["current", "original"] {
        std::fs::copy(table(rules), dir.path().join(format!("nana-{rules}.tb"))).unwrap();
    }
    let served = dir.path().join("nana-original.tb");
    let len = std::fs::metadata(&served).unwrap().len();
    let d = dir.path().to_str().unwrap();
    let (mut child, addr, _) =
        start_serve(&["--game", "nana", "serve", "--port", "0", "--no-solve", "--tablebase-dir", d]);
    std::fs::OpenOptions::new().write(true).open(&served).unwrap().set_len(100_000).unwrap();
    // The start's entry is the table's last: its block lies past the new end, and no request
    // has read it yet.
    let (status, body) = http_get(&addr, "/api/nana/original?position=3/3/3_b_KRBkrb_1");
    assert_eq!(status, 500, "{body}");
    let error: Json = serde_json::from_str(&body).unwrap();
    let message = s(&error["error"]);
    assert!(
        message.contains("cannot read bytes")
            && message.contains(&format!("the file has 100000 bytes now, {len} when it was opened")),
        "{message}"
    );
    assert!(!message.contains(d), "the server's folder is not told: {message}");
    assert!(child.try_wait().unwrap().is_none(), "the server is still running");
    // Asked again, the same answer: the block is read again, never a value.
    assert_eq!(http_get(&addr, "/api/nana/original?position=3/3/3_b_KRBkrb_1").0, 500);
    let (status, body) = http_get(&addr, "/api/health");
    assert_eq!(status, 200, "{body}");
    let (status, body) = http_get(&addr, "/api/nana/current?position=3/3/3_b_KRBkrb_1");
    assert_eq!(status, 200, "the intact table still answers: {body}");
    stop_serve(child);
}

/// Under an open-file limit of 200 (soft and hard, set by the shell), `nana serve` lowers its
/// connection cap of 4,096 to the 136 the limit leaves room for, says so, and answers.
#[cfg(unix)]
#[test]
fn serve_lowers_its_connection_cap_to_the_open_file_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(table("current"), dir.path().join("nana-current.tb")).unwrap();
    let d = dir.path().to_str().unwrap();
    let mut command = std::process::Command::new("sh");
    command.args(["-c", "ulimit -n 200 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_nana")]);
    command.args(["--game", "nana", "serve", "--port", "0", "--no-solve", "--tablebase-dir", d]);
    let (child, addr, before) = start_serve_command(command);
    let note =
        "note: the open-file limit leaves room for 136 connections: at most 136 are open at once, not 4096";
    assert!(before.iter().any(|l| l == note), "{before:?}");
    let (status, body) = http_get(&addr, "/api/health");
    assert_eq!(status, 200, "{body}");
    stop_serve(child);
}

/// A busy port is reported at once, before any table is opened or solved.
#[test]
fn serve_reports_a_busy_port_before_solving() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let empty = tempfile::tempdir().unwrap();
    let start = std::time::Instant::now();
    let run = nana(&["serve", "--port", &port, "--tablebase-dir", empty.path().to_str().unwrap()]);
    assert_error(&run, &[&format!("127.0.0.1:{port}"), "in use"]);
    assert!(!run.stderr.contains("note:") && !run.stderr.contains("solv"), "{run:#?}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0, "nothing written");
}

/// With --no-solve, a damaged table and a missing one are both named, each with its command.
#[test]
fn serve_no_solve_names_a_damaged_and_a_missing_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nana-current.tb"), b"not a table").unwrap();
    let run = nana(&[
        "--game",
        "nana",
        "serve",
        "--port",
        "0",
        "--no-solve",
        "--tablebase-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_error(
        &run,
        &[
            "nana-current.tb",
            "make it again with `nana --game nana solve --rules current`",
            "no tablebase at",
            "nana-original.tb",
            "make it with `nana --game nana solve --rules original`",
        ],
    );
}

/// With --no-solve and no tables, `serve` refuses to start and names the missing files: every
/// game's by default, only --game's when it is given, each with the command that makes it.
#[test]
fn serve_without_tables_and_no_solve_names_the_missing_files() {
    let nana_files = [
        "tablebase/nana-current.tb",
        "tablebase/nana-original.tb",
        "`nana --game nana solve --rules current`",
        "`nana --game nana solve --rules original`",
    ];
    let dobutsu_files = [
        "tablebase/dobutsu-tanaka.tb",
        "tablebase/dobutsu-safe-try.tb",
        "`nana --game dobutsu solve --rules tanaka`",
        "`nana --game dobutsu solve --rules safe-try`",
    ];
    let run = nana(&["serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &[nana_files.as_slice(), dobutsu_files.as_slice()].concat());
    let run = nana(&["--game", "nana", "serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &nana_files);
    assert!(!run.stderr.contains("dobutsu"), "{run:#?}");
    let run = nana(&["--game", "dobutsu", "serve", "--port", "0", "--no-solve"]);
    assert_error(&run, &dobutsu_files);
    assert!(!run.stderr.contains("nana-"), "{run:#?}");
    assert_usage_error(&nana(&["serve", "--port", "70000"]), &["70000"]);
    // A host name is looked up at start: one that does not resolve is an error before any table.
    assert_error(&nana(&["serve", "--bind", "not-an-address"]), &["--bind not-an-address"]);
}

/// `serve --bind` takes a host name, and a bad one is refused before any table is loaded.
#[test]
fn serve_binds_a_host_name() {
    let run = nana(&["serve", "--bind", "no such host", "--no-solve"]);
    assert_error(&run, &["--bind no such host"]);
    // `localhost` resolves: the error is then the missing tables, not the address.
    let run = nana(&["serve", "--bind", "localhost", "--port", "0", "--no-solve"]);
    assert_error(&run, &["no tablebase at"]);
}

/// A disk that fills up as `nana serve` writes a table it solved in the background: a tmpfs with
/// room for one of Nana's two tables and little more. The server says it could not save the
/// other one and serves it from memory (`/api/health` names its origin), and the folder holds
/// nothing but the table that was there.
#[cfg(target_os = "linux")]
#[test]
fn serve_on_a_full_disk_serves_what_it_solved_from_memory() {
    let current = std::fs::read(table("current")).unwrap();
    let disk = Tmpfs::mount(&format!("{}", current.len() + 512 * 1024));
    std::fs::write(disk.path().join("nana-current.tb"), &current).unwrap();
    let d = disk.path().to_str().unwrap();
    let (child, addr, _) = start_serve(&["--game", "nana", "serve", "--port", "0", "--tablebase-dir", d]);
    let start = std::time::Instant::now();
    let health = loop {
        let (_, body) = http_get(&addr, "/api/health");
        let health: Json = serde_json::from_str(&body).unwrap();
        if health["status"] == "ok" {
            break health;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "{body}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let origin = |rules: &str| {
        let sets = health["rule_sets"].as_array().unwrap();
        let set = sets.iter().find(|r| r["rules"] == rules).unwrap_or_else(|| panic!("{health}"));
        s(&set["origin"]).to_string()
    };
    assert_eq!(
        (origin("current"), origin("original")),
        ("nana-current.tb".into(), "solved in memory".into())
    );
    let (status, body) = http_get(&addr, "/api/nana/original?fen=3/3/3_b_KRBkrb");
    let answer: Json = serde_json::from_str(&body).unwrap();
    assert_eq!((status, s(&answer["category"]), answer["dtm"].as_i64()), (200, "win", Some(31)), "{body}");
    stop_serve(child);
    let names: Vec<String> = std::fs::read_dir(disk.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["nana-current.tb"], "nothing beside the table that was there");
}
