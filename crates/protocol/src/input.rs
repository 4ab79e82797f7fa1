//! Where the engine's lines come from: [`Input`], read in order from the caller's reader
//! ([`crate::run`]) or by a thread of its own ([`crate::run_concurrent`]), whose lines the engine
//! looks at while it solves a table, so that `quit` is obeyed at once.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// A line as read: its bytes, or the read's error.
type Line = io::Result<Vec<u8>>;

/// The engine's input.
pub(crate) enum Input<'i> {
    /// Read in order: nothing is read while a command runs.
    Direct(&'i mut dyn BufRead),
    /// Read by a thread of its own. `waiting` holds the lines that came while a table was being
    /// solved, to be handled after it in order; `ended` says the reader has stopped.
    Reader { lines: Receiver<Line>, waiting: VecDeque<Line>, ended: bool },
}

impl<'i> Input<'i> {
    /// Starts a thread that reads `input` line by line until its end or a read error. The
    /// thread is not joined: it ends with the input, or with the process.
    pub(crate) fn reader(mut input: impl BufRead + Send + 'static) -> Input<'i> {
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || loop {
            let mut bytes = Vec::new();
            let line = match input.read_until(b'\n', &mut bytes) {
                Ok(0) => return,
                Ok(_) => Ok(bytes),
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
    pub(crate) fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        match self {
            Input::Direct(input) => {
                let mut bytes = Vec::new();
                Ok((input.read_until(b'\n', &mut bytes)? > 0).then_some(bytes))
            }
            Input::Reader { lines, waiting, .. } => match waiting.pop_front() {
                Some(line) => line.map(Some),
                None => lines.recv().map_or(Ok(None), |line| line.map(Some)),
            },
        }
    }

    /// Takes the lines read so far without waiting (nothing for [`Input::Direct`]): whether
    /// one of them is `quit`. The others wait for [`Input::next`]; the input's end is not a
    /// `quit` (the commands before it are answered first).
    pub(crate) fn quit_sent(&mut self) -> bool {
        let Input::Reader { lines, waiting, ended } = self else { return false };
        while !*ended {
            match lines.try_recv() {
                Ok(Ok(bytes)) if is_quit(&bytes) => return true,
                Ok(line) => waiting.push_back(line),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => *ended = true,
            }
        }
        false
    }
}

/// Whether `bytes` is the line `quit`.
fn is_quit(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|line| line.split_whitespace().next() == Some("quit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quit_among_the_lines_read_is_seen_and_the_others_wait() {
        let mut input = Input::reader(io::Cursor::new(b"isready\nstop\nquit\nd\n".to_vec()));
        let mut seen = false;
        for _ in 0..200 {
            seen = input.quit_sent();
            if seen {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(seen);
        assert_eq!(input.next().unwrap().as_deref(), Some(&b"isready\n"[..]));
        assert_eq!(input.next().unwrap().as_deref(), Some(&b"stop\n"[..]));
        assert_eq!(input.next().unwrap().as_deref(), Some(&b"d\n"[..]));
        assert_eq!(input.next().unwrap(), None);
    }
}
