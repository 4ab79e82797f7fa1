//! Hodges-style move display, for people: piece, then `-` (move), `x` (capture) or `*` (drop),
//! the target square and, for a cube's board move, `=` and its new face: `B-2b=TG`, `CSx1a=D`,
//! `TG*1a`, `K*2c`. The origin square follows the piece only where two pieces of the same face
//! could reach the square (`CS1b-2a=D`).

use crate::position::{Move, Position};
use crate::types::{Role, Rules, Square};
use crate::usi::{echo, error, parse_square, ParseMoveError};

/// Writes a legal move of `pos` in Hodges style.
pub fn format(pos: &Position, rules: &Rules, mv: Move) -> String {
    match mv {
        Move::Drop { role, to } => format!("{}*{to}", role.hodges()),
        Move::Board { from, to } => {
            let Some(piece) = pos.piece_at(from) else { return crate::usi::format(mv) };
            let capture = pos.piece_at(to).is_some();
            let ambiguous = pos.legal_moves(rules).into_iter().any(|m| match m {
                Move::Board { from: f, to: t } => {
                    t == to && f != from && pos.piece_at(f).map(|p| p.role) == Some(piece.role)
                }
                Move::Drop { .. } => false,
            });
            let mut s = piece.role.hodges().to_string();
            if ambiguous {
                s.push_str(&from.to_string());
            }
            s.push(if capture { 'x' } else { '-' });
            s.push_str(&to.to_string());
            if piece.role != Role::King {
                s.push('=');
                s.push_str(piece.role.next_face().hodges());
            }
            s
        }
    }
}

/// Reads a Hodges-style move and finds the one legal move of `pos` it names.
pub fn parse(pos: &Position, rules: &Rules, input: &str) -> Result<Move, ParseMoveError> {
    if !input.is_ascii() {
        return Err(error(input, "only ASCII characters are allowed"));
    }
    let (body, new_face) = match input.split_once('=') {
        Some((b, f)) => {
            (b, Some(Role::from_hodges(f).ok_or_else(|| error(input, format!("{} is not a face", echo(f))))?))
        }
        None => (input, None),
    };
    let sep = body
        .find(['-', 'x', '*'])
        .ok_or_else(|| error(input, "expected '-', 'x' or '*' between piece and square"))?;
    let (head, rest) = body.split_at(sep);
    let kind = rest.as_bytes()[0];
    let to = parse_square(&rest[1..])
        .ok_or_else(|| error(input, format!("{} is not a square (1a..3c)", echo(&rest[1..]))))?;
    // The piece, optionally followed by its origin square.
    let (piece, origin) = if head.len() >= 2 && parse_square(&head[head.len() - 2..]).is_some() {
        (&head[..head.len() - 2], parse_square(&head[head.len() - 2..]))
    } else {
        (head, None)
    };
    let role = Role::from_hodges(piece)
        .ok_or_else(|| error(input, format!("{} is not a piece (K R C SW GB B TG CS D)", echo(piece))))?;
    let matches: Vec<Move> = pos
        .legal_moves(rules)
        .into_iter()
        .filter(|&m| match m {
            Move::Drop { role: r, to: t } => {
                kind == b'*' && r == role && t == to && origin.is_none() && new_face.is_none()
            }
            Move::Board { from, to: t } => {
                let p = pos.piece_at(from);
                let capture = pos.piece_at(t).is_some();
                kind != b'*'
                    && t == to
                    && (kind == b'x') == capture
                    && p.map(|p| p.role) == Some(role)
                    && origin.is_none_or(|o| o == from)
                    && new_face.is_none_or(|f| f == role.next_face())
            }
        })
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(error(
            input,
            format!("no legal move matches{}", why_not(pos, rules, kind, role, origin, to, new_face)),
        )),
        _ => Err(error(input, "ambiguous: add the origin square after the piece (e.g. CS1b-2a=D)")),
    }
}

/// Why no legal move matches a well-formed Hodges move, as specific as the USI reading's reason:
/// when the text names one move, the rules' own reason for refusing it (`CS*1b`: a drop may not
/// give check), or which part of the text is wrong; empty when it names no single move.
fn why_not(
    pos: &Position,
    rules: &Rules,
    kind: u8,
    role: Role,
    origin: Option<Square>,
    to: Square,
    new_face: Option<Role>,
) -> String {
    let mv = if kind == b'*' {
        if origin.is_some() || new_face.is_some() {
            return ": a drop has no origin square and no new face".to_string();
        }
        Move::Drop { role, to }
    } else {
        let us = pos.side_to_move();
        let mut from = Square::ALL.into_iter().filter(|&sq| {
            pos.piece_at(sq).is_some_and(|p| p.color == us && p.role == role)
                && origin.is_none_or(|o| o == sq)
        });
        match (from.next(), from.next()) {
            (Some(from), None) => Move::Board { from, to },
            (None, _) => {
                let place = origin.map_or("the board".to_string(), |o| o.to_string());
                return format!(": you have no {} on {place}", role.name());
            }
            _ => return String::new(),
        }
    };
    if let Err(e) = pos.play(rules, mv) {
        return format!(": {}", e.reason);
    }
    // The move is legal: the text got its marks wrong.
    let capture = pos.piece_at(to).is_some();
    if capture != (kind == b'x') {
        return if capture {
            format!(": {to} is occupied, write 'x'")
        } else {
            format!(": {to} is empty, write '-'")
        };
    }
    match new_face {
        Some(f) if f != role.next_face() => {
            format!(": {} becomes {}, not {}", role.hodges(), role.next_face().hodges(), f.hodges())
        }
        _ => String::new(),
    }
}
