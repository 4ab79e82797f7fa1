//! Hand-checked tests of the rules (RULES.md): piece geometry for every face on every square in
//! both rule sets, the opening, captures, drops, face changes, the R1/R2 options, the end of the
//! game, illegal-move reasons and the colour/mirror symmetries.
//!
//! Long: one short test per rule of RULES.md, in its order.

use std::collections::BTreeSet;

use nana_shogi::{fen, perft, usi, Color, Move, Piece, Position, Role, Rules, Setup, Square, Variant};

mod common;
use common::XorShift;

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

fn sq(s: &str) -> Square {
    usi::parse_square(s).unwrap_or_else(|| panic!("not a square: {s}"))
}

fn pos(s: &str, variant: Variant) -> Position {
    fen::parse_position(s, variant).unwrap_or_else(|e| panic!("{e}"))
}

fn mv(s: &str) -> Move {
    usi::parse(s).unwrap_or_else(|e| panic!("{e}"))
}

fn set(words: &str) -> BTreeSet<String> {
    words.split_whitespace().map(str::to_string).collect()
}

fn legal(p: &Position, rules: &Rules) -> BTreeSet<String> {
    p.legal_moves(rules).into_iter().map(usi::format).collect()
}

fn l0(p: &Position, variant: Variant) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let _ = p.for_each_l0_move(variant, |m, _| {
        out.insert(usi::format(m));
        std::ops::ControlFlow::Continue(())
    });
    out
}

fn rules(variant: Variant, drop_stalemate: bool, hand_stalemate: bool) -> Rules {
    Rules { variant, drop_stalemate, hand_stalemate }
}

/// All eight rule sets (both variants, all four option combinations).
fn all_rules() -> Vec<Rules> {
    let mut v = Vec::new();
    for variant in Variant::ALL {
        for a in [true, false] {
            for b in [true, false] {
                v.push(rules(variant, a, b));
            }
        }
    }
    v
}

fn piece(color: Color, role: Role) -> Option<Piece> {
    Some(Piece { color, role })
}

const O_FACES: [Role; 4] = [Role::Rook, Role::Chariot, Role::SwallowsWings, Role::GoBetween];
const D_FACES: [Role; 4] = [Role::Bishop, Role::TileGeneral, Role::CatSword, Role::Dog];
const CUBE_FACES: [Role; 8] = [
    Role::Rook,
    Role::Chariot,
    Role::SwallowsWings,
    Role::GoBetween,
    Role::Bishop,
    Role::TileGeneral,
    Role::CatSword,
    Role::Dog,
];

