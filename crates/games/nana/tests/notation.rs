//! Position and move strings: round trips (parse ∘ print = id), rejection of malformed strings
//! with a reason, and parsers that never panic on arbitrary input.

use proptest::prelude::*;

use nana_shogi::fen::{self, Fen};
use nana_shogi::{
    hodges, parse_move, usi, Color, Move, Piece, Position, Role, Rules, Setup, Square, Variant,
};

mod common;
use common::XorShift;

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

/// The position after `plies` random legal moves from the start (fewer if the game ends).
fn playout(rules: &Rules, seed: u64, plies: usize) -> Position {
    let mut rng = XorShift(seed | 1);
    let mut p = Position::start();
    for _ in 0..plies {
        let moves = p.legal_moves(rules);
        if moves.is_empty() {
            break;
        }
        p = p.play(rules, moves[rng.below(moves.len())]).unwrap();
    }
    p
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(orig, drop_stalemate, hand_stalemate)| Rules {
        variant: if orig { Variant::Original } else { Variant::Current },
        drop_stalemate,
        hand_stalemate,
    })
}

fn piece_strategy() -> impl Strategy<Value = Option<Piece>> {
    proptest::option::of((any::<bool>(), 0..9usize)).prop_map(|p| {
        p.map(|(white, role)| Piece {
            color: if white { Color::White } else { Color::Black },
            role: Role::ALL[role],
        })
    })
}

/// Any setup a position string can express: any pieces on any squares, 0..=2 of each kind in
/// each hand, either side, with or without a ply number.
fn setup_strategy() -> impl Strategy<Value = Setup> {
    (
        proptest::array::uniform9(piece_strategy()),
        proptest::array::uniform2(proptest::array::uniform3(0u8..=2)),
        any::<bool>(),
        proptest::option::of(1u32..),
    )
        .prop_map(|(board, hands, white, ply)| Setup {
            board,
            hands,
            side: if white { Color::White } else { Color::Black },
            ply,
        })
}

fn move_strategy() -> impl Strategy<Value = Move> {
    let square = (0u8..9).prop_map(|i| Square::new(i).unwrap());
    prop_oneof![
        (square.clone(), square.clone())
            .prop_filter("a move changes squares", |(a, b)| a != b)
            .prop_map(|(from, to)| Move::Board { from, to }),
        (0..9usize, square).prop_map(|(r, to)| Move::Drop { role: Role::ALL[r], to }),
    ]
}

