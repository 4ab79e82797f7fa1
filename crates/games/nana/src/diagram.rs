//! The board as text, for a terminal: the grid as Black sees it (files 3 to 1, ranks a to c),
//! each piece named by its face in Hodges style (Black's upper case, White's lower case), the
//! hands and the side to move.

use crate::types::{Color, Cube, Square};
use crate::Position;

/// A small board diagram, as Black sees it, with the hands.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::from("     3   2   1\n   +---+---+---+\n");
    for rank in 0..3u8 {
        s.push_str("   |");
        for file in (1..=3u8).rev() {
            let sq = Square::from_file_rank(file, rank).expect("on the board");
            let cell = match pos.piece_at(sq) {
                None => "   ".to_string(),
                Some(p) => {
                    let name = p.role.hodges();
                    let name = if p.color == Color::White { name.to_lowercase() } else { name.to_string() };
                    format!("{name:^3}")
                }
            };
            s.push_str(&cell);
            s.push('|');
        }
        s.push_str(&format!(" {}\n   +---+---+---+\n", (b'a' + rank) as char));
    }
    for color in Color::ALL {
        let mut hand = Vec::new();
        if pos.king_in_hand(color) {
            hand.push("K".to_string());
        }
        for cube in Cube::ALL {
            for _ in 0..pos.hand(color, cube) {
                hand.push(format!("{cube:?}"));
            }
        }
        let hand = if hand.is_empty() { "-".to_string() } else { hand.join(" ") };
        s.push_str(&format!("   {} hand: {hand}\n", color.name()));
    }
    s.push_str(&format!("   {} to move\n", pos.side_to_move().name()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{fen, Variant};

    /// Faces in Hodges style (`CS` for a silver face), cubes in hand by their kind.
    #[test]
    fn the_diagram_shows_faces_hands_and_the_side_to_move() {
        let pos = fen::parse_position("1k1/1SC/1K1 b RB 1", Variant::Current).unwrap();
        let expected = "     3   2   1\n   +---+---+---+\n   |   | k |   | a\n   +---+---+---+\n   |   |CS | C | b\n   +---+---+---+\n   |   | K |   | c\n   +---+---+---+\n   black hand: O D\n   white hand: -\n   black to move\n";
        assert_eq!(diagram(&pos), expected);
    }
}
