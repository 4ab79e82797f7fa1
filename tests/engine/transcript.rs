//! `nana engine` on its own: a transcript of each dialect replayed line by line, and perfect play
//! after random legal move sequences in both dialects and both games.

use std::path::Path;

use nana_engine::Value;
use nana_front::{Pos, ProtocolNotation};
use nana_probe::table::Table;
use nana_probe::ProbeRules;
use nana_protocol::{score, Dialect};

use crate::fairy::nana;
use crate::{dobutsu_dir, Engine, Rng};

/// Replays `tests/engine/NAME`: `> COMMAND` is sent, `< LINE` is the next line expected,
/// `<~ PREFIX` the start of the next line; `{dir}` stands for the tables' folder and
/// `{version}` for the version. Nothing else may be printed.
fn replay(name: &str, dir: &Path) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine").join(name);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let fill = |s: &str| {
        s.replace("{dir}", &dir.display().to_string()).replace("{version}", env!("CARGO_PKG_VERSION"))
    };
    let mut engine = Engine::nana(dir);
    for (n, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", n + 1);
        if let Some(command) = line.strip_prefix("> ") {
            engine.send(&fill(command));
        } else if let Some(prefix) = line.strip_prefix("<~ ") {
            let got = engine.line();
            assert!(got.starts_with(&fill(prefix)), "{at}: expected a line starting {prefix:?}, got {got:?}");
        } else if let Some(expected) = line.strip_prefix("< ") {
            assert_eq!(engine.line(), fill(expected), "{at}");
        } else {
            assert!(line.is_empty() || line.starts_with('#'), "{at}: not a transcript line: {line:?}");
        }
    }
    if text.lines().rev().find(|l| l.starts_with("> ")) == Some("> quit") {
        // `quit` ends the engine without another word.
        assert_eq!(engine.finish(), Vec::<String>::new(), "{name}: lines after quit");
    } else {
        assert_eq!(engine.sync(), Vec::<String>::new(), "{name}: lines after the transcript");
    }
}

#[test]
fn uci_transcript() {
    // It ends with Nana's start.
    nana_fixture::path(nana_shogi::Rules::CURRENT);
    replay("uci.txt", &dobutsu_dir());
}

#[test]
fn usi_transcript() {
    replay("usi.txt", &dobutsu_dir());
}

/// After each of `sequences` random move sequences from the start (any legal moves, until the
/// game ends by our rules or up to 40 plies), `go` answers with the table's value in the
/// dialect's score and a best move: one that keeps that value; where the rules count the game
/// as won before it is played out, the move that finishes it; where it is over, no move.
fn perfect_play<G: ProtocolNotation>(
    engine: &mut Engine,
    table: &Table<G::Rules>,
    dialect: Dialect,
    seed: u64,
    sequences: usize,
) {
    let rules = *table.game();
    let probe = table.probe();
    let mut rng = Rng::new(seed);
    let mut answered = 0;
    for _ in 0..sequences {
        let mut pos: Pos<G> = rules.start();
        let mut moves = Vec::new();
        let plies = rng.below(40);
        for ply in 0..plies {
            // Moves after which the game goes on, but the last move one time in four is any
            // legal move, so that most sequences end where the game goes on.
            let (mut legal, mut going_on) = (Vec::new(), Vec::new());
            rules.for_each_move(&pos, |mv, child| {
                legal.push(mv);
                if rules.terminal(child).is_none() {
                    going_on.push(mv);
                }
            });
            if legal.is_empty() {
                break;
            }
            if !going_on.is_empty() && (ply + 1 < plies || rng.below(4) != 0) {
                legal = going_on;
            }
            let mv = legal[rng.below(legal.len())];
            moves.push(G::protocol_move(&rules, &pos, mv, dialect));
            pos = rules.play(&pos, mv);
        }
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let go = match dialect {
            Dialect::Uci => "go wtime 1000 btime 1000 winc 0 binc 0",
            Dialect::Usi => "go btime 0 wtime 0 byoyomi 1000",
        };
        engine.send(go);
        let lines = engine.until("bestmove");
        let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move").to_string();
        let value = probe.value(&pos).expect("a position of the table");
        let context = format!("{} after {moves:?}: {lines:?}", rules.position_string(&pos));
        let first = lines.iter().find(|l| l.starts_with("info depth"));
        if let Some(over) = rules.terminal(&pos) {
            let none = match (dialect, over.value) {
                (Dialect::Uci, _) => "(none)",
                (Dialect::Usi, Value::Win(_)) => "win",
                (Dialect::Usi, _) => "resign",
            };
            assert_eq!(best, none, "{context}");
            continue;
        }
        assert!(
            first.is_some_and(|l| l.contains(&format!(" score {} pv ", score(value, dialect)))),
            "{context}"
        );
        let mv =
            G::parse_protocol_move(&rules, &pos, &best, dialect).unwrap_or_else(|e| panic!("{context}: {e}"));
        let ranked = probe.ranked_moves(&pos).expect("ranked moves");
        let chosen =
            ranked.iter().find(|m| rules.machine_notation(&pos, m.mv) == rules.machine_notation(&pos, mv));
        assert_eq!(chosen.map(|m| m.value_before()), Some(value), "{context}");
        answered += 1;
    }
    assert!(answered > sequences / 2, "{answered} of {sequences}");
}

#[test]
fn dobutsu_perfect_play_after_any_moves() {
    let table = nana_fixture::table(dobutsu_shogi::Rules::TANAKA);
    for dialect in [Dialect::Uci, Dialect::Usi] {
        let mut engine = nana(dialect);
        perfect_play::<dobutsu_shogi::Dobutsu>(&mut engine, &table, dialect, 78 + dialect as u64, 150);
    }
}

