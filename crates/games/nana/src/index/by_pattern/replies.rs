//! R1 and R2 on the moves of a pattern's entries where Black holds the fourth cube: whether
//! White has a reply, found from the pattern's tables where they tell, else from the rules.

use super::{unrank, Pattern};
use crate::position::{Move, Position, BLACK_KING};
use crate::types::{Role, Rules, Square};

/// R1 and R2 on the moves of an entry where Black holds the fourth cube (and White none):
/// whether White has a reply after a move, where the rules ask.
pub(super) struct Replies<'a> {
    pattern: &'a Pattern,
    rules: &'a Rules,
    index: u64,
    digits: [usize; 4],
    black: u16,
    /// The entry's position, unranked when the quick answer fails.
    position: Option<Position>,
    /// The steps of White's King to squares no Black piece attacks as the pieces stand, found
    /// for the first drop.
    safe_steps: Option<u16>,
}

impl<'a> Replies<'a> {
    /// For the entry `index` of `pattern`, its cubes' `digits` and Black's pieces `black`.
    pub(super) fn new(
        pattern: &'a Pattern,
        rules: &'a Rules,
        index: u64,
        digits: [usize; 4],
        black: u16,
    ) -> Self {
        Replies { pattern, rules, index, digits, black, position: None, safe_steps: None }
    }

    /// The squares Black's pieces attack, with White's King lifted, and those where a White
    /// piece shields its King from a slide of theirs, where `occ` is occupied and Black's
    /// piece on the square of `from` (a bit; none for a drop) has moved to `moved`'s square
    /// as its cell code (none: the pieces on the board alone).
    fn danger(&self, occ: u16, from: u16, moved: Option<(usize, u8)>) -> (u16, u16) {
        let p = self.pattern;
        let (t, lifted) = (p.t, occ & !p.white_king);
        let king = p.white_king.trailing_zeros() as usize;
        let (mut danger, mut shields) = match moved {
            Some((to, code)) => (t.targets(code, to, lifted), t.shield(code, to, king)),
            None => (0, 0),
        };
        let mut pieces = self.black & !from;
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let piece = usize::from(p.mover[sq & 15]);
            let code =
                if piece == Pattern::KING { BLACK_KING } else { p.code[piece & 3][self.digits[piece & 3]] };
            danger |= t.targets(code, sq, lifted);
            shields |= t.shield(code, sq, king);
        }
        (danger, shields)
    }

    /// Whether White has a reply, found quickly, after a move that leaves `occ` occupied,
    /// `white` White's pieces, and Black's attacking `danger` and pinning `shields` (see
    /// [`Replies::danger`]), White not in check: a step of its King to a square no Black
    /// piece attacks, or a move of a cube that does not shield the King. `false` says
    /// nothing.
    fn quick_reply(&self, occ: u16, white: u16, (danger, shields): (u16, u16)) -> bool {
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
            && p.t.targets(p.code[i][self.digits[i]], p.cube[i].trailing_zeros() as usize, occ) & !white != 0
    }

    /// The rules' answer for the move `mv`, from the entry's position.
    #[cold]
    fn ask_the_rules(&mut self, mv: Move) -> bool {
        let index = self.index;
        let pos = self.position.get_or_insert_with(|| unrank(index).expect("in range"));
        pos.is_allowed(self.rules, mv, &pos.play_unchecked(mv))
    }

    pub(super) fn board_move_allowed(&mut self, piece: usize, from: usize, to: usize) -> bool {
        let p = self.pattern;
        let occ = p.occupied;
        let moved = if piece == Pattern::KING {
            BLACK_KING
        } else {
            // The cube's next face, Black's.
            p.code[piece & 3][(self.digits[piece & 3] + 1) & 3]
        };
        let occ = (occ & !(1 << from)) | 1 << to;
        let attacks = self.danger(occ, 1 << from, Some((to, moved)));
        let check = attacks.0 & p.white_king != 0;
        // R2: a player with pieces in hand may not mate, nor stalemate under its option.
        if !check && !self.rules.hand_stalemate {
            return true;
        }
        let white = occ & !self.black & !(1 << from) & !(1 << to);
        (!check && self.quick_reply(occ, white, attacks))
            || (check && p.white_king_steps & !white & !attacks.0 != 0)
            || self.ask_the_rules(Move::Board { from: Square::ALL[from], to: Square::ALL[to] })
    }

    /// Whether R1 and R2 allow the drop of the face `face` on `to`. `square` keeps what the
    /// four faces' drops there share, found for the first: Black's attacks and pins of the
    /// pieces already on the board, White's pieces, and the White cubes free to move.
    pub(super) fn drop_allowed(
        &mut self,
        face: usize,
        to: usize,
        square: &mut Option<(u16, u16, u16)>,
    ) -> bool {
        // A quiet drop: R1 asks under its option, R2 under its (Black holds a cube).
        if !self.rules.drop_stalemate && !self.rules.hand_stalemate {
            return true;
        }
        let p = self.pattern;
        // A piece dropped blocks slides, never opens one: a step safe from the pieces as they
        // stand stays safe unless the dropped piece attacks it.
        let safe_steps = match self.safe_steps {
            Some(steps) => steps,
            None => {
                let occ = p.occupied;
                *self
                    .safe_steps
                    .insert(p.white_king_steps & !(occ & !self.black) & !self.danger(occ, 0, None).0)
            }
        };
        if safe_steps & !p.drop_danger[to][face] != 0 {
            return true;
        }
        let (danger, white, free) = *square.get_or_insert_with(|| {
            let occ = p.occupied | 1 << to;
            let white = occ & !self.black & !(1 << to);
            let (danger, shields) = self.danger(occ, 0, None);
            let free =
                (0..4).filter(|&i| self.free_to_move(i, occ, white, shields)).fold(0, |m, i| m | p.cube[i]);
            (danger, white, free)
        });
        p.white_king_steps & !white & !(danger | p.drop_danger[to][face]) != 0
            || free & !p.drop_shield[to][face] != 0
            || self.ask_the_rules(Move::Drop {
                role: Role::ALL[1 + 4 * p.drop_kind + face],
                to: Square::ALL[to],
            })
    }
}
