//! A slow, obviously-correct move generator written from `RULES.md` alone, and the tests that
//! hold the crate's generator against it.
//!
//! Nothing here uses the crate's board, attack tables or move generator: the reference has its
//! own board (a 3×3 array of `(side, face)` indexed by file and rank), its own direction lists
//! per face and rule set, its own position-string reader and printer and its own USI move
//! strings. The crate is only asked for its answers (`legal_moves`, `for_each_l0_move`,
//! `perft`, `is_terminal`, `play`, `from_setup`), which are then compared as strings.
//!
//! Long: a reference generator is only one if it is complete, and it shares no code with
//! the crate's.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use nana_shogi::{fen, perft, usi, Color, Piece, Position, Role, Rules, Setup, Variant};

// ---------------------------------------------------------------------------------------------
// The reference rules.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Black,
    White,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
    fn ix(self) -> usize {
        match self {
            Side::Black => 0,
            Side::White => 1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Face {
    King,
    Rook,
    Chariot,
    SwallowsWings,
    GoBetween,
    Bishop,
    TileGeneral,
    CatSword,
    Dog,
}

use Face::*;

const O_FACES: [Face; 4] = [Rook, Chariot, SwallowsWings, GoBetween];
const D_FACES: [Face; 4] = [Bishop, TileGeneral, CatSword, Dog];

impl Face {
    /// The letter of the position string and of USI drops.
    fn letter(self) -> char {
        match self {
            King => 'K',
            Rook => 'R',
            Chariot => 'C',
            SwallowsWings => 'W',
            GoBetween => 'G',
            Bishop => 'B',
            TileGeneral => 'T',
            CatSword => 'S',
            Dog => 'D',
        }
    }

    fn from_letter(c: char) -> Face {
        match c {
            'K' => King,
            'R' => Rook,
            'C' => Chariot,
            'W' => SwallowsWings,
            'G' => GoBetween,
            'B' => Bishop,
            'T' => TileGeneral,
            'S' => CatSword,
            'D' => Dog,
            _ => panic!("not a piece letter: {c:?}"),
        }
    }

    /// Hand slot: 0 King, 1 O cube, 2 D cube.
    fn slot(self) -> usize {
        if self == King {
            0
        } else if O_FACES.contains(&self) {
            1
        } else {
            2
        }
    }

    /// The face after a board move: R → C → SW → GB → R, B → TG → CS → D → B.
    fn next(self) -> Face {
        match self {
            King => King,
            Rook => Chariot,
            Chariot => SwallowsWings,
            SwallowsWings => GoBetween,
            GoBetween => Rook,
            Bishop => TileGeneral,
            TileGeneral => CatSword,
            CatSword => Dog,
            Dog => Bishop,
        }
    }
}

/// A move direction relative to the owner: steps forward (towards the opponent), steps to the
/// owner's right, and whether the piece may go on in that direction (a slider) or makes one step.
type Dir = (i32, i32, Reach);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    Step,
    Slide,
}

use Reach::{Slide as L, Step as S};

mod common;
use common::XorShift;

/// The table of RULES.md, written out direction by direction.
fn dirs(face: Face, variant: Variant) -> &'static [Dir] {
    let original = variant == Variant::Original;
    match face {
        // K: one step in the 8 directions.
        King => {
            &[(1, 0, S), (-1, 0, S), (0, 1, S), (0, -1, S), (1, 1, S), (1, -1, S), (-1, 1, S), (-1, -1, S)]
        }
        // Current W, original R.
        Rook if original => &[(1, 0, L), (-1, 0, L), (0, 1, L), (0, -1, L)],
        Rook => &[(1, 0, S), (-1, 0, S), (0, 1, S), (0, -1, S)],
        // fbR.
        Chariot => &[(1, 0, L), (-1, 0, L)],
        // Current rlW, original rlR + fbW.
        SwallowsWings if original => &[(0, 1, L), (0, -1, L), (1, 0, S), (-1, 0, S)],
        SwallowsWings => &[(0, 1, S), (0, -1, S)],
        // fbW.
        GoBetween => &[(1, 0, S), (-1, 0, S)],
        // B.
        Bishop => &[(1, 1, L), (1, -1, L), (-1, 1, L), (-1, -1, L)],
        // fF + bW.
        TileGeneral => &[(1, 1, S), (1, -1, S), (-1, 0, S)],
        // F.
        CatSword => &[(1, 1, S), (1, -1, S), (-1, 1, S), (-1, -1, S)],
        // fW + bF.
        Dog => &[(1, 0, S), (-1, 1, S), (-1, -1, S)],
    }
}