/// A few positions for the move parsers: the start, the second ply, and mid-game positions of
/// both rule sets.
fn sample_positions() -> Vec<(Position, Rules)> {
    let mut v = vec![(Position::start(), Rules::CURRENT)];
    v.push((Position::start().play(&Rules::CURRENT, usi::parse("K*2c").unwrap()).unwrap(), Rules::CURRENT));
    for (i, rules) in [Rules::CURRENT, Rules::ORIGINAL].into_iter().enumerate() {
        for plies in [4, 9, 16] {
            v.push((playout(&rules, 77 + i as u64 * 1000 + plies as u64, plies), rules));
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Position strings.
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_string() {
    let p = fen::parse_position("3/3/3 b KRBkrb 1", Variant::Current).unwrap();
    assert_eq!(p, Position::start());
    assert_eq!(fen::parse_setup("3/3/3 b KRBkrb 1").unwrap(), Setup::start());
    assert_eq!(Fen(Setup::start()).to_string(), "3/3/3 b KRBkrb 1");
    // Hands parse in any order and print canonically; ranks list files 3, 2, 1.
    let s = fen::parse_setup("k2/3/2K w bBRr").unwrap();
    assert_eq!(s.hands, [[0, 1, 1], [0, 1, 1]]);
    assert_eq!(
        s.board[Square::from_file_rank(3, 0).unwrap().index()],
        Some(Piece { color: Color::White, role: Role::King })
    );
    assert_eq!(
        s.board[Square::from_file_rank(1, 2).unwrap().index()],
        Some(Piece { color: Color::Black, role: Role::King })
    );
    assert_eq!(Fen(s).to_string(), "k2/3/2K w RBrb");
    assert_eq!(Fen(fen::parse_setup("k2/3/2K b B2rB").unwrap()).to_string(), "k2/3/2K b 2B2r");
    // All eighteen piece letters.
    let s = fen::parse_setup("KRC/WGB/TSD w - 3").unwrap();
    assert_eq!(s.ply, Some(3));
    assert_eq!(Fen(s).to_string(), "KRC/WGB/TSD w - 3");
    assert_eq!(Fen(fen::parse_setup("krc/wgb/tsd b -").unwrap()).to_string(), "krc/wgb/tsd b -");
}

#[test]
fn played_positions_round_trip() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        for seed in 0..200u64 {
            let p = playout(&rules, seed, (seed % 30) as usize);
            let s = p.to_string();
            assert_eq!(fen::parse_position(&s, rules.variant), Ok(p), "{s}");
            assert_eq!(Position::from_setup(&p.to_setup(), rules.variant), Ok(p));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_positions_round_trip(seed in any::<u64>(), plies in 0usize..40, rules in rules_strategy()) {
        let p = playout(&rules, seed, plies);
        let s = p.to_string();
        prop_assert_eq!(fen::parse_position(&s, rules.variant), Ok(p));
        // With a ply number too.
        let with_ply = format!("{s} {}", plies + 1);
        prop_assert_eq!(fen::parse_position(&with_ply, rules.variant), Ok(p));
        prop_assert_eq!(fen::parse_setup(&with_ply).unwrap().ply, Some(plies as u32 + 1));
    }

    #[test]
    fn arbitrary_setups_round_trip(setup in setup_strategy()) {
        let s = Fen(setup.clone()).to_string();
        prop_assert_eq!(fen::parse_setup(&s), Ok(setup.clone()));
        // Extra blanks between the fields do not matter.
        let spaced = s.replace(' ', "   ");
        prop_assert_eq!(fen::parse_setup(&spaced), Ok(setup.clone()));
        // A legal setup gives a position that prints back to the same string.
        for variant in Variant::ALL {
            if let Ok(p) = Position::from_setup(&setup, variant) {
                let mut plain = setup.clone();
                plain.ply = None;
                prop_assert_eq!(p.to_string(), Fen(plain).to_string());
            }
        }
    }

    #[test]
    fn usi_moves_round_trip(m in move_strategy()) {
        let s = usi::format(m);
        prop_assert_eq!(usi::parse(&s), Ok(m));
    }
}

// ---------------------------------------------------------------------------------------------
// Move strings.
// ---------------------------------------------------------------------------------------------

#[test]
fn every_usi_move_round_trips() {
    let mut n = 0;
    for from in Square::ALL {
        for to in Square::ALL {
            if from != to {
                let m = Move::Board { from, to };
                let s = usi::format(m);
                assert_eq!(s.len(), 4);
                assert_eq!(usi::parse(&s), Ok(m));
                n += 1;
            }
        }
        for role in Role::ALL {
            let m = Move::Drop { role, to: from };
            let s = usi::format(m);
            assert_eq!(s, format!("{}*{from}", role.letter()));
            assert_eq!(usi::parse(&s), Ok(m));
            n += 1;
        }
    }
    assert_eq!(n, 72 + 81);
    assert_eq!(usi::format(Move::Board { from: sq("2c"), to: sq("2b") }), "2c2b");
    assert_eq!(usi::format(Move::Drop { role: Role::TileGeneral, to: sq("1a") }), "T*1a");
}

fn sq(s: &str) -> Square {
    usi::parse_square(s).unwrap()
}

#[test]
fn hodges_round_trips_for_every_legal_move() {
    let mut moves = 0;
    for rules in [
        Rules::CURRENT,
        Rules::ORIGINAL,
        Rules { drop_stalemate: false, hand_stalemate: false, ..Rules::ORIGINAL },
    ] {
        for seed in 0..300u64 {
            let p = playout(&rules, seed * 31 + 5, (seed % 25) as usize);
            for m in p.legal_moves(&rules) {
                let h = hodges::format(&p, &rules, m);
                assert_eq!(hodges::parse(&p, &rules, &h), Ok(m), "{p}: {h}");
                // The front door reads both notations.
                assert_eq!(parse_move(&p, &rules, &h), Ok(m), "{p}: {h}");
                assert_eq!(parse_move(&p, &rules, &usi::format(m)), Ok(m), "{p}");
                // Shape: piece, separator, square, and the new face for a cube's board move.
                match m {
                    Move::Drop { role, to } => assert_eq!(h, format!("{}*{to}", role.hodges())),
                    Move::Board { from, to } => {
                        let piece = p.piece_at(from).unwrap();
                        assert!(h.starts_with(piece.role.hodges()), "{h}");
                        let sep = if p.piece_at(to).is_some() { 'x' } else { '-' };
                        assert!(h.contains(&format!("{sep}{to}")), "{h}");
                        if piece.role == Role::King {
                            assert!(!h.contains('='), "{h}");
                        } else {
                            assert!(h.ends_with(&format!("={}", piece.role.next_face().hodges())), "{h}");
                        }
                    }
                }
                moves += 1;
            }
        }
    }
    assert!(moves > 5_000, "{moves}");
}

#[test]
fn hodges_examples_of_the_rules() {
    let r = Rules::CURRENT;
    let start = Position::start();
    assert_eq!(hodges::format(&start, &r, usi::parse("K*2c").unwrap()), "K*2c");
    // A Bishop steps into the centre and turns Tile general.
    let p = fen::parse_position("1k1/3/K1B b 2Rb", Variant::Current).unwrap();
    assert_eq!(hodges::format(&p, &r, usi::parse("1c2b").unwrap()), "B-2b=TG");
    assert_eq!(hodges::parse(&p, &r, "B-2b=TG"), usi::parse("1c2b"));
    assert_eq!(hodges::format(&p, &r, usi::parse("3c2c").unwrap()), "K-2c");
    // A Cat sword captures on 1a and turns Dog.
    let p = fen::parse_position("1kr/1S1/K2 b RB", Variant::Current).unwrap();
    assert_eq!(hodges::format(&p, &r, usi::parse("2b1a").unwrap()), "CSx1a=D");
    assert_eq!(hodges::parse(&p, &r, "CSx1a=D"), usi::parse("2b1a"));
    // Drops name the face.
    assert_eq!(hodges::format(&p, &r, usi::parse("T*3a").unwrap()), "TG*3a");
    assert_eq!(hodges::format(&p, &r, usi::parse("W*2c").unwrap()), "SW*2c");
    assert_eq!(hodges::format(&p, &r, usi::parse("G*2c").unwrap()), "GB*2c");
    assert_eq!(hodges::parse(&p, &r, "SW*2c"), usi::parse("W*2c"));
}

/// Two Cat swords, on 3b and 1b, can both go to 2a (and to 2c): the origin square is needed.
#[test]
fn hodges_names_the_origin_when_two_pieces_of_a_face_could_go() {
    let r = Rules::CURRENT;
    let p = fen::parse_position("k2/S1S/2K b Rr", Variant::Current).unwrap();
    let from_1b = usi::parse("1b2a").unwrap();
    let from_3b = usi::parse("3b2a").unwrap();
    assert!(p.legal_moves(&r).contains(&from_1b) && p.legal_moves(&r).contains(&from_3b));
    assert_eq!(hodges::format(&p, &r, from_1b), "CS1b-2a=D");
    assert_eq!(hodges::format(&p, &r, from_3b), "CS3b-2a=D");
    assert_eq!(hodges::parse(&p, &r, "CS1b-2a=D"), Ok(from_1b));
    assert_eq!(hodges::parse(&p, &r, "CS3b-2a=D"), Ok(from_3b));
    let e = hodges::parse(&p, &r, "CS-2a=D").unwrap_err();
    assert!(e.reason.contains("ambiguous"), "{e}");
    assert!(parse_move(&p, &r, "CS-2a=D").unwrap_err().reason.contains("ambiguous"));
    // The origin is accepted also where it is not needed, and must be right.
    assert_eq!(hodges::parse(&p, &r, "K1c-2c"), usi::parse("1c2c"));
    assert!(hodges::parse(&p, &r, "CS2c-2a=D").is_err());
    // A King is never ambiguous (there is one); 2c is reached by both Cat swords and the King.
    assert_eq!(hodges::format(&p, &r, usi::parse("1c2c").unwrap()), "K-2c");
    assert_eq!(hodges::format(&p, &r, usi::parse("1b2c").unwrap()), "CS1b-2c=D");
}

#[test]
fn hodges_rejects_moves_with_a_reason() {
    let r = Rules::CURRENT;
    let p = fen::parse_position("1k1/3/K1B b 2Rb", Variant::Current).unwrap();
    let cases = [
        ("B-2b=CS", "no legal move"), // the wrong new face
        ("Bx2b=TG", "no legal move"), // not a capture
        ("B-2b=XX", "not a face"),
        ("ZZ-2b=TG", "not a piece"),
        ("B2b", "expected '-', 'x' or '*'"),
        ("B-4b=TG", "not a square"),
        ("B-2b-", "not a square"),
        ("K*2a", "no legal move"),  // the King is on the board
        ("TG*2b", "no legal move"), // the centre
        ("B→2b", "ASCII"),
    ];
    for (s, needle) in cases {
        let e = hodges::parse(&p, &r, s).unwrap_err();
        assert!(e.reason.contains(needle), "{s}: {e}");
        assert_eq!(e.input, s);
    }
}

#[test]
fn usi_rejects_moves_with_a_reason() {
    let cases = [
        ("", "expected a board move"),
        ("2c2", "expected a board move"),
        ("2c2c", "change squares"),
        ("4a1a", "not a square"),
        ("2c2d", "not a square"),
        ("t*1a", "uppercase piece letter"),
        ("TG*1a", "one uppercase piece letter"),
        ("T*2d", "not a square"),
        ("é*1a", "ASCII"),
    ];
    for (s, needle) in cases {
        let e = usi::parse(s).unwrap_err();
        assert!(e.reason.contains(needle), "{s:?}: {e}");
    }
}

#[test]
fn parse_move_checks_legality_with_a_reason() {
    let r = Rules::CURRENT;
    let p = fen::parse_position("k2/1d1/1RK b Rb", Variant::Current).unwrap();
    let cases = [
        ("R*2b", "centre"),
        ("R*2c", "occupied"),
        ("B*3c", "no such cube"),
        ("R*3b", "check"),
        ("2c1a", "cannot move that way"),
        ("3c3b", "no piece"),
        ("abc", "expected a board move"),
        ("R-1a=C", "no legal move"),
    ];
    for (s, needle) in cases {
        let e = parse_move(&p, &r, s).unwrap_err();
        assert!(e.reason.contains(needle), "{s:?}: {e}");
    }
    assert_eq!(parse_move(&p, &r, " 2c2b "), usi::parse("2c2b"));
    assert_eq!(parse_move(&p, &r, "Rx2b=C"), usi::parse("2c2b"));
}

#[test]
fn position_strings_are_rejected_with_a_reason() {
    let syntax = [
        ("", "too few fields"),
        ("3/3/3 b", "too few fields"),
        ("3/3/3 b KRBkrb 1 x", "unexpected text"),
        ("3/3 b KRBkrb", "expected 3 ranks"),
        ("3/3/3/3 b KRBkrb", "expected 3 ranks"),
        ("3/1x1/3 b KRBkrb", "not a piece letter"),
        ("3/1+1/3 b KRBkrb", "not a piece letter"),
        ("4/3/3 b KRBkrb", "not 1..3"),
        ("0K2/3/3 b -", "not 1..3"),
        ("11K/3/3 b -", "two digits"),
        ("3/2/3 b KRBkrb", "rank b has 2 squares"),
        ("3/3/KK2 b -", "rank c has more than 3"),
        ("3/3/3 x KRBkrb", "side to move"),
        ("3/3/3 B KRBkrb", "side to move"),
        ("3/3/3 b KRBkrbX", "not K, R (O cube) or B (D cube)"),
        ("3/3/3 b KTBkrb", "not K, R (O cube) or B (D cube)"),
        ("3/3/3 b 3R", "at most 2"),
        ("3/3/3 b R2", "count must be followed"),
        ("3/3/3 b 22R", "two digits"),
        ("3/3/3 b RRR", "more than 2"),
        ("3/3/3 b 2RR", "more than 2"),
        ("3/3/3 b KRBkrb 0", "ply"),
        ("3/3/3 b KRBkrb -1", "ply"),
        ("3/3/3 b KRBkrb +1", "ply"),
    ];
    for (s, needle) in syntax {
        let e = fen::parse_setup(s).unwrap_err();
        assert!(matches!(e, fen::ParseError::Syntax { .. }), "{s:?}");
        assert!(e.to_string().contains(needle), "{s:?}: {e}");
        assert!(fen::parse_position(s, Variant::Current).is_err());
    }
    let illegal = [
        ("K1K/3/2k b 2R2B", "black has 2 kings"),
        ("k1k/3/2K b 2R2B", "white has 2 kings"),
        ("3/3/2K b 2R2B", "white has 0 kings"),
        ("k2/3/2K b KR2Br", "black has 2 kings"),
        ("k2/3/2K b 2R2Br", "3 O cubes"),
        ("k2/R2/2K b 2R2B", "3 O cubes"),
        ("k2/3/2K b 2R", "0 D cubes"),
        ("Kk1/3/3 b 2R2B", "next to each other"),
        ("k2/R2/2K b R2B", "white is in check"),
        ("K2/R2/3 w Bkrb", "every cube must be in hand"),
        ("K2/3/3 b RBkrb", "kings are dropped first"),
    ];
    for (s, needle) in illegal {
        let e = fen::parse_position(s, Variant::Current).unwrap_err();
        assert!(matches!(e, fen::ParseError::Illegal { .. }), "{s:?}");
        assert!(e.to_string().contains(needle), "{s:?}: {e}");
        // The string itself is well formed.
        assert!(fen::parse_setup(s).is_ok());
    }
    // Check depends on the rule set: a long Rook on 3c sees 3a in the original rules only.
    assert!(fen::parse_position("k2/3/R1K b R2B", Variant::Current).is_ok());
    let e = fen::parse_position("k2/3/R1K b R2B", Variant::Original).unwrap_err();
    assert!(e.to_string().contains("white is in check"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Arbitrary input never panics.
// ---------------------------------------------------------------------------------------------

fn feed_every_parser(s: &str, positions: &[(Position, Rules)]) {
    let _ = fen::parse_setup(s).map(|setup| Fen(setup).to_string());
    for variant in Variant::ALL {
        if let Ok(p) = fen::parse_position(s, variant) {
            // Whatever parses is a legal position: it prints, and it has a move list.
            assert_eq!(fen::parse_position(&p.to_string(), variant), Ok(p));
            let _ = p.legal_moves(&Rules::new(variant));
        }
    }
    let _ = usi::parse(s).map(usi::format);
    let _ = usi::parse_square(s);
    for (p, rules) in positions {
        if let Ok(m) = hodges::parse(p, rules, s) {
            assert!(p.play(rules, m).is_ok(), "{p}: {s:?}");
        }
        if let Ok(m) = parse_move(p, rules, s) {
            assert!(p.play(rules, m).is_ok(), "{p}: {s:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_any_string(s in any::<String>()) {
        feed_every_parser(&s, &sample_positions());
    }

    #[test]
    fn parsers_never_panic_on_position_like_strings(s in "[0-9KRCWGBTSDkrcwgbtsd/ bw-]{0,30}") {
        feed_every_parser(&s, &sample_positions());
    }

    #[test]
    fn parsers_never_panic_on_move_like_strings(s in "[0-4a-dKRCWGBTSD*x=-]{0,8}") {
        feed_every_parser(&s, &sample_positions());
    }

    #[test]
    fn parsers_never_panic_on_near_misses(
        base in prop::sample::select(vec![
            "3/3/3 b KRBkrb 1", "k2/S1S/2K b Rr", "1K1/W2/Tk1 b Rb 1", "CS1b-2a=D", "B-2b=TG",
            "K*2c", "T*1a", "2c2b", "SWx1a=GB",
        ]),
        at in 0usize..20,
        insert in "[\\PC]{0,2}",
        cut in 0usize..4,
    ) {
        // Splice a random snippet into a valid string and chop a few characters off.
        let mut s: Vec<char> = base.chars().collect();
        let at = at.min(s.len());
        s.splice(at..at, insert.chars());
        let end = s.len().saturating_sub(cut);
        let s: String = s[..end].iter().collect();
        feed_every_parser(&s, &sample_positions());
    }

    #[test]
    fn arbitrary_setups_never_panic(
        board in proptest::array::uniform9(piece_strategy()),
        hands in proptest::array::uniform2(proptest::array::uniform3(any::<u8>())),
        white in any::<bool>(),
    ) {
        let setup = Setup { board, hands, side: if white { Color::White } else { Color::Black }, ply: None };
        for variant in Variant::ALL {
            if let Ok(p) = Position::from_setup(&setup, variant) {
                prop_assert!(setup.hands.iter().flatten().all(|&n| n <= 2));
                prop_assert_eq!(fen::parse_position(&p.to_string(), variant), Ok(p));
                let _ = p.legal_moves(&Rules::new(variant));
            }
            let _ = Fen(setup.clone()).to_string();
        }
    }
}
