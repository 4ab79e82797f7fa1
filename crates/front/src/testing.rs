//! Test helpers for a game's presentation (they panic where a check fails): the board view and
//! the squares of moves checked against the game's own rules.

use nana_probe::ProbeRules;

use crate::view::{Board, Explorable};

/// Test helper: positions spread over the whole index of a game's rule set `rules` (every
/// `step`th entry's position, the side that moves first to move), their children (the other
/// side to move), and the start.
pub fn sample_positions<R: ProbeRules>(rules: &R, step: usize) -> Vec<R::Position>
where
    R::Position: Copy,
{
    let mut out = vec![rules.start()];
    for i in (0..rules.size()).step_by(step) {
        if let Some(pos) = rules.unindex(i) {
            out.push(pos);
            rules.for_each_move(&pos, |_, child| out.push(*child));
        }
    }
    out
}

/// What [`assert_explorable`] saw, for a game's test to check that its cases were met.
#[derive(Debug)]
pub struct Explored {
    /// The boards drawn, one a position.
    pub boards: Vec<Board>,
    /// The drops among the moves checked.
    pub drops: usize,
}

/// Test helper: checks a rule set's [`Explorable`] over `positions`, and its moves over the
/// first `moved` of them.
///
/// - The board view is the position: a board has `columns * rows` squares, the editor's string
///   of it ([`Board::position_string`]) reads back as the same position, and the palette holds
///   every piece the board shows.
/// - A move's squares are where its piece stands (a piece of the side to move) or the hand
///   piece it drops (held by the side to move, onto an empty square), and an empty square or
///   one of the opponent's; they are the move's own squares as its machine notation writes
///   them (`from` first, `to` last but for a promotion's `+`).
pub fn assert_explorable<R>(rules: &R, positions: &[R::Position], moved: usize) -> Explored
where
    R: Explorable,
    R::Position: PartialEq + std::fmt::Debug,
    R::Move: std::fmt::Debug,
{
    let palette = rules.palette();
    let mut boards = Vec::with_capacity(positions.len());
    for pos in positions {
        let board = rules.board(pos);
        assert_eq!(board.squares.len(), board.columns * board.rows);
        let text = board.position_string(&palette);
        assert_eq!(rules.parse_position(&text).ok().as_ref(), Some(pos), "{text}");
        for piece in board.squares.iter().filter_map(|s| s.piece.as_ref()) {
            assert!(palette.pieces.contains(piece), "{piece:?}");
        }
        boards.push(board);
    }
    let mut drops = 0;
    for (pos, board) in positions.iter().zip(&boards).take(moved) {
        let side = board.side_to_move;
        let at = |name: &str| {
            board.squares.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no square {name}"))
        };
        rules.for_each_move(pos, |mv, _| {
            let sq = rules.move_squares(pos, mv);
            match (&sq.from, sq.drop) {
                (Some(from), None) => {
                    assert_eq!(at(from).piece.as_ref().map(|p| p.owner), Some(side), "{mv:?}")
                }
                (None, Some(code)) => {
                    drops += 1;
                    let hand = board.hands.iter().find(|h| h.owner == side).unwrap();
                    assert!(hand.pieces.iter().any(|h| h.code == code && h.count > 0), "{mv:?}");
                    assert!(at(&sq.to).piece.is_none(), "{mv:?}");
                }
                _ => panic!("{mv:?}: {sq:?}"),
            }
            assert!(at(&sq.to).piece.as_ref().is_none_or(|p| p.owner != side), "{mv:?}");
            let text = rules.machine_notation(pos, mv);
            assert!(text.trim_end_matches('+').ends_with(&sq.to), "{text} {sq:?}");
            assert!(sq.from.as_ref().is_none_or(|f| text.starts_with(f.as_str())), "{text} {sq:?}");
        });
    }
    Explored { boards, drops }
}
