//! Nana shogi in the explorer: its board view (cubes showing their face), the squares of its
//! moves, its editor palette and its words.

use nana_front::{
    Board, EndingWords, Explorable, Game, Hand, HandPiece, MoveSquares, Palette, PieceView, SquareView, Words,
};

use crate::probe::{CHECKMATE, STALEMATE};
use crate::{Color, Cube, Move, Piece, Position, Role, Rules, Square};

fn kind(role: Role) -> &'static str {
    match role.cube() {
        None => "",
        Some(Cube::O) => "O",
        Some(Cube::D) => "D",
    }
}

fn piece_view(piece: Piece) -> PieceView {
    PieceView {
        owner: piece.color.name(),
        code: piece.char(),
        label: piece.role.hodges(),
        name: piece.role.name(),
        kind: kind(piece.role),
        steps: Vec::new(),
    }
}

/// The hand letters of the position string: a King `K`, an O cube `R`, a D cube `B`.
fn hand_code(color: Color, letter: char) -> char {
    if color == Color::Black {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

impl Explorable for Rules {
    fn board(&self, pos: &Position) -> Board {
        let squares = Square::ALL
            .iter()
            .map(|&sq| SquareView { name: sq.to_string(), piece: pos.piece_at(sq).map(piece_view) })
            .collect();
        let hands = Color::ALL
            .iter()
            .map(|&color| Hand {
                owner: color.name(),
                pieces: vec![
                    HandPiece {
                        code: hand_code(color, 'K'),
                        label: "K",
                        name: "king",
                        count: u8::from(pos.king_in_hand(color)),
                        max: 1,
                    },
                    HandPiece {
                        code: hand_code(color, 'R'),
                        label: "O",
                        name: "orthogonal cube",
                        count: pos.hand(color, Cube::O),
                        max: 2,
                    },
                    HandPiece {
                        code: hand_code(color, 'B'),
                        label: "D",
                        name: "diagonal cube",
                        count: pos.hand(color, Cube::D),
                        max: 2,
                    },
                ],
            })
            .collect();
        Board { columns: 3, rows: 3, squares, hands, side_to_move: pos.side_to_move().name() }
    }

    fn move_squares(&self, pos: &Position, mv: Move) -> MoveSquares {
        match mv {
            Move::Board { from, to } => {
                MoveSquares { from: Some(from.to_string()), drop: None, to: to.to_string(), shows: None }
            }
            Move::Drop { role, to } => {
                let letter = match role.cube() {
                    None => 'K',
                    Some(Cube::O) => 'R',
                    Some(Cube::D) => 'B',
                };
                MoveSquares {
                    from: None,
                    drop: Some(hand_code(pos.side_to_move(), letter)),
                    to: to.to_string(),
                    shows: role.cube().map(|_| role.hodges()),
                }
            }
        }
    }

    fn palette(&self) -> Palette {
        let pieces = Color::ALL
            .iter()
            .flat_map(|&color| Role::ALL.iter().map(move |&role| piece_view(Piece { color, role })))
            .collect();
        Palette {
            pieces,
            sides: ['b', 'w'],
            empty_hands: "-",
            layout: "{board} {side} {hands}",
            hand_counts: true,
        }
    }

    fn words(&self) -> Words {
        Words {
            players: <crate::Nana as Game>::SIDES,
            to_move: "{Side} to move",
            win: "{Winner} wins — mate in {plies}",
            move_win: "win, mate in {plies}",
            move_loss: "loss, mated in {plies}",
            distance: "mate in {plies}",
            endings: vec![
                EndingWords {
                    ending: CHECKMATE.name,
                    text: "{Winner} wins — {loser} has no legal move (checkmate)",
                },
                EndingWords {
                    ending: STALEMATE.name,
                    text: "{Winner} wins — {loser} has no legal move (stalemate)",
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::front::Nana;
    use nana_front::testing::{assert_explorable, sample_positions};
    use nana_front::Game;

    /// The board view is the position and a move's squares name the piece moved
    /// ([`assert_explorable`]), in both rule sets, drops among the moves.
    #[test]
    fn the_board_view_and_move_squares_agree_with_the_position() {
        for &nana_front::RuleSet { rules, .. } in Nana::RULE_SETS {
            let all = sample_positions(&rules, 20_011);
            assert!(all.len() > 1000, "{}", all.len());
            let explored = assert_explorable(&rules, &all, 3000);
            assert!(explored.drops > 1000, "{}", explored.drops);
        }
    }
}
