//! Positions and moves as Fairy-Stockfish writes them.
//!
//! A position: `gle/1c1/1C1/ELG[-] w 0 1` — the ranks from 4 down to 1, files `a` to `c`,
//! upper case for the first player (`w`), a hen as `+C` / `+c` (`H` / `h` are read too), the
//! hands in brackets (upper case first, in the order lion, giraffe, chick, elephant; `-` or
//! nothing for empty hands), the side to move, then the counters, which are ignored on input
//! and written as `0 1`. A captured lion is written in its captor's hand, as Fairy-Stockfish
//! does.
//!
//! A move: `b2b3`, a promotion `b3b4+` (the `+` may be left out when reading: a chick that
//! reaches the far rank always promotes), a drop `C@b3` (upper case for both sides; `*` for `@`
//! and lower case are read too).

use std::fmt;

use crate::position::{Move, Position, Setup};
use crate::types::{Piece, Role, Rules, Side, Square};

/// A string that is not a position or not a legal move: one line naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The input, cut to 60 characters.
    pub input: String,
    pub reason: String,
}

impl ParseError {
    pub(crate) fn new(input: &str, reason: impl Into<String>) -> ParseError {
        let mut shown: String = input.chars().take(60).collect();
        if input.chars().count() > 60 {
            shown.push('…');
        }
        ParseError { input: shown.replace(['\n', '\r'], " "), reason: reason.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\": {}", self.input, self.reason)
    }
}

impl std::error::Error for ParseError {}

fn role_of(c: char) -> Option<Role> {
    match c.to_ascii_uppercase() {
        'L' => Some(Role::Lion),
        'G' => Some(Role::Giraffe),
        'E' => Some(Role::Elephant),
        'C' => Some(Role::Chick),
        'H' => Some(Role::Hen),
        _ => None,
    }
}

fn side_of(c: char) -> Side {
    if c.is_ascii_uppercase() {
        Side::First
    } else {
        Side::Second
    }
}

/// Reads a position in Fairy-Stockfish's form (see the module docs).
pub fn parse_position(input: &str) -> Result<Position, ParseError> {
    let err = |reason: String| ParseError::new(input, reason);
    let mut words = input.split_whitespace();
    let placement = words.next().ok_or_else(|| err("empty position".into()))?;
    let (board_str, hand_str) = match placement.find('[') {
        Some(open) => {
            let rest = &placement[open + 1..];
            let hand = rest.strip_suffix(']').ok_or_else(|| err("the hands must end with ']'".into()))?;
            (&placement[..open], hand)
        }
        None => (placement, "-"),
    };
    let mut setup = Setup::default();
    read_board(&err, board_str, &mut setup)?;
    if hand_str != "-" {
        read_hands(&err, hand_str, &mut setup)?;
    }
    setup.first_to_move = match words.next() {
        Some("w") => true,
        Some("b") => false,
        Some(other) => return Err(err(format!("the side to move is 'w' or 'b', found '{other}'"))),
        None => return Err(err("no side to move ('w' or 'b')".into())),
    };
    for w in words {
        if w != "-" && w.parse::<u32>().is_err() {
            return Err(err(format!("unexpected field '{w}' after the side to move")));
        }
    }
    Position::from_setup(&setup).map_err(|e| err(e.to_string()))
}

/// Reads the board field into `setup`; `err` makes an error of the whole input.
fn read_board(
    err: &dyn Fn(String) -> ParseError,
    board_str: &str,
    setup: &mut Setup,
) -> Result<(), ParseError> {
    let ranks: Vec<&str> = board_str.split('/').collect();
    if ranks.len() != 4 {
        return Err(err(format!("the board has 4 ranks separated by '/', found {}", ranks.len())));
    }
    for (i, rank_str) in ranks.iter().enumerate() {
        let rank = 3 - i as u8;
        let mut file = 0u8;
        let mut promoted = false;
        for c in rank_str.chars() {
            if file >= 3 {
                return Err(err(format!("rank {} has more than 3 squares", rank + 1)));
            }
            if let Some(d) = c.to_digit(10) {
                if promoted || d == 0 || file + d as u8 > 3 {
                    return Err(err(format!("bad empty-square count '{c}' on rank {}", rank + 1)));
                }
                file += d as u8;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(err("'++' on the board".into()));
                }
                promoted = true;
                continue;
            }
            let role = role_of(c).ok_or_else(|| err(format!("unknown piece '{c}'")))?;
            let role = match (promoted, role) {
                (false, r) => r,
                (true, Role::Chick) => Role::Hen,
                (true, _) => return Err(err(format!("only a chick promotes, found '+{c}'"))),
            };
            promoted = false;
            setup.board[(3 * rank + file) as usize] = Some(Piece { side: side_of(c), role });
            file += 1;
        }
        if promoted || file != 3 {
            return Err(err(format!("rank {} does not have 3 squares", rank + 1)));
        }
    }
    Ok(())
}

