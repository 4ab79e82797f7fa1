//! Positions: the unvalidated [`Setup`], the validated [`Position`], moves, legal move generation
//! and make-move.
//!
//! Long: move generation and make-move share the piece geometry and the position's
//! representation; apart, each would need the other's internals.

use std::fmt;
use std::ops::ControlFlow;

use crate::attacks::{attacks, table, AttackTable};
use crate::types::{Color, Cube, Piece, Role, Rules, Square, Variant};

/// A move: a board move (the face change of a cube is implied) or a drop from hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Board {
        from: Square,
        to: Square,
    },
    /// A drop of a King (in the opening) or of a cube showing `role`.
    Drop {
        role: Role,
        to: Square,
    },
}

impl Move {
    pub fn to(self) -> Square {
        match self {
            Move::Board { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    pub fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }
}

/// Plain position data, as parsed from a string or built by hand. It may be illegal; the only
/// way to a [`Position`] is [`Position::from_setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: [Option<Piece>; 9],
    /// `hands[color][0]` Kings, `[1]` O cubes, `[2]` D cubes in hand.
    pub hands: [[u8; 3]; 2],
    pub side: Color,
    /// The ply number of the position string, when it had one.
    pub ply: Option<u32>,
}

impl Setup {
    /// The start: an empty board, each side holding King, O cube and D cube, Black to move.
    pub fn start() -> Setup {
        Setup { board: [None; 9], hands: [[1, 1, 1]; 2], side: Color::Black, ply: Some(1) }
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Each side must have exactly one King, on the board or (in the opening) in hand.
    KingCount {
        color: Color,
        count: u8,
    },
    /// There are exactly two cubes of each kind, on the board or in hand.
    CubeCount {
        cube: Cube,
        count: u8,
    },
    KingsAdjacent,
    /// A King on the centre touches every other square, so the other King could never be placed.
    KingOnCentre,
    /// The side that is not to move is in check: the last move left its King attacked.
    OpponentInCheck {
        color: Color,
    },
    /// A King is in hand, but not every cube is in its owner's hand as at the start.
    OpeningCubes,
    /// The side not to move still has its King in hand while the side to move has placed its own.
    OpeningOrder {
        color: Color,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{} has {count} kings; each side has exactly one", color.name())
            }
            PositionError::CubeCount { cube, count } => write!(
                f,
                "there are {count} {:?} cubes on the board and in hand; there must be exactly 2",
                cube
            ),
            PositionError::KingsAdjacent => f.write_str("the two kings stand next to each other"),
            PositionError::KingOnCentre => {
                f.write_str("a king stands on the centre, next to every square the other king could take")
            }
            PositionError::OpponentInCheck { color } => {
                write!(f, "{} is in check but it is not its turn", color.name())
            }
            PositionError::OpeningCubes => f.write_str(
                "a king is still in hand, so every cube must be in hand as at the start \
                 (each side one O cube and one D cube)",
            ),
            PositionError::OpeningOrder { color } => write!(
                f,
                "{} still has its king in hand although it is not its turn: kings are dropped first, \
                 Black's then White's",
                color.name()
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub mv: Move,
    pub reason: &'static str,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", crate::usi::format(self.mv), self.reason)
    }
}

impl std::error::Error for IllegalMove {}

/// A legal Nana shogi position. 22 bytes, `Copy`: make-move returns a new one.
///
/// Legal means: one King per side, two cubes of each kind, Kings not adjacent and neither on the
/// centre, the side not to move not in check, and a King in hand only while every cube is in
/// hand as at the start, for the side to move (or both sides). The position does not
/// know the rule set; the move generator takes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Cell codes, see [`Piece::code`].
    board: [u8; 9],
    /// `hands[color][cube]`: cubes in hand.
    hands: [[u8; 2]; 2],
    /// Bit `color`: that side's King is still in hand.
    kings_in_hand: u8,
    side: Color,
    /// Derived from `board`: the squares of each side's pieces, as bits.
    pieces: [u16; 2],
    /// Derived from `board`: each side's King square, [`NO_SQUARE`] while in hand.
    kings: [u8; 2],
}

/// The King square of a King in hand.
const NO_SQUARE: u8 = 9;

pub(crate) const BLACK_KING: u8 = 1;
pub(crate) const WHITE_KING: u8 = 10;

#[inline]
fn code_role(code: u8) -> u8 {
    (code - 1) % 9
}

/// The cell code of a piece after it moves: a cube turns to its next face (O faces are roles
/// 1..=4, D faces 5..=8); a King stays a King.
#[inline]
fn turned(code: u8) -> u8 {
    TURNED[usize::from(code & 31)]
}

/// [`turned`] by cell code (padded to 32, so that a masked code needs no bounds check).
const TURNED: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut code = 1;
    while code <= 18 {
        let role = (code - 1) % 9;
        t[code] = if role == 0 {
            code as u8
        } else {
            let first = if role <= 4 { 1 } else { 5 };
            (code - role + first + (role - first + 1) % 4) as u8
        };
        code += 1;
    }
    t
};

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl Position {
    /// The start position.
    pub fn start() -> Position {
        Position::from_raw([0; 9], [[1, 1]; 2], 0b11, Color::Black)
    }

    /// Validates a setup.
    pub fn from_setup(setup: &Setup, variant: Variant) -> Result<Position, PositionError> {
        let mut board = [0u8; 9];
        let mut hands = [[0u8; 2]; 2];
        let mut kings_in_hand = 0;
        let mut kings = [0u8; 2];
        let mut cubes = [0u8; 2];
        for (sq, piece) in setup.board.iter().enumerate() {
            if let Some(p) = piece {
                board[sq] = p.code();
                match p.role.cube() {
                    None => kings[p.color.index()] += 1,
                    Some(c) => cubes[c.index()] += 1,
                }
            }
        }
        for color in Color::ALL {
            let h = setup.hands[color.index()];
            kings[color.index()] = kings[color.index()].saturating_add(h[0]);
            if h[0] > 0 {
                kings_in_hand |= 1 << color.index();
            }
            for cube in Cube::ALL {
                let n = h[1 + cube.index()];
                cubes[cube.index()] = cubes[cube.index()].saturating_add(n);
                hands[color.index()][cube.index()] = n;
            }
        }
        for color in Color::ALL {
            if kings[color.index()] != 1 {
                return Err(PositionError::KingCount { color, count: kings[color.index()] });
            }
        }
        for cube in Cube::ALL {
            if cubes[cube.index()] != 2 {
                return Err(PositionError::CubeCount { cube, count: cubes[cube.index()] });
            }
        }
        let pos = Position::from_raw(board, hands, kings_in_hand, setup.side);
        if pos.kings_in_hand != 0 {
            if pos.hands != [[1, 1]; 2] {
                return Err(PositionError::OpeningCubes);
            }
            let other = setup.side.other();
            if pos.king_in_hand(other) && !pos.king_in_hand(setup.side) {
                return Err(PositionError::OpeningOrder { color: other });
            }
        }
        if pos.board[Square::CENTER.index()] == BLACK_KING || pos.board[Square::CENTER.index()] == WHITE_KING
        {
            return Err(PositionError::KingOnCentre);
        }
        if let (Some(b), Some(w)) = (pos.king_square(Color::Black), pos.king_square(Color::White)) {
            if b.touches(w) {
                return Err(PositionError::KingsAdjacent);
            }
        }
        let other = setup.side.other();
        if pos.is_in_check(variant, other) {
            return Err(PositionError::OpponentInCheck { color: other });
        }
        Ok(pos)
    }

    /// The setup of this position (without a ply number).
    pub fn to_setup(&self) -> Setup {
        let mut hands = [[0u8; 3]; 2];
        for color in Color::ALL {
            hands[color.index()][0] = self.king_in_hand(color) as u8;
            hands[color.index()][1] = self.hand(color, Cube::O);
            hands[color.index()][2] = self.hand(color, Cube::D);
        }
        Setup {
            board: std::array::from_fn(|i| Piece::from_code(self.board[i])),
            hands,
            side: self.side,
            ply: None,
        }
    }

    /// Builds a position from raw parts without any check. Used by the index, whose domain
    /// only holds well-formed positions; legality (check) is tested by the caller.
    #[inline]
    pub(crate) fn from_raw(board: [u8; 9], hands: [[u8; 2]; 2], kings_in_hand: u8, side: Color) -> Position {
        let mut pieces = [0u16; 2];
        let mut kings = [NO_SQUARE; 2];
        for (i, &c) in board.iter().enumerate() {
            let white = usize::from(c >= WHITE_KING);
            pieces[white] |= u16::from(c != 0) << i;
            if c == BLACK_KING || c == WHITE_KING {
                kings[white] = i as u8;
            }
        }
        Position { board, hands, kings_in_hand, side, pieces, kings }
    }

    /// A position with Black to move and both Kings on the board, from parts that agree:
    /// `pieces` and `kings` must be what [`Position::from_raw`] would derive from `board`.
    #[inline]
    pub(crate) fn from_parts(
        board: [u8; 9],
        hands: [[u8; 2]; 2],
        pieces: [u16; 2],
        kings: [u8; 2],
    ) -> Position {
        let pos = Position { board, hands, kings_in_hand: 0, side: Color::Black, pieces, kings };
        nana_engine::cross_assert_eq!(pos, Position::from_raw(board, hands, 0, Color::Black));
        pos
    }

    /// Each side's King square (index 0 Black), [`None`] while in hand, as square numbers.
    #[inline]
    pub(crate) fn king_squares_raw(&self) -> [u8; 2] {
        self.kings
    }

    /// The squares of each side's pieces (index 0 Black), as bits.
    #[inline]
    pub(crate) fn pieces_raw(&self) -> [u16; 2] {
        self.pieces
    }

    #[inline]
    pub(crate) fn board_codes(&self) -> &[u8; 9] {
        &self.board
    }

    #[inline]
    pub(crate) fn hands_raw(&self) -> [[u8; 2]; 2] {
        self.hands
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Cubes of one kind in a side's hand.
    #[inline]
    pub fn hand(&self, color: Color, cube: Cube) -> u8 {
        self.hands[color.index()][cube.index()]
    }

    #[inline]
    pub fn king_in_hand(&self, color: Color) -> bool {
        self.kings_in_hand & (1 << color.index()) != 0
    }

    /// Whether a side holds any piece in hand (R2 looks at this at the start of a move).
    #[inline]
    pub fn has_pieces_in_hand(&self, color: Color) -> bool {
        self.hands[color.index()] != [0, 0] || self.king_in_hand(color)
    }

    /// Whether both Kings are on the board (the opening is over).
    #[inline]
    pub fn kings_placed(&self) -> bool {
        self.kings_in_hand == 0
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        Square::ALL.get(usize::from(self.kings[color.index()])).copied()
    }

    #[inline]
    fn occupied(&self) -> u16 {
        self.pieces[0] | self.pieces[1]
    }

    /// Whether any piece of `by` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, variant: Variant, sq: Square, by: Color) -> bool {
        self.attacks_to(table(variant), sq.bit(), by)
    }

    /// Whether any piece of `by` attacks one of the squares of `target`.
    #[inline]
    fn attacks_to(&self, t: &AttackTable, target: u16, by: Color) -> bool {
        let occ = self.occupied();
        let mut bits = self.pieces[by.index()];
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if t.targets(self.board[i], i, occ) & target != 0 {
                return true;
            }
        }
        false
    }

    /// Whether `color`'s King is on the board and attacked.
    #[inline]
    pub fn is_in_check(&self, variant: Variant, color: Color) -> bool {
        self.king_attacked(table(variant), color)
    }

    #[inline]
    fn king_attacked(&self, t: &AttackTable, color: Color) -> bool {
        // A King in hand is `NO_SQUARE`: its bit is off the board, which nothing attacks.
        self.attacks_to(t, 1 << self.kings[color.index()], color.other())
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self, variant: Variant) -> bool {
        self.is_in_check(variant, self.side)
    }

    /// Plays a move without checking it. The move must be at least pseudo-legal.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let mut p = *self;
        let us = self.side.index();
        match mv {
            Move::Board { from, to } => {
                let code = p.board[from.index()];
                let captured = p.board[to.index()];
                if captured != 0 {
                    let role = code_role(captured);
                    nana_engine::cross_assert!(role != 0, "a king cannot be captured");
                    p.hands[us][((role - 1) / 4) as usize] += 1;
                    p.pieces[1 - us] &= !to.bit();
                }
                p.pieces[us] ^= from.bit() | to.bit();
                if code_role(code) == 0 {
                    p.kings[us] = to.index() as u8;
                }
                p.board[to.index()] = turned(code);
                p.board[from.index()] = 0;
            }
            Move::Drop { role, to } => {
                p.board[to.index()] = Piece { color: self.side, role }.code();
                p.pieces[us] |= to.bit();
                match role.cube() {
                    None => {
                        p.kings_in_hand &= !(1 << us);
                        p.kings[us] = to.index() as u8;
                    }
                    Some(c) => p.hands[us][c.index()] -= 1,
                }
            }
        }
        p.side = self.side.other();
        p
    }

    /// Visits every basic-legal (L0) move and the position it leads to. Stops early when `f`
    /// breaks. See `docs/RULES.md` for L0.
    #[inline]
    pub fn for_each_l0_move<F>(&self, variant: Variant, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        let us = self.side;
        let them = us.other();
        let t = table(variant);
        if self.king_in_hand(us) {
            let occ = self.occupied();
            let their_king = self.king_square(them);
            // The opening: the King is dropped before anything else happens.
            for to in Square::ALL {
                if to == Square::CENTER || occ & to.bit() != 0 {
                    continue;
                }
                if their_king.is_some_and(|k| k.touches(to)) {
                    continue;
                }
                let mv = Move::Drop { role: Role::King, to };
                f(mv, &self.play_unchecked(mv))?;
            }
            return ControlFlow::Continue(());
        }
        if self.king_in_hand(them) {
            // Not a legal state (the opponent must drop its King first); no moves.
            return ControlFlow::Continue(());
        }

        self.for_each_board_move_and_drop(t, |mv, _| f(mv, &self.play_unchecked(mv)))
    }

    /// Visits every basic-legal (L0) move of a position with both Kings on the board and the
    /// cell code the move puts on its target square, without building the positions the moves
    /// lead to: the enumeration ranks most of them from the parent and the code alone.
    #[inline(always)]
    pub(crate) fn for_each_l0_edit(&self, variant: Variant, f: impl FnMut(Move, u8)) {
        nana_engine::cross_assert!(self.kings_placed());
        let mut f = f;
        let _ = self.for_each_board_move_and_drop(
            table(variant),
            #[inline(always)]
            |mv, code| {
                f(mv, code);
                ControlFlow::Continue(())
            },
        );
    }

    /// [`Position::for_each_l0_move`] once both Kings are on the board, as
    /// [`Position::for_each_l0_edit`]: `f` gets each move and the code it puts on its target.
    #[inline]
    fn for_each_board_move_and_drop<F>(&self, t: &AttackTable, f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, u8) -> ControlFlow<()>,
    {
        self.for_each_board_move_and_drop_with(t, &KingSafety::of(self, t), f)
    }

    /// [`Position::for_each_board_move_and_drop`] with the King's `safety` at hand.
    #[inline(always)]
    fn for_each_board_move_and_drop_with<F>(
        &self,
        t: &AttackTable,
        safety: &KingSafety,
        mut f: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(Move, u8) -> ControlFlow<()>,
    {
        let us = self.side;
        let them = us.other();
        let occ = self.occupied();
        let own = self.pieces[us.index()];
        // Board moves.
        let mut pieces = own;
        while pieces != 0 {
            let from = Square::ALL[pieces.trailing_zeros() as usize];
            pieces &= pieces - 1;
            let code = self.board[from.index()];
            let moved = turned(code);
            let reach = t.targets(code, from.index(), occ) & !own;
            let mut targets = reach & safety.targets(from.index());
            if nana_engine::cross_check::on() {
                self.cross_check_board_targets(t, from, reach, targets);
            }
            while targets != 0 {
                let to = Square::ALL[targets.trailing_zeros() as usize];
                targets &= targets - 1;
                f(Move::Board { from, to }, moved)?;
            }
        }
        // Drops: on an empty square other than the centre, in any face, never giving check;
        // in check, only between a sliding checker and the King.
        let their_king_bit = 1 << self.kings[them.index()];
        let mut squares = !occ & 0x1ff & !Square::CENTER.bit();
        squares &= safety.drop_squares();
        if nana_engine::cross_check::on() {
            self.cross_check_drop_squares(t, squares);
        }
        for cube in Cube::ALL {
            if self.hand(us, cube) == 0 {
                continue;
            }
            let mut empty = squares;
            while empty != 0 {
                let to = Square::ALL[empty.trailing_zeros() as usize];
                empty &= empty - 1;
                for role in cube.faces() {
                    let code = Piece { color: us, role }.code();
                    if t.targets(code, to.index(), occ | to.bit()) & their_king_bit != 0 {
                        continue;
                    }
                    f(Move::Drop { role, to }, code)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Under the cross-checks: `targets`, of the squares `reach` the piece on `from` reaches,
    /// are those where the move leaves the side to move's King unattacked.
    #[cold]
    fn cross_check_board_targets(&self, t: &AttackTable, from: Square, reach: u16, targets: u16) {
        for to in Square::ALL {
            if reach & to.bit() != 0 {
                let safe = !self.play_unchecked(Move::Board { from, to }).king_attacked(t, self.side);
                assert_eq!(targets & to.bit() != 0, safe, "{from:?}-{to:?} from {self}");
            }
        }
    }

    /// Under the cross-checks: `squares` are the empty squares but the centre where a piece
    /// dropped leaves the side to move's King unattacked (whatever it is: a piece put down
    /// attacks nothing of its owner's).
    #[cold]
    fn cross_check_drop_squares(&self, t: &AttackTable, squares: u16) {
        for to in Square::ALL {
            if self.occupied() & to.bit() == 0 && to != Square::CENTER {
                let mv = Move::Drop { role: Cube::ALL[0].faces()[0], to };
                let mut after = *self;
                after.hands[self.side.index()][0] += 1;
                let safe = !after.play_unchecked(mv).king_attacked(t, self.side);
                assert_eq!(squares & to.bit() != 0, safe, "a drop on {to:?} from {self}");
            }
        }
    }

    /// Whether the side to move has any basic-legal move.
    pub fn has_l0_move(&self, variant: Variant) -> bool {
        self.for_each_l0_move(variant, |_, _| ControlFlow::Break(())).is_break()
    }

    /// [`Position::has_l0_move`] with both Kings on the board and the King's `safety` at hand.
    #[inline]
    fn has_l0_move_with(&self, t: &AttackTable, safety: &KingSafety) -> bool {
        if safety.checkers == 0 && self.has_quiet_drop() {
            return true;
        }
        self.for_each_board_move_and_drop_with(t, safety, |_, _| ControlFlow::Break(())).is_break()
    }

    /// Whether the side to move, legal and out of check, has a drop that gives no check: whether
    /// it holds a cube. Two Kings and four cubes leave two empty squares other than the centre
    /// at least, and on a legal position some face of a cube held spares the other King from one
    /// of them (`a_cube_held_out_of_check_can_always_be_dropped` tries every drop of every
    /// entry); a piece put down cannot uncover its own King.
    #[inline]
    fn has_quiet_drop(&self) -> bool {
        self.hands[self.side.index()] != [0, 0]
    }

    /// The pieces of side `mover` other than its King that have a target on a board whose
    /// occupied squares are `occ`, and do not shield their King from a slide of the other
    /// side's pieces: moving one cannot uncover an attack on the King.
    #[inline]
    fn free_pieces(&self, t: &AttackTable, mover: usize, occ: u16) -> u16 {
        let own = self.pieces[mover];
        let king = usize::from(self.kings[mover]);
        let mut shields = 0;
        let mut others = self.pieces[1 - mover];
        while others != 0 {
            let i = others.trailing_zeros() as usize;
            others &= others - 1;
            shields |= t.shield(self.board[i], i, king);
        }
        let mut free = 0;
        let mut movers = own & !(1 << king) & !shields;
        while movers != 0 {
            let i = movers.trailing_zeros() as usize;
            movers &= movers - 1;
            if t.targets(self.board[i], i, occ) & !own != 0 {
                free |= 1 << i;
            }
        }
        free
    }

    /// For a drop on `to` by the side to move: the opponent's pieces other than its King that
    /// will have a move that cannot uncover their King, whatever face is dropped, except that
    /// the dropped piece's own [`Position::drop_shield`] is not taken out yet. A quick test for
    /// replies after each face: the same for the four faces but for that one square.
    #[inline]
    pub(crate) fn drop_free_replies(&self, variant: Variant, to: Square) -> u16 {
        self.free_pieces(table(variant), self.side.other().index(), self.occupied() | to.bit())
    }

    /// The square (as a bit) where an opponent's piece shields the opponent's King from the
    /// piece `code` dropped on `to`; 0 if none.
    #[inline]
    pub(crate) fn drop_shield(&self, variant: Variant, code: u8, to: Square) -> u16 {
        table(variant).shield(code, to.index(), usize::from(self.kings[self.side.other().index()]))
    }

    /// Why the L0 move `mv` leading to `child` breaks R1 or R2, if it does.
    #[inline]
    fn restriction(&self, rules: &Rules, mv: Move, child: &Position) -> Option<&'static str> {
        let t = table(rules.variant);
        let (hand, drop) = (self.has_pieces_in_hand(self.side), mv.is_drop());
        if !child.kings_placed() {
            // The opening: a King drop gives no check, and the other side has its King to drop
            // (`for_each_l0_move`).
            return forbidden(rules, hand, drop, false, || child.king_in_hand(child.side));
        }
        let safety = KingSafety::of(child, t);
        let check = safety.checkers != 0;
        // A basic-legal drop never gives check: it attacks nothing the King stands on, and a
        // piece put down cannot uncover an attack.
        nana_engine::cross_assert!(!(drop && check));
        nana_engine::cross_assert_eq!(check, child.king_attacked(t, child.side));
        forbidden(rules, hand, drop, check, || child.has_l0_move_with(t, &safety))
    }

    /// Whether R1 and R2 allow the L0 move `mv` leading to `child`.
    #[inline]
    pub(crate) fn is_allowed(&self, rules: &Rules, mv: Move, child: &Position) -> bool {
        self.restriction(rules, mv, child).is_none()
    }

    /// Visits every legal move and the position it leads to.
    #[inline]
    pub fn for_each_legal_move<F>(&self, rules: &Rules, mut f: F) -> ControlFlow<()>
    where
        F: FnMut(Move, &Position) -> ControlFlow<()>,
    {
        self.for_each_l0_move(rules.variant, |mv, child| {
            if self.restriction(rules, mv, child).is_some() {
                return ControlFlow::Continue(());
            }
            f(mv, child)
        })
    }

    /// All legal moves, in generation order.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut moves = Vec::new();
        let _ = self.for_each_legal_move(rules, |mv, _| {
            moves.push(mv);
            ControlFlow::Continue(())
        });
        moves
    }

    /// Whether the side to move has no legal move, and so has lost.
    pub fn is_terminal(&self, rules: &Rules) -> bool {
        self.for_each_legal_move(rules, |_, _| ControlFlow::Break(())).is_continue()
    }

    /// Plays a move after checking that it is legal.
    pub fn play(&self, rules: &Rules, mv: Move) -> Result<Position, IllegalMove> {
        let mut found = None;
        let _ = self.for_each_l0_move(rules.variant, |m, child| {
            if m == mv {
                found = Some(*child);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match found {
            Some(child) => match self.restriction(rules, mv, &child) {
                Some(reason) => Err(IllegalMove { mv, reason }),
                None => Ok(child),
            },
            None => Err(IllegalMove { mv, reason: self.l0_reason(rules.variant, mv) }),
        }
    }

    /// Why a move that is not L0-legal fails, in words.
    fn l0_reason(&self, variant: Variant, mv: Move) -> &'static str {
        let us = self.side;
        match mv {
            Move::Board { from, to } => {
                let Some(p) = self.piece_at(from) else { return "there is no piece on that square" };
                if p.color != us {
                    return "that piece belongs to the opponent";
                }
                if self.king_in_hand(us) {
                    return "the king must be dropped first";
                }
                if self.piece_at(to).is_some_and(|q| q.color == us) {
                    return "the target square holds your own piece";
                }
                if attacks(variant, p.code(), from, self.occupied()) & to.bit() == 0 {
                    return "the piece cannot move that way";
                }
                "it would leave your king in check"
            }
            Move::Drop { role, to } => {
                if to == Square::CENTER {
                    return "nothing may be dropped on the centre";
                }
                if self.piece_at(to).is_some() {
                    return "the square is occupied";
                }
                match role.cube() {
                    None if !self.king_in_hand(us) => "your king is not in hand",
                    None => "a king may not be dropped next to the other king",
                    Some(_) if self.king_in_hand(us) => "the king must be dropped first",
                    Some(c) if self.hand(us, c) == 0 => "no such cube in hand",
                    Some(_) => {
                        if self.in_check(variant) {
                            "it does not answer the check, or the drop gives check"
                        } else {
                            "a drop may not give check"
                        }
                    }
                }
            }
        }
    }

    /// The same position seen from the other side: the board turned by 180 degrees and the
    /// colours swapped. Values for the side to move are unchanged.
    #[inline]
    pub fn flip(&self) -> Position {
        let mut board = [0u8; 9];
        for (i, &c) in self.board.iter().enumerate() {
            board[8 - i] = FLIP_CODE[c as usize];
        }
        // Square i becomes 8 - i: reverse the 9 low bits. A King in hand stays off the board.
        let turn = |m: u16| m.reverse_bits() >> 7;
        let turn_king = |k: u8| if k == NO_SQUARE { k } else { 8 - k };
        Position {
            board,
            hands: [self.hands[1], self.hands[0]],
            kings_in_hand: ((self.kings_in_hand & 1) << 1) | ((self.kings_in_hand >> 1) & 1),
            side: self.side.other(),
            pieces: [turn(self.pieces[1]), turn(self.pieces[0])],
            kings: [turn_king(self.kings[1]), turn_king(self.kings[0])],
        }
    }

    /// The left-right mirror image (file 1 <-> file 3). Values are unchanged.
    #[inline]
    pub fn mirror(&self) -> Position {
        let b = self.board;
        let swap = |m: u16| (m & 0o111) << 2 | (m & 0o222) | (m >> 2) & 0o111;
        let swap_king = |k: u8| if k == NO_SQUARE { k } else { k / 3 * 3 + 2 - k % 3 };
        Position {
            board: [b[2], b[1], b[0], b[5], b[4], b[3], b[8], b[7], b[6]],
            pieces: self.pieces.map(swap),
            kings: self.kings.map(swap_king),
            ..*self
        }
    }
}

/// Cell code -> the code of the same piece owned by the other side (0 stays empty).
pub(crate) const FLIP_CODE: [u8; 19] = {
    let mut t = [0u8; 19];
    let mut c = 1;
    while c <= 18 {
        t[c] = if c >= 10 { c as u8 - 9 } else { c as u8 + 9 };
        c += 1;
    }
    t
};

/// Why R1 or R2 forbid an L0 move, if they do: the mover held pieces in `hand` at the start of
/// the move, the move is a `drop` or not, and after it the opponent is in `check` or not and
/// has an L0 reply (`replies`, asked only when it matters). "Mated" and "stalemated" are judged
/// on L0 replies (docs/RULES.md).
#[inline]
pub(crate) fn forbidden(
    rules: &Rules,
    hand: bool,
    drop: bool,
    check: bool,
    replies: impl FnOnce() -> bool,
) -> Option<&'static str> {
    let (tested, reason) = if check {
        (hand, "a player with pieces in hand may not mate (R2)")
    } else if drop && rules.drop_stalemate {
        (true, "a drop may not stalemate (R1)")
    } else {
        (hand && rules.hand_stalemate, "a player with pieces in hand may not stalemate (R2)")
    };
    if tested && !replies() {
        Some(reason)
    } else {
        None
    }
}

/// What the side to move's pieces must heed to keep their King safe, found once a position.
pub(crate) struct KingSafety {
    /// The King's square.
    king: usize,
    /// The squares the opponent attacks with the King lifted off the board (so that a slide
    /// along the line of a King step is not blocked by the King itself).
    danger: u16,
    /// The squares whose piece shields the King from a slide.
    shields: u16,
    /// The opponent's pieces that give check.
    checkers: u16,
    /// Out of a single check, the squares a piece other than the King may move to: the
    /// checker's, and the one between a sliding checker and the King. None out of a double
    /// check.
    evasions: u16,
}

impl KingSafety {
    #[inline(always)]
    fn of(pos: &Position, t: &AttackTable) -> KingSafety {
        let us = pos.side.index();
        let king = usize::from(pos.kings[us]);
        let lifted = pos.occupied() & !(1 << king);
        let (mut danger, mut shields, mut checkers, mut blocks) = (0u16, 0u16, 0u16, 0u16);
        let mut theirs = pos.pieces[1 - us];
        while theirs != 0 {
            let i = theirs.trailing_zeros() as usize;
            theirs &= theirs - 1;
            let code = pos.board[i];
            let attacks = t.targets(code, i, lifted);
            let shield = t.shield(code, i, king);
            danger |= attacks;
            shields |= shield;
            if attacks & 1 << king != 0 {
                checkers |= 1 << i;
                blocks |= shield;
            }
        }
        KingSafety::new(king, danger, shields, checkers, blocks)
    }

    /// The safety of the King on `king` from the squares the opponent attacks with the King
    /// lifted (`danger`), those where a piece shields it from a slide (`shields`), the
    /// checkers, and the squares where a piece would block a sliding checker (`blocks`).
    #[inline(always)]
    pub(crate) fn new(king: usize, danger: u16, shields: u16, checkers: u16, blocks: u16) -> KingSafety {
        let evasions = if checkers.count_ones() == 1 { checkers | blocks } else { 0 };
        KingSafety { king, danger, shields, checkers, evasions }
    }

    /// The squares where a piece put down leaves the King safe (it cannot uncover it): any,
    /// or in check those between a single sliding checker and the King.
    #[inline(always)]
    pub(crate) fn drop_squares(&self) -> u16 {
        if self.checkers != 0 {
            self.evasions & !self.checkers
        } else {
            u16::MAX
        }
    }

    /// The targets that leave the King safe for the piece on `from`: for the King,
    /// those not in danger; for a piece that shields the King from a slide, only the slider's
    /// square, or none in check; for another piece, any, or in check the evasions.
    #[inline(always)]
    pub(crate) fn targets(&self, from: usize) -> u16 {
        let king = self.king;
        if from == king {
            !self.danger
        } else if self.shields & (1 << from) != 0 {
            // On a 3x3 board a slide passes one square: the slider stands at `2 from - king`
            // (in square numbers, as on the board: both steps are the same). Taking it is the
            // only move off the line, and it leaves a check by another piece standing.
            if self.checkers != 0 {
                0
            } else {
                1 << (2 * from - king)
            }
        } else if self.checkers != 0 {
            self.evasions
        } else {
            u16::MAX
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&crate::fen::Fen(self.to_setup()), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{unrank, SIZE};

    /// The quick drop test against the drops tried one by one: a side out of check on a legal
    /// position holds a cube exactly when it can drop one, in one of its faces on an empty square
    /// other than the centre, without attacking the other King. Over every entry, each side to
    /// move, both rule sets.
    #[test]
    fn a_cube_held_out_of_check_can_always_be_dropped() {
        for variant in [Variant::Current, Variant::Original] {
            let t = table(variant);
            let (mut with, mut without) = (0, 0);
            for pos in (0..SIZE).filter_map(unrank).flat_map(|p| [p, p.flip()]) {
                let them = pos.side.other();
                // Legal (the side that has moved is not in check) and out of check.
                if !pos.kings_placed() || pos.king_attacked(t, them) || pos.king_attacked(t, pos.side) {
                    continue;
                }
                let tried = Cube::ALL.into_iter().filter(|&c| pos.hand(pos.side, c) > 0).any(|cube| {
                    let squares =
                        Square::ALL.into_iter().filter(|&s| s != Square::CENTER && pos.piece_at(s).is_none());
                    squares
                        .flat_map(|to| cube.faces().map(|role| Move::Drop { role, to }))
                        .any(|mv| !pos.play_unchecked(mv).king_attacked(t, them))
                });
                assert_eq!(pos.has_quiet_drop(), tried, "{pos}");
                *if tried { &mut with } else { &mut without } += 1;
            }
            // Both answers are met: a side without a cube has no drop.
            assert!(with > 1000 && without > 1000, "{variant:?}: {with} with a drop, {without} without");
        }
    }
}
