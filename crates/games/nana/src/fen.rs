//! The position string: `<rank a>/<rank b>/<rank c> <side> <hands> [<ply>]`, e.g.
//! `3/3/3 b KRBkrb 1` (see `docs/RULES.md`).

use std::fmt;

use crate::position::{Position, PositionError, Setup};
use crate::types::{Color, Piece, Variant};
use crate::usi::echo;

/// Why a position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The string is not of the position-string form; `reason` names what is wrong.
    Syntax { input: String, reason: String },
    /// The string is well formed but the position is not legal.
    Illegal { input: String, error: PositionError },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Syntax { input, reason } => write!(f, "bad position {}: {reason}", echo(input)),
            ParseError::Illegal { input, error } => write!(f, "illegal position {}: {error}", echo(input)),
        }
    }
}

impl std::error::Error for ParseError {}

/// Shows a [`Setup`] as a position string (canonical form).
#[derive(Debug)]
pub struct Fen(pub Setup);

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.0;
        for rank in 0..3 {
            if rank > 0 {
                f.write_str("/")?;
            }
            let mut empty = 0;
            for col in 0..3 {
                match s.board[rank * 3 + col] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
        }
        let side = if s.side == Color::Black { 'b' } else { 'w' };
        write!(f, " {side} ")?;
        let mut any = false;
        for color in Color::ALL {
            for (i, letter) in ['K', 'R', 'B'].into_iter().enumerate() {
                let n = s.hands[color.index()][i];
                if n == 0 {
                    continue;
                }
                any = true;
                if n > 1 {
                    write!(f, "{n}")?;
                }
                let letter = if color == Color::White { letter.to_ascii_lowercase() } else { letter };
                write!(f, "{letter}")?;
            }
        }
        if !any {
            f.write_str("-")?;
        }
        if let Some(ply) = s.ply {
            write!(f, " {ply}")?;
        }
        Ok(())
    }
}

fn syntax(input: &str, reason: impl Into<String>) -> ParseError {
    ParseError::Syntax { input: input.to_string(), reason: reason.into() }
}

/// Reads a position string into a [`Setup`] (no legality check beyond the form).
pub fn parse_setup(input: &str) -> Result<Setup, ParseError> {
    let fields: Vec<&str> = input.split_ascii_whitespace().collect();
    if fields.len() < 3 {
        return Err(syntax(input, "expected `<ranks> <side> <hands> [<ply>]`: too few fields"));
    }
    if fields.len() > 4 {
        return Err(syntax(input, format!("unexpected text after the ply number: {}", echo(fields[4]))));
    }
    let board = parse_board(input, fields[0])?;
    let side = match fields[1] {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(syntax(input, format!("side to move must be `b` or `w`, not {}", echo(other)))),
    };
    let hands = if fields[2] == "-" { [[0u8; 3]; 2] } else { parse_hands(input, fields[2])? };
    let ply = match fields.get(3) {
        None => None,
        Some(p) => match p.parse::<u32>() {
            Ok(n) if n >= 1 && p.chars().all(|c| c.is_ascii_digit()) => Some(n),
            _ => return Err(syntax(input, format!("ply must be a positive number, not {}", echo(p)))),
        },
    };
    Ok(Setup { board, hands, side, ply })
}

/// The board field `ranks` of the position string `input`.
fn parse_board(input: &str, ranks: &str) -> Result<[Option<Piece>; 9], ParseError> {
    let mut board = [None; 9];
    let ranks: Vec<&str> = ranks.split('/').collect();
    if ranks.len() != 3 {
        return Err(syntax(input, format!("expected 3 ranks separated by '/', found {}", ranks.len())));
    }
    for (r, rank) in ranks.iter().enumerate() {
        let name = (b'a' + r as u8) as char;
        let mut col = 0usize;
        let mut last_digit = false;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=3).contains(&d) {
                    return Err(syntax(input, format!("rank {name}: empty-square count {d} is not 1..3")));
                }
                if last_digit {
                    return Err(syntax(input, format!("rank {name}: two digits in a row")));
                }
                last_digit = true;
                col += d as usize;
            } else if let Some(p) = Piece::from_char(c) {
                last_digit = false;
                if col < 3 {
                    board[r * 3 + col] = Some(p);
                }
                col += 1;
            } else {
                return Err(syntax(input, format!("rank {name}: {c:?} is not a piece letter or digit")));
            }
            if col > 3 {
                return Err(syntax(input, format!("rank {name} has more than 3 squares")));
            }
        }
        if col < 3 {
            return Err(syntax(input, format!("rank {name} has {col} squares, expected 3")));
        }
    }
    Ok(board)
}