/// A square as (file 1..=3, rank 0..=2 for a..=c).
type Sq = (i32, i32);

/// The nine squares in reading order of the position string: rank a to c, file 3 to 1.
const SQUARES: [Sq; 9] = [(3, 0), (2, 0), (1, 0), (3, 1), (2, 1), (1, 1), (3, 2), (2, 2), (1, 2)];

fn all_squares() -> [Sq; 9] {
    SQUARES
}

const CENTER: Sq = (2, 1);

fn sq_name(s: Sq) -> String {
    format!("{}{}", s.0, (b'a' + s.1 as u8) as char)
}

fn adjacent(a: Sq, b: Sq) -> bool {
    a != b && (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1
}

/// Which rule set, with its two options.
#[derive(Clone, Copy, Debug)]
struct Opts {
    variant: Variant,
    drop_stalemate: bool,
    hand_stalemate: bool,
}

impl Opts {
    fn rules(self) -> Rules {
        Rules {
            variant: self.variant,
            drop_stalemate: self.drop_stalemate,
            hand_stalemate: self.hand_stalemate,
        }
    }

    fn all() -> Vec<Opts> {
        let mut v = Vec::new();
        for variant in [Variant::Current, Variant::Original] {
            for drop_stalemate in [true, false] {
                for hand_stalemate in [true, false] {
                    v.push(Opts { variant, drop_stalemate, hand_stalemate });
                }
            }
        }
        v
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct RefPos {
    /// `board[file - 1][rank]`.
    board: [[Option<(Side, Face)>; 3]; 3],
    /// `hand[side][slot]`, slots King, O cube, D cube.
    hand: [[u8; 3]; 2],
    side: Side,
}

struct RefMove {
    /// The square moved from, or the face dropped.
    from: Result<Sq, Face>,
    to: Sq,
    drop: bool,
    child: RefPos,
}

impl RefMove {
    /// The move in USI (made only when asked: perft counts millions of moves).
    fn usi(&self) -> String {
        match self.from {
            Ok(from) => format!("{}{}", sq_name(from), sq_name(self.to)),
            Err(face) => format!("{}*{}", face.letter(), sq_name(self.to)),
        }
    }
}

impl RefPos {
    fn at(&self, s: Sq) -> Option<(Side, Face)> {
        self.board[(s.0 - 1) as usize][s.1 as usize]
    }

    fn set(&mut self, s: Sq, v: Option<(Side, Face)>) {
        self.board[(s.0 - 1) as usize][s.1 as usize] = v;
    }

    /// Reads a position string (the reference's own reader; it trusts the input).
    fn parse(s: &str) -> RefPos {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let mut p = RefPos { board: [[None; 3]; 3], hand: [[0; 3]; 2], side: Side::Black };
        for (rank, text) in fields[0].split('/').enumerate() {
            let mut file = 3;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file -= d as i32;
                } else {
                    let side = if c.is_ascii_uppercase() { Side::Black } else { Side::White };
                    p.set((file, rank as i32), Some((side, Face::from_letter(c.to_ascii_uppercase()))));
                    file -= 1;
                }
            }
            assert_eq!(file, 0, "{s}");
        }
        p.side = if fields[1] == "b" { Side::Black } else { Side::White };
        if fields[2] != "-" {
            let mut count = 1;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    count = d as u8;
                    continue;
                }
                let side = if c.is_ascii_uppercase() { Side::Black } else { Side::White };
                let slot = match c.to_ascii_uppercase() {
                    'K' => 0,
                    'R' => 1,
                    'B' => 2,
                    _ => panic!("bad hand letter {c:?} in {s}"),
                };
                p.hand[side.ix()][slot] += count;
                count = 1;
            }
        }
        p
    }

    /// Prints the canonical position string without a ply number.
    fn print(&self) -> String {
        let mut s = String::new();
        for rank in 0..3 {
            if rank > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for file in (1..=3).rev() {
                match self.at((file, rank)) {
                    None => empty += 1,
                    Some((side, face)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let c = face.letter();
                        s.push(if side == Side::White { c.to_ascii_lowercase() } else { c });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push_str(if self.side == Side::Black { " b " } else { " w " });
        let mut hands = String::new();
        for side in [Side::Black, Side::White] {
            for (slot, letter) in ['K', 'R', 'B'].into_iter().enumerate() {
                let n = self.hand[side.ix()][slot];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    hands.push(if side == Side::White { letter.to_ascii_lowercase() } else { letter });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s + &hands
    }

    fn king(&self, side: Side) -> Option<Sq> {
        all_squares().into_iter().find(|&s| self.at(s) == Some((side, King)))
    }

    /// The squares the piece on `from` attacks: every direction of its face, stepping once or
    /// sliding until the edge or the first piece (which is attacked).
    fn attacks_from(&self, from: Sq, variant: Variant) -> Vec<Sq> {
        let (side, face) = self.at(from).expect("a piece");
        let mut out = Vec::new();
        for d in dirs(face, variant) {
            // Black's forward is towards rank a (rank number down) and its right is towards
            // file 1; White's are the opposite.
            let (fwd, right, reach) = *d;
            let (dfile, drank) = match side {
                Side::Black => (-right, -fwd),
                Side::White => (right, fwd),
            };
            let mut s = from;
            loop {
                s = (s.0 + dfile, s.1 + drank);
                if !(1..=3).contains(&s.0) || !(0..3).contains(&s.1) {
                    break;
                }
                out.push(s);
                if self.at(s).is_some() || reach == S {
                    break;
                }
            }
        }
        out
    }

    fn attacked_by(&self, target: Sq, by: Side, variant: Variant) -> bool {
        all_squares().into_iter().any(|s| {
            matches!(self.at(s), Some((side, _)) if side == by)
                && self.attacks_from(s, variant).contains(&target)
        })
    }

    fn in_check(&self, side: Side, variant: Variant) -> bool {
        match self.king(side) {
            Some(k) => self.attacked_by(k, side.other(), variant),
            None => false,
        }
    }

    /// Whether this is a legal position: one King each, both on the board and apart (or the
    /// opening states), two cubes of each kind, and the side that just moved not in check.
    /// Only used on setups whose piece counts are right.
    fn valid(&self, variant: Variant) -> bool {
        let kings_on_board = [Side::Black, Side::White].map(|s| self.king(s).is_some());
        if kings_on_board != [true, true] {
            return false;
        }
        let (b, w) = (self.king(Side::Black).unwrap(), self.king(Side::White).unwrap());
        !adjacent(b, w) && !self.in_check(self.side.other(), variant)
    }

    /// Basic-legal (L0) moves.
    fn l0_moves(&self, variant: Variant) -> Vec<RefMove> {
        let us = self.side;
        let them = us.other();
        let mut out = Vec::new();
        let their_king = self.king(them);
        // The opening: while our King is in hand it is the only thing we may play, onto an
        // empty non-centre square not next to the other King.
        if self.hand[us.ix()][0] > 0 {
            for to in all_squares() {
                if to == CENTER || self.at(to).is_some() || their_king.is_some_and(|k| adjacent(k, to)) {
                    continue;
                }
                let mut child = self.clone();
                child.set(to, Some((us, King)));
                child.hand[us.ix()][0] -= 1;
                child.side = them;
                out.push(RefMove { from: Err(King), to, drop: true, child });
            }
            return out;
        }
        // Board moves.
        for from in all_squares() {
            let Some((side, face)) = self.at(from) else { continue };
            if side != us {
                continue;
            }
            for to in self.attacks_from(from, variant) {
                let mut child = self.clone();
                match self.at(to) {
                    Some((s, _)) if s == us => continue,
                    Some((_, captured)) => {
                        assert_ne!(captured, King, "a King is never captured in a legal position");
                        child.hand[us.ix()][captured.slot()] += 1;
                    }
                    None => {}
                }
                child.set(from, None);
                child.set(to, Some((us, face.next())));
                child.side = them;
                if child.in_check(us, variant) {
                    continue;
                }
                out.push(RefMove { from: Ok(from), to, drop: false, child });
            }
        }
        // Drops: a cube from hand on an empty non-centre square, in any face, not giving check
        // and not leaving our King attacked.
        for (slot, faces) in [(1, O_FACES), (2, D_FACES)] {
            if self.hand[us.ix()][slot] == 0 {
                continue;
            }
            for to in all_squares() {
                if to == CENTER || self.at(to).is_some() {
                    continue;
                }
                for face in faces {
                    let mut child = self.clone();
                    child.set(to, Some((us, face)));
                    child.hand[us.ix()][slot] -= 1;
                    child.side = them;
                    if child.in_check(them, variant) || child.in_check(us, variant) {
                        continue;
                    }
                    out.push(RefMove { from: Err(face), to, drop: true, child });
                }
            }
        }
        out
    }

    /// Legal moves: L0 plus R1 and R2, judged on the opponent's L0 replies.
    fn legal_moves(&self, o: Opts) -> Vec<RefMove> {
        let had_hand = self.hand[self.side.ix()].iter().any(|&n| n > 0);
        self.l0_moves(o.variant)
            .into_iter()
            .filter(|m| {
                if !m.child.l0_moves(o.variant).is_empty() {
                    return true;
                }
                let mate = m.child.in_check(m.child.side, o.variant);
                if mate {
                    // R2: no mate with pieces in hand.
                    !had_hand
                } else {
                    // R1: no drop stalemate; R2S: no stalemate with pieces in hand.
                    let r1_forbids = m.drop && o.drop_stalemate;
                    let r2s_forbids = had_hand && o.hand_stalemate;
                    !r1_forbids && !r2s_forbids
                }
            })
            .collect()
    }

    fn perft(&self, o: Opts, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(o);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| m.child.perft(o, depth - 1)).sum()
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers: a deterministic PRNG, the crate's answers as strings.
// ---------------------------------------------------------------------------------------------

fn crate_legal(pos: &Position, rules: &Rules) -> BTreeSet<String> {
    let moves = pos.legal_moves(rules);
    let set: BTreeSet<String> = moves.iter().map(|&m| usi::format(m)).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {pos}");
    set
}

fn crate_l0(pos: &Position, variant: Variant) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    let _ = pos.for_each_l0_move(variant, |m, _| {
        assert!(set.insert(usi::format(m)), "duplicate L0 move in {pos}");
        ControlFlow::Continue(())
    });
    set
}

/// Statistics that show the comparison met the interesting cases.
#[derive(Default, Debug)]
struct Seen {
    positions: u64,
    terminal: u64,
    restricted: u64,
    in_check: u64,
    drops: u64,
}

/// Compares everything the crate says about `pos` under `o` with the reference, and returns the
/// reference's legal moves.
fn compare(pos: &Position, o: Opts, seen: &mut Seen) -> Vec<RefMove> {
    let rules = o.rules();
    let text = pos.to_string();
    let r = RefPos::parse(&text);
    assert_eq!(r.print(), text, "printing");
    let ref_l0: BTreeSet<String> = r.l0_moves(o.variant).into_iter().map(|m| m.usi()).collect();
    assert_eq!(crate_l0(pos, o.variant), ref_l0, "L0 moves of {text} under {o:?}");
    let ref_legal = r.legal_moves(o);
    let ref_set: BTreeSet<String> = ref_legal.iter().map(|m| m.usi()).collect();
    assert_eq!(crate_legal(pos, &rules), ref_set, "legal moves of {text} under {o:?}");
    assert_eq!(pos.is_terminal(&rules), ref_set.is_empty(), "is_terminal of {text} under {o:?}");
    assert_eq!(pos.in_check(o.variant), r.in_check(r.side, o.variant), "in_check of {text}");
    for m in &ref_legal {
        let mv = usi::parse(&m.usi()).unwrap();
        let child = pos.play(&rules, mv).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(child.to_string(), m.child.print(), "{text} after {}", m.usi());
    }
    // Every L0 move the restrictions remove is refused by `play`, with a reason.
    for m in ref_l0.difference(&ref_set) {
        let err = pos.play(&rules, usi::parse(m).unwrap()).unwrap_err();
        assert!(err.reason.contains("R1") || err.reason.contains("R2"), "{text} {m}: {}", err.reason);
    }
    seen.positions += 1;
    seen.terminal += ref_set.is_empty() as u64;
    seen.restricted += (ref_l0.len() != ref_set.len()) as u64;
    seen.in_check += r.in_check(r.side, o.variant) as u64;
    seen.drops += ref_legal.iter().any(|m| m.drop) as u64;
    ref_legal
}

/// Plays random games from `start`, comparing every position on the way.
fn playouts(start: &Position, o: Opts, games: usize, max_plies: usize, rng: &mut XorShift, seen: &mut Seen) {
    for _ in 0..games {
        let mut pos = *start;
        for _ in 0..max_plies {
            let moves = compare(&pos, o, seen);
            if moves.is_empty() {
                break;
            }
            let m = &moves[rng.below(moves.len())];
            pos = pos.play(&o.rules(), usi::parse(&m.usi()).unwrap()).unwrap();
        }
    }
}

/// Takes a random square out of `free` (never the centre when `no_center`).
fn take(rng: &mut XorShift, free: &mut Vec<usize>, no_center: bool) -> usize {
    loop {
        let i = rng.below(free.len());
        if !(no_center && free[i] == 4) {
            return free.swap_remove(i);
        }
    }
}

/// A random setup with both Kings on the board and every cube somewhere (on the board with a
/// random owner and face, or in a random hand). Often illegal (Kings adjacent, side not to move
/// in check); the caller sorts that out.
fn random_setup(rng: &mut XorShift) -> Setup {
    let mut board: [Option<Piece>; 9] = [None; 9];
    let mut hands = [[0u8; 3]; 2];
    let colors = [Color::Black, Color::White];
    let mut free: Vec<usize> = (0..9).collect();
    for color in colors {
        let sq = take(rng, &mut free, true);
        board[sq] = Some(Piece { color, role: Role::King });
    }
    // Bias towards crowded boards or towards full hands, to reach both mates and drop-rich play.
    let on_board_percent = [20, 50, 80][rng.below(3)];
    for slot in [1usize, 1, 2, 2] {
        let color = colors[rng.below(2)];
        if (rng.below(100)) < on_board_percent {
            let sq = take(rng, &mut free, false);
            let faces = if slot == 1 {
                [Role::Rook, Role::Chariot, Role::SwallowsWings, Role::GoBetween]
            } else {
                [Role::Bishop, Role::TileGeneral, Role::CatSword, Role::Dog]
            };
            board[sq] = Some(Piece { color, role: faces[rng.below(4)] });
        } else {
            hands[color.index()][slot] += 1;
        }
    }
    Setup { board, hands, side: colors[rng.below(2)], ply: None }
}

// ---------------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------------

#[test]
fn reference_reproduces_the_published_start_counts() {
    // Sanity of the reference itself against the shared reference file's first numbers.
    let start = RefPos::parse("3/3/3 b KRBkrb 1");
    let cur = Opts { variant: Variant::Current, drop_stalemate: true, hand_stalemate: true };
    let orig = Opts { variant: Variant::Original, ..cur };
    assert_eq!((1..=3).map(|d| start.perft(cur, d)).collect::<Vec<_>>(), [8, 32, 1292]);
    assert_eq!((1..=3).map(|d| start.perft(orig, d)).collect::<Vec<_>>(), [8, 32, 1200]);
}

#[test]
fn perft_agrees_with_the_reference() {
    // (position, variant, drop_stalemate, hand_stalemate, depth)
    let cases: &[(&str, Variant, bool, bool, u32)] = &[
        ("3/3/3 b KRBkrb 1", Variant::Current, true, true, 4),
        ("3/3/3 b KRBkrb 1", Variant::Original, false, false, 4),
        ("K2/G1b/2k w Rb 1", Variant::Current, true, true, 5),
        ("K2/G1b/2k w Rb 1", Variant::Current, false, false, 5),
        ("1k1/1SC/1K1 b RB 1", Variant::Current, true, false, 5),
        ("1k1/1SC/1K1 b RB 1", Variant::Current, false, true, 5),
        ("1K1/W2/Tk1 b Rb 1", Variant::Original, true, true, 4),
        ("1K1/W2/Tk1 b Rb 1", Variant::Original, false, false, 4),
        ("1k1/1SG/K2 b RB 1", Variant::Original, true, false, 4),
        ("k2/3/2K b RBrb", Variant::Current, true, true, 3),
        ("k2/3/2K w 2R2B", Variant::Original, false, true, 3),
        ("2K/rG1/ks1 w B", Variant::Original, true, true, 5),
        ("Ckw/1t1/1K1 w b", Variant::Current, false, false, 5),
        ("2k/3/T1K b 2Rb", Variant::Current, false, false, 4),
    ];
    for &(fen_str, variant, drop_stalemate, hand_stalemate, depth) in cases {
        let o = Opts { variant, drop_stalemate, hand_stalemate };
        let pos = fen::parse_position(fen_str, variant).unwrap();
        let r = RefPos::parse(fen_str);
        for d in 1..=depth {
            assert_eq!(perft(&pos, &o.rules(), d), r.perft(o, d), "{fen_str} {o:?} depth {d}");
        }
    }
}

/// One position of the perft data file with its expected counts.
struct DataSection {
    header: String,
    pos: RefPos,
    opts: Opts,
    counts: Vec<(u32, u64)>,
}

fn read_data_file() -> Vec<DataSection> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut sections: Vec<DataSection> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("position ") {
            let (fen_str, opts) = rest.split_once(" rules ").unwrap();
            let words: Vec<&str> = opts.split_whitespace().collect();
            let variant = if words[0] == "current" { Variant::Current } else { Variant::Original };
            // An option that is not named is on.
            let flag = |name: &str| match words.iter().position(|w| *w == name) {
                Some(i) => words[i + 1] == "on",
                None => true,
            };
            let opts = Opts { variant, drop_stalemate: flag("r1"), hand_stalemate: flag("r2s") };
            sections.push(DataSection {
                header: line.to_string(),
                pos: RefPos::parse(fen_str),
                opts,
                counts: vec![],
            });
            continue;
        }
        let mut it = line.split_whitespace();
        let depth: u32 = it.next().unwrap().parse().unwrap();
        let nodes: u64 = it.next().unwrap().parse().unwrap();
        sections.last_mut().expect("a position line first").counts.push((depth, nodes));
    }
    sections
}

/// Recomputes with the reference every count of the perft data file up to `max_nodes`, so the
/// file only holds numbers both generators agree on. Returns how many counts were checked.
///
/// Each count is split at the root: one task per legal move, the child's count one ply
/// shallower. The tasks run on every core, the largest (by the count's share per move) first,
/// so no single deep count keeps one core busy while the others idle.
fn check_data_file(max_nodes: u64) -> usize {
    struct Task {
        count: usize,
        child: RefPos,
        depth: u32,
        weight: u64,
    }
    let sections = read_data_file();
    let counts: Vec<(&DataSection, u32, u64)> = sections
        .iter()
        .flat_map(|s| s.counts.iter().filter(|c| c.1 <= max_nodes).map(move |&(d, n)| (s, d, n)))
        .collect();
    let mut tasks = Vec::new();
    for (count, &(s, depth, nodes)) in counts.iter().enumerate() {
        if depth == 0 {
            continue;
        }
        let moves = s.pos.legal_moves(s.opts);
        let weight = nodes / moves.len().max(1) as u64;
        tasks.extend(moves.into_iter().map(|m| Task { count, child: m.child, depth: depth - 1, weight }));
    }
    tasks.sort_by_key(|t| std::cmp::Reverse(t.weight));
    // A count at depth 0 is the position itself; the others are the sums of their tasks.
    let sums: Vec<AtomicU64> = counts.iter().map(|c| AtomicU64::new(u64::from(c.1 == 0))).collect();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(t) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let opts = counts[t.count].0.opts;
                    sums[t.count].fetch_add(t.child.perft(opts, t.depth), Ordering::Relaxed);
                }
            });
        }
    });
    for ((s, depth, nodes), sum) in counts.iter().zip(&sums) {
        assert_eq!(sum.load(Ordering::Relaxed), *nodes, "{} depth {depth}", s.header);
    }
    counts.len()
}

