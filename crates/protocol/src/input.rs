//! Where the engine's lines come from: [`Input`], read in order from the caller's reader
//! ([`crate::run`]) or by a thread of its own ([`crate::run_concurrent`]), whose lines the engine
//! looks at while it solves a table, so that `quit` is obeyed at once.
//!
//! What the input may hold in memory is bounded: a line is kept up to [`MAX_LINE`] bytes (a
//! longer one is read to its end and reported, not kept), the reader thread hands lines over
//! through a channel of [`CHANNEL_LINES`] (when it is full the thread waits, and so does a GUI
//! writing to the engine's full pipe), and at most [`MAX_WAITING`] lines are taken to wait while
//! a table is solved (the later ones stay in the channel and the pipe: none is lost, but a `quit`
//! among them is seen only once the solve ends).

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// The longest line kept, in bytes with its newline: room for a `position` with thousands of
/// moves.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// The lines the reader thread may have read ahead of the engine.
const CHANNEL_LINES: usize = 64;

/// The most lines taken to wait while a table is solved.
pub(crate) const MAX_WAITING: usize = 256;

/// What the input gives the engine.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line's bytes, its newline included.
    Text(Vec<u8>),
    /// A line of more than [`MAX_LINE`] bytes (how many), read but not kept.
    TooLong(u64),
}

/// The engine's input.
pub(crate) enum Input<'i> {
    /// Read in order: nothing is read while a command runs.
    Direct(&'i mut dyn BufRead),
    /// Read by a thread of its own. `waiting` holds the lines that came while a table was being
    /// solved, to be handled after it in order; `ended` says the reader has stopped.
    Reader { lines: Receiver<io::Result<Line>>, waiting: VecDeque<io::Result<Line>>, ended: bool },
}

impl<'i> Input<'i> {
    /// Starts a thread that reads `input` line by line until its end or a read error. The
    /// thread is not joined: it ends with the input, or with the process.
    pub(crate) fn reader(mut input: impl BufRead + Send + 'static) -> Input<'i> {
        let (send, lines) = mpsc::sync_channel(CHANNEL_LINES);
        std::thread::spawn(move || loop {
            let line = match read_line(&mut input) {
                Ok(None) => return,
                Ok(Some(line)) => Ok(line),
                Err(e) => Err(e),
            };
            let failed = line.is_err();
            if send.send(line).is_err() || failed {
                return;
            }
        });
        Input::Reader { lines, waiting: VecDeque::new(), ended: false }
    }

    /// The next line, waiting for it; `None` at the input's end.
    pub(crate) fn next(&mut self) -> io::Result<Option<Line>> {
        match self {
            Input::Direct(input) => read_line(*input),
            Input::Reader { lines, waiting, .. } => match waiting.pop_front() {
                Some(line) => line.map(Some),
                None => lines.recv().map_or(Ok(None), |line| line.map(Some)),
            },
        }
    }

    /// Takes the lines read so far without waiting (nothing for [`Input::Direct`]), up to
    /// [`MAX_WAITING`] in all: whether one of them is `quit`. The others wait for
    /// [`Input::next`]; the input's end is not a `quit` (the commands before it are answered
    /// first).
    pub(crate) fn quit_sent(&mut self) -> bool {
        let Input::Reader { lines, waiting, ended } = self else { return false };
        while !*ended && waiting.len() < MAX_WAITING {
            match lines.try_recv() {
                Ok(Ok(Line::Text(bytes))) if is_quit(&bytes) => return true,
                Ok(line) => waiting.push_back(line),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => *ended = true,
            }
        }
        false
    }
}

/// Reads a line, keeping at most [`MAX_LINE`] bytes of it; `None` at the input's end.
fn read_line(input: &mut (impl BufRead + ?Sized)) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut len: u64 = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        let end = available.iter().position(|&b| b == b'\n').map(|i| i + 1);
        let chunk = &available[..end.unwrap_or(available.len())];
        len += chunk.len() as u64;
        if len <= MAX_LINE as u64 {
            bytes.extend_from_slice(chunk);
        } else if !bytes.is_empty() {
            bytes = Vec::new();
        }
        let n = chunk.len();
        input.consume(n);
        if end.is_some() {
            break;
        }
    }
    Ok(match len {
        0 => None,
        len if len > MAX_LINE as u64 => Some(Line::TooLong(len)),
        _ => Some(Line::Text(bytes)),
    })
}

/// Whether `bytes` is the line `quit`.
fn is_quit(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|line| line.split_whitespace().next() == Some("quit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &str) -> Option<Line> {
        Some(Line::Text(line.as_bytes().to_vec()))
    }

    /// Calls `quit_sent` until it is true (the reader thread runs on its own).
    fn until_quit_seen(input: &mut Input<'_>) {
        for _ in 0..400 {
            if input.quit_sent() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("quit not seen");
    }

    #[test]
    fn quit_among_the_lines_read_is_seen_and_the_others_wait() {
        let mut input = Input::reader(io::Cursor::new(b"isready\nstop\nquit\nd\n".to_vec()));
        until_quit_seen(&mut input);
        assert_eq!(input.next().unwrap(), text("isready\n"));
        assert_eq!(input.next().unwrap(), text("stop\n"));
        assert_eq!(input.next().unwrap(), text("d\n"));
        assert_eq!(input.next().unwrap(), None);
    }

    #[test]
    fn a_line_over_the_limit_is_reported_not_kept_and_the_next_one_reads() {
        for (long, kept) in [(MAX_LINE - 1, true), (MAX_LINE, false), (3 * MAX_LINE + 17, false)] {
            let mut bytes = vec![b'x'; long];
            bytes.extend_from_slice(b"\nisready\nlast");
            let line = |input: &mut Input<'_>| input.next().unwrap();
            let mut cursor = io::Cursor::new(bytes.clone());
            let mut direct = Input::Direct(&mut cursor);
            let mut reader = Input::reader(io::Cursor::new(bytes));
            for input in [&mut direct, &mut reader] {
                let first = line(input);
                if kept {
                    assert_eq!(first, Some(Line::Text([vec![b'x'; long], b"\n".to_vec()].concat())));
                } else {
                    assert_eq!(first, Some(Line::TooLong(long as u64 + 1)));
                }
                assert_eq!(line(input), text("isready\n"));
                assert_eq!(line(input), text("last"));
                assert_eq!(line(input), None);
            }
        }
    }

    #[test]
    fn lines_beyond_those_taken_while_solving_wait_in_order_and_none_is_lost() {
        let sent = MAX_WAITING + 1000;
        let mut bytes: Vec<u8> = (0..sent).flat_map(|i| format!("isready {i}\n").into_bytes()).collect();
        bytes.extend_from_slice(b"quit\n");
        let mut input = Input::reader(io::Cursor::new(bytes));
        // The `quit` behind the backlog is not reached: no more than MAX_WAITING lines are taken.
        for _ in 0..100 {
            assert!(!input.quit_sent());
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let Input::Reader { waiting, .. } = &input else { unreachable!() };
        assert_eq!(waiting.len(), MAX_WAITING);
        for i in 0..sent {
            assert_eq!(input.next().unwrap(), text(&format!("isready {i}\n")));
        }
        assert_eq!(input.next().unwrap(), text("quit\n"));
        assert_eq!(input.next().unwrap(), None);
    }
}