/// Reads the hands between the brackets (not `-`) into `setup`.
fn read_hands(
    err: &dyn Fn(String) -> ParseError,
    hand_str: &str,
    setup: &mut Setup,
) -> Result<(), ParseError> {
    for c in hand_str.chars() {
        let role = role_of(c).ok_or_else(|| err(format!("unknown piece '{c}' in hand")))?;
        let side = side_of(c).index();
        match role {
            Role::Lion => setup.lion_in_hand[side] = true,
            Role::Hen => return Err(err("a hen in hand: captured pieces are held unpromoted".into())),
            r => {
                // Two of each kind exist: a longer run must not overflow the count.
                let held = &mut setup.hands[side][r.hand_slot().expect("in hand")];
                if *held == 2 {
                    return Err(err(format!("more than two '{c}' in hand")));
                }
                *held += 1;
            }
        }
    }
    Ok(())
}

impl fmt::Display for Position {
    /// Fairy-Stockfish's FEN, counters `0 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..4u8).rev() {
            let mut empty = 0;
            for file in 0..3 {
                match self.piece_at(Square(3 * r + file)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        let c = if p.role == Role::Hen { 'C' } else { p.role.letter() };
                        let c = if p.side == Side::First { c } else { c.to_ascii_lowercase() };
                        if p.role == Role::Hen {
                            f.write_str("+")?;
                        }
                        write!(f, "{c}")?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        let mut hand = String::new();
        for side in Side::BOTH {
            let case = |c: char| if side == Side::First { c } else { c.to_ascii_lowercase() };
            if self.lion(side.other()).is_none() {
                hand.push(case('L'));
            }
            // Fairy-Stockfish's order: giraffe, chick, elephant.
            for role in [Role::Giraffe, Role::Chick, Role::Elephant] {
                for _ in 0..self.hand(side, role) {
                    hand.push(case(role.letter()));
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        write!(f, "[{hand}] {} 0 1", self.side_to_move().fen_letter())
    }
}

/// Reads a move (see the module docs) without checking it against a position.
pub fn parse_move_text(input: &str) -> Result<Move, ParseError> {
    let s = input.trim();
    let err = |reason: &str| ParseError::new(input, reason);
    if let Some((piece, to)) = s.split_once(['@', '*']) {
        let mut chars = piece.chars();
        let role = match (chars.next(), chars.next()) {
            (Some(c), None) => role_of(c).ok_or_else(|| err("unknown piece to drop"))?,
            _ => return Err(err("a drop is a piece letter, '@' and a square, as C@b3")),
        };
        if role.hand_slot().is_none() {
            return Err(err("only a giraffe, an elephant or a chick can be dropped"));
        }
        let to = Square::parse(to).ok_or_else(|| err("no square a1 to c4 to drop on"))?;
        return Ok(Move::Drop { role, to });
    }
    let (squares, promote) = match s.strip_suffix('+') {
        Some(rest) => (rest, true),
        None => (s, false),
    };
    if squares.len() != 4 || !squares.is_ascii() {
        return Err(err("a move is two squares, as b2b3 (b3b4+ promotes), or a drop, as C@b3"));
    }
    let from = Square::parse(&squares[..2]).ok_or_else(|| err("the first square is not a1 to c4"))?;
    let to = Square::parse(&squares[2..]).ok_or_else(|| err("the second square is not a1 to c4"))?;
    Ok(Move::Step { from, to, promote })
}

/// Reads a legal move of `pos`, as this module writes it (the promotion sign may be left out)
/// or in the human notation the game prints ([`crate::san`]: `Cxb3`, `La2`).
pub fn parse_move(pos: &Position, rules: &Rules, input: &str) -> Result<Move, ParseError> {
    let mut mv = match parse_move_text(input) {
        Ok(mv) => mv,
        Err(text) => {
            if pos.outcome(rules).is_none() {
                if let Some(mv) = crate::san::parse(pos, rules, input) {
                    return Ok(mv);
                }
            }
            // A string that starts with an animal's letter and is not a drop was meant as the
            // human notation: say so rather than how a square is written.
            let san_like =
                input.trim().starts_with(|c: char| "LGECH".contains(c)) && !input.contains(['@', '*']);
            return Err(if san_like {
                ParseError::new(input, "no legal move is written so (as Cxb3, La2 or Gac2)")
            } else {
                text
            });
        }
    };
    let over = pos.outcome(rules).is_some();
    if let Move::Step { from, to, promote: false } = mv {
        let chick = pos.piece_at(from).is_some_and(|p| p.role == Role::Chick);
        let far = (to.rank() == 3 && pos.side_to_move() == Side::First)
            || (to.rank() == 0 && pos.side_to_move() == Side::Second);
        if chick && far {
            mv = Move::Step { from, to, promote: true };
        }
    }
    if over {
        return Err(ParseError::new(input, "the game is over"));
    }
    pos.play(rules, mv).map(|_| mv).map_err(|e| ParseError::new(input, e.to_string()))
}
