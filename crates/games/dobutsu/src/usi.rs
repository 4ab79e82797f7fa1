//! Positions and moves as Fairy-Stockfish reads and writes them in USI mode (its `src/uci.cpp`
//! and `Position::fen` with `sfen`), for an engine driven over USI.
//!
//! A square: the file as a digit counted from the right (`a` is `3`, `c` is `1`), the rank as a
//! letter counted from the top (rank 4 is `a`, rank 1 is `d`): Fairy-Stockfish's `b2` is `2c`.
//!
//! A move: `2c2b`, a promotion `2b2a+`, a drop `C*2b` (upper case for both sides).
//!
//! A position (SFEN): `gle/1c1/1C1/ELG b - 1` — the board as the FEN writes it, `b` for the
//! first player to move and `w` for the second (the reverse of the FEN's letters), the hands
//! (the first player's upper case, then the second's; in the order lion, giraffe, chick,
//! elephant; a count before a piece held twice: `2C`; `-` for none) and a move number, ignored
//! on input.

use crate::fen::{self, ParseError};
use crate::position::{Move, Position};
use crate::types::{Role, Rules, Side, Square};

/// A square in USI form: `2c` for `b2`.
pub fn square(sq: Square) -> String {
    format!("{}{}", (b'3' - sq.file()) as char, (b'a' + 3 - sq.rank()) as char)
}

/// Reads a square in USI form.
fn parse_square(s: &str) -> Option<Square> {
    match s.as_bytes() {
        &[file @ b'1'..=b'3', rank @ b'a'..=b'd'] => Square::new(b'3' - file, 3 - (rank - b'a')),
        _ => None,
    }
}

/// A move in USI form: `2c2b`, `2b2a+`, `C*2b`.
pub fn format_move(mv: Move) -> String {
    match mv {
        Move::Step { from, to, promote } => {
            format!("{}{}{}", square(from), square(to), if promote { "+" } else { "" })
        }
        Move::Drop { role, to } => format!("{}*{}", role.letter(), square(to)),
    }
}

/// Reads a legal move of `pos` in USI form (the promotion sign may be left out, as in the FEN
/// form); the error names the input as given.
pub fn parse_move(pos: &Position, rules: &Rules, input: &str) -> Result<Move, ParseError> {
    let s = input.trim();
    let err = |reason: &str| ParseError::new(input, reason);
    let fen_form = if let Some((piece, to)) = s.split_once('*') {
        let to = parse_square(to).ok_or_else(|| err("no square 3a to 1d to drop on"))?;
        format!("{piece}@{to}")
    } else {
        let (squares, promote) = match s.strip_suffix('+') {
            Some(rest) => (rest, "+"),
            None => (s, ""),
        };
        if squares.len() != 4 || !squares.is_ascii() {
            return Err(err("a USI move is two squares, as 2c2b (2b2a+ promotes), or a drop, as C*2b"));
        }
        let from = parse_square(&squares[..2]).ok_or_else(|| err("the first square is not 3a to 1d"))?;
        let to = parse_square(&squares[2..]).ok_or_else(|| err("the second square is not 3a to 1d"))?;
        format!("{from}{to}{promote}")
    };
    fen::parse_move(pos, rules, &fen_form).map_err(|e| {
        // The reason names the move in USI form too.
        let reason = match fen::parse_move_text(&fen_form) {
            Ok(mv) => e.reason.replace(&mv.to_string(), &format_move(mv)),
            Err(_) => e.reason,
        };
        ParseError::new(input, reason)
    })
}