/// The hands field `field` (not `-`) of the position string `input`.
fn parse_hands(input: &str, field: &str) -> Result<[[u8; 3]; 2], ParseError> {
    let mut hands = [[0u8; 3]; 2];
    let mut count: Option<u8> = None;
    for c in field.chars() {
        if let Some(d) = c.to_digit(10) {
            if count.is_some() {
                return Err(syntax(input, "hand: two digits in a row"));
            }
            if d != 2 {
                return Err(syntax(
                    input,
                    format!("hand: count {d} (a side holds at most 2 of a kind; write 2 or nothing)"),
                ));
            }
            count = Some(d as u8);
            continue;
        }
        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
        let slot = match c.to_ascii_uppercase() {
            'K' => 0,
            'R' => 1,
            'B' => 2,
            _ => {
                return Err(syntax(
                    input,
                    format!("hand: {c:?} is not K, R (O cube) or B (D cube), in either case"),
                ))
            }
        };
        let n = count.take().unwrap_or(1);
        let h = &mut hands[color.index()][slot];
        *h += n;
        if *h > 2 {
            return Err(syntax(input, format!("hand: more than 2 of {c:?}")));
        }
    }
    if count.is_some() {
        return Err(syntax(input, "hand: a count must be followed by a piece letter"));
    }
    Ok(hands)
}

/// Reads and validates a position string.
pub fn parse_position(input: &str, variant: Variant) -> Result<Position, ParseError> {
    let setup = parse_setup(input)?;
    Position::from_setup(&setup, variant)
        .map_err(|error| ParseError::Illegal { input: input.to_string(), error })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let s = parse_setup("3/3/3 b KRBkrb 1").unwrap();
        assert_eq!(s, Setup::start());
        assert_eq!(Fen(s).to_string(), "3/3/3 b KRBkrb 1");
        let p = parse_position("3/3/3 b KRBkrb", Variant::Current).unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), "3/3/3 b KRBkrb");
    }

    #[test]
    fn hands_parse_in_any_order_and_print_canonically() {
        let s = parse_setup("k2/3/2K w bBrR").unwrap();
        assert_eq!(Fen(s).to_string(), "k2/3/2K w RBrb");
        let s = parse_setup("k2/3/2K b 2B2r").unwrap();
        assert_eq!(Fen(s).to_string(), "k2/3/2K b 2B2r");
    }

    #[test]
    fn rejects_malformed_strings_with_a_reason() {
        let bad = [
            ("", "too few"),
            ("3/3 b -", "3 ranks"),
            ("3/3/3/3 b -", "3 ranks"),
            ("4/3/3 b KRBkrb", "not 1..3"),
            ("3/3/2 b KRBkrb", "2 squares"),
            ("K3/3/3 b -", "more than 3"),
            ("3/3/3 x KRBkrb", "side"),
            ("3/3/3 b KRBkrbX", "hand"),
            ("3/3/3 b 3B", "count 3"),
            ("3/3/3 b KRBkrb 0", "ply"),
            ("3/3/3 b KRBkrb 1 extra", "unexpected"),
            ("3/1x1/3 b KRBkrb", "not a piece"),
            ("12/3/3 b KRBkrb", "two digits"),
        ];
        for (input, needle) in bad {
            let err = parse_setup(input).unwrap_err().to_string();
            assert!(err.contains(needle), "{input:?}: {err}");
        }
    }

    #[test]
    fn rejects_illegal_positions() {
        let v = Variant::Current;
        let illegal = |s: &str| parse_position(s, v).unwrap_err().to_string();
        assert!(illegal("K1K/3/2k b 2R2B").contains("black has 2 kings"));
        assert!(illegal("K2/3/2k b RB").contains("cubes"));
        assert!(illegal("Kk1/3/3 b 2R2B").contains("next to each other"));
        assert!(illegal("k2/R2/2K b R2B").contains("white is in check"));
        assert!(illegal("K2/R2/3 w Bkrb").contains("every cube must be in hand"));
        assert!(parse_position("K2/3/3 w RBkrb", v).is_ok());
        assert!(illegal("K2/3/3 b RBkrb").contains("White's"));
        assert!(illegal("3/3/3 b KRBkrbR").contains("cubes"));
    }
}