#[test]
fn data_file_agrees_with_reference() {
    let checked = check_data_file(20_000);
    assert!(checked >= 110, "only {checked} counts checked");
}

#[test]
#[ignore = "exhaustive tier (two minutes): `cargo xtask self-check` runs it"]
fn full_data_file_agrees_with_reference() {
    check_data_file(u64::MAX);
}

#[test]
fn random_playouts_from_the_start() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for o in Opts::all() {
        let mut seen = Seen::default();
        playouts(&Position::start(), o, 40, 60, &mut rng, &mut seen);
        assert!(seen.positions >= 1000, "{o:?}: {seen:?}");
        assert!(seen.drops > 0 && seen.in_check > 0, "{o:?}: {seen:?}");
    }
}

#[test]
fn random_setups_and_playouts_from_them() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for o in Opts::all() {
        let mut seen = Seen::default();
        let mut valid = 0;
        let mut invalid = 0;
        while valid < 300 {
            let setup = random_setup(&mut rng);
            let text = fen::Fen(setup.clone()).to_string();
            let r = RefPos::parse(&text);
            let pos = Position::from_setup(&setup, o.variant);
            assert_eq!(pos.is_ok(), r.valid(o.variant), "validity of {text} ({:?})", o.variant);
            match pos {
                Ok(pos) => {
                    valid += 1;
                    playouts(&pos, o, 1, 12, &mut rng, &mut seen);
                }
                Err(_) => invalid += 1,
            }
        }
        assert!(invalid > 0);
        assert!(seen.positions >= 1000, "{o:?}: {seen:?}");
        assert!(seen.terminal > 0 && seen.restricted > 0 && seen.in_check > 0, "{o:?}: {seen:?}");
    }
}

