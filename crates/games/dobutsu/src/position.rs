//! Positions, moves, move generation and how the game ends.
//!
//! Long: the rules in one file: moves, their generation and the end of the game.

use std::fmt;

use nana_engine::{Dtm, Value};

use crate::types::{Piece, Role, Rules, Side, Square, TryRule};

/// The opponent's attacks as a position's moves change them ([`Position::exposure`]): no piece
/// of Dobutsu slides, so a move changes them only by the piece it captures.
#[derive(Debug, Clone, Copy)]
pub struct Exposure {
    /// The mover's lion's square (255 if it has none).
    lion: u8,
    /// The opponent's pieces' squares.
    theirs: Squares,
    /// The squares the opponent attacks.
    all: Squares,
    /// `without[sq]`, for a square of the opponent's: the squares its other pieces attack.
    without: [Squares; 12],
}

impl Exposure {
    /// Whether, after the move, the opponent attacks the mover's lion (and so, under either
    /// reading of the try, wins at once by taking it): the same as
    /// `pos.play_unchecked(mv).can_capture_lion()`, without playing the move.
    #[inline]
    pub fn loses_at_once(&self, mv: Move) -> bool {
        let (lion, attacks) = match mv {
            Move::Step { from, to, .. } => {
                let lion = if from.0 == self.lion { to.0 } else { self.lion };
                let attacks = if self.theirs & 1 << to.0 != 0 { self.without[to.index()] } else { self.all };
                (lion, attacks)
            }
            Move::Drop { .. } => (self.lion, self.all),
        };
        lion < 12 && attacks & 1 << lion != 0
    }
}

/// The lions and attacks of a position with the first player to move, as a retro-move of the
/// second player changes them ([`Position::retro_ends`]): no piece slides, so a retro-move
/// changes them only by the piece it takes back and the one it puts back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RetroEnds {
    lions: [u8; 2],
    /// The squares the first player attacks.
    first: Squares,
    /// `second_without[sq]`, for a square of the second player's: the squares its other pieces
    /// attack.
    second_without: [Squares; 12],
}

impl RetroEnds {
    /// [`Position::solver_end`] of `prev`, the position a retro-move away: the second player's
    /// piece on `to` taken back to `from` as `role` (`None`: a drop taken back), and the first
    /// player's piece `uncaptured` (a piece code, or 0) put back on `to`.
    #[inline]
    pub(crate) fn solver_end(
        &self,
        prev: &Position,
        rules: &Rules,
        to: usize,
        from: Option<(usize, u8)>,
        uncaptured: u8,
    ) -> Option<(Value, End)> {
        let mut s = Survey { lions: self.lions, attacks: [self.first, self.second_without[to]] };
        if let Some((from, role)) = from {
            s.attacks[1] |= ATTACKS[1][role as usize][from];
            if role == Role::Lion as u8 {
                s.lions[1] = from as u8;
            }
        }
        if uncaptured != 0 {
            s.attacks[0] |= ATTACKS[0][(uncaptured & 7) as usize][to];
        }
        let end = prev.solver_end_with(rules, &s);
        if nana_engine::cross_check::on() {
            assert_eq!(end, prev.solver_end(rules), "the retro-move's end of {prev:?}");
        }
        end
    }
}

/// Lion squares and attacks of both sides (see [`Position::survey`]).
struct Survey {
    lions: [u8; 2],
    attacks: [Squares; 2],
}

/// A set of squares, bit `s` for square `s`.
pub(crate) type Squares = u16;

/// Every square of the board.
const ALL_SQUARES: Squares = (1 << 12) - 1;

/// The squares of a set, lowest first.
#[inline]
pub(crate) fn squares(mut set: Squares) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            sq
        })
    })
}

