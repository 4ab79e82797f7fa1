//! `nana engine`'s dialogue (UCI and USI), run in process on any sequence of lines: it never
//! panics or hangs, and it answers `bestmove` with a move only for a position it read, the
//! move legal there.
//!
//! The input is the lines sent, one per `\n`. After each line the harness sends `d`, which
//! prints the position the engine holds (or an error where it holds none), and reads the
//! answers line by line. The tables ([`nana_fuzz::tables`]): Nana's; every other rule set's
//! file is not a table, so that its `go` fails at once rather than solving (which is slow, not
//! wrong) and only positions where the game is over are answered. Two kinds of line are not
//! sent: `setoption` of the tables' folder (it would read the file system) and `go perft`
//! deeper than [`PERFT_DEPTH`] (slow by design; the protocol caps it at `PERFT_MAX`).
#![no_main]

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::rc::Rc;

use dobutsu_shogi::Dobutsu;
use libfuzzer_sys::fuzz_target;
use nana_front::{Dialect, PositionForm, ProtocolNotation};
use nana_fuzz::{every_rule_set, tables};
use nana_protocol::{run, GameEngine, Setup};
use nana_shogi::Nana;

/// The deepest `go perft` sent.
const PERFT_DEPTH: u32 = 3;

/// Whether `mv` is a legal move, in the dialect's form, of the position `fen` that `d` printed
/// under some rule set of `G`. Panics where `d` printed a position the game does not read.
fn legal<G: ProtocolNotation>(fen: &str, mv: &str, dialect: Dialect) -> bool {
    let mut read = false;
    for rules in every_rule_set::<G>() {
        let Ok(pos) = G::parse_protocol_position(&rules, fen, PositionForm::Fen) else { continue };
        read = true;
        if G::parse_protocol_move(&rules, &pos, mv, dialect).is_ok() {
            return true;
        }
    }
    assert!(read, "`d` printed {fen:?}, which {} does not read", G::NAME);
    false
}

/// The lines sent, one at a time; the length of the answers so far is noted when each line
/// is first read, so that the answers can be cut line by line.
struct Lines {
    lines: Vec<Vec<u8>>,
    /// The line being read and how much of it is read.
    at: Option<(usize, usize)>,
    out: Rc<RefCell<Vec<u8>>>,
    marks: Vec<usize>,
}

impl Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let available = self.fill_buf()?;
            let n = available.len().min(buf.len());
            buf[..n].copy_from_slice(&available[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Lines {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let next = match self.at {
            None => 0,
            Some((i, read)) if read == self.lines[i].len() => i + 1,
            Some(_) => usize::MAX,
        };
        if next != usize::MAX && next < self.lines.len() {
            self.marks.push(self.out.borrow().len());
            self.at = Some((next, 0));
        }
        match self.at {
            Some((i, read)) => Ok(&self.lines[i][read..]),
            None => Ok(&[]),
        }
    }

    fn consume(&mut self, n: usize) {
        if let Some((_, read)) = &mut self.at {
            *read += n;
        }
    }
}

struct Out(Rc<RefCell<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether the harness sends `line` (see the module docs).
fn sent(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["setoption", ..] => !text.contains("tablebase"),
        ["go", "perft", depth, ..] => depth.parse::<u32>().map_or(true, |d| d <= PERFT_DEPTH),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let setup = Setup {
        engines: vec![GameEngine::<Nana>::boxed(), GameEngine::<Dobutsu>::boxed()],
        default_game: Nana::PROTOCOL_NAME,
        name: "nana".to_string(),
        author: "fuzz".to_string(),
        tablebase_dir: tables().clone(),
    };
    // The engine's position before anything is sent, then each line followed by `d`.
    let mut lines = vec![b"d\n".to_vec()];
    for line in data.split(|&b| b == b'\n').filter(|l| sent(l)).take(64) {
        let mut line = line.to_vec();
        line.push(b'\n');
        lines.push(line);
        lines.push(b"d\n".to_vec());
    }
    let out = Rc::new(RefCell::new(Vec::new()));
    let mut input = Lines { lines, at: None, out: out.clone(), marks: Vec::new() };
    run(setup, &mut input, &mut Out(out.clone())).expect("writing to memory does not fail");
    let out = out.borrow();
    let mut marks = input.marks.clone();
    marks.push(out.len());
    // The answers to each line sent, as text.
    let answers: Vec<String> =
        marks.windows(2).map(|w| String::from_utf8_lossy(&out[w[0]..w[1]]).into_owned()).collect();

    let mut dialect = Dialect::Uci;
    // The position `d` last printed (`None`: the engine held none).
    let mut held: Option<String> = None;
    // A `go infinite` or `go ponder` waiting: the position and dialect it was asked in.
    let mut pending: Option<(Option<String>, Dialect)> = None;
    for (k, answer) in answers.iter().enumerate() {
        if k % 2 == 0 {
            // The answer to `d`.
            held = answer.lines().find_map(|l| l.strip_prefix("Fen: ")).map(str::to_string);
            if k == 0 {
                assert!(held.is_some(), "no start position: {answer:?}");
            } else if command(&input.lines[k - 1]).first() == Some(&"position") && has_error(&answers[k - 1])
            {
                assert!(held.is_none(), "a refused position, yet the engine holds {held:?}");
            }
            continue;
        }
        let words = command(&input.lines[k]);
        let bestmoves: Vec<&str> = answer.lines().filter_map(|l| l.strip_prefix("bestmove ")).collect();
        // Which position and dialect each `bestmove` answers.
        let mut asked: Vec<(Option<String>, Dialect)> = Vec::new();
        match words.first().copied() {
            Some("go") => {
                // A waiting answer goes first, whatever the `go`.
                asked.extend(pending.take());
                if words.get(1) != Some(&"perft") {
                    asked.push((held.clone(), dialect));
                    if words.iter().any(|&w| w == "infinite" || w == "ponder") {
                        pending = asked.pop();
                    }
                }
            }
            Some("stop" | "ponderhit") => asked.extend(pending.take()),
            Some("uci") => dialect = Dialect::Uci,
            Some("usi") => dialect = Dialect::Usi,
            _ => {}
        }
        assert_eq!(bestmoves.len(), asked.len(), "{words:?} answered {answer:?}");
        for (mv, (position, dialect)) in bestmoves.iter().zip(asked) {
            let mv = mv.split_whitespace().next().unwrap_or_default();
            if matches!(mv, "(none)" | "resign" | "win") {
                continue;
            }
            let Some(fen) = position else { panic!("bestmove {mv} with no position held: {words:?}") };
            let ok = if fen.split('/').count() == 3 {
                legal::<Nana>(&fen, mv, dialect)
            } else {
                legal::<Dobutsu>(&fen, mv, dialect)
            };
            assert!(ok, "bestmove {mv} is not legal in {fen}");
        }
    }
});

/// The words of a line as the engine reads them (none for a line that is not UTF-8).
fn command(line: &[u8]) -> Vec<&str> {
    std::str::from_utf8(line).unwrap_or_default().split_whitespace().collect()
}

/// Whether an answer holds an error line.
fn has_error(answer: &str) -> bool {
    answer.lines().any(|l| l.starts_with("info string error"))
}
