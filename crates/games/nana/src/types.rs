//! Plain value types: colours, squares, cubes, faces, roles, pieces and the rule options.

use std::fmt;

/// A player. Black (sente) moves first and moves "up", towards rank a.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

/// One of the nine squares.
///
/// Squares are numbered in reading order of the position string: rank a (farthest from Black)
/// first, and within a rank file 3, 2, 1 (left to right as Black sees the board). So `3a` is 0,
/// `1a` is 2, the centre `2b` is 4 and `1c` is 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const CENTER: Square = Square(4);

    /// All squares in index order.
    pub const ALL: [Square; 9] =
        [Square(0), Square(1), Square(2), Square(3), Square(4), Square(5), Square(6), Square(7), Square(8)];

    /// The square with this index, if it is below 9.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 9 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square from a file (1..=3) and a rank (0 = a ..= 2 = c).
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 3 && rank < 3 {
            Some(Square(rank * 3 + (3 - file)))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }

    /// File number, 1..=3.
    pub const fn file(self) -> u8 {
        3 - self.0 % 3
    }

    /// Rank, 0 (= a) ..= 2 (= c).
    pub const fn rank(self) -> u8 {
        self.0 / 3
    }

    /// The square seen from the other side: the board turned by 180 degrees.
    #[inline]
    pub const fn flip(self) -> Square {
        Square(8 - self.0)
    }

    /// The left-right mirror image (file 1 <-> file 3).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square(self.0 / 3 * 3 + (2 - self.0 % 3))
    }

    /// Whether two squares touch (a king step apart). A square does not touch itself.
    pub const fn touches(self, other: Square) -> bool {
        let df = self.0 % 3;
        let of = other.0 % 3;
        let dr = self.0 / 3;
        let or = other.0 / 3;
        self.0 != other.0 && df.abs_diff(of) <= 1 && dr.abs_diff(or) <= 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank()) as char)
    }
}

/// The two kinds of cube each side owns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cube {
    /// The orthogonal cube: Rook, Chariot, Swallow's wings, Go-between.
    O = 0,
    /// The diagonal cube: Bishop, Tile general, Cat sword, Dog.
    D = 1,
}

impl Cube {
    pub const ALL: [Cube; 2] = [Cube::O, Cube::D];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The four faces of this cube, in the order they turn.
    pub const fn faces(self) -> [Role; 4] {
        match self {
            Cube::O => [Role::Rook, Role::Chariot, Role::SwallowsWings, Role::GoBetween],
            Cube::D => [Role::Bishop, Role::TileGeneral, Role::CatSword, Role::Dog],
        }
    }
}

/// What a piece is now: a King, or one face of a cube.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    King = 0,
    Rook = 1,
    Chariot = 2,
    SwallowsWings = 3,
    GoBetween = 4,
    Bishop = 5,
    TileGeneral = 6,
    CatSword = 7,
    Dog = 8,
}

impl Role {
    pub const ALL: [Role; 9] = [
        Role::King,
        Role::Rook,
        Role::Chariot,
        Role::SwallowsWings,
        Role::GoBetween,
        Role::Bishop,
        Role::TileGeneral,
        Role::CatSword,
        Role::Dog,
    ];

    pub const fn from_index(i: u8) -> Option<Role> {
        if i < 9 {
            Some(Role::ALL[i as usize])
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The cube this face belongs to; `None` for the King.
    #[inline]
    pub const fn cube(self) -> Option<Cube> {
        match self as u8 {
            0 => None,
            1..=4 => Some(Cube::O),
            _ => Some(Cube::D),
        }
    }

    /// The face a cube shows after a board move (the King never changes).
    #[inline]
    pub const fn next_face(self) -> Role {
        match self {
            Role::King => Role::King,
            Role::Rook => Role::Chariot,
            Role::Chariot => Role::SwallowsWings,
            Role::SwallowsWings => Role::GoBetween,
            Role::GoBetween => Role::Rook,
            Role::Bishop => Role::TileGeneral,
            Role::TileGeneral => Role::CatSword,
            Role::CatSword => Role::Dog,
            Role::Dog => Role::Bishop,
        }
    }

    /// The face a cube showed before its last board move.
    #[inline]
    pub const fn previous_face(self) -> Role {
        self.next_face().next_face().next_face()
    }

    /// The letter of the position string and of USI-like drops (uppercase).
    pub const fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Rook => 'R',
            Role::Chariot => 'C',
            Role::SwallowsWings => 'W',
            Role::GoBetween => 'G',
            Role::Bishop => 'B',
            Role::TileGeneral => 'T',
            Role::CatSword => 'S',
            Role::Dog => 'D',
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.letter() == c)
    }