/// The steps of a role for the first player as (file, rank) deltas; the second player's are
/// the same with the rank negated.
const fn deltas(role: u8) -> &'static [(i8, i8)] {
    match role {
        1 => &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        2 => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
        3 => &[(-1, -1), (1, -1), (-1, 1), (1, 1)],
        4 => &[(0, 1)],
        5 => &[(0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        _ => &[],
    }
}

const fn build_attacks() -> [[[Squares; 12]; 6]; 2] {
    let mut t = [[[0; 12]; 6]; 2];
    let mut side = 0;
    while side < 2 {
        let mut role = 1;
        while role < 6 {
            let d = deltas(role as u8);
            let mut sq = 0;
            while sq < 12 {
                let (f, r) = ((sq % 3) as i8, (sq / 3) as i8);
                let mut k = 0;
                while k < d.len() {
                    let (df, dr) = d[k];
                    let dr = if side == 0 { dr } else { -dr };
                    let (nf, nr) = (f + df, r + dr);
                    if nf >= 0 && nf < 3 && nr >= 0 && nr < 4 {
                        t[side][role][sq] |= 1 << (nr * 3 + nf);
                    }
                    k += 1;
                }
                sq += 1;
            }
            role += 1;
        }
        side += 1;
    }
    t
}

/// `ATTACKS[side][role][square]`: the squares a piece attacks (and may step to).
pub(crate) const ATTACKS: [[[Squares; 12]; 6]; 2] = build_attacks();

/// `BOTH_ATTACKS[code][sq]`: the squares a piece of code `code` on `sq` attacks, the first
/// player's in the low 16 bits, the second's in the high 16, so that one sum holds both sides'.
const BOTH_ATTACKS: [[u32; 12]; 16] = {
    let mut t = [[0; 12]; 16];
    let mut code = 0;
    while code < 16 {
        let (side, role) = (code >> 3, code & 7);
        let mut sq = 0;
        while sq < 12 {
            if role != 0 && role < 6 {
                t[code][sq] = (ATTACKS[side][role][sq] as u32) << (16 * side);
            }
            sq += 1;
        }
        code += 1;
    }
    t
};

/// The square of the first byte of `board` equal to `code` (12 if none), eight at a time.
#[inline]
pub(crate) fn find(board: &[u8; 12], code: u8) -> usize {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(board);
    let x = u128::from_le_bytes(bytes) ^ (u128::from(code) * (u128::MAX / 255));
    // The lowest zero byte of `x` sets the lowest bit of `zero` (higher ones may be noise).
    let zero = x.wrapping_sub(u128::MAX / 255) & !x & (u128::MAX / 255 * 0x80);
    (zero.trailing_zeros() / 8).min(12) as usize
}

const fn build_reverse() -> [[[Squares; 12]; 6]; 2] {
    let mut t = [[[0; 12]; 6]; 2];
    let mut side = 0;
    while side < 2 {
        let mut role = 1;
        while role < 6 {
            let mut from = 0;
            while from < 12 {
                let mut to = 0;
                while to < 12 {
                    if ATTACKS[side][role][from] & 1 << to != 0 {
                        t[side][role][to] |= 1 << from;
                    }
                    to += 1;
                }
                from += 1;
            }
            role += 1;
        }
        side += 1;
    }
    t
}

/// `ORIGINS[side][role][square]`: the squares from which such a piece steps onto `square`.
pub(crate) const ORIGINS: [[[Squares; 12]; 6]; 2] = build_reverse();

/// The rank a side's pieces promote on and its lion tries on: rank 4 for the first player,
/// rank 1 for the second.
pub(crate) const FAR_RANK: [Squares; 2] = [0b111 << 9, 0b111];

/// A move, in Fairy-Stockfish's terms: a step of a piece on the board (a chick stepping onto
/// the far rank always promotes) or a drop from the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Step { from: Square, to: Square, promote: bool },
    Drop { role: Role, to: Square },
}

impl fmt::Display for Move {
    /// `b2b3`, `b3b4+`, `C@b2` (Fairy-Stockfish's UCI form; drops are upper case for both sides).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Step { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { role, to } => write!(f, "{}@{to}", role.letter()),
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// A lion was captured, or (in the solver's count) can be captured by the side to move.
    LionCaptured,
    /// A lion completed a try.
    Try,
    /// Both lions stand safely on their far ranks (the safe-try reading: a draw).
    BothTries,
    /// The side to move has no move at all, which loses, as in shogi: every piece it has on
    /// the board is hemmed in by its own pieces and it holds none in hand.
    NoMove,
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Side>,
    pub end: End,
}

