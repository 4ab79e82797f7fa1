//! Sides, roles, squares and the rule sets.

use std::fmt;

/// A player. The first player moves first, owns the upper-case pieces and starts on rank 1 (the
/// bottom); Fairy-Stockfish calls it `w`. The second player is `b`, lower case, on rank 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First = 0,
    Second = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Side::First => "first",
            Side::Second => "second",
        }
    }

    /// The letter of the side to move in Fairy-Stockfish's FEN: `w` or `b`.
    pub fn fen_letter(self) -> char {
        match self {
            Side::First => 'w',
            Side::Second => 'b',
        }
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a piece is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Steps one square in any direction.
    Lion = 1,
    /// Steps one square orthogonally.
    Giraffe = 2,
    /// Steps one square diagonally.
    Elephant = 3,
    /// Steps one square forward; promotes to a hen on the far rank.
    Chick = 4,
    /// A promoted chick: a gold general's steps.
    Hen = 5,
}

impl Role {
    pub const ALL: [Role; 5] = [Role::Lion, Role::Giraffe, Role::Elephant, Role::Chick, Role::Hen];

    /// The roles a player can hold in hand, in the order of [`crate::Position::hand`].
    pub const IN_HAND: [Role; 3] = [Role::Giraffe, Role::Elephant, Role::Chick];

    /// The upper-case letter (Fairy-Stockfish writes a hen as `+C`).
    pub fn letter(self) -> char {
        match self {
            Role::Lion => 'L',
            Role::Giraffe => 'G',
            Role::Elephant => 'E',
            Role::Chick => 'C',
            Role::Hen => 'H',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Role::Lion => "lion",
            Role::Giraffe => "giraffe",
            Role::Elephant => "elephant",
            Role::Chick => "chick",
            Role::Hen => "hen",
        }
    }

    /// What the piece becomes in the captor's hand: a hen goes back to a chick.
    pub fn unpromoted(self) -> Role {
        if self == Role::Hen {
            Role::Chick
        } else {
            self
        }
    }

    /// The slot of a role in hand (giraffe 0, elephant 1, chick 2); `None` for the lion and hen.
    pub fn hand_slot(self) -> Option<usize> {
        match self {
            Role::Giraffe => Some(0),
            Role::Elephant => Some(1),
            Role::Chick => Some(2),
            _ => None,
        }
    }

    pub(crate) fn from_code(code: u8) -> Role {
        Role::ALL[(code - 1) as usize]
    }
}

/// A piece: a role and its owner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

impl Piece {
    /// The board code: the role (1 to 5) plus 8 for the second player's pieces.
    #[inline]
    pub(crate) fn code(self) -> u8 {
        self.role as u8 | (self.side as u8) << 3
    }

    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let side = if code & 8 != 0 { Side::Second } else { Side::First };
        Some(Piece { side, role: Role::from_code(code & 7) })
    }
}

/// A square, `0..12`: `3 × rank + file`, rank 0 being rank 1 (the first player's home rank)
/// and file 0 file `a`. Fairy-Stockfish's names: `a1` … `c4`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    pub const COUNT: usize = 12;

    /// The square on `file` (0 to 2, `a` to `c`) and `rank` (0 to 3, `1` to `4`).
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        // Lazily: for a file or rank far out of range, `rank * 3 + file` would overflow.
        (file < 3 && rank < 4).then(|| Square(rank * 3 + file))
    }

    pub fn file(self) -> u8 {
        self.0 % 3
    }

    pub fn rank(self) -> u8 {
        self.0 / 3
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Reads `a1` … `c4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        Square::new(b[0].wrapping_sub(b'a'), b[1].wrapping_sub(b'1'))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..12).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// How a try (a lion reaching the far rank) ends the game. See `docs/DOBUTSU.md`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TryRule {
    /// Tanaka (2009): a lion that reaches the far rank wins one ply later unless the opponent
    /// captures it at once.
    Tanaka,
    /// Fairy-Stockfish (`flagPieceSafe`): a lion on the far rank that the opponent does not
    /// attack wins at once, whenever that is so; both such lions at once are a draw.
    SafeTry,
}

/// A rule set: the rules of Dobutsu shogi with one reading of the try.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub try_rule: TryRule,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::TANAKA
    }
}

impl Rules {
    /// Tanaka's reading, the one his strong solution uses.
    pub const TANAKA: Rules = Rules { try_rule: TryRule::Tanaka };
    /// Fairy-Stockfish's reading.
    pub const SAFE_TRY: Rules = Rules { try_rule: TryRule::SafeTry };

    /// Every rule set, the default first.
    pub fn all() -> [Rules; 2] {
        [Rules::TANAKA, Rules::SAFE_TRY]
    }

    /// The short names, as `--rules NAME` takes them, in the order of [`Rules::all`].
    pub fn names() -> &'static [&'static str] {
        &["tanaka", "safe-try"]
    }

    /// `tanaka` or `safe-try`.
    pub fn name(&self) -> &'static str {
        match self.try_rule {
            TryRule::Tanaka => "tanaka",
            TryRule::SafeTry => "safe-try",
        }
    }

    /// The rule set of a short name.
    pub fn from_name(name: &str) -> Result<Rules, UnknownRules> {
        Rules::all().into_iter().find(|r| r.name() == name).ok_or_else(|| UnknownRules(name.to_string()))
    }

    /// The try rule in words.
    pub fn describe_try(&self) -> &'static str {
        match self.try_rule {
            TryRule::Tanaka => "a try wins unless the lion is captured at once",
            TryRule::SafeTry => "a try wins at once onto a square the opponent does not attack",
        }
    }
}

/// A name that is none of [`Rules::names`]: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.0.chars().take(40).collect();
        write!(f, "unknown Dobutsu rule set \"{shown}\" (known: {})", Rules::names().join(", "))
    }
}

impl std::error::Error for UnknownRules {}