    /// The Hodges-style abbreviation (`K`, `R`, `C`, `SW`, `GB`, `B`, `TG`, `CS`, `D`).
    pub const fn hodges(self) -> &'static str {
        match self {
            Role::King => "K",
            Role::Rook => "R",
            Role::Chariot => "C",
            Role::SwallowsWings => "SW",
            Role::GoBetween => "GB",
            Role::Bishop => "B",
            Role::TileGeneral => "TG",
            Role::CatSword => "CS",
            Role::Dog => "D",
        }
    }

    pub fn from_hodges(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.hodges() == s)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Rook => "rook",
            Role::Chariot => "chariot",
            Role::SwallowsWings => "swallow's wings",
            Role::GoBetween => "go-between",
            Role::Bishop => "bishop",
            Role::TileGeneral => "tile general",
            Role::CatSword => "cat sword",
            Role::Dog => "dog",
        }
    }
}

/// A piece on the board: its owner and what it shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The compact cell code used by [`crate::Position`]: 0 is an empty square,
    /// `1 + 9 * color + role` a piece.
    #[inline]
    pub const fn code(self) -> u8 {
        1 + 9 * self.color as u8 + self.role as u8
    }

    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 18 {
            return None;
        }
        let c = code - 1;
        let color = if c >= 9 { Color::White } else { Color::Black };
        match Role::from_index(c % 9) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The position-string letter: uppercase for Black, lowercase for White.
    pub fn char(self) -> char {
        match self.color {
            Color::Black => self.role.letter(),
            Color::White => self.role.letter().to_ascii_lowercase(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
        Role::from_letter(c.to_ascii_uppercase()).map(|role| Piece { color, role })
    }
}

/// The two rule sets of Nana shogi.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Version 3.0 (2001): short rook (one orthogonal step), short swallow's wings.
    Current,
    /// Version 2.1: the rook and the swallow's wings slide.
    Original,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Current, Variant::Original];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Current => "current",
            Variant::Original => "original",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set with its options. See `docs/RULES.md`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    pub variant: Variant,
    /// R1: a drop must not stalemate the opponent.
    pub drop_stalemate: bool,
    /// R2S: a player with pieces in hand may not stalemate the opponent (mating is always
    /// forbidden to such a player).
    pub hand_stalemate: bool,
}

impl Rules {
    pub const fn new(variant: Variant) -> Rules {
        Rules { variant, drop_stalemate: true, hand_stalemate: true }
    }

    pub const CURRENT: Rules = Rules::new(Variant::Current);
    pub const ORIGINAL: Rules = Rules::new(Variant::Original);

    /// Every rule set with every option combination: current before original, and within a
    /// rule set the options on before off, `drop_stalemate` varying slowest.
    pub fn all() -> impl Iterator<Item = Rules> {
        Variant::ALL.into_iter().flat_map(|variant| {
            [(true, true), (true, false), (false, true), (false, false)]
                .map(|(drop_stalemate, hand_stalemate)| Rules { variant, drop_stalemate, hand_stalemate })
        })
    }

    /// A short name such as `current` or `original, drop-stalemate off`.
    pub fn short_name(&self) -> String {
        let mut s = self.variant.name().to_string();
        if !self.drop_stalemate {
            s.push_str(", drop-stalemate off");
        }
        if !self.hand_stalemate {
            s.push_str(", hand-stalemate off");
        }
        s
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::CURRENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_geometry() {
        let sq = |s: &str| {
            let b = s.as_bytes();
            Square::from_file_rank(b[0] - b'0', b[1] - b'a').unwrap()
        };
        assert_eq!(sq("3a").index(), 0);
        assert_eq!(sq("1a").index(), 2);
        assert_eq!(sq("2b"), Square::CENTER);
        assert_eq!(sq("1c").index(), 8);
        assert_eq!(sq("1a").flip(), sq("3c"));
        assert_eq!(sq("1b").mirror(), sq("3b"));
        assert_eq!(sq("2a").mirror(), sq("2a"));
        assert!(sq("1a").touches(sq("2b")));
        assert!(!sq("1a").touches(sq("3a")));
        assert!(!sq("1a").touches(sq("1a")));
        for s in Square::ALL {
            assert_eq!(s.to_string(), format!("{}{}", s.file(), (b'a' + s.rank()) as char));
            assert_eq!(s.flip().flip(), s);
            assert_eq!(s.mirror().mirror(), s);
            assert!(s.touches(Square::CENTER) || s == Square::CENTER);
        }
    }

    #[test]
    fn faces_turn_in_cycles_of_four() {
        for cube in Cube::ALL {
            let f = cube.faces();
            for i in 0..4 {
                assert_eq!(f[i].next_face(), f[(i + 1) % 4]);
                assert_eq!(f[(i + 1) % 4].previous_face(), f[i]);
                assert_eq!(f[i].cube(), Some(cube));
            }
        }
        assert_eq!(Role::King.next_face(), Role::King);
    }

    #[test]
    fn piece_codes_round_trip() {
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece { color, role };
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(Piece::from_char(p.char()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(19), None);
    }
}