/// A position: the board, both hands and the side to move. Obtained only through
/// [`Position::start`], [`Position::from_setup`], the FEN reader or by playing moves, so that it
/// always holds the full set of pieces: two lions (one of them possibly captured, which ends
/// the game), two giraffes, two elephants and two chicks (promoted or not).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece codes: 0 empty, else the role (1 to 5) plus 8 for the second player's pieces.
    pub(crate) board: [u8; 12],
    /// `hands[side][slot]`: giraffes, elephants and chicks in hand.
    pub(crate) hands: [[u8; 3]; 2],
    pub(crate) turn: Side,
}

/// An unchecked position: plain data, to be checked by [`Position::from_setup`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    pub board: [Option<Piece>; 12],
    /// Pieces in hand per side: giraffes, elephants, chicks; and whether it holds the other
    /// side's lion (captured: the game is over).
    pub hands: [[u8; 3]; 2],
    pub lion_in_hand: [bool; 2],
    pub first_to_move: bool,
}

/// Why a setup is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A role has the wrong number of pieces (two of each role, chicks and hens together).
    Count { role: Role, found: u8 },
    /// A side's lion is neither on the board nor in the other side's hand, or is there twice.
    Lion { side: Side },
    /// Both lions are captured.
    BothLionsCaptured,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Count { role: Role::Chick, found } => {
                write!(f, "Dobutsu has two chicks (chicks and hens together), found {found}")
            }
            PositionError::Count { role, found } => {
                write!(f, "Dobutsu has two {}s, found {found}", role.name())
            }
            PositionError::Lion { side } => write!(
                f,
                "the {side} player's lion must be on the board once (or, captured, in the other hand)"
            ),
            PositionError::BothLionsCaptured => write!(f, "both lions are captured"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: &'static str,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv, self.reason)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// `gle/1c1/1C1/ELG[-] w 0 1`.
    pub fn start() -> Position {
        let mut board = [0; 12];
        let first = |r: Role| Piece { side: Side::First, role: r }.code();
        let second = |r: Role| Piece { side: Side::Second, role: r }.code();
        board[0] = first(Role::Elephant);
        board[1] = first(Role::Lion);
        board[2] = first(Role::Giraffe);
        board[4] = first(Role::Chick);
        board[7] = second(Role::Chick);
        board[9] = second(Role::Giraffe);
        board[10] = second(Role::Lion);
        board[11] = second(Role::Elephant);
        Position { board, hands: [[0; 3]; 2], turn: Side::First }
    }

    /// Checks a setup: two pieces of every role, each lion once.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut board = [0; 12];
        let mut counts = [0u8; 6];
        let mut lions = [0u8; 2];
        for (sq, p) in setup.board.iter().enumerate() {
            if let Some(p) = p {
                board[sq] = p.code();
                if p.role == Role::Lion {
                    lions[p.side.index()] += 1;
                } else {
                    counts[p.role.unpromoted() as usize] += 1;
                }
            }
        }
        for side in Side::BOTH {
            for (slot, role) in Role::IN_HAND.iter().enumerate() {
                counts[*role as usize] += setup.hands[side.index()][slot];
            }
            if setup.lion_in_hand[side.index()] {
                lions[side.other().index()] += 1;
            }
        }
        for role in Role::IN_HAND {
            if counts[role as usize] != 2 {
                return Err(PositionError::Count { role, found: counts[role as usize] });
            }
        }
        for side in Side::BOTH {
            if lions[side.index()] != 1 {
                return Err(PositionError::Lion { side });
            }
        }
        if setup.lion_in_hand == [true, true] {
            return Err(PositionError::BothLionsCaptured);
        }
        let turn = if setup.first_to_move { Side::First } else { Side::Second };
        Ok(Position { board, hands: setup.hands, turn })
    }

    /// The position as plain data.
    pub fn setup(&self) -> Setup {
        let mut board = [None; 12];
        for (sq, &c) in self.board.iter().enumerate() {
            board[sq] = Piece::from_code(c);
        }
        let lion_in_hand = [self.lion(Side::Second).is_none(), self.lion(Side::First).is_none()];
        Setup { board, hands: self.hands, lion_in_hand, first_to_move: self.turn == Side::First }
    }

    pub fn side_to_move(&self) -> Side {
        self.turn
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// How many pieces of `role` (giraffe, elephant or chick) `side` holds in hand.
    pub fn hand(&self, side: Side, role: Role) -> u8 {
        role.hand_slot().map_or(0, |slot| self.hands[side.index()][slot])
    }

    /// The square of a side's lion; `None` once it is captured.
    pub fn lion(&self, side: Side) -> Option<Square> {
        let sq = find(&self.board, Piece { side, role: Role::Lion }.code());
        (sq < 12).then_some(Square(sq as u8))
    }

    /// The squares `side`'s pieces attack.
    pub(crate) fn attacks(&self, side: Side) -> Squares {
        (self.both_attacks() >> (16 * side.index())) as Squares
    }

    /// The squares each side attacks, the first player's in the low 16 bits, the second's in
    /// the high 16: every square looked up, without a branch (an empty one attacks nothing).
    #[inline]
    fn both_attacks(&self) -> u32 {
        let mut both = 0;
        for (sq, &c) in self.board.iter().enumerate() {
            both |= BOTH_ATTACKS[usize::from(c & 15)][sq];
        }
        both
    }

    fn occupied_by(&self, side: Side) -> Squares {
        self.occupancy()[side.index()]
    }

    /// Both sides' squares (the first player's, the second's), read off the board a word at a
    /// time: a piece code's bit 3 is its owner's, and no code reaches 16.
    #[inline]
    pub(crate) fn occupancy(&self) -> [Squares; 2] {
        const LOW: u64 = 0x0101_0101_0101_0101;
        // Bit 0 of each byte of `x` gathered into one bit per byte, the first byte's lowest:
        // the bits, eight places apart, each meet the multiplier's byte that lifts them into
        // the top byte in order, and nothing carries.
        let gather = |x: u64| ((x & LOW).wrapping_mul(0x0102_0408_1020_4080) >> 56) as Squares;
        let mut low = [0; 8];
        low.copy_from_slice(&self.board[..8]);
        let mut high = [0; 8];
        high[..4].copy_from_slice(&self.board[8..]);
        let [low, high] = [u64::from_le_bytes(low), u64::from_le_bytes(high)];
        let bits = |f: fn(u64) -> u64| gather(f(low)) | gather(f(high)) << 8;
        let any = bits(|x| x | x >> 1 | x >> 2 | x >> 3);
        let second = bits(|x| x >> 3);
        [any & !second, second]
    }

    /// How the game has ended at this position under `rules`, if it has: a lion was captured;
    /// Tanaka: the side to move's lion stands on its far rank (the opponent did not capture it),
    /// or the opponent's lion stands on the side to move's home rank and cannot be captured;
    /// safe try: a lion stands on its far rank where the other side does not attack it (both:
    /// a draw); otherwise, the side to move has no move at all and has lost. Moves are generated
    /// only where this is `None`.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        self.outcome_with(rules, &self.survey())
    }

    /// Both lions' squares (255 once captured) and both sides' attacks, in one pass.
    #[inline]
    fn survey(&self) -> Survey {
        let both = self.both_attacks();
        let lion = |code| match find(&self.board, code) {
            12 => 255,
            sq => sq as u8,
        };
        Survey { lions: [lion(1), lion(9)], attacks: [both as Squares, (both >> 16) as Squares] }
    }

    fn outcome_with(&self, rules: &Rules, s: &Survey) -> Option<Outcome> {
        let (us, them) = (self.turn, self.turn.other());
        let (ours, theirs) = (s.lions[us.index()], s.lions[them.index()]);
        if ours == 255 || theirs == 255 {
            let winner = if ours != 255 { us } else { them };
            return Some(Outcome { winner: Some(winner), end: End::LionCaptured });
        }
        let on_far = |side: Side, sq: u8| FAR_RANK[side.index()] & 1 << sq != 0;
        let attacked_by = |side: Side, sq: u8| s.attacks[side.index()] & 1 << sq != 0;
        let won = |winner| Some(Outcome { winner: Some(winner), end: End::Try });
        let by_try = match rules.try_rule {
            TryRule::Tanaka => {
                if on_far(us, ours) {
                    won(us)
                } else if on_far(them, theirs) && !attacked_by(us, theirs) {
                    won(them)
                } else {
                    None
                }
            }
            TryRule::SafeTry => {
                let our_try = on_far(us, ours) && !attacked_by(them, ours);
                let their_try = on_far(them, theirs) && !attacked_by(us, theirs);
                match (our_try, their_try) {
                    (true, true) => Some(Outcome { winner: None, end: End::BothTries }),
                    (true, false) => won(us),
                    (false, true) => won(them),
                    (false, false) => None,
                }
            }
        };
        by_try.or_else(|| self.cannot_move(s).then_some(Outcome { winner: Some(them), end: End::NoMove }))
    }

    /// Whether the side to move has no move ([`Position::hemmed_in`]).
    #[inline]
    fn cannot_move(&self, s: &Survey) -> bool {
        self.hemmed_in(self.turn, s.lions[self.turn.index()], || s.attacks[self.turn.index()])
    }

    /// Whether `side` would have a move if it were its turn (its lion on the board).
    pub(crate) fn could_move(&self, side: Side) -> bool {
        self.lion(side).is_some_and(|l| !self.hemmed_in(side, l.0, || self.attacks(side)))
    }

    /// Whether `side`, its lion on `lion`, has no move: nothing in hand and every square its
    /// pieces attack (`attacks`) held by its own pieces. The lion's squares are looked at
    /// first: one of them is almost always free, which settles it without a pass over the
    /// board.
    #[inline]
    fn hemmed_in(&self, side: Side, lion: u8, attacks: impl FnOnce() -> Squares) -> bool {
        self.hands[side.index()] == [0; 3]
            && self.lion_boxed_in(side, lion)
            && attacks() & !self.occupied_by(side) == 0
    }

    /// Whether every square next to `side`'s lion, on `lion`, holds one of `side`'s pieces.
    /// Reads only the lion's squares, not the whole board.
    #[inline]
    pub(crate) fn lion_boxed_in(&self, side: Side, lion: u8) -> bool {
        let us = side.index();
        let mut lion_steps = ATTACKS[us][Role::Lion as usize][lion as usize];
        while lion_steps != 0 {
            let c = self.board[lion_steps.trailing_zeros() as usize];
            if c == 0 || (c >> 3) as usize != us {
                return false;
            }
            lion_steps &= lion_steps - 1;
        }
        true
    }

    /// Whether the side to move attacks the opponent's lion.
    pub fn can_capture_lion(&self) -> bool {
        self.lion(self.turn.other()).is_some_and(|l| self.attacks(self.turn) & 1 << l.0 != 0)
    }

    /// The game's end as the solver counts it (Tanaka's convention, for both readings): a side
    /// that can capture the lion does, so such a position is over, a win in 1 for the side to
    /// move; otherwise [`Position::outcome`], a win counted as a win in 1 (claimed with the next
    /// ply), a loss as a loss in 0. `None` for a position the solver expands.
    pub fn solver_end(&self, rules: &Rules) -> Option<(Value, End)> {
        self.solver_end_with(rules, &self.survey())
    }

    /// [`Position::solver_end`] from the position's lions and attacks, known already.
    fn solver_end_with(&self, rules: &Rules, s: &Survey) -> Option<(Value, End)> {
        let (us, them) = (self.turn.index(), self.turn.other().index());
        if s.lions[them] != 255 && s.attacks[us] & 1 << s.lions[them] != 0 {
            return Some((Value::Win(Dtm(1)), End::LionCaptured));
        }
        self.outcome_with(rules, s).map(|o| {
            let value = match o.winner {
                None => Value::Draw,
                Some(w) if w == self.turn => Value::Win(Dtm(1)),
                Some(_) => Value::Loss(Dtm(0)),
            };
            (value, o.end)
        })
    }

    /// Calls `f` with every move the side to move's pieces can make, whether or not the game is
    /// over (callers look at [`Position::outcome`] first). Moving into an attacked square is
    /// legal.
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let us = self.turn.index();
        let occupancy = self.occupancy();
        let own = occupancy[us];
        for sq in squares(own) {
            let role = self.board[sq] & 7;
            let mut targets = ATTACKS[us][role as usize][sq] & !own;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let promote = role == Role::Chick as u8 && FAR_RANK[us] & 1 << to != 0;
                f(Move::Step { from: Square(sq as u8), to: Square(to), promote });
            }
        }
        let empty = ALL_SQUARES & !(occupancy[0] | occupancy[1]);
        for (slot, role) in Role::IN_HAND.iter().enumerate() {
            if self.hands[us][slot] == 0 {
                continue;
            }
            for sq in squares(empty) {
                f(Move::Drop { role: *role, to: Square(sq as u8) });
            }
        }
    }

    /// What [`RetroEnds::solver_end`] needs to tell, a retro-move at a time, whether the game
    /// goes on from a position before this one (the first player to move, both lions on the
    /// board).
    pub(crate) fn retro_ends(&self) -> RetroEnds {
        nana_engine::cross_assert_eq!(self.turn, Side::First);
        let s = self.survey();
        // The first player to move: the opponent's attacks without each of its pieces are the
        // second player's, as the exposure of the first player's moves has them.
        let second_without = self.exposure().without;
        RetroEnds { lions: s.lions, first: s.attacks[0], second_without }
    }

    /// What [`Exposure::loses_at_once`] needs to tell, a move at a time, whether a move of the
    /// side to move leaves its lion where the opponent attacks it.
    pub fn exposure(&self) -> Exposure {
        let (us, them) = (self.turn, self.turn.other());
        // What the opponent's piece on each square attacks (nothing where none stands), every
        // square looked up without a branch; then each square gets the attacks of the squares
        // before it and of those after it.
        let shift = 16 * them.index();
        let attacks: [Squares; 12] = std::array::from_fn(|sq| {
            (BOTH_ATTACKS[usize::from(self.board[sq] & 15)][sq] >> shift) as Squares
        });
        let mut without = [0; 12];
        let mut all = 0;
        for (w, &a) in without.iter_mut().zip(&attacks) {
            *w = all;
            all |= a;
        }
        let mut after = 0;
        for (w, &a) in without.iter_mut().zip(&attacks).rev() {
            *w |= after;
            after |= a;
        }
        let theirs = self.occupancy()[them.index()];
        let lion = self.lion(us).map_or(255, |l| l.0);
        Exposure { lion, theirs, all, without }
    }

    /// The number of moves of the side to move that do not lose at once
    /// ([`Exposure::loses_at_once`] of `exposure`, this position's), counted a piece at a time
    /// from the squares; `lion_home` is called with each of them that brings the lion onto its
    /// far rank. `None` where the side to move has no lion. What [`Position::for_each_move`]
    /// and `loses_at_once` count a move at a time: no piece slides, so where the lion is
    /// attacked a step of another piece saves it only by taking its one attacker, and a drop
    /// never does.
    pub(crate) fn safe_moves(&self, exposure: &Exposure, mut lion_home: impl FnMut(Move)) -> Option<u32> {
        let (us, lion) = (self.turn.index(), exposure.lion);
        if lion >= 12 {
            return None;
        }
        let occupancy = self.occupancy();
        let own = occupancy[us];
        let mut n = 0;
        for to in squares(ATTACKS[us][Role::Lion as usize][usize::from(lion)] & !own) {
            let attacks = if exposure.theirs & 1 << to != 0 { exposure.without[to] } else { exposure.all };
            if attacks & 1 << to == 0 {
                n += 1;
                if FAR_RANK[us] & 1 << to != 0 {
                    lion_home(Move::Step { from: Square(lion), to: Square(to as u8), promote: false });
                }
            }
        }
        let in_check = exposure.all & 1 << lion != 0;
        // Where the lion is attacked: the square of its one attacker, or none.
        let saving = if in_check {
            squares(exposure.theirs).find(|&x| exposure.without[x] & 1 << lion == 0).map_or(0, |x| 1 << x)
        } else {
            ALL_SQUARES
        };
        for sq in squares(own & !(1 << lion)) {
            let role = usize::from(self.board[sq] & 7);
            n += (ATTACKS[us][role][sq] & !own & saving).count_ones();
        }
        if !in_check {
            let [first, second] = occupancy;
            let kinds = self.hands[us].iter().filter(|&&h| h > 0).count() as u32;
            n += kinds * (ALL_SQUARES & !(first | second)).count_ones();
        }
        Some(n)
    }

    /// The moves of the side to move; none where the game is over under `rules`.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut v = Vec::new();
        if self.outcome(rules).is_none() {
            self.for_each_move(|m| v.push(m));
        }
        v
    }

    /// Plays a move generated by [`Position::for_each_move`].
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let mut p = *self;
        let us = self.turn.index();
        match mv {
            Move::Step { from, to, promote } => {
                let captured = p.board[to.index()];
                if captured != 0 {
                    if let Some(slot) = Role::from_code(captured & 7).unpromoted().hand_slot() {
                        p.hands[us][slot] += 1;
                    }
                }
                let piece = p.board[from.index()];
                p.board[to.index()] = if promote { Role::Hen as u8 | (piece & 8) } else { piece };
                p.board[from.index()] = 0;
            }
            Move::Drop { role, to } => {
                let slot = role.hand_slot().expect("a role that can be in hand");
                p.hands[us][slot] -= 1;
                p.board[to.index()] = Piece { side: self.turn, role }.code();
            }
        }
        p.turn = self.turn.other();
        p
    }

    /// Plays a move after checking that it is legal under `rules`.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        if self.outcome(rules).is_some() {
            return Err(IllegalMove { mv, reason: "the game is over" });
        }
        let mut legal = false;
        self.for_each_move(|m| legal |= m == mv);
        if legal {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove { mv, reason: "no piece of the side to move can make it" })
        }
    }

    /// The same position seen from the other side: the board turned half a turn, the pieces and
    /// hands swapped between the players, the other side to move.
    pub fn rotate(&self) -> Position {
        let mut board = [0; 12];
        for (sq, &c) in self.board.iter().enumerate() {
            board[11 - sq] = if c == 0 { 0 } else { c ^ 8 };
        }
        Position { board, hands: [self.hands[1], self.hands[0]], turn: self.turn.other() }
    }

    /// The mirror image: files `a` and `c` swapped.
    pub fn mirror(&self) -> Position {
        let mut p = *self;
        for r in 0..4 {
            p.board.swap(3 * r, 3 * r + 2);
        }
        p
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

/// A board diagram for the terminal: rank 4 on top, upper case for the first player, `.` for
/// an empty square, then the hands and the side to move.
pub fn diagram(pos: &Position) -> String {
    let mut s = String::from("  a b c\n");
    for r in (0..4u8).rev() {
        s.push((b'1' + r) as char);
        for f in 0..3 {
            s.push(' ');
            s.push(match Piece::from_code(pos.board[(3 * r + f) as usize]) {
                None => '.',
                Some(p) if p.side == Side::First => p.role.letter(),
                Some(p) => p.role.letter().to_ascii_lowercase(),
            });
        }
        s.push('\n');
    }
    for side in [Side::Second, Side::First] {
        let mut hand = String::new();
        if pos.lion(side.other()).is_none() {
            hand.push_str("L ");
        }
        for role in Role::IN_HAND {
            for _ in 0..pos.hand(side, role) {
                hand.push(role.letter());
                hand.push(' ');
            }
        }
        let hand = if hand.is_empty() { "-".to_string() } else { hand.trim_end().to_string() };
        s.push_str(&format!("{} in hand: {hand}\n", side.name()));
    }
    s.push_str(&format!("{} to move\n", pos.turn.name()));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Position::occupancy`] and [`squares`] against a plain look at each square: every code
    /// on every square, and boards of random codes (lions or not).
    #[test]
    fn occupancy_is_each_sides_squares() {
        let plain = |pos: &Position| {
            let mut m = [0; 2];
            for (sq, &c) in pos.board.iter().enumerate() {
                if c != 0 {
                    m[usize::from(c >> 3)] |= 1 << sq;
                }
            }
            m
        };
        let codes = [0u8, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13];
        let mut pos = Position::start();
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for k in 0..20_000 {
            for (sq, c) in pos.board.iter_mut().enumerate() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *c = if k < codes.len() * 12 {
                    codes[k / 12] * u8::from(sq == k % 12)
                } else {
                    codes[(state % 11) as usize]
                };
            }
            let m = pos.occupancy();
            assert_eq!(m, plain(&pos), "{:?}", pos.board);
            let listed: Vec<usize> = squares(m[0] | m[1]).collect();
            assert_eq!(listed, (0..12).filter(|&sq| pos.board[sq] != 0).collect::<Vec<_>>());
        }
    }
}
