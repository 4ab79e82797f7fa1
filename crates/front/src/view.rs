//! What the explorer page shows beyond the probe's answer: the board as a grid of pieces with
//! their owners and labels, both hands, the squares a move goes from and to, and the pieces the
//! board editor offers. A game supplies these through [`Explorable`]; the JSON types here are
//! the same for every game, so the page needs no game-specific code.

use nana_probe::table::TableRules;
use serde::Serialize;

/// The game-specific part of the explorer: how a position looks and how a move is clicked.
pub trait Explorable: TableRules {
    /// The board, both hands and the side to move of a position.
    fn board(&self, pos: &Self::Position) -> Board;

    /// Where a legal move of `pos` goes from and to on the board, or which piece of the hand it
    /// drops: what the page matches clicks against.
    fn move_squares(&self, pos: &Self::Position, mv: Self::Move) -> MoveSquares;

    /// The pieces the board editor places and the hand pieces it counts.
    fn palette(&self) -> Palette;

    /// What the page calls the players and how it words values and endings.
    fn words(&self) -> Words;
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
    /// The player to move, by its name in [`Words::players`] (`"black"`, `"first"`).
    pub side_to_move: &'static str,
}

/// One square of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SquareView {
    /// The square's name in the game's notation, e.g. `3a`, `b2`.
    pub name: String,
    pub piece: Option<PieceView>,
}

/// A piece on the board or in the editor's palette.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PieceView {
    /// The player it belongs to, by its name in [`Words::players`].
    pub owner: &'static str,
    /// Its letter in the position string (upper case for the first player): a letter the
    /// game's `parse_position` reads as this piece.
    pub code: char,
    /// What the page writes on it: for a Nana cube, the face it shows (`SW`).
    pub label: &'static str,
    /// In words: `swallow's wings`.
    pub name: &'static str,
    /// A small mark for its kind where one piece shows several faces (`O` or `D` for Nana's
    /// cubes), else empty.
    pub kind: &'static str,
    /// Where it steps, as small dots around the label the way Dobutsu pieces show them:
    /// `[file, rank]` offsets seen from its owner (`[0, 1]` is one square forward). Empty (and
    /// left out of the JSON) for pieces that show no dots.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<[i8; 2]>,
}

/// What one side holds in hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hand {
    /// The player, by its name in [`Words::players`].
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
    /// How the position string is laid out, with `{board}`, `{side}` and `{hands}` to fill in:
    /// `{board} {side} {hands}` (Nana), `{board}[{hands}] {side}` (Fairy-Stockfish's FEN).
    pub layout: &'static str,
    /// Whether the hands write a count before a piece held more than once (`2R`) rather than
    /// its letter once per piece (`GG`).
    pub hand_counts: bool,
}

/// How the page words a game: the players' names, the value of a position, of a move, and
/// the endings. The texts are templates with `{winner}`, `{loser}`, `{side}` (the side to move)
/// and `{plies}` (`31 plies`) to fill in; a capitalised name (`{Winner}`) asks for the name
/// with a capital.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Words {
    /// The players' names, the first player's (its hand first in [`Board::hands`], drawn at the
    /// bottom) first: `["black", "white"]`, the game's [`Game::SIDES`](crate::Game::SIDES).
    pub players: [&'static str; 2],
    /// The side to move: `{Side} to move`.
    pub to_move: &'static str,
    /// A decided position: `{Winner} wins — mate in {plies}`.
    pub win: &'static str,
    /// A move that wins, for the player making it: `win, mate in {plies}`.
    pub move_win: &'static str,
    /// A move that loses: `loss, mated in {plies}`.
    pub move_loss: &'static str,
    /// A win's length alone, as the statistics list it: `mate in {plies}`.
    pub distance: &'static str,
    /// What the page says at a position where the game is over, per ending.
    pub endings: Vec<EndingWords>,
}

/// What the page says where the game has ended one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndingWords {
    /// The ending's name: the key of its flag in the answer (`checkmate`, `try`).
    pub ending: &'static str,
    /// The position's value in words: `{Winner} wins — {loser} has no legal move (checkmate)`;
    /// for a drawn ending, `Draw — ...`.
    pub text: &'static str,
}

impl Board {
    /// The position string the page's board editor writes for this board (the same rules as
    /// its `composePosition`): rows joined by `/` with runs of empty squares as digits, the side
    /// letter, and the hands (each held piece's code, after its count or repeated as the palette
    /// says, or the palette's empty-hands string), laid out as the palette's `layout` says. A
    /// game's [`Explorable`] must make this a string its `parse_position` reads back as the
    /// position.
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
            if palette.hand_counts {
                if hp.count > 1 {
                    hands.push_str(&hp.count.to_string());
                }
                if hp.count > 0 {
                    hands.push(hp.code);
                }
            } else {
                hands.extend(std::iter::repeat_n(hp.code, usize::from(hp.count)));
            }
        }
        if hands.is_empty() {
            hands.push_str(palette.empty_hands);
        }
        // The first player's hand comes first.
        let first = self.hands.first().map_or("", |h| h.owner);
        let side = palette.sides[usize::from(self.side_to_move != first)];
        palette
            .layout
            .replace("{board}", &rows.join("/"))
            .replace("{side}", &side.to_string())
            .replace("{hands}", &hands)
    }
}
