//! Dobutsu shogi in the explorer: its board view (the animals with the dots of their steps), the
//! squares of its moves, its editor palette and its words (a lion captured, a try, no move).

use nana_front::{
    Board, EndingWords, Explorable, Game, Hand, HandPiece, MoveSquares, Palette, PieceView, SquareView, Words,
};

use crate::probe::{BOTH_TRIES, LION_CAPTURED, NO_MOVE, TRY};
use crate::{Move, Piece, Position, Role, Rules, Side, Square};

/// Where a role steps, seen from its owner (`[0, 1]`: forward).
fn steps(role: Role) -> Vec<[i8; 2]> {
    const ORTHOGONAL: [[i8; 2]; 4] = [[0, 1], [-1, 0], [1, 0], [0, -1]];
    const DIAGONAL: [[i8; 2]; 4] = [[-1, 1], [1, 1], [-1, -1], [1, -1]];
    match role {
        Role::Lion => ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect(),
        Role::Giraffe => ORTHOGONAL.to_vec(),
        Role::Elephant => DIAGONAL.to_vec(),
        Role::Chick => vec![[0, 1]],
        // A gold general's steps: not backwards diagonally.
        Role::Hen => ORTHOGONAL.iter().chain(&DIAGONAL[..2]).copied().collect(),
    }
}

/// A letter of the side's case: upper case for the first player.
fn case(side: Side, letter: char) -> char {
    match side {
        Side::First => letter,
        Side::Second => letter.to_ascii_lowercase(),
    }
}

fn piece_view(piece: Piece) -> PieceView {
    PieceView {
        owner: piece.side.name(),
        // The FEN writes a hen `+C`; its reader takes `H` too, one letter as the editor wants.
        code: case(piece.side, piece.role.letter()),
        label: match piece.role {
            Role::Lion => "L",
            Role::Giraffe => "G",
            Role::Elephant => "E",
            Role::Chick => "C",
            Role::Hen => "H",
        },
        name: piece.role.name(),
        kind: "",
        steps: steps(piece.role),
    }
}

impl Explorable for Rules {
    fn board(&self, pos: &Position) -> Board {
        // Reading order: rank 4 (the second player's home) at the top, files a to c.
        let squares = (0..4u8)
            .rev()
            .flat_map(|rank| (0..3u8).map(move |file| Square::new(file, rank).expect("on the board")))
            .map(|sq| SquareView { name: sq.to_string(), piece: pos.piece_at(sq).map(piece_view) })
            .collect();
        // A lion taken (the game is over) is in its captor's hand, first, as the FEN writes it.
        let hands = Side::BOTH
            .iter()
            .map(|&side| Hand {
                owner: side.name(),
                pieces: [Role::Lion]
                    .iter()
                    .filter(|_| pos.lion(side.other()).is_none())
                    .chain(&Role::IN_HAND)
                    .map(|&role| HandPiece {
                        code: case(side, role.letter()),
                        label: piece_view(Piece { side, role }).label,
                        name: role.name(),
                        count: if role == Role::Lion { 1 } else { pos.hand(side, role) },
                        max: if role == Role::Lion { 1 } else { 2 },
                    })
                    .collect(),
            })
            .collect();
        Board { columns: 3, rows: 4, squares, hands, side_to_move: pos.side_to_move().name() }
    }

    fn move_squares(&self, pos: &Position, mv: Move) -> MoveSquares {
        match mv {
            Move::Step { from, to, .. } => {
                MoveSquares { from: Some(from.to_string()), drop: None, to: to.to_string(), shows: None }
            }
            Move::Drop { role, to } => MoveSquares {
                from: None,
                drop: Some(case(pos.side_to_move(), role.letter())),
                to: to.to_string(),
                shows: None,
            },
        }
    }

    fn palette(&self) -> Palette {
        let pieces = Side::BOTH
            .iter()
            .flat_map(|&side| Role::ALL.iter().map(move |&role| piece_view(Piece { side, role })))
            .collect();
        Palette {
            pieces,
            sides: [Side::First.fen_letter(), Side::Second.fen_letter()],
            empty_hands: "-",
            layout: "{board}[{hands}] {side}",
            hand_counts: false,
        }
    }

    fn words(&self) -> Words {
        Words {
            players: <crate::Dobutsu as Game>::SIDES,
            to_move: "{Side} player to move",
            win: "{Winner} player wins in {plies}",
            move_win: "win in {plies}",
            move_loss: "loss in {plies}",
            distance: "{plies}",
            endings: vec![
                // The side to move's lion has been taken: a loss in 0.
                EndingWords {
                    ending: LION_CAPTURED.name,
                    text: "{Winner} player wins — it has taken the lion",
                },
                EndingWords {
                    ending: TRY.name, text: "{Winner} player wins — its lion has completed a try"
                },
                EndingWords { ending: BOTH_TRIES.name, text: "Draw — both lions have completed a try" },
                EndingWords {
                    ending: NO_MOVE.name, text: "{Winner} player wins — the opponent has no move"
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::Dobutsu;
    use nana_front::testing::{assert_explorable, sample_positions};
    use nana_front::{Game, RuleSet};
    use nana_probe::table::TableRules;
    use nana_probe::ProbeRules;

    #[test]
    fn the_names_are_the_rule_sets_own() {
        for &RuleSet { name, rules, .. } in Dobutsu::RULE_SETS {
            assert_eq!(rules.rule_set_name(), name);
            assert_eq!(Rules::from_name(name), Ok(rules));
        }
    }

    /// The board view is the position and a move's squares name the piece moved
    /// ([`assert_explorable`]), in both rule sets, over the cases that differ from the FEN's
    /// spelling (a hen, `+C`; two of a kind held) and drops.
    #[test]
    fn the_board_view_and_move_squares_agree_with_the_position() {
        for &RuleSet { rules, .. } in Dobutsu::RULE_SETS {
            let all = sample_positions(&rules, 100_003);
            assert!(all.len() > 5000, "{}", all.len());
            let explored = assert_explorable(&rules, &all, 4000);
            assert!(explored.drops > 1000, "{}", explored.drops);
            let on_board = explored.boards.iter().flat_map(|b| &b.squares).filter_map(|s| s.piece.as_ref());
            let hens = on_board.filter(|p| p.name == "hen").count();
            let hands = explored.boards.iter().flat_map(|b| &b.hands);
            let held = hands.flat_map(|h| &h.pieces).filter(|h| h.count > 1).count();
            assert!(hens > 100 && held > 100, "{hens} {held}");
        }
        let start = Rules::TANAKA.board(&Rules::TANAKA.start());
        assert_eq!(start.squares[0].name, "a4");
        assert_eq!(start.squares[11].name, "c1");
        assert_eq!(start.position_string(&Rules::TANAKA.palette()), "gle/1c1/1C1/ELG[-] w");
    }
}
