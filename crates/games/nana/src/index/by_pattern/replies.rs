//! R1 and R2 on the moves of a pattern's entries where Black holds the fourth cube: whether
//! White has a reply, found from the pattern's tables.
//!
//! White then holds nothing, so its replies are board moves alone: a step of its King to a
//! square no Black piece attacks, or a move of a cube that keeps its King safe
//! ([`KingSafety::targets`]). Black's attacks, pins and checks after the move are found from
//! the pattern's tables, the moved or dropped piece's among them.

use super::Pattern;
use crate::position::{KingSafety, BLACK_KING};
use crate::types::Rules;

/// R1 and R2 on the moves of an entry where Black holds the fourth cube (and White none):
/// whether White has a reply after a move, where the rules ask.
pub(super) struct Replies<'a> {
    pattern: &'a Pattern,
    rules: &'a Rules,
    digits: [usize; 4],
    black: u16,
    /// The steps of White's King to squares no Black piece attacks as the pieces stand, found
    /// for the first drop.
    safe_steps: Option<u16>,
    /// For the Black piece on a square `from` (kept as `from + 1`, 0 for none yet): what the
    /// other Black pieces may attack once it has moved (see [`Replies::others_attacks`]).
    others: (usize, u16),
}

/// What Black's pieces do to White's King after a move: the squares they attack with the King
/// lifted, those where a White piece shields the King from a slide, the pieces that give
/// check, and the squares where a piece would block a sliding check.
#[derive(Clone, Copy)]
pub(super) struct Threats {
    danger: u16,
    shields: u16,
    checkers: u16,
    blocks: u16,
}

impl<'a> Replies<'a> {
    /// For an entry of `pattern`, its cubes' `digits` and Black's pieces `black`.
    pub(super) fn new(pattern: &'a Pattern, rules: &'a Rules, digits: [usize; 4], black: u16) -> Self {
        Replies { pattern, rules, digits, black, safe_steps: None, others: (0, 0) }
    }

