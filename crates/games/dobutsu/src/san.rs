//! The human notation of a move, in the style of SAN and of Western shogi notation: the
//! animal's letter, the square it comes from only where another animal of its kind could go to
//! the same square (its file, else its rank, else the whole square), `x` for a capture, the
//! square it goes to, and `+` for a chick's promotion; a drop is the letter, `*` and the square.
//! `Cxb3`, `La2`, `Gac2`, `Cb4+`, `G*b2`.
//!
//! [`parse`] reads the notation back: a string names the legal move whose notation it is, or,
//! with the capture sign or the promotion sign left out, the one legal move it then names.

use crate::position::{Move, Position};
use crate::types::Rules;

/// The move `mv` of `pos` in the human notation.
pub fn format(pos: &Position, mv: Move) -> String {
    let (from, to, promote) = match mv {
        Move::Drop { role, to } => return format!("{}*{to}", role.letter()),
        Move::Step { from, to, promote } => (from, to, promote),
    };
    let Some(piece) = pos.piece_at(from) else { return mv.to_string() };
    // The other animals of the same kind and side that could go to the same square.
    let mut rivals = Vec::new();
    pos.for_each_move(|m| {
        if let Move::Step { from: f, to: t, .. } = m {
            if t == to && f != from && pos.piece_at(f) == Some(piece) && !rivals.contains(&f) {
                rivals.push(f);
            }
        }
    });
    let square = from.to_string();
    let origin = if rivals.is_empty() {
        ""
    } else if rivals.iter().all(|f| f.file() != from.file()) {
        &square[..1]
    } else if rivals.iter().all(|f| f.rank() != from.rank()) {
        &square[1..]
    } else {
        &square[..]
    };
    let capture = if pos.piece_at(to).is_some() { "x" } else { "" };
    format!("{}{origin}{capture}{to}{}", piece.role.letter(), if promote { "+" } else { "" })
}

/// The legal move of `pos` that `input` writes in the human notation, as [`format`] writes it;
/// `x` and `+` may be left out (or given where [`format`] has none) where that leaves one move.
/// `None` where no legal move, or more than one, is written so.
pub fn parse(pos: &Position, rules: &Rules, input: &str) -> Option<Move> {
    let input = input.trim();
    let moves = pos.legal_moves(rules);
    if let Some(&mv) = moves.iter().find(|&&mv| format(pos, mv) == input) {
        return Some(mv);
    }
    let bare = |s: &str| s.chars().filter(|&c| c != 'x' && c != '+').collect::<String>();
    let wanted = bare(input);
    let mut found = moves.into_iter().filter(|&mv| bare(&format(pos, mv)) == wanted);
    match (found.next(), found.next()) {
        (Some(mv), None) => Some(mv),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{parse_move_text, parse_position};

    fn san(fen: &str, mv: &str) -> String {
        format(&parse_position(fen).unwrap(), parse_move_text(mv).unwrap())
    }

    #[test]
    fn moves_are_written_as_san() {
        let start = "gle/1c1/1C1/ELG[-] w 0 1";
        assert_eq!(san(start, "b2b3"), "Cxb3");
        assert_eq!(san(start, "b1a2"), "La2");
        assert_eq!(san(start, "c1c2"), "Gc2");
        // A chick promoting on the far rank, and a drop.
        assert_eq!(san("1l1/C2/3/L2[GGEEc] w", "a3a4+"), "Ca4+");
        assert_eq!(san("1l1/C2/3/L2[GGEEc] w", "G@b2"), "G*b2");
        // Two giraffes that can both go to b2: the file tells them apart.
        assert_eq!(san("1l1/3/G1G/L2[EECc] w", "a2b2"), "Gab2");
        // Two giraffes on one file that can both go to b2: the rank does.
        assert_eq!(san("1l1/1G1/3/LG1[EECc] w", "b3b2"), "G3b2");
    }

    #[test]
    fn the_notation_reads_back_as_the_move_it_writes() {
        let rules = Rules::default();
        for fen in [
            "gle/1c1/1C1/ELG[-] w 0 1",
            "1l1/3/G1G/L2[EECc] w",
            "1l1/1G1/3/LG1[EECc] w",
            "1l1/C2/3/L2[GGEEc] w",
        ] {
            let pos = parse_position(fen).unwrap();
            for mv in pos.legal_moves(&rules) {
                assert_eq!(parse(&pos, &rules, &format(&pos, mv)), Some(mv), "{fen} {mv}");
            }
        }
    }

    #[test]
    fn signs_may_be_left_out_but_not_the_square_that_tells_two_moves_apart() {
        let rules = Rules::default();
        let start = parse_position("gle/1c1/1C1/ELG[-] w 0 1").unwrap();
        assert_eq!(parse(&start, &rules, "Cb3"), parse_move_text("b2b3").ok());
        assert_eq!(parse(&start, &rules, " Cxb3 "), parse_move_text("b2b3").ok());
        let promotes = parse_position("1l1/C2/3/L2[GGEEc] w").unwrap();
        assert_eq!(parse(&promotes, &rules, "Ca4"), parse_move_text("a3a4+").ok());
        let two = parse_position("1l1/3/G1G/L2[EECc] w").unwrap();
        assert_eq!(parse(&two, &rules, "Gb2"), None, "either giraffe");
        assert_eq!(parse(&start, &rules, "Cb4"), None, "not a move of the start");
        assert_eq!(parse(&start, &rules, "Zz9"), None);
    }
}