/// Positions met in random games from the start (every ply of `games` games).
fn random_positions(rules: &Rules, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::start();
        for _ in 0..40 {
            out.push(p);
            let moves = p.legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            p = p.play(rules, moves[rng.below(moves.len())]).unwrap();
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Piece geometry.
// ---------------------------------------------------------------------------------------------

/// The squares a lone piece reaches on an otherwise empty board, written out by hand.
/// (variant, colour, face letter, from, targets)
const HAND_TABLE: &[(Variant, Color, char, &str, &str)] = &[
    // Current rules, Black (forward is towards rank a).
    (Variant::Current, Color::Black, 'R', "2b", "2a 2c 1b 3b"),
    (Variant::Current, Color::Black, 'R', "1c", "1b 2c"),
    (Variant::Current, Color::Black, 'R', "2a", "1a 3a 2b"),
    (Variant::Current, Color::Black, 'C', "2b", "2a 2c"),
    (Variant::Current, Color::Black, 'C', "1c", "1b 1a"),
    (Variant::Current, Color::Black, 'C', "2a", "2b 2c"),
    (Variant::Current, Color::Black, 'W', "2b", "1b 3b"),
    (Variant::Current, Color::Black, 'W', "1c", "2c"),
    (Variant::Current, Color::Black, 'W', "2a", "1a 3a"),
    (Variant::Current, Color::Black, 'G', "2b", "2a 2c"),
    (Variant::Current, Color::Black, 'G', "1c", "1b"),
    (Variant::Current, Color::Black, 'G', "2a", "2b"),
    (Variant::Current, Color::Black, 'B', "2b", "1a 3a 1c 3c"),
    (Variant::Current, Color::Black, 'B', "1c", "2b 3a"),
    (Variant::Current, Color::Black, 'B', "2a", "1b 3b"),
    (Variant::Current, Color::Black, 'T', "2b", "1a 3a 2c"),
    (Variant::Current, Color::Black, 'T', "1c", "2b"),
    (Variant::Current, Color::Black, 'T', "2a", "2b"),
    (Variant::Current, Color::Black, 'T', "3b", "2a 3c"),
    (Variant::Current, Color::Black, 'S', "2b", "1a 3a 1c 3c"),
    (Variant::Current, Color::Black, 'S', "1c", "2b"),
    (Variant::Current, Color::Black, 'S', "2a", "1b 3b"),
    (Variant::Current, Color::Black, 'D', "2b", "2a 1c 3c"),
    (Variant::Current, Color::Black, 'D', "1c", "1b"),
    (Variant::Current, Color::Black, 'D', "2a", "1b 3b"),
    (Variant::Current, Color::Black, 'D', "3b", "3a 2c"),
    // Current rules, White (forward is towards rank c).
    (Variant::Current, Color::White, 'R', "3a", "2a 3b"),
    (Variant::Current, Color::White, 'C', "1a", "1b 1c"),
    (Variant::Current, Color::White, 'C', "2c", "2b 2a"),
    (Variant::Current, Color::White, 'W', "1b", "2b"),
    (Variant::Current, Color::White, 'G', "2c", "2b"),
    (Variant::Current, Color::White, 'B', "3a", "2b 1c"),
    (Variant::Current, Color::White, 'T', "2b", "1c 3c 2a"),
    (Variant::Current, Color::White, 'T', "2c", "2b"),
    (Variant::Current, Color::White, 'T', "2a", "1b 3b"),
    (Variant::Current, Color::White, 'S', "1a", "2b"),
    (Variant::Current, Color::White, 'D', "2b", "2c 1a 3a"),
    (Variant::Current, Color::White, 'D', "2a", "2b"),
    (Variant::Current, Color::White, 'D', "2c", "1b 3b"),
    // Original rules: the Rook and the Swallow's wings slide.
    (Variant::Original, Color::Black, 'R', "2b", "2a 2c 1b 3b"),
    (Variant::Original, Color::Black, 'R', "1b", "1a 1c 2b 3b"),
    (Variant::Original, Color::Black, 'R', "2a", "1a 3a 2b 2c"),
    (Variant::Original, Color::Black, 'W', "2b", "1b 3b 2a 2c"),
    (Variant::Original, Color::Black, 'W', "1c", "2c 3c 1b"),
    (Variant::Original, Color::Black, 'W', "2a", "1a 3a 2b"),
    (Variant::Original, Color::White, 'R', "3b", "3a 3c 2b 1b"),
    (Variant::Original, Color::White, 'W', "3a", "2a 1a 3b"),
    (Variant::Original, Color::White, 'W', "2c", "1c 3c 2b"),
    // Original rules, the faces that did not change.
    (Variant::Original, Color::Black, 'C', "1c", "1b 1a"),
    (Variant::Original, Color::Black, 'G', "2b", "2a 2c"),
    (Variant::Original, Color::Black, 'B', "1c", "2b 3a"),
    (Variant::Original, Color::Black, 'T', "2b", "1a 3a 2c"),
    (Variant::Original, Color::Black, 'S', "2a", "1b 3b"),
    (Variant::Original, Color::Black, 'D', "2b", "2a 1c 3c"),
    (Variant::Original, Color::White, 'B', "2b", "1a 3a 1c 3c"),
    (Variant::Original, Color::White, 'D', "3c", "2b"),
];

/// Directions of a face as (file change, rank change) for a *Black* piece, where rank change -1
/// is forward (towards rank a), with whether the piece slides. White's are the negation.
fn black_vectors(role: Role, variant: Variant) -> Vec<((i8, i8), bool)> {
    let orth = [(0, -1), (0, 1), (1, 0), (-1, 0)];
    let diag = [(1, -1), (-1, -1), (1, 1), (-1, 1)];
    let original = variant == Variant::Original;
    let steps = |v: &[(i8, i8)]| v.iter().map(|&d| (d, false)).collect::<Vec<_>>();
    let slides = |v: &[(i8, i8)]| v.iter().map(|&d| (d, true)).collect::<Vec<_>>();
    match role {
        Role::King => [steps(&orth), steps(&diag)].concat(),
        Role::Rook if original => slides(&orth),
        Role::Rook => steps(&orth),
        Role::Chariot => slides(&[(0, -1), (0, 1)]),
        Role::SwallowsWings if original => [slides(&[(1, 0), (-1, 0)]), steps(&[(0, -1), (0, 1)])].concat(),
        Role::SwallowsWings => steps(&[(1, 0), (-1, 0)]),
        Role::GoBetween => steps(&[(0, -1), (0, 1)]),
        Role::Bishop => slides(&diag),
        Role::TileGeneral => steps(&[(1, -1), (-1, -1), (0, 1)]),
        Role::CatSword => steps(&diag),
        Role::Dog => steps(&[(0, -1), (1, 1), (-1, 1)]),
    }
}

/// The squares a piece on `from` reaches, given which squares are occupied (all by pieces it
/// may not pass; whether it may capture there is the caller's business).
fn reach(role: Role, color: Color, variant: Variant, from: Square, occupied: &[Square]) -> BTreeSet<String> {
    let sign = if color == Color::Black { 1 } else { -1 };
    let mut out = BTreeSet::new();
    for ((df, dr), slides) in black_vectors(role, variant) {
        let (mut f, mut r) = (from.file() as i8, from.rank() as i8);
        loop {
            f += sign * df;
            r += sign * dr;
            if !(1..=3).contains(&f) || !(0..=2).contains(&r) {
                break;
            }
            let to = Square::from_file_rank(f as u8, r as u8).unwrap();
            out.insert(to.to_string());
            if occupied.contains(&to) || !slides {
                break;
            }
        }
    }
    out
}

/// A lone cube of `role` and `color` on `from`, the two Kings on `own_king` / `enemy_king`, the
/// other three cubes in the opponent's hand (so the mover's hand is empty and no restriction can
/// bite), the cube's owner to move. `None` if that is not a legal position.
fn lone_cube(
    variant: Variant,
    color: Color,
    role: Role,
    from: Square,
    own_king: Square,
    enemy_king: Square,
) -> Option<Position> {
    let mut board = [None; 9];
    board[from.index()] = piece(color, role);
    board[own_king.index()] = piece(color, Role::King);
    board[enemy_king.index()] = piece(color.other(), Role::King);
    let mut hands = [[0u8; 3]; 2];
    let other = color.other().index();
    hands[other] = [0, 2, 2];
    hands[other][1 + (role.cube().unwrap() as usize)] -= 1;
    let setup = Setup { board, hands, side: color, ply: None };
    Position::from_setup(&setup, variant).ok()
}

/// The targets of the board moves from `from` in `p` under every rule set of `variant`; they must
/// agree.
fn targets_from(p: &Position, variant: Variant, from: Square) -> BTreeSet<String> {
    let sets: Vec<BTreeSet<String>> = all_rules()
        .into_iter()
        .filter(|r| r.variant == variant)
        .map(|r| {
            p.legal_moves(&r)
                .into_iter()
                .filter_map(|m| match m {
                    Move::Board { from: f, to } if f == from => Some(to.to_string()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    assert!(sets.windows(2).all(|w| w[0] == w[1]), "{p}: the options changed a lone cube's moves");
    sets.into_iter().next().unwrap()
}

#[test]
fn hand_table_of_moves() {
    let mut missing = Vec::new();
    for &(variant, color, letter, from, expected) in HAND_TABLE {
        let role = Role::from_letter(letter).unwrap();
        let from = sq(from);
        let expected = set(expected);
        // Both Kings off the piece's path: then the board is as good as empty for it.
        let mut placements = 0;
        for own in Square::ALL {
            for enemy in Square::ALL {
                if [own.to_string(), enemy.to_string()].iter().any(|s| expected.contains(s)) {
                    continue;
                }
                if own == from || enemy == from || own == enemy {
                    continue;
                }
                if let Some(p) = lone_cube(variant, color, role, from, own, enemy) {
                    assert_eq!(targets_from(&p, variant, from), expected, "{p} ({variant})");
                    placements += 1;
                }
            }
        }
        if placements == 0 {
            missing.push(format!("{letter} on {from} ({variant}, {color:?})"));
        }
    }
    assert!(missing.is_empty(), "no King placement for {missing:?}");
}

/// Every face of every colour on every square, with every legal placement of the two Kings,
/// against the direction lists above (the Kings block slides; the own King's square is not a
/// target; the enemy King is never attacked in a legal position with us to move).
#[test]
fn every_face_on_every_square() {
    for variant in Variant::ALL {
        for color in Color::ALL {
            for role in CUBE_FACES {
                for from in Square::ALL {
                    let mut placements = 0;
                    for own in Square::ALL {
                        for enemy in Square::ALL {
                            if own == from || enemy == from || own == enemy {
                                continue;
                            }
                            let Some(p) = lone_cube(variant, color, role, from, own, enemy) else { continue };
                            let mut expected = reach(role, color, variant, from, &[own, enemy]);
                            assert!(!expected.contains(&enemy.to_string()), "{p}: enemy King attacked");
                            expected.remove(&own.to_string());
                            assert_eq!(targets_from(&p, variant, from), expected, "{p} ({variant})");
                            // No drops: the mover's hand is empty; and no King moves other than the King's.
                            placements += 1;
                        }
                    }
                    assert!(placements >= 2, "{role:?} {color:?} {from} {variant}: {placements}");
                }
            }
        }
    }
}

/// The hand table is the mirror image of itself and White's moves are Black's turned round.
#[test]
fn geometry_is_symmetric() {
    let flip = |s: &String| sq(s).flip().to_string();
    let mirror = |s: &String| sq(s).mirror().to_string();
    for variant in Variant::ALL {
        for role in Role::ALL {
            for from in Square::ALL {
                let b = reach(role, Color::Black, variant, from, &[]);
                let w = reach(role, Color::White, variant, from.flip(), &[]);
                assert_eq!(w, b.iter().map(flip).collect(), "{role:?} {from}");
                let m = reach(role, Color::Black, variant, from.mirror(), &[]);
                assert_eq!(m, b.iter().map(mirror).collect(), "{role:?} {from}");
            }
        }
    }
    // The table above agrees with the direction lists.
    for &(variant, color, letter, from, expected) in HAND_TABLE {
        let role = Role::from_letter(letter).unwrap();
        assert_eq!(reach(role, color, variant, sq(from), &[]), set(expected), "{letter} {from} {color:?}");
    }
}

#[test]
fn king_moves() {
    // Black King on 1c, White King on 3a; Black to move, Black's hand empty. 2b touches 3a: a
    // King may not step next to the other King.
    let p = pos("k2/3/2K b 2r2b", Variant::Current);
    assert_eq!(legal(&p, &Rules::CURRENT), set("1c1b 1c2c"));
    // From 2c: 2b and 3b touch 3a.
    let p = pos("k2/3/1K1 b 2r2b", Variant::Original);
    assert_eq!(legal(&p, &Rules::ORIGINAL), set("2c1b 2c1c 2c3c"));
    // White's King, on 2a with Black's on 2c: 1a, 3a (2b, 1b and 3b all touch 2c).
    let p = pos("1k1/3/1K1 w 2R2B", Variant::Current);
    assert_eq!(legal(&p, &Rules::CURRENT), set("2a1a 2a3a"));
}

#[test]
fn sliders_are_blocked_and_capture_the_first_piece() {
    let from_3c = |p: &Position, r: &Rules| -> BTreeSet<String> {
        legal(p, r).into_iter().filter(|m| m.starts_with("3c")).collect()
    };
    // Original rules. Black Rook on 3c; White Dog on 3b blocks the file, White Go-between on 2c
    // blocks the rank. The Rook captures either but goes no further.
    let p = pos("K1k/d2/Rg1 b B", Variant::Original);
    assert_eq!(from_3c(&p, &Rules::ORIGINAL), set("3c3b 3c2c"));
    // Without the Go-between the Rook runs along rank c to 1c.
    let p = pos("K1k/d2/R2 b Br", Variant::Original);
    assert_eq!(from_3c(&p, &Rules::ORIGINAL), set("3c3b 3c2c 3c1c"));
    // The short Rook of the current rules makes one step.
    let p = pos("K1k/d2/R2 b Br", Variant::Current);
    assert_eq!(from_3c(&p, &Rules::CURRENT), set("3c3b 3c2c"));
    // A Bishop on 1c slides to 3a over an empty centre, not over an occupied one.
    let p = pos("2k/3/K1B b 2Rb", Variant::Current);
    assert_eq!(
        legal(&p, &Rules::CURRENT).into_iter().filter(|m| m.starts_with("1c")).collect::<BTreeSet<_>>(),
        set("1c2b 1c3a")
    );
    let p = pos("2k/1r1/K1B b Rb", Variant::Current);
    assert_eq!(
        legal(&p, &Rules::CURRENT).into_iter().filter(|m| m.starts_with("1c")).collect::<BTreeSet<_>>(),
        set("1c2b")
    );
}

// ---------------------------------------------------------------------------------------------
// The opening.
// ---------------------------------------------------------------------------------------------

#[test]
fn opening_king_drops() {
    for r in all_rules() {
        let start = Position::start();
        assert_eq!(legal(&start, &r), set("K*1a K*2a K*3a K*1b K*3b K*1c K*2c K*3c"), "{r:?}");
        // White may not drop next to Black's King nor on the centre.
        let after = start.play(&r, mv("K*2c")).unwrap();
        assert_eq!(after.to_string(), "3/3/1K1 w RBkrb");
        assert_eq!(legal(&after, &r), set("K*1a K*2a K*3a"));
        let after = start.play(&r, mv("K*1c")).unwrap();
        assert_eq!(legal(&after, &r), set("K*1a K*2a K*3a K*3b K*3c"));
        let after = start.play(&r, mv("K*3a")).unwrap();
        assert_eq!(legal(&after, &r), set("K*1a K*1b K*1c K*2c K*3c"));
        // Then Black plays on with its cubes.
        let both = after.play(&r, mv("K*1c")).unwrap();
        assert!(both.kings_placed());
        assert!(legal(&both, &r).iter().any(|m| m.starts_with("R*")));
    }
}

#[test]
fn nothing_else_before_both_kings_are_down() {
    let r = Rules::CURRENT;
    let start = Position::start();
    for m in ["R*1a", "B*2c", "T*3c", "K*2b"] {
        let e = start.play(&r, mv(m)).unwrap_err();
        assert_eq!(e.mv, mv(m));
        assert!(!e.reason.is_empty());
    }
    assert!(start.play(&r, mv("R*1a")).unwrap_err().reason.contains("king must be dropped first"));
    assert!(start.play(&r, mv("K*2b")).unwrap_err().reason.contains("centre"));
    let after = start.play(&r, mv("K*1a")).unwrap();
    assert!(after.play(&r, mv("G*3c")).unwrap_err().reason.contains("king must be dropped first"));
    assert!(after.play(&r, mv("K*2b")).is_err());
    assert!(after.play(&r, mv("K*1b")).unwrap_err().reason.contains("next to the other king"));
    assert!(after.play(&r, mv("1a1b")).unwrap_err().reason.contains("opponent"));
    // The opening states are the only ones with a King in hand.
    assert!(fen::parse_position("K2/R2/3 w Bkrb", Variant::Current).is_err());
}

// ---------------------------------------------------------------------------------------------
// Captures, drops and faces.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_capture_goes_to_the_captors_hand_as_a_cube() {
    for variant in Variant::ALL {
        let r = Rules::new(variant);
        // Black's Rook on 2c takes White's Dog on 2b (a D cube).
        let p = pos("k2/1d1/1RK b Rb", variant);
        assert_eq!(p.hand(Color::Black, nana_shogi::Cube::D), 0);
        let q = p.play(&r, mv("2c2b")).unwrap();
        assert_eq!(q.to_string(), "k2/1C1/2K w RBb");
        assert_eq!(q.hand(Color::Black, nana_shogi::Cube::D), 1);
        assert_eq!(q.hand(Color::Black, nana_shogi::Cube::O), 1);
        assert_eq!(q.piece_at(sq("2b")), piece(Color::Black, Role::Chariot));
        // The face is forgotten: after any White move Black may drop it in all four D faces.
        let w = q.legal_moves(&r)[0];
        let q2 = q.play(&r, w).unwrap();
        let drops: BTreeSet<char> =
            legal(&q2, &r).iter().filter(|m| m.contains('*')).map(|m| m.chars().next().unwrap()).collect();
        for face in ['B', 'T', 'S', 'D', 'R', 'C', 'W', 'G'] {
            assert!(drops.contains(&face), "{q2}: no {face} drop");
        }
        // White captures too: its Go-between on 2b takes Black's Tile general on 2c.
        let p = pos("k2/1g1/1TK w Rb", variant);
        let q = p.play(&r, mv("2b2c")).unwrap();
        assert_eq!(q.to_string(), "k2/3/1rK b R2b");
        assert_eq!(q.hand(Color::White, nana_shogi::Cube::D), 2);
    }
}

#[test]
fn drops_in_all_four_faces() {
    for variant in Variant::ALL {
        let r = Rules::new(variant);
        let p = pos("k2/3/2K b RBrb", variant);
        let moves = legal(&p, &r);
        // 2c: no face attacks 3a from there, so all eight faces may be dropped.
        for face in CUBE_FACES {
            let m = format!("{}*2c", face.letter());
            assert!(moves.contains(&m), "{m}");
            let q = p.play(&r, mv(&m)).unwrap();
            // A drop keeps the face it was dropped with.
            assert_eq!(q.piece_at(sq("2c")), piece(Color::Black, face));
            assert_eq!(q.hand(Color::Black, face.cube().unwrap()), 0);
        }
        // Never onto the centre, never onto an occupied square.
        assert!(moves.iter().all(|m| !m.ends_with("*2b") && !m.ends_with("*1c") && !m.ends_with("*3a")));
        // A King is never dropped once it is on the board.
        assert!(moves.iter().all(|m| !m.starts_with("K*")));
    }
}

#[test]
fn a_drop_may_not_give_check() {
    let p = |v| pos("k2/3/2K b RBrb", v);
    for variant in Variant::ALL {
        let r = Rules::new(variant);
        // R on 2a (a step, or a slide) and G on 3b (a step forward) attack 3a.
        for m in ["R*2a", "G*3b", "R*3b", "C*3b", "W*2a", "D*3b"] {
            let e = p(variant).play(&r, mv(m)).unwrap_err();
            assert!(e.reason.contains("check"), "{m}: {}", e.reason);
            assert!(!legal(&p(variant), &r).contains(m));
        }
        // These stand next to the King but do not attack it.
        for m in ["T*2a", "D*2a", "G*2a", "B*3b", "T*3b", "S*3b", "S*2a", "C*2a"] {
            assert!(legal(&p(variant), &r).contains(m), "{m}");
        }
    }
    // A slide gives check from afar in the original rules only, and not through a piece.
    assert!(legal(&p(Variant::Current), &Rules::CURRENT).contains("R*1a"));
    assert!(!legal(&p(Variant::Original), &Rules::ORIGINAL).contains("R*1a"));
    assert!(!legal(&p(Variant::Original), &Rules::ORIGINAL).contains("W*1a"));
    let blocked = pos("kD1/3/2K b Rrb", Variant::Original);
    assert!(legal(&blocked, &Rules::ORIGINAL).contains("R*1a"));
}

#[test]
fn the_face_advances_after_every_board_move_and_not_after_a_drop() {
    for variant in Variant::ALL {
        let r = Rules::new(variant);
        for (i, face) in CUBE_FACES.into_iter().enumerate() {
            let cycle = if i < 4 { O_FACES } else { D_FACES };
            let next = cycle[(i % 4 + 1) % 4];
            // A lone Black cube on 2b, Black King 1c, White King 3a, White holding the other cubes.
            let Some(p) = lone_cube(variant, Color::Black, face, sq("2b"), sq("1c"), sq("3a")) else {
                // Only faces that attack 3a from 2b make this illegal; use 3b, with White's King on 1a, then.
                let p = lone_cube(variant, Color::Black, face, sq("3b"), sq("1c"), sq("1a")).unwrap();
                check_advance(&p, &r, sq("3b"), face, next);
                continue;
            };
            check_advance(&p, &r, sq("2b"), face, next);
        }
        // With a capture too: Black's Dog on 2b takes White's Go-between on 2a and turns Bishop.
        let p = pos("kg1/1D1/2K b rB", variant);
        let q = p.play(&r, mv("2b2a")).unwrap();
        assert_eq!(q.piece_at(sq("2a")), piece(Color::Black, Role::Bishop));
        // The King does not change when it moves (or captures).
        let q2 = q.play(&r, mv("3a2a")).unwrap();
        assert_eq!(q2.piece_at(sq("2a")), piece(Color::White, Role::King));
        // White's faces advance as well.
        let p = pos("k2/1w1/2K w 2Br", Variant::Current);
        let q = p.play(&Rules::CURRENT, mv("2b3b")).unwrap();
        assert_eq!(q.piece_at(sq("3b")), piece(Color::White, Role::GoBetween));
    }
}

fn check_advance(p: &Position, r: &Rules, from: Square, face: Role, next: Role) {
    assert_eq!(p.piece_at(from), piece(Color::Black, face));
    let moves: Vec<Move> = p
        .legal_moves(r)
        .into_iter()
        .filter(|m| matches!(m, Move::Board { from: f, .. } if *f == from))
        .collect();
    assert!(!moves.is_empty(), "{p}");
    for m in moves {
        let q = p.play(r, m).unwrap();
        assert_eq!(q.piece_at(m.to()), piece(Color::Black, next), "{p} {}", usi::format(m));
        assert_eq!(q.piece_at(from), None);
        // White's drop shows the face it was dropped with, and leaves Black's cube alone.
        let drops: Vec<Move> = q.legal_moves(r).into_iter().filter(|m| m.is_drop()).collect();
        assert!(!drops.is_empty() || q.in_check(r.variant), "{q}");
        for d in drops {
            let Move::Drop { role, to } = d else { unreachable!() };
            let q2 = q.play(r, d).unwrap();
            assert_eq!(q2.piece_at(to), piece(Color::White, role));
            assert_eq!(q2.piece_at(m.to()), piece(Color::Black, next));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// R1 and R2.
// ---------------------------------------------------------------------------------------------

/// `1K1/3/k1B b 2RB`: White's King on 3c, Black's King on 2a, a Black Bishop on 1c; White's hand
/// is empty. Dropping a Bishop, Cat sword or Dog on 1b or 3b leaves the White King no square
/// (3b and 2b touch Black's King, 2c is then attacked) and gives no check: a drop stalemate.
/// Moving the Bishop 1c-2b (turning Tile general, which covers 2c) is a board-move stalemate.
#[test]
fn r1_and_r2s_each_change_the_move_list() {
    for variant in Variant::ALL {
        let p = pos("1K1/3/k1B b 2RB", variant);
        let drop_stalemates = set("B*1b B*3b S*1b S*3b D*1b D*3b");
        let board_stalemate = set("1c2b");
        for m in drop_stalemates.iter().chain(&board_stalemate) {
            let child = p.play_unchecked(mv(m));
            assert!(!child.in_check(variant) && !child.has_l0_move(variant), "{m} must stalemate");
        }
        let all = l0(&p, variant);
        let without = |s: &BTreeSet<String>| all.difference(s).cloned().collect::<BTreeSet<_>>();
        let both: BTreeSet<String> = drop_stalemates.union(&board_stalemate).cloned().collect();
        // R2S on forbids all stalemates of a player with pieces in hand, whatever R1 says.
        assert_eq!(legal(&p, &rules(variant, true, true)), without(&both));
        assert_eq!(legal(&p, &rules(variant, false, true)), without(&both));
        // R2S off: the board move is allowed; R1 alone still forbids the drops.
        assert_eq!(legal(&p, &rules(variant, true, false)), without(&drop_stalemates));
        // Both off: everything L0 is legal.
        assert_eq!(legal(&p, &rules(variant, false, false)), all);
        // The reasons name the rule.
        let e = p.play(&rules(variant, true, false), mv("B*1b")).unwrap_err();
        assert!(e.reason.contains("R1"), "{}", e.reason);
        let e = p.play(&rules(variant, true, true), mv("1c2b")).unwrap_err();
        assert!(e.reason.contains("R2"), "{}", e.reason);
        // After the allowed stalemate White has no move at all and has lost.
        let q = p.play(&rules(variant, false, false), mv("B*3b")).unwrap();
        assert!(
            q.is_terminal(&Rules::new(variant)) && q.legal_moves(&rules(variant, false, false)).is_empty()
        );
    }
}

/// `cR1/2K/k2 b 2B`: Black's Rook takes the White Chariot on 3a and, turned Chariot, checks the
/// White King on 3c down the file; 3b, 2b and 2c are covered and White's hand is empty: mate.
/// Black holds two cubes, so R2 forbids it under every option.
#[test]
fn r2_no_mate_with_pieces_in_hand() {
    for variant in Variant::ALL {
        let p = pos("cR1/2K/k2 b 2B", variant);
        let child = p.play_unchecked(mv("2a3a"));
        assert!(child.in_check(variant) && !child.has_l0_move(variant), "2a3a mates");
        assert!(l0(&p, variant).contains("2a3a"));
        for r in all_rules().into_iter().filter(|r| r.variant == variant) {
            assert!(!legal(&p, &r).contains("2a3a"), "{r:?}");
            let e = p.play(&r, mv("2a3a")).unwrap_err();
            assert!(e.reason.contains("mate") && e.reason.contains("R2"), "{}", e.reason);
        }
    }
}

/// `2K/gR1/kB1 b b`: Black's hand is empty, so its Bishop may take the Go-between on 3b and mate
/// (Tile general on 3b hits 3c; 2c and 2b are covered by the Rook and the King) — although the
/// capture puts a cube into Black's hand: R2 looks at the hand at the start of the move.
#[test]
fn r2_an_empty_hand_may_mate_also_by_a_capture() {
    for r in all_rules() {
        let p = pos("2K/gR1/kB1 b b", r.variant);
        assert!(!p.has_pieces_in_hand(Color::Black));
        assert!(legal(&p, &r).contains("2c3b"), "{r:?}");
        let q = p.play(&r, mv("2c3b")).unwrap();
        assert!(q.has_pieces_in_hand(Color::Black));
        assert!(q.in_check(r.variant) && q.is_terminal(&r) && q.legal_moves(&r).is_empty());
    }
}

/// `KdR/1C1/k1S b -`: both hands are empty. The Rook on 1a takes the Dog on 2a (turning Chariot,
/// so 2b stays protected); White's lone King on 3c then has no square (3b touches Black's King,
/// 2c is under the Chariot on 2b) and no check: stalemate — allowed even with R2S on, although
/// the capture puts a cube in Black's hand.
#[test]
fn r2s_an_empty_hand_may_stalemate_also_by_a_capture() {
    for r in all_rules() {
        let p = pos("KdR/1C1/k1S b -", r.variant);
        assert!(legal(&p, &r).contains("1a2a"), "{r:?}");
        let q = p.play(&r, mv("1a2a")).unwrap();
        assert_eq!(q.to_string(), "KC1/1C1/k1S w B");
        assert!(!q.in_check(r.variant) && !q.has_l0_move(r.variant));
        assert!(q.is_terminal(&r));
    }
}

// ---------------------------------------------------------------------------------------------
// The end of the game.
// ---------------------------------------------------------------------------------------------

/// `3/1w1/Krk b Bb`: Black's King on 3c is checked by the Rook on 2c; 3b is covered by the
/// Swallow's wings, 2c and 2b are protected. Checkmate under every rule set.
#[test]
fn checkmate_is_a_loss() {
    for r in all_rules() {
        let p = pos("3/1w1/Krk b Bb", r.variant);
        assert!(p.in_check(r.variant));
        assert!(p.is_terminal(&r) && p.legal_moves(&r).is_empty() && !p.has_l0_move(r.variant));
        assert_eq!(perft(&p, &r, 1), 0);
    }
}

/// `K1k/1w1/3 b r2b`: Black's King on 3a is not attacked, but 2a touches White's King, 3b is
/// covered by the Swallow's wings and 2b is protected by the King; Black's hand is empty.
#[test]
fn stalemate_is_a_loss() {
    for r in all_rules() {
        let p = pos("K1k/1w1/3 b r2b", r.variant);
        assert!(!p.in_check(r.variant));
        assert!(p.is_terminal(&r) && p.legal_moves(&r).is_empty() && !p.has_l0_move(r.variant));
    }
}

/// `2K/1wT/1ck w b`: White's King on 1c is checked by the Tile general on 1b (protected by
/// Black's King). The only L0 reply, Swallow's wings 2b takes 1b and turns Go-between, checks the
/// Black King on 1a, whose squares 2a and 2b the Chariot and King cover: it mates. White holds a
/// cube, so that mate is forbidden and White, with no legal move, has lost.
#[test]
fn a_position_whose_only_escape_is_a_forbidden_mate() {
    for r in all_rules() {
        let p = pos("2K/1wT/1ck w b", r.variant);
        assert!(p.in_check(r.variant));
        assert_eq!(l0(&p, r.variant), set("2b1b"));
        let child = p.play_unchecked(mv("2b1b"));
        assert!(child.in_check(r.variant) && !child.has_l0_move(r.variant));
        assert!(p.is_terminal(&r) && p.legal_moves(&r).is_empty(), "{r:?}");
        assert!(p.play(&r, mv("2b1b")).unwrap_err().reason.contains("R2"));
    }
}

/// `1Bk/K2/cC1 b B`: Black's King on 3b is checked by the Chariot on 3c; its only L0 escape is to
/// take it, which stalemates White. With R2S on that is forbidden and Black has lost; with R2S
/// off it is Black's only move.
#[test]
fn a_position_whose_only_escape_is_a_forbidden_stalemate() {
    for r in all_rules() {
        let p = pos("1Bk/K2/cC1 b B", r.variant);
        assert_eq!(l0(&p, r.variant), set("3b3c"));
        let child = p.play_unchecked(mv("3b3c"));
        assert!(!child.in_check(r.variant) && !child.has_l0_move(r.variant));
        if r.hand_stalemate {
            assert!(p.is_terminal(&r), "{r:?}");
        } else {
            assert_eq!(legal(&p, &r), set("3b3c"), "{r:?}");
            assert!(!p.is_terminal(&r));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Illegal moves.
// ---------------------------------------------------------------------------------------------

#[test]
fn play_names_the_reason() {
    let r = Rules::CURRENT;
    // Black: King 1c, Rook 2c, Bishop in hand; White: King 3a, Dog 2b, Rook in hand.
    let p = pos("k2/1d1/1RK b Rb", Variant::Current);
    let cases = [
        ("3c3b", "no piece"),
        ("2b2c", "belongs to the opponent"),
        ("1c2c", "your own piece"),
        ("2c1b", "cannot move that way"),
        ("2c1a", "cannot move that way"),
        ("R*2b", "centre"),
        ("R*2c", "occupied"),
        ("B*3c", "no such cube"),
        ("K*3c", "not in hand"),
        ("R*3b", "check"),
    ];
    for (m, needle) in cases {
        let e = p.play(&r, mv(m)).unwrap_err();
        assert_eq!(e.mv, mv(m));
        assert!(e.reason.contains(needle), "{m}: {}", e.reason);
        assert!(e.to_string().contains(m), "{e}");
        assert!(!legal(&p, &r).contains(m));
    }
    // Leaving the King attacked: in the original rules Black's Dog on 2c shields its King on 1c
    // from White's sliding Rook on 3c.
    let p = pos("k2/3/rDK b RB", Variant::Original);
    let e = p.play(&Rules::ORIGINAL, mv("2c2b")).unwrap_err();
    assert!(e.reason.contains("leave your king in check"), "{}", e.reason);
    // ... while the short Rook of the current rules does not reach.
    let p = pos("k2/3/rDK b RB", Variant::Current);
    assert!(p.play(&Rules::CURRENT, mv("2c2b")).is_ok());
    // In check, a drop that does not block is refused.
    let p = pos("k2/3/r1K b RBb", Variant::Original);
    assert!(p.in_check(Variant::Original));
    let e = p.play(&Rules::ORIGINAL, mv("B*3b")).unwrap_err();
    assert!(e.reason.contains("check"), "{}", e.reason);
    assert!(legal(&p, &Rules::ORIGINAL).contains("T*2c"));
    // Every legal move plays, every other one is refused.
    for q in random_positions(&r, 10, 7) {
        let moves = legal(&q, &r);
        for m in &moves {
            assert!(q.play(&r, mv(m)).is_ok());
        }
        for from in Square::ALL {
            for to in Square::ALL {
                let m = Move::Board { from, to };
                if from != to && !moves.contains(&usi::format(m)) {
                    assert!(q.play(&r, m).is_err(), "{q} {}", usi::format(m));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Symmetries.
// ---------------------------------------------------------------------------------------------

fn flip_square(s: &str) -> String {
    let b = s.as_bytes();
    format!("{}{}", (b'4' - b[0] + b'0') as char, (b'c' - b[1] + b'a') as char)
}

fn mirror_square(s: &str) -> String {
    let b = s.as_bytes();
    format!("{}{}", (b'4' - b[0] + b'0') as char, b[1] as char)
}

fn map_move(m: &str, f: fn(&str) -> String) -> String {
    match m.split_once('*') {
        Some((face, to)) => format!("{face}*{}", f(to)),
        None => format!("{}{}", f(&m[..2]), f(&m[2..])),
    }
}

#[test]
fn flip_and_mirror_map_the_legal_moves() {
    let mut checked = 0;
    for r in all_rules() {
        for p in random_positions(&r, 12, 0x1234_5678 + r.variant as u64) {
            let f = p.flip();
            let m = p.mirror();
            assert_eq!(f.flip(), p);
            assert_eq!(m.mirror(), p);
            assert_eq!(f.side_to_move(), p.side_to_move().other());
            // The flipped and mirrored positions are legal positions themselves.
            assert_eq!(Position::from_setup(&f.to_setup(), r.variant), Ok(f));
            assert_eq!(Position::from_setup(&m.to_setup(), r.variant), Ok(m));
            let moves = legal(&p, &r);
            assert_eq!(legal(&f, &r), moves.iter().map(|s| map_move(s, flip_square)).collect());
            assert_eq!(legal(&m, &r), moves.iter().map(|s| map_move(s, mirror_square)).collect());
            checked += 1;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn perft_is_invariant_under_flip_and_mirror() {
    for r in all_rules() {
        let positions = random_positions(&r, 3, 99 + r.hand_stalemate as u64);
        for p in positions.iter().step_by(3) {
            let n = perft(p, &r, 3);
            assert_eq!(perft(&p.flip(), &r, 3), n, "{p}");
            assert_eq!(perft(&p.mirror(), &r, 3), n, "{p}");
            assert_eq!(perft(&p.flip().mirror(), &r, 3), n, "{p}");
        }
    }
    // The start is its own mirror image.
    assert_eq!(Position::start().mirror(), Position::start());
    assert_eq!(Position::start().flip().to_string(), "3/3/3 w KRBkrb");
}
