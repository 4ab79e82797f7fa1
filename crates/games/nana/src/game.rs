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
//!
//! [`NanaGame::new`] answers from the rules alone. [`NanaGame::prepared`] first computes three
//! bits per entry (legal; side to move in check; side to move has an L0 move), so that move
//! generation in both directions looks these up by index instead of generating the opponent's
//! replies for every move: the solver's fast path. The plain game is what the independent
//! checker uses.

use std::ops::ControlFlow;

use nana_engine::par::prelude::*;
use nana_engine::{Graph, Node};

use crate::attacks::table;
use crate::index::{
    is_self_mirror_pair, rank, rank_black, rank_black_oriented, unrank, unrank_with_ranker, ByPattern,
    ChildRanker, Cursor, MAIN, SIZE, START,
};
use crate::position::{forbidden, Position};
use crate::reach::for_each_edit_child;
use crate::types::{Color, Rules, Square};

const LEGAL: u8 = 1;
const IN_CHECK: u8 = 2;
const HAS_L0_MOVE: u8 = 4;

/// Nana shogi under one rule set, for the solver.
#[derive(Debug, Clone)]
pub struct NanaGame {
    pub rules: Rules,
    /// Per entry: `LEGAL | IN_CHECK | HAS_L0_MOVE` bits, when prepared.
    flags: Option<Vec<u8>>,
    /// Successors from move edits ([`NanaGame::solver`]), and the solver turns them around.
    edits: bool,
}

impl NanaGame {
    /// The game answered from the rules alone.
    pub fn new(rules: Rules) -> NanaGame {
        NanaGame { rules, flags: None, edits: false }
    }

    /// The game as `nana solve` runs it. Successors come from move edits ranked by the child
    /// ranker of the enumeration, with R1 and R2 asked of the rules only where the mover holds
    /// pieces (most entries have every cube on the board); no per-entry flags are computed. The
    /// solver keeps the successors and turns them around for its backward passes
    /// ([`Graph::reverse_successors`]), so no retro-move is generated; [`Graph::predecessors`]
    /// still answers, from the rules alone.
    pub fn solver(rules: Rules) -> NanaGame {
        NanaGame { rules, flags: None, edits: true }
    }

    /// The game with per-entry flags computed up front (in parallel): faster move generation.
    pub fn prepared(rules: Rules) -> NanaGame {
        let variant = rules.variant;
        let plain = NanaGame::new(rules);
        let flags = (0..SIZE as usize)
            .into_par_iter()
            .with_min_len(1 << 12)
            .map(|i| {
                let Some(pos) = plain.position(i as u64) else { return 0 };
                let mut f = LEGAL;
                if pos.in_check(variant) {
                    f |= IN_CHECK;
                }
                if pos.has_l0_move(variant) {
                    f |= HAS_L0_MOVE;
                }
                f
            })
            .collect();
        NanaGame { rules, flags: Some(flags), edits: false }
    }

    /// The legal position of an entry, or `None` for an unused entry.
    pub fn position(&self, index: u64) -> Option<Position> {
        unrank(index).filter(|pos| self.is_legal(pos))
    }

    /// Whether a position with Black to move is legal: White, who has just moved, is not in
    /// check. Every other position an entry stands for is legal.
    fn is_legal(&self, pos: &Position) -> bool {
        !pos.is_in_check(self.rules.variant, Color::White)
    }

    /// [`Graph::successors`] with move edits, of an entry `unranked` ([`unrank_with_ranker`]).
    #[inline(always)]
    fn edit_successors(&self, unranked: Option<(Position, Option<ChildRanker>)>, out: &mut Vec<u64>) -> Node {
        let before = out.len();
        let Some((pos, ranker)) = unranked.filter(|(pos, _)| self.is_legal(pos)) else {
            return Node::Illegal;
        };
        match ranker {
            Some(ranker) => for_each_edit_child::<false>(&self.rules, &pos, ranker, |q, allowed| {
                if allowed() {
                    out.push(q);
                }
            }),
            None => {
                // The opening: Black's King in hand.
                let _ = pos.for_each_legal_move(&self.rules, |_, child| {
                    out.push(rank(child));
                    ControlFlow::Continue(())
                });
            }
        }
        Node::moves_or_loss(out.len() > before)
    }
}

impl Graph for NanaGame {
    fn size(&self) -> u64 {
        SIZE
    }

