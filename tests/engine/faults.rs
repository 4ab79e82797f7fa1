//! A device that fails to read one block of the table the engine answers from (EIO): the engine
//! runs in process, its game's table read through a source that fails the reads touching the
//! block of the start's entry while a switch is on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use nana_fixture::FailingReads;
use nana_probe::table::Table;
use nana_probe::ProbeRules;
use nana_protocol::{DynEngine, GameEngine, Setup};
use nana_shogi::Nana;
use nana_tablebase::Tablebase;

/// The read switch of [`failing_engine`]'s source: while it is on, the reads touching `fail`
/// fail.
#[derive(Debug, Clone)]
struct Failing {
    bytes: Arc<Vec<u8>>,
    fail: std::ops::Range<usize>,
    armed: Arc<AtomicBool>,
}

/// A Nana engine answering its default rules from the fixture's table read through
/// [`nana_fixture::FailingReads`].
fn failing_engine(failing: &Failing) -> Box<dyn DynEngine> {
    let Failing { bytes, fail, armed } = failing.clone();
    let source = FailingReads { bytes, fail, armed };
    let tb = Tablebase::from_reader(Box::new(source), "nana-current.tb").expect("the index reads");
    let table = Table::from_tablebase(nana_shogi::Rules::default(), tb).expect("the table opens");
    Box::new(GameEngine::<Nana>::new().with_table(table))
}

/// The engine's output for `commands` (after `uci`), over `engine` alone, line by line, but the
/// line saying a table was opened.
fn dialogue(engine: Box<dyn DynEngine>, commands: &[String]) -> Vec<String> {
    let dir = nana_fixture::path(nana_shogi::Rules::default()).parent().expect("a folder").to_path_buf();
    let setup = Setup {
        default_game: engine.protocol_name(),
        engines: vec![engine],
        name: "nana".into(),
        author: "test".into(),
        tablebase_dir: dir,
    };
    let input = format!("uci\n{}\nquit\n", commands.join("\n"));
    let mut out = Vec::new();
    nana_protocol::run(setup, &mut input.as_bytes(), &mut out).expect("the engine runs");
    let text = String::from_utf8(out).expect("UTF-8");
    // The engine over the folder says it opened the table; the other had it open already.
    let opened = |l: &&str| l.starts_with("info string table ") && l.ends_with(" open");
    text.lines().skip_while(|l| *l != "uciok").skip(1).filter(|l| !opened(l)).map(str::to_owned).collect()
}

/// The lines of each `go` in `lines`: what came from the one before it up to its `bestmove`.
fn answers(lines: &[String]) -> Vec<Vec<String>> {
    let mut answers = vec![Vec::new()];
    for line in lines {
        answers.last_mut().expect("one").push(line.clone());
        if line.starts_with("bestmove") {
            answers.push(Vec::new());
        }
    }
    answers.pop();
    answers
}

/// `go` at the start is an `info string error` naming the failed read and `bestmove (none)`,
/// each time; the positions along the start's principal variation answer as the engine over the
/// intact table does, or with the same error where their answer needs the failed block; once
/// the device reads again, the start answers too.
#[test]
fn a_failing_read_is_an_error_for_its_positions_and_the_engine_answers_the_rest() {
    let rules = nana_shogi::Rules::default();
    let bytes = std::fs::read(nana_fixture::path(rules)).expect("the fixture's table");
    let (fail, _) =
        nana_fixture::block_bytes_of(&bytes, rules.file_order().place(rules.index(&rules.start())));
    let armed = Arc::new(AtomicBool::new(true));
    let failing = Failing { bytes: Arc::new(bytes), fail, armed: armed.clone() };
    let start = ["position startpos".to_string(), "go".to_string()];
    let intact_start = dialogue(GameEngine::<Nana>::boxed(), &start);
    let pv: Vec<&str> = intact_start
        .iter()
        .find_map(|l| l.split_once(" pv ").map(|(_, pv)| pv.split(' ').collect()))
        .expect("a principal variation");
    let mut commands = vec!["position startpos".to_string(), "go".to_string(), "go".to_string()];
    for k in 1..pv.len() {
        commands.push(format!("position startpos moves {}", pv[..k].join(" ")));
        commands.push("go".to_string());
    }
    let got = answers(&dialogue(failing_engine(&failing), &commands));
    let want = answers(&dialogue(GameEngine::<Nana>::boxed(), &commands));
    assert_eq!(got.len(), want.len(), "{got:?}");
    for answer in &got[..2] {
        let error = answer.iter().find(|l| l.starts_with("info string error: go: ")).expect("an error line");
        assert!(error.contains("cannot read bytes") && error.contains("os error 5"), "{answer:?}");
        assert_eq!(answer.last().map(String::as_str), Some("bestmove (none)"), "{answer:?}");
    }
    let (mut same, mut refused) = (0, 0);
    for (got, want) in got[2..].iter().zip(&want[2..]) {
        if got == want {
            same += 1;
        } else {
            assert!(got.iter().any(|l| l.contains("os error 5")), "{got:?} against {want:?}");
            refused += 1;
        }
    }
    assert!(same >= 3, "{same} positions answered, {refused} refused");
    armed.store(false, Ordering::SeqCst);
    assert_eq!(dialogue(failing_engine(&failing), &start), intact_start, "the start once the device reads");
    eprintln!(
        "the start refused; of the {} positions along its line, {same} answered, {refused} refused",
        pv.len() - 1
    );
}