/// Positions where the options matter: every position met in the random games is compared
/// under all four option combinations at once, and at least some of them must tell the
/// combinations apart (else the option tests above would prove little).
#[test]
fn options_make_a_difference_somewhere() {
    let mut rng = XorShift(0xdead_beef_cafe_f00d);
    for variant in Variant::ALL {
        let mut differs_r1 = 0;
        let mut differs_r2s = 0;
        let mut seen = Seen::default();
        for _ in 0..4000 {
            let setup = random_setup(&mut rng);
            let Ok(pos) = Position::from_setup(&setup, variant) else { continue };
            let sets: Vec<BTreeSet<String>> = Opts::all()
                .into_iter()
                .filter(|o| o.variant == variant)
                .map(|o| {
                    compare(&pos, o, &mut seen);
                    crate_legal(&pos, &o.rules())
                })
                .collect();
            // Order: (r1 on, r2s on), (on, off), (off, on), (off, off).
            differs_r1 += (sets[1] != sets[3]) as u32;
            differs_r2s += (sets[0] != sets[1]) as u32;
            // With hand_stalemate on, R1 is implied (a drop always starts from a non-empty hand).
            assert_eq!(sets[0], sets[2], "{pos}");
        }
        assert!(differs_r1 > 0 && differs_r2s > 0, "{variant}: r1 {differs_r1}, r2s {differs_r2s}");
    }
}
