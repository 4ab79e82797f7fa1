//! A pattern's tables, found once a pattern ([`Pattern::fill`]): each cube's attacks, shields
//! and codes, the moved pieces' attacks, and each move's and drop's child index as a base and a
//! weight per cube, from children ranked with the rules' own [`rank`].

use super::{Pattern, PIECE_SLOTS, SQUARE_SLOTS};
use crate::attacks::table;
use crate::index::{rank, tables, Class, CUBE_CODES};
use crate::position::{Move, Position, BLACK_KING, WHITE_KING};
use crate::types::{Color, Role, Rules, Square};

impl Pattern {
    /// A pattern of no pieces, to be [`Pattern::fill`]ed.
    pub(super) fn empty(rules: &Rules) -> Pattern {
        Pattern {
            t: table(rules.variant),
            splits: 0,
            black_king: 0,
            white_king: 0,
            king_reach: 0,
            white_king_steps: 0,
            white_king_danger: 0,
            white_king_shield: 0,
            cube: [0; 4],
            occupied: 0,
            code: [[0; 8]; 4],
            reach: [[0; 8]; 4],
            danger: [[0; 8]; 4],
            shield: [[0; 8]; 4],
            mover: [u8::MAX; 16],
            base: [[[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS]; 2],
            weight: [[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS],
            quiet_faces: [0; SQUARE_SLOTS],
            drop_base: [[0; 4]; SQUARE_SLOTS],
            drop_weight: [[0; 4]; SQUARE_SLOTS],
            drop_danger: [[0; 4]; SQUARE_SLOTS],
            drop_shield: [[0; 4]; SQUARE_SLOTS],
            moved_attacks: [[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS],
        }
    }

    /// Makes this the pattern `pattern` of `class` with the King pair `kp`, in place: every
    /// table written afresh.
    pub(super) fn fill(&mut self, rules: &Rules, kp: u64, class: &Class, pattern: u64) {
        let tables = tables();
        let t = table(rules.variant);
        let (bk, wk) = tables.pairs[kp as usize];
        let free: Vec<u8> = (0..9).filter(|&s| s != bk && s != wk).collect();
        let rows = tables.patterns[usize::from(class.first) + pattern as usize];
        // Each cube's square and kind (0 for O).
        let cubes: Vec<(u8, usize)> = rows[..usize::from(class.digit_bits / 3)]
            .iter()
            .map(|&row| (free[usize::from(row / 16)], usize::from((row / 8) & 1)))
            .collect();
        let (bk_bit, wk_bit) = (1u16 << bk, 1u16 << wk);
        let occ = cubes.iter().fold(bk_bit | wk_bit, |m, &(sq, _)| m | 1 << sq);
        let lifted = occ & !bk_bit;
        let p = self;
        p.t = t;
        p.splits = u64::from(class.splits);
        (p.black_king, p.white_king, p.occupied) = (bk_bit, wk_bit, occ);
        p.king_reach = t.targets(BLACK_KING, usize::from(bk), occ);
        p.white_king_steps = t.targets(WHITE_KING, usize::from(wk), occ);
        p.white_king_danger = t.targets(WHITE_KING, usize::from(wk), lifted);
        p.white_king_shield = t.shield(WHITE_KING, usize::from(wk), usize::from(bk));
        p.cube = [0; 4];
        p.code = [[0; 8]; 4];
        p.reach = [[0; 8]; 4];
        p.danger = [[0; 8]; 4];
        p.shield = [[0; 8]; 4];
        p.mover = [u8::MAX; 16];
        p.base = [[[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS]; 2];
        p.weight = [[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS];
        p.quiet_faces = [0; SQUARE_SLOTS];
        p.drop_base = [[0; 4]; SQUARE_SLOTS];
        p.drop_weight = [[0; 4]; SQUARE_SLOTS];
        p.drop_danger = [[0; 4]; SQUARE_SLOTS];
        p.drop_shield = [[0; 4]; SQUARE_SLOTS];
        p.moved_attacks = [[[0; 4]; SQUARE_SLOTS]; PIECE_SLOTS];
        p.mover[usize::from(bk)] = Self::KING as u8;
        for (i, &(sq, kind)) in cubes.iter().enumerate() {
            p.mover[usize::from(sq)] = i as u8;
            p.cube[i] = 1 << sq;
            p.code[i] = CUBE_CODES[kind];
            for (digit, &code) in CUBE_CODES[kind].iter().enumerate() {
                let sq = usize::from(sq);
                p.reach[i][digit] = t.targets(code, sq, occ);
                p.danger[i][digit] = t.targets(code, sq, lifted);
                p.shield[i][digit] = t.shield(code, sq, usize::from(bk));
            }
        }
        for (piece, from) in cubes.iter().enumerate().map(|(i, &(sq, _))| (i, sq)).chain([(Self::KING, bk)]) {
            for to in 0..9 {
                let occ = (occ & !(1 << from) | 1 << to) & !wk_bit;
                for face in 0..4 {
                    let code = if piece == Self::KING { BLACK_KING } else { p.code[piece][(face + 1) & 3] };
                    p.moved_attacks[piece][to][face] = t.targets(code, to, occ);
                }
            }
        }
        for split in 0..class.splits {
            let hands = class.hands[usize::from(split)];
            let board = |faces: [usize; 4], owners: [usize; 4]| {
                let mut board = [0u8; 9];
                board[usize::from(bk)] = BLACK_KING;
                board[usize::from(wk)] = WHITE_KING;
                for (i, &(sq, kind)) in cubes.iter().enumerate() {
                    board[usize::from(sq)] = CUBE_CODES[kind][4 * owners[i] + faces[i]];
                }
                Position::from_raw(board, hands, 0, Color::Black)
            };
            p.rank_board_moves(usize::from(split), &board, bk, wk, &cubes);
            if let Some(kind) = (0..2).find(|&kind| hands[0][kind] > 0) {
                p.rank_drops(kind, &board, occ, wk, cubes.len());
            }
        }
    }

    /// [`Pattern::base`] and [`Pattern::weight`] of hand split `split`, for every target a
    /// piece reaches in some face but the Kings' squares (a capture of a King is never legal)
    /// and, for Black's King, the squares next to White's. `board(faces, owners)` is the
    /// pattern's position with those cubes' faces and owners (0 for Black).
    fn rank_board_moves(
        &mut self,
        split: usize,
        board: &dyn Fn([usize; 4], [usize; 4]) -> Position,
        bk: u8,
        wk: u8,
        cubes: &[(u8, usize)],
    ) {
        let pair_of = &tables().pair_of;
        let kings = (1u16 << bk) | 1 << wk;
        for piece in (0..cubes.len()).chain([Self::KING]) {
            let (from, reach) = if piece == Self::KING {
                (bk, self.king_reach)
            } else {
                (cubes[piece].0, self.reach[piece][..4].iter().fold(0, |m, &r| m | r))
            };
            let mut targets = reach & !kings & 0x1ff;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                if piece == Self::KING && pair_of[usize::from(to)][usize::from(wk)].0 == u8::MAX {
                    continue;
                }
                // Every cube Black's in face 0, but a White one on the target.
                let mut owners = [0; 4];
                for (owner, &(sq, _)) in owners.iter_mut().zip(cubes) {
                    *owner = usize::from(sq == to);
                }
                let mv =
                    Move::Board { from: Square::ALL[usize::from(from)], to: Square::ALL[usize::from(to)] };
                let child = |faces: [usize; 4]| rank(&board(faces, owners).play_unchecked(mv));
                let zero = child([0; 4]);
                // Each cube's weight: its face turned once more turns its child's digit once
                // more (a cube moved shows the next face in the child, so its digit is one
                // more than it showed, as the others').
                let mut weight = [0u64; 4];
                for (j, w) in weight.iter_mut().enumerate().take(cubes.len()) {
                    if owners[j] == 0 {
                        let mut faces = [0; 4];
                        faces[j] = 1;
                        *w = child(faces).wrapping_sub(zero);
                    }
                }
                // The child's digits at `zero`: a Black cube in face 0 is White's in the
                // child's entry (digit 4), the moved one in face 1 (digit 5).
                let digit = |j: usize| if j == piece { 5 } else { 4 };
                let base = (0..4).fold(zero, |b, j| b.wrapping_sub(weight[j].wrapping_mul(digit(j))));
                let to = usize::from(to);
                for face in 0..4u64 {
                    self.base[split][piece][to][face as usize] = if piece == Self::KING {
                        base
                    } else {
                        base.wrapping_add(weight[piece].wrapping_mul(4 + (face + 1) % 4))
                    };
                }
                self.weight[piece][to] = weight;
                if piece != Self::KING {
                    self.weight[piece][to][piece] = 0;
                }
            }
        }
    }

    /// The drops of the cube of `kind` that Black holds: where each face gives no check, and
    /// [`Pattern::drop_base`] and [`Pattern::drop_weight`] for every square a drop may go to.
    fn rank_drops(
        &mut self,
        kind: usize,
        board: &dyn Fn([usize; 4], [usize; 4]) -> Position,
        occ: u16,
        wk: u8,
        cubes: usize,
    ) {
        let mut squares = !occ & 0x1ff & !Square::CENTER.bit();
        let code = |face: usize| CUBE_CODES[kind][face];
        for (to, quiet) in self.quiet_faces.iter_mut().enumerate().filter(|&(to, _)| squares >> to & 1 != 0) {
            *quiet = (0..4)
                .filter(|&face| self.t.targets(code(face), to, occ | 1 << to) & 1 << wk == 0)
                .fold(0, |m, face| m | 1 << face);
        }
        while squares != 0 {
            let to = squares.trailing_zeros() as usize;
            squares &= squares - 1;
            let child = |faces: [usize; 4], face: usize| {
                let mv = Move::Drop { role: Role::ALL[1 + 4 * kind + face], to: Square::ALL[to] };
                rank(&board(faces, [0; 4]).play_unchecked(mv))
            };
            let zero = child([0; 4], 0);
            let mut weight = [0u64; 4];
            for (j, w) in weight.iter_mut().enumerate().take(cubes) {
                let mut faces = [0; 4];
                faces[j] = 1;
                *w = child(faces, 0).wrapping_sub(zero);
            }
            // Every cube on the board reads digit 4 in the child's entry.
            let rest = weight.iter().fold(0u64, |s, w| s.wrapping_add(w.wrapping_mul(4)));
            for face in 0..4 {
                self.drop_base[to][face] = child([0; 4], face).wrapping_sub(rest);
                self.drop_danger[to][face] = self.t.targets(code(face), to, (occ | 1 << to) & !(1 << wk));
                self.drop_shield[to][face] = self.t.shield(code(face), to, usize::from(wk));
            }
            self.drop_weight[to] = weight;
        }
    }
}
