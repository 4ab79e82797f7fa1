//! Dobutsu shogi as the retrograde solver sees it ([`nana_engine::Graph`]): the entries of the
//! index ([`crate::index`]), with the first player to move, their successors and their
//! predecessors (retro-moves), under one rule set.

use nana_engine::{Dtm, Graph, Node, Value};

use crate::index::{self, Cursor, SIZE};
use crate::position::{squares, Position, FAR_RANK, ORIGINS};
use crate::types::{Role, Rules, Side};

/// One rule set of Dobutsu shogi over the whole index.
#[derive(Debug, Clone, Copy)]
pub struct DobutsuGame {
    pub rules: Rules,
}

impl DobutsuGame {
    pub fn new(rules: Rules) -> DobutsuGame {
        DobutsuGame { rules }
    }
}

impl Graph for DobutsuGame {
    fn size(&self) -> u64 {
        SIZE
    }

    /// Terminal as [`Position::solver_end`] says; otherwise the entries of the moves that do
    /// not lose at once. A move that does leads to a position where the opponent takes the
    /// lion, which has no entry: a loss in 2 for the mover, the quickest loss there is, which
    /// decides a position only where every move is one (then a terminal loss in 2).
    fn successors(&self, i: u64, out: &mut Vec<u64>) -> Node {
        let Some(pos) = index::unrank(i) else { return Node::Illegal };
        if let Some((value, _)) = pos.solver_end(&self.rules) {
            return Node::Terminal(value);
        }
        let (start, exposure) = (out.len(), pos.exposure());
        pos.for_each_move(|mv| {
            if !exposure.loses_at_once(mv) {
                out.push(index::rank(&pos.play_unchecked(mv)))
            }
        });
        if out.len() == start {
            return Node::Terminal(Value::Loss(Dtm(2)));
        }
        Node::Inner
    }

    /// The retro-moves into the entry's position from a position where the game goes on.
    fn predecessors(&self, i: u64, out: &mut Vec<u64>) {
        if let Some(pos) = index::unrank(i) {
            self.retro_moves(&pos, out);
        }
    }

    /// The entries' positions come from a [`Cursor`], which builds each from the last one.
    fn predecessors_of_each(&self, entries: &[u32], f: &mut dyn FnMut(&mut Vec<u64>)) {
        let (mut cursor, mut out) = (Cursor::default(), Vec::new());
        for &i in entries {
            out.clear();
            if let Some(pos) = cursor.unrank(u64::from(i)) {
                self.retro_moves(&pos, &mut out);
            }
            f(&mut out);
        }
    }
}

impl DobutsuGame {
    /// Pushes the entries of the positions from which a retro-move leads into `pos` (the first
    /// player to move) and the game goes on.
    #[inline]
    fn retro_moves(&self, pos: &Position, out: &mut Vec<u64>) {
        let ends = pos.retro_ends();
        // The positions before a retro-move of any piece but the lion keep the lions and the
        // side to move of one position: ranked from the first square they change.
        let mut near = index::Near::new(&Position { turn: Side::Second, ..*pos });
        for_each_unmove(pos, |prev, changed, unmove| {
            if ends.solver_end(prev, &self.rules, unmove.to, unmove.from, unmove.uncaptured).is_none() {
                out.push(match changed {
                    Some(changed) => near.rank(prev, changed),
                    None => index::rank(prev),
                });
            }
        });
    }
}

/// A retro-move of the second player: its piece on `to` taken back to `from` as the role it
/// had there (`None`: a drop taken back), and the first player's piece `uncaptured` (a piece
/// code, or 0) put back on `to`.
#[derive(Debug, Clone, Copy)]
pub struct Unmove {
    pub to: usize,
    pub from: Option<(usize, u8)>,
    pub uncaptured: u8,
}

/// Calls `f` with every position, the second player to move, from which a move of the second
/// player leads to `pos` (the first player to move, both lions on the board): a step back,
/// perhaps leaving a captured first-player piece behind (from the second player's hand; a hen
/// or a chick for a chick in hand), a promotion undone, or a drop taken back. Whether the
/// position before is one the game goes on from is the caller's to check. With each position
/// comes the squares on which it differs from `pos`, or `None` if the lion moved, and the
/// retro-move itself.
pub fn for_each_unmove(pos: &Position, mut f: impl FnMut(&Position, Option<&[usize]>, Unmove)) {
    nana_engine::cross_assert_eq!(pos.turn, crate::Side::First);
    let them = 1; // the second player, who moved last
    let [first, second] = pos.occupancy();
    let empty = !(first | second);
    for sq in squares(second) {
        let role = pos.board[sq] & 7;
        let on_far = FAR_RANK[them] & 1 << sq != 0;
        // The piece as it stood before the move, and where it may have come from.
        let mut origins: [(u8, u16); 2] = [(0, 0), (0, 0)];
        match role {
            // A chick on the far rank was dropped there: a step onto it would have promoted.
            4 if on_far => {}
            5 if on_far => {
                origins[0] = (role, ORIGINS[them][5][sq]);
                origins[1] = (4, ORIGINS[them][4][sq]);
            }
            _ => origins[0] = (role, ORIGINS[them][role as usize][sq]),
        }
        for (before, from_set) in origins {
            for from in squares(from_set & empty) {
                let mut prev = *pos;
                prev.turn = crate::Side::Second;
                prev.board[from] = before | 8;
                prev.board[sq] = 0;
                let changed = (role != Role::Lion as u8).then_some([from, sq]);
                let changed = changed.as_ref().map(|c| c.as_slice());
                let unmove = Unmove { to: sq, from: Some((from, before)), uncaptured: 0 };
                f(&prev, changed, unmove);
                // Captures undone: a first-player piece back on `sq`, out of the second
                // player's hand.
                for (slot, hand_role) in Role::IN_HAND.iter().enumerate() {
                    if pos.hands[them][slot] == 0 {
                        continue;
                    }
                    let mut uncaptured = prev;
                    uncaptured.hands[them][slot] -= 1;
                    uncaptured.board[sq] = *hand_role as u8;
                    f(&uncaptured, changed, Unmove { uncaptured: *hand_role as u8, ..unmove });
                    if *hand_role == Role::Chick {
                        uncaptured.board[sq] = Role::Hen as u8;
                        f(&uncaptured, changed, Unmove { uncaptured: Role::Hen as u8, ..unmove });
                    }
                }
            }
        }
        if Role::from_code(role).hand_slot().is_some() {
            let mut prev = *pos;
            prev.turn = crate::Side::Second;
            prev.board[sq] = 0;
            prev.hands[them][Role::from_code(role).hand_slot().expect("in hand")] += 1;
            f(&prev, Some(&[sq]), Unmove { to: sq, from: None, uncaptured: 0 });
        }
    }
}