/// A position in SFEN form, move number 1.
pub fn format_position(pos: &Position) -> String {
    let fen = pos.to_string();
    let board = fen.split('[').next().unwrap_or_default();
    let mut hands = String::new();
    for side in Side::BOTH {
        let case = |c: char| if side == Side::First { c } else { c.to_ascii_lowercase() };
        if pos.lion(side.other()).is_none() {
            hands.push(case('L'));
        }
        for role in [Role::Giraffe, Role::Chick, Role::Elephant] {
            match pos.hand(side, role) {
                0 => {}
                1 => hands.push(case(role.letter())),
                n => hands += &format!("{n}{}", case(role.letter())),
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    let side = if pos.side_to_move() == Side::First { 'b' } else { 'w' };
    format!("{board} {side} {hands} 1")
}

/// Reads a position in SFEN form; the error names the input as given.
pub fn parse_position(input: &str) -> Result<Position, ParseError> {
    let err = |reason: &str| ParseError::new(input, reason);
    let mut words = input.split_whitespace();
    let board = words.next().ok_or_else(|| err("empty position"))?;
    if board.contains('[') {
        return Err(err("an SFEN gives the hands after the side to move, not in brackets"));
    }
    let side = match words.next() {
        Some("b") => "w",
        Some("w") => "b",
        Some(_) => return Err(err("the side to move is 'b' (first player) or 'w' (second player)")),
        None => return Err(err("no side to move ('b' or 'w')")),
    };
    let mut hands = String::new();
    let hand_text = words.next().unwrap_or("-");
    if hand_text != "-" {
        let mut count = None;
        for c in hand_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if count.is_some() || d < 2 {
                    return Err(err("a count in the hands is one digit from 2, before a piece"));
                }
                count = Some(d);
            } else if c.is_ascii_alphabetic() {
                for _ in 0..count.take().unwrap_or(1) {
                    hands.push(c);
                }
            } else {
                return Err(err("the hands are piece letters, each after an optional count"));
            }
        }
        if count.is_some() {
            return Err(err("a count at the end of the hands"));
        }
    }
    for w in words {
        if w.parse::<u32>().is_err() {
            return Err(err("only a move number may follow the hands"));
        }
    }
    let fen_form = format!("{board}[{}] {side}", if hands.is_empty() { "-" } else { &hands });
    fen::parse_position(&fen_form).map_err(|e| ParseError::new(input, e.reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The forms Fairy-Stockfish 11.1 prints in USI mode (`d` after these moves).
    #[test]
    fn fairy_stockfish_usi_forms() {
        let rules = Rules::TANAKA;
        let start = Position::start();
        assert_eq!(format_position(&start), "gle/1c1/1C1/ELG b - 1");
        assert_eq!(parse_position("gle/1c1/1C1/ELG b - 1"), Ok(start));
        let mv = parse_move(&start, &rules, "2c2b").unwrap();
        assert_eq!(mv.to_string(), "b2b3");
        assert_eq!(format_move(mv), "2c2b");
        let after = start.play_unchecked(mv);
        assert_eq!(format_position(&after), "gle/1C1/3/ELG w C 1");
        assert_eq!(parse_position("gle/1C1/3/ELG w C 2"), Ok(after));
        let pos = parse_position("3/1l1/1L1/3 b GCEgce 1").unwrap();
        assert_eq!(pos.to_string(), "3/1l1/1L1/3[GCEgce] w 0 1");
        let pos = parse_position("3/1l1/1L1/3 b 2G2C2E 1").unwrap();
        assert_eq!(format_position(&pos), "3/1l1/1L1/3 b 2G2C2E 1");
        let drop = parse_move(&pos, &rules, "C*3a").unwrap();
        assert_eq!((drop.to_string(), format_move(drop)), ("C@a4".to_string(), "C*3a".to_string()));
        let promo = parse_position("g1l/1Ce/3/EL1 b Gc 1").unwrap();
        let mv = parse_move(&promo, &rules, "2b2a").unwrap();
        assert_eq!(format_move(mv), "2b2a+");
    }

    #[test]
    fn bad_forms_are_refused_with_the_input() {
        let start = Position::start();
        for bad in
            ["", "gle/1c1/1C1/ELG", "gle/1c1/1C1/ELG x - 1", "gle/1c1/1C1/ELG[-] w", "gle/1c1/1C1/ELG b 9C"]
        {
            let e = parse_position(bad).unwrap_err();
            assert!(e.to_string().starts_with(&format!("{:?}", bad)), "{e}");
        }
        for bad in ["b2b3", "2c2", "4c2b", "2c2b2", "X*2b", "C*2b", "2d2c"] {
            assert!(parse_move(&start, &Rules::TANAKA, bad).is_err(), "{bad}");
        }
    }
}
