//! Moves and positions in KIF, the text form of a game record that Japanese shogi software
//! writes and reads (Kifu for Windows' format), laid out for Dobutsu's 3 × 4 board.
//!
//! A square is KIF's: the file as a full-width digit counted from the right (`a` is `３`, `c`
//! is `１`), the rank as a kanji numeral counted from the second player's side (rank 4 is `一`,
//! rank 1 is `四`), the USI square of [`crate::usi`] in KIF's letters: Fairy-Stockfish's `b2`
//! is `２三`.
//!
//! A move: the square it goes to, the animal's Japanese name (ライオン, キリン, ゾウ, ひよこ,
//! にわとり), `成` where a chick promotes, and the square it comes from in ASCII digits in
//! parentheses, as KIF writes it: `３三ライオン(24)`, `２一ひよこ成(22)`; a drop ends in `打`
//! instead: `２二ひよこ打`. A recapture is written with its square, not `同`.
//!
//! A position: KIF's board diagram (the BOD form), each animal by the first letter of its
//! name (ラ, キ, ゾ, ひ, に), a `v` before the second player's; the hands by name with a count
//! in kanji (`キリン ひよこ二`, `なし` for none), and the side to move.

use crate::position::{Move, Position};
use crate::types::{Role, Side, Square};

/// The animal's name in Japanese.
fn name(role: Role) -> &'static str {
    match role {
        Role::Lion => "ライオン",
        Role::Giraffe => "キリン",
        Role::Elephant => "ゾウ",
        Role::Chick => "ひよこ",
        Role::Hen => "にわとり",
    }
}

/// KIF's numerals for the ranks, 1 to 4.
const KANJI: [char; 4] = ['一', '二', '三', '四'];

/// A square as KIF writes a move's destination: `２三` for `b2`.
pub fn square(sq: Square) -> String {
    let file = char::from_u32('１' as u32 + 2 - sq.file() as u32).unwrap_or('？');
    format!("{file}{}", KANJI[3 - sq.rank() as usize])
}

/// A square as KIF writes a move's origin, in ASCII digits: `23` for `b2`.
fn origin(sq: Square) -> String {
    format!("{}{}", 3 - sq.file(), 4 - sq.rank())
}

/// The move `mv` of `pos` in KIF's form: `３三ライオン(24)`, `２一ひよこ成(22)`, `２二ひよこ打`.
pub fn format_move(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Drop { role, to } => format!("{}{}打", square(to), name(role)),
        Move::Step { from, to, promote } => {
            let role = pos.piece_at(from).map_or(Role::Chick, |p| p.role);
            format!("{}{}{}({})", square(to), name(role), if promote { "成" } else { "" }, origin(from))
        }
    }
}

/// A count as KIF writes it after a piece in hand: nothing for one, a kanji numeral above.
fn count(n: u8) -> &'static str {
    match n {
        0 | 1 => "",
        2 => "二",
        3 => "三",
        _ => "四",
    }
}

/// A side's hand: `キリン ひよこ二`, `なし` for none (a lion taken is in its captor's hand).
fn hand(pos: &Position, side: Side) -> String {
    let mut parts = Vec::new();
    if pos.lion(side.other()).is_none() {
        parts.push(name(Role::Lion).to_string());
    }
    for role in Role::IN_HAND {
        let n = pos.hand(side, role);
        if n > 0 {
            parts.push(format!("{}{}", name(role), count(n)));
        }
    }
    if parts.is_empty() {
        "なし".to_string()
    } else {
        parts.join(" ")
    }
}

/// The head of a KIF record that starts at `pos`: the game's name (no `手合割`: none of
/// shogi's applies), the board diagram with the hands, the side to move, and the line over the moves; each move follows as a line of its
/// number (right-aligned in 4 columns), a space and its [`format_move`].
pub fn format_head(pos: &Position) -> String {
    let mut s = String::from("# KIF形式棋譜ファイル\n棋戦：どうぶつしょうぎ\n");
    s += &format!("後手の持駒：{}\n", hand(pos, Side::Second));
    s += "  ３ ２ １\n+---------+\n";
    for rank in (0..4u8).rev() {
        s.push('|');
        for file in 0..3u8 {
            let piece = Square::new(file, rank).and_then(|sq| pos.piece_at(sq));
            match piece {
                None => s += " ・",
                Some(p) => {
                    s.push(if p.side == Side::First { ' ' } else { 'v' });
                    s.push(name(p.role).chars().next().unwrap_or('？'));
                }
            }
        }
        s.push('|');
        s.push(KANJI[3 - rank as usize]);
        s.push('\n');
    }
    s += "+---------+\n";
    s += &format!("先手の持駒：{}\n", hand(pos, Side::First));
    s += if pos.side_to_move() == Side::First { "先手番\n" } else { "後手番\n" };
    s += "手数----指手---------消費時間--\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{parse_move_text, parse_position};

    fn kif(fen: &str, mv: &str) -> String {
        format_move(&parse_position(fen).unwrap(), parse_move_text(mv).unwrap())
    }

    /// The start's moves, a capture, a promotion and a drop, in KIF's form.
    #[test]
    fn moves_are_written_as_kif() {
        let start = "gle/1c1/1C1/ELG[-] w 0 1";
        assert_eq!(kif(start, "b1a2"), "３三ライオン(24)");
        assert_eq!(kif(start, "c1c2"), "１三キリン(14)");
        assert_eq!(kif(start, "b2b3"), "２二ひよこ(23)");
        assert_eq!(kif("1l1/C2/3/L2[GGEEc] w", "a3a4+"), "３一ひよこ成(32)");
        assert_eq!(kif("1l1/C2/3/L2[GGEEc] w", "G@b2"), "２三キリン打");
        assert_eq!(kif("1l1/H2/3/L2[GGEEc] w", "a3b3"), "２二にわとり(32)");
        // The second player's moves are written on the same squares.
        assert_eq!(kif("gle/1C1/3/ELG[C] b 0 1", "b4b3"), "２二ライオン(21)");
    }

    /// The start, and a position with hands and a hen, as KIF's board diagram.
    #[test]
    fn positions_are_written_as_kif_diagrams() {
        let head = format_head(&parse_position("gle/1c1/1C1/ELG[-] w 0 1").unwrap());
        let board = "後手の持駒：なし\n  ３ ２ １\n+---------+\n|vキvラvゾ|一\n| ・vひ ・|二\n| ・ ひ ・|三\n| ゾ ラ キ|四\n+---------+\n先手の持駒：なし\n先手番\n";
        assert!(head.contains(board), "{head}");
        assert!(head.ends_with("手数----指手---------消費時間--\n"));
        let head = format_head(&parse_position("1lH/3/1L1/E2[GGec] b 0 1").unwrap());
        assert!(head.contains("後手の持駒：ゾウ ひよこ\n"), "{head}");
        assert!(head.contains("| ・vラ に|一\n"), "{head}");
        assert!(head.contains("先手の持駒：キリン二\n"), "{head}");
        assert!(head.contains("後手番\n"), "{head}");
    }

    /// Every square's KIF name is its USI name in KIF's letters.
    #[test]
    fn squares_are_the_usi_squares() {
        for sq in Square::all() {
            let usi = crate::usi::square(sq);
            let (file, rank) = (usi.as_bytes()[0] - b'0', usi.as_bytes()[1] - b'a');
            let kif = square(sq);
            let mut chars = kif.chars();
            assert_eq!(chars.next(), char::from_u32('０' as u32 + file as u32));
            assert_eq!(chars.next(), Some(KANJI[rank as usize]));
        }
    }
}
