//! Nana shogi as the retrograde engine sees it: the index space, forward moves and retro-moves
//! ("unmoves").
//!
//! Every entry has Black to move (see [`crate::index`]). The predecessors of an entry `q` are
//! found on `r = q.flip()`, White to move, where Black has just moved: every Black piece on the
//! board is taken back (a King step, a cube's move with its face turned back, optionally
//! returning a captured White cube in any of its four faces to the board) or un-dropped, and the
//! King drop of the opening is undone. A candidate is kept only if it is a legal position whose
//! move into `r` obeys every rule: L0 (no check given by a drop; the mover's King safe, which
//! `r`'s legality already says), R1 and R2, judged on `r`'s L0 replies and the candidate's hand.

use nana_engine::Game;

use crate::attacks::table;
use crate::index::{self, is_self_mirror_pair, rank_black, rank_black_oriented, unrank, MAIN, SIZE, START};
use crate::position::Position;
use crate::types::{Color, Rules, Square};

/// Nana shogi under one rule set, for the solver.
#[derive(Debug, Clone, Copy)]
pub struct NanaGame {
    pub rules: Rules,
}

impl NanaGame {
    pub fn new(rules: Rules) -> NanaGame {
        NanaGame { rules }
    }

    /// The legal position of an entry, or `None` for an unused entry.
    pub fn position(&self, index: u64) -> Option<Position> {
        let pos = unrank(index)?;
        if pos.is_in_check(self.rules.variant, Color::White) {
            None
        } else {
            Some(pos)
        }
    }
}

impl Game for NanaGame {
    fn size(&self) -> u64 {
        SIZE
    }

    fn successors(&self, index: u64, out: &mut Vec<u64>) -> bool {
        let Some(pos) = self.position(index) else { return false };
        let _ = pos.for_each_legal_move(&self.rules, |_, child| {
            out.push(rank_black(&child.flip()));
            std::ops::ControlFlow::Continue(())
        });
        true
    }

    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        let Some(q) = unrank(index) else { return };
        if index == START {
            return;
        }
        if index >= MAIN {
            // Black's King in hand, White's on the board: White has just dropped its King.
            out.push(START);
            return;
        }
        let self_mirror = is_self_mirror_pair(index);
        // With the Kings on file 2, the entry stands for exactly this orientation. A
        // predecessor that is stored mirrored moves, from its stored orientation, into the
        // mirror image: another entry, unless the position is symmetric.
        let exact = self_mirror && q.mirror() != q;
        let mut unmoves = Unmoves::new(&self.rules, q.flip(), exact);
        unmoves.generate(out);
        if !self_mirror {
            // The entry also stands for the mirror image, whose predecessors may fall on
            // entries of their own (those with Kings on file 2).
            let mut unmoves = Unmoves { r: q.mirror().flip(), ..unmoves };
            unmoves.generate(out);
        }
    }
}

/// Retro-move generation for one position `r` (White to move; Black has just moved).
struct Unmoves<'a> {
    rules: &'a Rules,
    r: Position,
    /// Whether White is in check in `r`.
    check: bool,
    /// Whether White has an L0 move in `r` (computed on first use).
    replies: Option<bool>,
    /// Keep only predecessors stored in the orientation they are generated in.
    exact: bool,
}

impl<'a> Unmoves<'a> {
    fn new(rules: &'a Rules, r: Position, exact: bool) -> Unmoves<'a> {
        let check = r.in_check(rules.variant);
        Unmoves { rules, r, check, replies: None, exact }
    }

    fn has_replies(&mut self) -> bool {
        let variant = self.rules.variant;
        let r = &self.r;
        *self.replies.get_or_insert_with(|| r.has_l0_move(variant))
    }

    /// Whether a Black move into `r` from a position with (`hand`) or without pieces in hand,
    /// a drop or not, obeys R1 and R2.
    fn allowed(&mut self, drop: bool, hand: bool) -> bool {
        let tested = if self.check {
            hand
        } else {
            (drop && self.rules.drop_stalemate) || (hand && self.rules.hand_stalemate)
        };
        !tested || self.has_replies()
    }

    /// Pushes `p` (Black to move) if it is legal and its move into `r` is allowed.
    fn push(&mut self, p: Position, drop: bool, out: &mut Vec<u64>) {
        if p.is_in_check(self.rules.variant, Color::White) {
            return;
        }
        if !self.allowed(drop, p.has_pieces_in_hand(Color::Black)) {
            return;
        }
        let (index, mirrored) = rank_black_oriented(&p);
        if !(self.exact && mirrored) {
            out.push(index);
        }
    }

    fn generate(&mut self, out: &mut Vec<u64>) {
        let r = self.r;
        let variant = self.rules.variant;
        let t = table(variant);
        let board = *r.board_codes();
        let hands = r.hands_raw();
        let occ: u16 = (0..9).filter(|&i| board[i] != 0).fold(0, |m, i| m | 1 << i);
        let white_king = board.iter().position(|&c| c == 10);

        // Undo the King drop of the opening: only kings on the board, every cube in hand.
        if hands == [[1, 1]; 2] && occ.count_ones() == 2 {
            let mut b = board;
            for c in b.iter_mut() {
                if *c == 1 {
                    *c = 0;
                }
            }
            // From the opening state, a King drop is never mate or stalemate and is always allowed.
            out.push(rank_black(&Position::from_raw(b, hands, 0b01, Color::Black)));
        }

        for to in 0..9 {
            let code = board[to];
            if code == 0 || code >= 10 {
                continue;
            }
            let role = (code - 1) % 9;
            // The piece as it stood before the move: a cube showed its previous face.
            let before = if role == 0 { code } else { 1 + (role - 1) / 4 * 4 + (role - 1 + 3) % 4 + 1 };
            for from in 0..9 {
                if board[from] != 0 || t[before as usize][from].targets(occ) & (1 << to) == 0 {
                    continue;
                }
                if role == 0 {
                    if let Some(wk) = white_king {
                        if Square::ALL[from].touches(Square::ALL[wk]) {
                            continue;
                        }
                    }
                }
                let mut b = board;
                b[from] = before;
                b[to] = 0;
                self.push(Position::from_raw(b, hands, 0, Color::Black), false, out);
                // Or it captured a White cube, now in Black's hand, that showed any face.
                for kind in 0..2 {
                    if hands[0][kind] == 0 {
                        continue;
                    }
                    let mut h = hands;
                    h[0][kind] -= 1;
                    for face in 0..4 {
                        b[to] = 10 + 1 + kind as u8 * 4 + face;
                        self.push(Position::from_raw(b, h, 0, Color::Black), false, out);
                    }
                }
            }
            // Or the cube was dropped here, with the face it shows.
            if role != 0 && to != Square::CENTER.index() {
                let mut b = board;
                b[to] = 0;
                let mut h = hands;
                h[0][((role - 1) / 4) as usize] += 1;
                let p = Position::from_raw(b, h, 0, Color::Black);
                // A drop never gives check.
                if !self.check {
                    self.push(p, true, out);
                }
            }
        }
    }
}

/// The size of the index space (re-exported for convenience).
pub const INDEX_SIZE: u64 = index::SIZE;
