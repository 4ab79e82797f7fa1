//! USI-like move strings, for input and machine output: a board move is `<from><to>` (`2c2b`),
//! a drop `<FACE>*<to>` with the face letter in uppercase for either side (`T*1a`, `K*2c`).

use std::fmt;

use crate::position::Move;
use crate::types::{Role, Square};

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    pub input: String,
    pub reason: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move {}: {}", echo(&self.input), self.reason)
    }
}

impl std::error::Error for ParseMoveError {}

pub(crate) fn error(input: &str, reason: impl Into<String>) -> ParseMoveError {
    ParseMoveError { input: input.to_string(), reason: reason.into() }
}

pub use nana_probe::echo::{cut, echo, ECHO_CHARS};

/// Reads a square such as `2b`.
pub fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'1'..=b'3').contains(&b[0]) || !(b'a'..=b'c').contains(&b[1]) {
        return None;
    }
    Square::from_file_rank(b[0] - b'0', b[1] - b'a')
}

/// Reads a USI-like move. The move is not checked against any position.
pub fn parse(input: &str) -> Result<Move, ParseMoveError> {
    if !input.is_ascii() {
        return Err(error(input, "only ASCII characters are allowed"));
    }
    if let Some((face, to)) = input.split_once('*') {
        let mut chars = face.chars();
        let role = match (chars.next(), chars.next()) {
            (Some(c), None) => Role::from_letter(c).ok_or_else(|| {
                error(input, format!("{c:?} is not an uppercase piece letter (K R C W G B T S D)"))
            })?,
            _ => return Err(error(input, "a drop is one uppercase piece letter, '*', a square")),
        };
        let to =
            parse_square(to).ok_or_else(|| error(input, format!("{} is not a square (1a..3c)", echo(to))))?;
        return Ok(Move::Drop { role, to });
    }
    if input.len() != 4 {
        return Err(error(input, "expected a board move like 2c2b or a drop like T*1a"));
    }
    let from = parse_square(&input[..2])
        .ok_or_else(|| error(input, format!("{:?} is not a square (1a..3c)", &input[..2])))?;
    let to = parse_square(&input[2..])
        .ok_or_else(|| error(input, format!("{:?} is not a square (1a..3c)", &input[2..])))?;
    if from == to {
        return Err(error(input, "a move must change squares"));
    }
    Ok(Move::Board { from, to })
}

/// Writes a move in USI-like form.
pub fn format(mv: Move) -> String {
    match mv {
        Move::Board { from, to } => format!("{from}{to}"),
        Move::Drop { role, to } => format!("{}*{to}", role.letter()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_cut_to_a_readable_length() {
        assert_eq!(echo("K*2b"), "\"K*2b\"");
        let long = "é".repeat(ECHO_CHARS);
        assert_eq!(cut(&long), long, "exactly ECHO_CHARS characters are kept whole");
        let longer = "x".repeat(50_000_000);
        assert_eq!(cut(&longer), format!("{}…", "x".repeat(ECHO_CHARS)));
        let e = parse(&format!("{longer}*1a")).unwrap_err().to_string();
        assert!(e.len() < 200, "{} bytes", e.len());
        assert!(e.starts_with(&format!("bad move \"{}…\": ", "x".repeat(ECHO_CHARS))), "{e}");
    }

    #[test]
    fn round_trips_and_errors() {
        for s in ["2c2b", "1a3c", "T*1a", "K*2c", "R*3a"] {
            assert_eq!(format(parse(s).unwrap()), s);
        }
        for s in ["", "2c2c", "2c2", "4a1a", "t*1a", "TG*1a", "T*2d", "2c-2b", "é*1a"] {
            assert!(parse(s).is_err(), "{s}");
        }
    }
}