    /// A position without a legal move (checkmate or stalemate) is a loss in 0.
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
        let before = out.len();
        if self.edits {
            return self.edit_successors(unrank_with_ranker(index), out);
        }
        let Some(flags) = &self.flags else {
            let Some(pos) = self.position(index) else { return Node::Illegal };
            let _ = pos.for_each_legal_move(&self.rules, |_, child| {
                out.push(rank_black(&child.flip()));
                ControlFlow::Continue(())
            });
            return Node::moves_or_loss(out.len() > before);
        };
        if flags[index as usize] & LEGAL == 0 {
            return Node::Illegal;
        }
        let pos = unrank(index).expect("in range");
        let hand = pos.has_pieces_in_hand(Color::Black);
        let _ = pos.for_each_l0_move(self.rules.variant, |mv, child| {
            let i = rank(child);
            let f = flags[i as usize];
            if forbidden(&self.rules, hand, mv.is_drop(), f & IN_CHECK != 0, || f & HAS_L0_MOVE != 0)
                .is_none()
            {
                out.push(i);
            }
            ControlFlow::Continue(())
        });
        Node::moves_or_loss(out.len() > before)
    }

    /// With move edits, the entries with at most one cube off the board a pattern at a time
    /// ([`ByPattern`]), the others unranked one from the other ([`Cursor`]).
    fn successors_of_each(&self, entries: std::ops::Range<u64>, f: &mut dyn FnMut(u64, Node, &mut Vec<u64>)) {
        let mut out = Vec::new();
        let mut cursor = Cursor::default();
        let mut by_pattern = ByPattern::new(&self.rules);
        for index in entries {
            out.clear();
            let node = if !self.edits {
                self.successors(index, &mut out)
            } else if let Some(node) = by_pattern.successors(index, &mut out) {
                if nana_engine::cross_check::on() {
                    let mut plain = Vec::new();
                    let plain_node = self.edit_successors(unrank_with_ranker(index), &mut plain);
                    assert_eq!((node, &out), (plain_node, &plain), "the successors of entry {index}");
                }
                node
            } else {
                self.edit_successors(cursor.unrank_with_ranker(index), &mut out)
            };
            f(index, node, &mut out);
        }
    }

    fn reverse_successors(&self) -> bool {
        self.edits
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
        let (check, replies) = match &self.flags {
            Some(flags) => {
                let f = flags[index as usize];
                (f & IN_CHECK != 0, Some(f & HAS_L0_MOVE != 0))
            }
            None => (q.in_check(self.rules.variant), None),
        };
        let mut unmoves = Unmoves { game: self, r: q.flip(), check, replies, exact, file2_kings_only: false };
        unmoves.generate(out);
        if !self_mirror {
            // The entry also stands for the mirror image. Its predecessors fold onto the same
            // entries as those above, except where the predecessor's Kings stand on file 2
            // (stored in both orientations): only a King's move off file 2, or the opening's
            // King drop, can lead from such a predecessor here.
            unmoves.r = q.mirror().flip();
            unmoves.file2_kings_only = true;
            unmoves.generate(out);
        }
    }
}

/// Retro-move generation for one position `r` (White to move; Black has just moved).
struct Unmoves<'a> {
    game: &'a NanaGame,
    r: Position,
    /// Whether White is in check in `r`.
    check: bool,
    /// Whether White has an L0 move in `r` (computed on first use).
    replies: Option<bool>,
    /// Keep only predecessors stored in the orientation they are generated in.
    exact: bool,
    /// Generate only the opening's King drop and King moves from file 2 with the other King
    /// on file 2.
    file2_kings_only: bool,
}

impl Unmoves<'_> {
    /// Pushes `p` (Black to move) if it is legal and its move into `r` is allowed.
    fn push(&mut self, p: Position, drop: bool, out: &mut Vec<u64>) {
        let variant = self.game.rules.variant;
        let (index, mirrored) = rank_black_oriented(&p);
        let legal = match &self.game.flags {
            Some(flags) => flags[index as usize] & LEGAL != 0,
            None => self.game.is_legal(&p),
        };
        if !legal || (self.exact && mirrored) {
            return;
        }
        let r = &self.r;
        let replies = &mut self.replies;
        let has_replies = || *replies.get_or_insert_with(|| r.has_l0_move(variant));
        if forbidden(&self.game.rules, p.has_pieces_in_hand(Color::Black), drop, self.check, has_replies)
            .is_none()
        {
            out.push(index);
        }
    }

    fn generate(&mut self, out: &mut Vec<u64>) {
        let r = self.r;
        let t = table(self.game.rules.variant);
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
        let on_file2 = |sq: usize| sq % 3 == 1;
        if self.file2_kings_only && !white_king.is_some_and(on_file2) {
            return;
        }

        for to in 0..9 {
            let code = board[to];
            if code == 0 || code >= 10 || (self.file2_kings_only && code != 1) {
                continue;
            }
            let role = (code - 1) % 9;
            // The piece as it stood before the move: a cube showed its previous face.
            let before = if role == 0 { code } else { 1 + (role - 1) / 4 * 4 + (role - 1 + 3) % 4 + 1 };
            for from in 0..9 {
                if board[from] != 0 || t.targets(before, from, occ) & (1 << to) == 0 {
                    continue;
                }
                if role == 0 {
                    if self.file2_kings_only && !on_file2(from) {
                        continue;
                    }
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
            // Or the cube was dropped here, with the face it shows. A drop never gives check.
            if role != 0 && to != Square::CENTER.index() && !self.check {
                let mut b = board;
                b[to] = 0;
                let mut h = hands;
                h[0][((role - 1) / 4) as usize] += 1;
                self.push(Position::from_raw(b, h, 0, Color::Black), true, out);
            }
        }
    }
}