#[test]
fn nana_perfect_play_after_any_moves() {
    let table = nana_fixture::table(nana_shogi::Rules::CURRENT);
    let dir = nana_fixture::run_dir();
    for dialect in [Dialect::Uci, Dialect::Usi] {
        let mut engine = Engine::nana(&dir);
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Usi => ("usi", "usiok"),
        };
        engine.send(hello);
        engine.until(ok);
        perfect_play::<nana_shogi::Nana>(&mut engine, &table, dialect, 31, 60);
    }
}

/// Thousands of lines made of the protocol's words, squares, numbers and junk (a line that is
/// not UTF-8, a long one among them): the engine answers each with at most some error lines,
/// never a crash, and is ready after them.
///
/// Long: most of it is the list of words the junk is made of.
#[test]
fn junk_never_stops_the_engine() {
    const WORDS: &[&str] = &[
        "uci",
        "usi",
        "isready",
        "position",
        "startpos",
        "fen",
        "sfen",
        "moves",
        "go",
        "perft",
        "stop",
        "ponderhit",
        "setoption",
        "name",
        "value",
        "UCI_Variant",
        "USI_Variant",
        "dobutsu",
        "nana",
        "MultiPV",
        "Strength",
        "Seed",
        "DobutsuRules",
        "NanaRules",
        "tanaka",
        "original",
        "searchmoves",
        "infinite",
        "ponder",
        "d",
        "b2b3",
        "2c2b",
        "C@b3",
        "C*2b",
        "K*2a",
        "b3b4+",
        "-1",
        "0",
        "3",
        "11",
        "99999999999999999999",
        "gle/1c1/1C1/ELG[-]",
        "w",
        "b",
        "-",
        "[",
        "]",
        "é",
        "\t",
        "+",
    ];
    let mut engine = Engine::nana(&dobutsu_dir());
    let mut rng = Rng::new(404);
    let mut ready = 0;
    for i in 0..3000 {
        let n = 1 + rng.below(8);
        let mut line: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
        // Never leave the engine: `quit` is not among the words, and `go infinite` ends here.
        if line.first() == Some(&"go") && line.contains(&"perft") {
            line.truncate(1);
        }
        ready += usize::from(line[0] == "isready");
        engine.send(&line.join(" "));
        if i % 500 == 0 {
            engine.send_bytes(b"position \xff\xfe startpos");
            engine.send(&"x".repeat(100_000));
        }
    }
    engine.send("stop");
    for _ in 0..ready {
        engine.until("readyok");
    }
    engine.sync();
    engine.send("uci");
    engine.until("uciok");
    engine.send("setoption name UCI_Variant value dobutsu");
    engine.send("setoption name MultiPV value 1");
    engine.send("setoption name Strength value 20");
    engine.send("position startpos");
    engine.send("go");
    let lines = engine.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" score mate -39 ")), "{lines:?}");
}

/// The engine's input is bounded: a line of a mebibyte is read to its end and refused with an
/// `info string error` naming its length, not kept, and thousands of lines sent at once without
/// reading the answers (a flooding GUI) are each answered in order, the engine waiting on the
/// pipe rather than queueing them without limit.
#[test]
fn a_line_over_the_limit_is_refused_and_a_flood_of_lines_is_answered_in_order() {
    let mut engine = Engine::nana(&dobutsu_dir());
    engine.send("uci");
    engine.until("uciok");
    let long = "x".repeat(1 << 20);
    engine.send(&format!("position {long}"));
    let len = "position ".len() + long.len() + 1;
    assert_eq!(
        engine.sync(),
        [format!("info string error: a line of {len} bytes, over the 65536 read: ignored")]
    );
    // Just under the limit is read as a line: an unknown command, answered as one.
    let kept = "y".repeat(65_535 - 1);
    engine.send(&kept);
    let lines = engine.sync();
    assert!(
        lines.len() == 1 && !lines[0].contains("over the"),
        "{:?}",
        lines.iter().map(|l| &l[..l.len().min(80)]).collect::<Vec<_>>()
    );

    let flood = 20_000;
    let batch: String = (0..flood).map(|_| "isready\n").collect();
    engine.send_bytes(batch.trim_end().as_bytes());
    for i in 0..flood {
        assert_eq!(engine.line(), "readyok", "answer {i}");
    }
    engine.send("setoption name UCI_Variant value dobutsu");
    engine.send("position startpos");
    engine.send("go");
    let lines = engine.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" score mate -39 ")), "{lines:?}");
}

/// A table whose block of the start's entry is damaged: `go` refuses the start with an error
/// that names the block and gives the command that makes the table again, answers no move, and
/// the engine goes on.
#[test]
fn a_damaged_block_is_an_error_with_the_command_that_regenerates_it() {
    let rules = nana_shogi::Rules::default();
    let mut bytes = std::fs::read(nana_fixture::path(rules)).expect("the fixture's table");
    let block =
        nana_fixture::damage_block_of(&mut bytes, rules.file_order().place(rules.index(&rules.start())));
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join(nana_probe::table::TableRules::file_name(&rules)), &bytes)
        .expect("written");
    let mut engine = Engine::nana(dir.path());
    engine.send("uci");
    engine.until("uciok");
    engine.send("position startpos");
    engine.send("go");
    let lines = engine.until("bestmove");
    let named = format!("checksum mismatch in compressed block {block} ");
    let error = lines.iter().find(|l| l.starts_with("info string error: go: ")).expect("an error line");
    assert!(error.contains(&named), "{lines:?}");
    assert!(error.contains("; regenerate it with `nana --game nana solve --rules current`"), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"), "{lines:?}");
    assert!(engine.sync().is_empty(), "the engine goes on");
}
