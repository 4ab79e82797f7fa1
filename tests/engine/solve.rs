//! `nana engine` while it solves a missing table: `quit` ends it at once, leaving no file, and
//! the other commands sent meanwhile are answered after the solve, in order.

use std::time::{Duration, Instant};

use crate::Engine;

/// How soon the engine must end after `quit`, however long the solve would take (Dobutsu's
/// takes a minute and more).
const QUIT_WITHIN: Duration = Duration::from_secs(10);

/// Starts the engine over the empty folder `dir` with Dobutsu set, and waits for the solve that
/// `commands` start to be announced.
fn solving_dobutsu(dir: &std::path::Path, commands: &[&str]) -> Engine {
    let mut engine = Engine::nana(dir);
    engine.send("uci");
    engine.until("uciok");
    engine.send("setoption name UCI_Variant value dobutsu");
    for command in commands {
        engine.send(command);
    }
    let announced = engine.until("info string no table at ");
    assert!(announced.last().is_some_and(|l| l.contains("dobutsu-tanaka.tb")), "{announced:?}");
    // Well into the solve.
    std::thread::sleep(Duration::from_millis(500));
    engine
}

/// Sends `quit` and asserts that the engine ends, with success, within [`QUIT_WITHIN`].
fn quits_at_once(engine: &mut Engine) {
    let sent = Instant::now();
    engine.send("quit");
    let status = engine.ends_within(QUIT_WITHIN);
    let status = status.unwrap_or_else(|| panic!("the engine did not end within {QUIT_WITHIN:?} of quit"));
    assert!(status.success(), "{status}");
    assert!(sent.elapsed() < QUIT_WITHIN);
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let entries = std::fs::read_dir(dir).expect("the folder");
    entries.map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned()).collect()
}

#[test]
fn quit_during_the_solve_of_isready_ends_the_engine_and_leaves_no_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut engine = solving_dobutsu(dir.path(), &["isready"]);
    quits_at_once(&mut engine);
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn quit_during_the_solve_of_go_ends_the_engine_without_a_bestmove() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut engine = solving_dobutsu(dir.path(), &["position startpos", "go"]);
    // Commands before the quit are kept for after the solve, which never comes.
    engine.send("isready");
    engine.send("stop");
    quits_at_once(&mut engine);
    assert_eq!(engine.rest(), Vec::<String>::new(), "no line after the announcement");
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

/// Nana's table solves in seconds: the commands sent during its solve are answered after it,
/// in order.
#[test]
fn commands_sent_during_a_solve_are_answered_after_it_in_order() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut engine = Engine::nana(dir.path());
    engine.send("uci");
    engine.until("uciok");
    engine.send("position startpos");
    engine.send("isready");
    engine.until("info string no table at ");
    engine.send("go");
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(lines.last().is_some_and(|l| l == "readyok"), "{lines:?}");
    let lines = engine.until("readyok");
    let best = lines.iter().position(|l| l.starts_with("bestmove ")).expect("go's answer");
    assert_eq!(best, lines.len() - 2, "{lines:?}");
    assert_eq!(files_in(dir.path()), Vec::<String>::new(), "the engine solves in memory");
}
