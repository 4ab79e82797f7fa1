//! What the explorer page shows beyond the probe's answer: the board as a grid of pieces with
//! their owners and labels, both hands, the squares a move goes from and to, and the pieces the
//! board editor offers. A game supplies these through [`Explorable`]; the JSON types here are
//! the same for every game, so the page needs no game-specific code.

use nana_probe::table::TableGame;
use serde::Serialize;

/// The game-specific part of the explorer: how a position looks and how a move is clicked.
pub trait Explorable: TableGame {
    /// The board, both hands and the side to move of a position.
    fn board(&self, pos: &Self::Position) -> Board;

    /// Where a legal move of `pos` goes from and to on the board, or which piece of the hand it
    /// drops: what the page matches clicks against.
    fn move_squares(&self, pos: &Self::Position, mv: Self::Move) -> MoveSquares;

    /// The pieces the board editor places and the hand pieces it counts.
    fn palette(&self) -> Palette;
}

/// A position as the page draws it. The squares are in reading order, as the board is shown
/// from the first player's side: the top row first, each row from left to right. That is also
/// the order of the ranks and files in the position string (`rows` joined by `/`, runs of empty
/// squares as digits), so the board editor writes a position string from a `Board` alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Board {
    pub columns: usize,
    pub rows: usize,
    /// `columns * rows` squares, row by row.
    pub squares: Vec<SquareView>,
    /// One hand per side, the first player's first.
    pub hands: Vec<Hand>,
    /// `"black"` or `"white"`.
    pub side_to_move: &'static str,
}

/// One square of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// The square's name in the game's notation, e.g. `3a`.
    pub name: String,
    pub piece: Option<PieceView>,
}

/// A piece on the board or in the editor's palette.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PieceView {
    /// `"black"` or `"white"`.
    pub owner: &'static str,
    /// Its letter in the position string (upper case for the first player).
    pub code: char,
    /// What the page writes on it: for a Nana cube, the face it shows (`SW`).
    pub label: &'static str,
    /// In words: `swallow's wings`.
    pub name: &'static str,
    /// A small mark for its kind where one piece shows several faces (`O` or `D` for Nana's
    /// cubes), else empty.
    pub kind: &'static str,
}

/// What one side holds in hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hand {
    pub owner: &'static str,
    /// Every kind of piece a hand can hold, held or not, so that the page can lay hands out
    /// the same way in every position.
    pub pieces: Vec<HandPiece>,
}

/// A kind of piece in hand and how many are held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HandPiece {
    /// Its letter in the position string's hands (upper case for the first player).
    pub code: char,
    /// What the page writes on it (`K`, `O`, `D`).
    pub label: &'static str,
    pub name: &'static str,
    pub count: u8,
    /// The most a hand can hold.
    pub max: u8,
}

/// The squares of a move: `from` a board square or `drop` a hand piece (its code), `to` a
/// board square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveSquares {
    pub from: Option<String>,
    pub drop: Option<char>,
    pub to: String,
    /// For a drop that chooses what the piece shows (a Nana cube's face), its label.
    pub shows: Option<&'static str>,
}

/// What the board editor offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Palette {
    /// Every piece that can stand on the board, both sides.
    pub pieces: Vec<PieceView>,
    /// The letters of the side to move in the position string, first player first (`b`, `w`).
    pub sides: [char; 2],
    /// The position string's hands when both are empty.
    pub empty_hands: &'static str,
}

impl Board {
    /// The position string the page's board editor writes for this board (the same rules as
    /// its `composePosition`): rows joined by `/` with runs of empty squares as digits, the side
    /// letter, then the hands as counts and codes, or the palette's empty-hands string. A game's
    /// [`Explorable`] must make this a string its `parse_position` reads back as the position.
    pub fn position_string(&self, palette: &Palette) -> String {
        let rows: Vec<String> = self
            .squares
            .chunks(self.columns)
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for sq in row {
                    match &sq.piece {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push(p.code);
                        }
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let mut hands = String::new();
        for hp in self.hands.iter().flat_map(|h| &h.pieces) {
            if hp.count > 1 {
                hands.push_str(&hp.count.to_string());
            }
            if hp.count > 0 {
                hands.push(hp.code);
            }
        }
        if hands.is_empty() {
            hands.push_str(palette.empty_hands);
        }
        let side = palette.sides[usize::from(self.side_to_move != "black")];
        format!("{} {side} {hands}", rows.join("/"))
    }
}