    /// Black's [`Threats`] where `occ` is occupied and Black's piece on the square of `from`
    /// (a bit; none for a drop) has moved to `moved`'s square as its cell code (none: the
    /// pieces on the board alone).
    fn threats(&self, occ: u16, from: u16, moved: Option<(usize, u8)>) -> Threats {
        let p = self.pattern;
        let (t, lifted) = (p.t, occ & !p.white_king);
        let king = p.white_king.trailing_zeros() as usize;
        let mut threats = Threats { danger: 0, shields: 0, checkers: 0, blocks: 0 };
        let mut add = |code: u8, sq: usize| {
            let (attacks, shield) = (t.targets(code, sq, lifted), t.shield(code, sq, king));
            threats.danger |= attacks;
            threats.shields |= shield;
            if attacks & p.white_king != 0 {
                threats.checkers |= 1 << sq;
                threats.blocks |= shield;
            }
        };
        if let Some((to, code)) = moved {
            add(code, to);
        }
        let mut pieces = self.black & !from;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            add(self.black_code(sq), sq);
        }
        threats
    }

    /// The cell code of Black's piece on `sq`.
    #[inline]
    fn black_code(&self, sq: usize) -> u8 {
        let p = self.pattern;
        let piece = usize::from(p.mover[sq & 15]);
        if piece == Pattern::KING {
            BLACK_KING
        } else {
            p.code[piece & 3][self.digits[piece & 3] & 7]
        }
    }

    /// Whether White has a reply where `occ` is occupied and `white` is White's, under
    /// Black's `threats`: a King step to a square no Black piece attacks, or a cube's move to
    /// a target that keeps the King safe, as the rules find them.
    fn has_reply(&self, occ: u16, white: u16, threats: Threats) -> bool {
        let p = self.pattern;
        if p.white_king_steps & !white & !threats.danger != 0 {
            return true;
        }
        let king = p.white_king.trailing_zeros() as usize;
        let Threats { danger, shields, checkers, blocks } = threats;
        let safety = KingSafety::new(king, danger, shields, checkers, blocks);
        (0..4).any(|i| {
            let cube = p.cube[i] & white;
            let from = cube.trailing_zeros() as usize;
            cube != 0
                && p.t.targets(p.code[i][self.digits[i] & 7], from, occ) & !white & safety.targets(from) != 0
        })
    }

    /// Whether White has a reply, found quickly, where `occ` is occupied and `white` White's,
    /// Black's pieces attacking `danger` and pinning on `shields`, White not in check: a
    /// step of its King to a square no Black piece attacks, or a move of a cube that does not
    /// shield the King. `false` says nothing (then [`Replies::has_reply`] tells).
    fn quick_reply(&self, occ: u16, white: u16, danger: u16, shields: u16) -> bool {
        let p = self.pattern;
        if p.white_king_steps & !white & !danger != 0 {
            return true;
        }
        (0..4).any(|i| self.free_to_move(i, occ, white, shields))
    }

    /// Whether cube `i` is White's, does not shield its King (`shields`) and has a target
    /// where `occ` is occupied and `white` White's.
    fn free_to_move(&self, i: usize, occ: u16, white: u16, shields: u16) -> bool {
        let p = self.pattern;
        p.cube[i] & white & !shields != 0
            && p.t.targets(p.code[i][self.digits[i] & 7], p.cube[i].trailing_zeros() as usize, occ) & !white
                != 0
    }

    /// What the Black pieces but the one on `from` may attack once it has moved: each piece's
    /// attacks with `from` emptied and White's King lifted, the moved piece's target left
    /// empty (a piece moved there can only stop a slide), found for the first move from `from`.
    fn others_attacks(&mut self, from: usize) -> u16 {
        if self.others.0 != from + 1 {
            let p = self.pattern;
            let lifted = p.occupied & !p.white_king & !(1 << from);
            let mut attacks = 0;
            let mut pieces = self.black & !(1 << from);
            while pieces != 0 {
                let sq = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                attacks |= p.t.targets(self.black_code(sq), sq, lifted);
            }
            self.others = (from + 1, attacks);
        }
        self.others.1
    }

    /// Whether R1 and R2 allow Black's move of `piece` from `from` to `to`. Under R2's option
    /// a step of White's King to a square no Black piece may attack answers first (see
    /// [`Replies::others_attacks`]); the rest is [`Replies::board_move_checked`]'s.
    #[inline(always)]
    pub(super) fn board_move_allowed(&mut self, piece: usize, from: usize, to: usize) -> bool {
        if self.rules.hand_stalemate {
            // R2 tests the move, check or not: a step of White's King to a square that no
            // Black piece may attack is a reply either way.
            let p = self.pattern;
            let face = if piece == Pattern::KING { 0 } else { self.digits[piece & 3] };
            let attacks = self.others_attacks(from) | p.moved_attacks[piece & 7][to & 15][face & 3];
            let white = p.occupied & !self.black & !(1 << to);
            if p.white_king_steps & !white & !attacks != 0 {
                return true;
            }
        }
        self.board_move_checked(piece, from, to)
    }

    /// [`Replies::board_move_allowed`] from Black's threats after the move.
    #[inline(never)]
    fn board_move_checked(&mut self, piece: usize, from: usize, to: usize) -> bool {
        let p = self.pattern;
        let occ = p.occupied;
        let moved = if piece == Pattern::KING {
            BLACK_KING
        } else {
            // The cube's next face, Black's.
            p.code[piece & 3][(self.digits[piece & 3] + 1) & 3]
        };
        let occ = (occ & !(1 << from)) | 1 << to;
        let white = occ & !self.black & !(1 << from) & !(1 << to);
        let threats = self.threats(occ, 1 << from, Some((to, moved)));
        // R2: a player with pieces in hand may not mate, nor stalemate under its option.
        if threats.checkers == 0 && !self.rules.hand_stalemate {
            return true;
        }
        (threats.checkers == 0 && self.quick_reply(occ, white, threats.danger, threats.shields))
            || self.has_reply(occ, white, threats)
    }

    /// Of the faces `faces` (bit `face`) in which a drop on `to` gives no check, those in
    /// which R1 and R2 allow it. What the faces' drops there share is found once, for the
    /// first face that needs it: Black's threats from the pieces already on the board, White's
    /// pieces, and the White cubes free to move.
    pub(super) fn drops_allowed(&mut self, to: usize, faces: u8) -> u8 {
        // A quiet drop: R1 asks under its option, R2 under its (Black holds a cube).
        if faces == 0 || (!self.rules.drop_stalemate && !self.rules.hand_stalemate) {
            return faces;
        }
        let p = self.pattern;
        // A piece dropped blocks slides, never opens one: a step safe from the pieces as they
        // stand stays safe unless the dropped piece attacks it.
        let safe_steps = match self.safe_steps {
            Some(steps) => steps,
            None => {
                *self.safe_steps.insert(p.white_king_steps & !(p.occupied & !self.black) & !self.danger())
            }
        };
        let (mut allowed, mut asked) = (0, 0);
        for face in 0..4 {
            if faces >> face & 1 != 0 {
                if safe_steps & !p.drop_danger[to][face] != 0 {
                    allowed |= 1 << face;
                } else {
                    asked |= 1 << face;
                }
            }
        }
        if asked == 0 {
            return allowed;
        }
        let occ = p.occupied | 1 << to;
        let white = occ & !self.black & !(1 << to);
        let threats = self.threats(occ, 0, None);
        let free = (0..4)
            .filter(|&i| self.free_to_move(i, occ, white, threats.shields))
            .fold(0, |m, i| m | p.cube[i]);
        for face in (0..4).filter(|&face| asked >> face & 1 != 0) {
            let (dropped, shield) = (p.drop_danger[to][face], p.drop_shield[to][face]);
            if p.white_king_steps & !white & !(threats.danger | dropped) != 0
                || free & !shield != 0
                || self.has_reply(
                    occ,
                    white,
                    Threats {
                        danger: threats.danger | dropped,
                        shields: threats.shields | shield,
                        ..threats
                    },
                )
            {
                allowed |= 1 << face;
            }
        }
        allowed
    }

    /// What Black's pieces attack as they stand, with White's King lifted.
    fn danger(&self) -> u16 {
        let p = self.pattern;
        let lifted = p.occupied & !p.white_king;
        let mut danger = 0;
        let mut pieces = self.black;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            danger |= p.t.targets(self.black_code(sq), sq, lifted);
        }
        danger
    }
}
