//! The rules, position by position: moves of each piece, promotion, drops, captures to hand,
//! the ends of the game under both readings of the try, and the solver's count of them.

use dobutsu_shogi::{diagram, fen, End, Move, Outcome, Position, Role, Rules, Side, Square};
use nana_engine::{Dtm, Value};

fn pos(s: &str) -> Position {
    fen::parse_position(s).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn moves(p: &Position, rules: &Rules) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves(rules).iter().map(Move::to_string).collect();
    v.sort();
    v
}

#[test]
fn start_moves() {
    let start = Position::start();
    assert_eq!(moves(&start, &Rules::TANAKA), ["b1a2", "b1c2", "b2b3", "c1c2"]);
    assert_eq!(start.side_to_move(), Side::First);
    assert_eq!(start.side_to_move().name(), "first");
}

#[test]
fn each_piece_steps_as_it_should() {
    // A lone piece of each kind in the middle (b2), the first player's lion out of its way.
    let cases = [
        ("G", "L2", vec!["b2a2", "b2b1", "b2b3", "b2c2"]),
        ("E", "1L1", vec!["b2a1", "b2a3", "b2c1", "b2c3"]),
        ("C", "2L", vec!["b2b3"]),
        ("+C", "L2", vec!["b2a2", "b2a3", "b2b1", "b2b3", "b2c2", "b2c3"]),
    ];
    for (piece, lion, want) in cases {
        let others = match piece {
            "G" => "[GEEcc]",
            "E" => "[GGEcc]",
            _ => "[GGEEc]",
        };
        let p = pos(&format!("l2/3/1{piece}1/{lion}{others} w"));
        let got: Vec<String> =
            moves(&p, &Rules::TANAKA).into_iter().filter(|m| m.starts_with("b2")).collect();
        assert_eq!(got, want, "{piece}");
    }
    // The second player's chick steps down the board.
    let p = pos("l2/1c1/3/2L[GGEEC] b");
    assert!(moves(&p, &Rules::TANAKA).contains(&"b3b2".to_string()));
}

#[test]
fn promotion_capture_and_drops() {
    let rules = Rules::TANAKA;
    // The chick on b3 steps onto b4, capturing a giraffe: it becomes a hen, the giraffe goes
    // to hand.
    let p = pos("lg1/1C1/3/2L[GEEc] w");
    let mv = fen::parse_move(&p, &rules, "b3b4+").unwrap();
    assert_eq!(mv, Move::Step { from: sq("b3"), to: sq("b4"), promote: true });
    assert_eq!(fen::parse_move(&p, &rules, "b3b4"), Ok(mv));
    let q = p.play(&rules, mv).unwrap();
    assert_eq!(q.piece_at(sq("b4")).unwrap().role, Role::Hen);
    assert_eq!(q.hand(Side::First, Role::Giraffe), 2);
    assert_eq!(q.to_string(), "l+C1/3/3/2L[GGEEc] b 0 1");
    // A captured hen goes to hand as a chick.
    let r = pos("l+C1/3/3/2L[GGEEc] b");
    let s = r.play(&rules, fen::parse_move(&r, &rules, "a4b4").unwrap()).unwrap();
    assert_eq!(s.hand(Side::Second, Role::Chick), 2);
    assert_eq!(s.to_string(), "1l1/3/3/2L[GGEEcc] w 0 1");
    // A chick dropped on the far rank stays a chick and cannot move.
    let t = pos("1l1/3/3/2L[GGEECc] w");
    let u = t.play(&rules, fen::parse_move(&t, &rules, "C@a4").unwrap()).unwrap();
    assert_eq!(u.piece_at(sq("a4")).unwrap().role, Role::Chick);
    let u = u.play(&rules, fen::parse_move(&u, &rules, "b4b3").unwrap()).unwrap();
    assert!(!moves(&u, &rules).iter().any(|m| m.starts_with("a4")));
    // Drops only on empty squares.
    assert!(fen::parse_move(&t, &rules, "C@c1").is_err());
    assert_eq!(moves(&t, &rules).iter().filter(|m| m.contains('@')).count(), 3 * 10);
}

#[test]
fn moving_into_an_attacked_square_is_legal() {
    let p = pos("1l1/3/1L1/3[GGEECC] w");
    let ms = moves(&p, &Rules::TANAKA);
    assert!(ms.contains(&"b2b3".to_string()) && ms.contains(&"b2a3".to_string()));
}

#[test]
fn lion_capture_ends_the_game() {
    let rules = Rules::SAFE_TRY;
    let p = pos("3/1l1/1L1/3[GGEECC] w");
    assert_eq!(p.outcome(&rules), None);
    assert!(p.can_capture_lion());
    // The solver counts the capture as made.
    assert_eq!(p.solver_end(&rules), Some((Value::Win(Dtm(1)), End::LionCaptured)));
    let q = p.play(&rules, fen::parse_move(&p, &rules, "b2b3").unwrap()).unwrap();
    assert_eq!(q.outcome(&rules), Some(Outcome { winner: Some(Side::First), end: End::LionCaptured }));
    assert_eq!(q.to_string(), "3/1L1/3/3[LGGCCEE] b 0 1");
    assert!(q.legal_moves(&rules).is_empty());
    assert_eq!(fen::parse_position(&q.to_string()), Ok(q));
}

#[test]
fn the_try_under_both_readings() {
    // The first player's lion has just stepped onto a4, where nothing attacks it. Second to
    // move: under both readings it has lost.
    let safe = pos("L2/3/2l/3[GGEECC] b");
    for rules in Rules::all() {
        assert_eq!(safe.outcome(&rules), Some(Outcome { winner: Some(Side::First), end: End::Try }));
        assert_eq!(safe.solver_end(&rules), Some((Value::Loss(Dtm(0)), End::Try)));
    }
    // The lion on a4 is attacked by the second player's giraffe on b4.
    let attacked = pos("Lg1/3/2l/3[Geecc] b");
    for rules in Rules::all() {
        assert_eq!(attacked.outcome(&rules), None);
        assert_eq!(attacked.solver_end(&rules), Some((Value::Win(Dtm(1)), End::LionCaptured)));
    }
    // The second player does not capture (a drop instead): Tanaka, the try has won; safe
    // try, the lion is still attacked, the game goes on.
    let after = attacked.play(&Rules::TANAKA, fen::parse_move(&attacked, &Rules::TANAKA, "C@c3").unwrap());
    let after = after.unwrap();
    assert_eq!(after.outcome(&Rules::TANAKA), Some(Outcome { winner: Some(Side::First), end: End::Try }));
    assert_eq!(after.outcome(&Rules::SAFE_TRY), None);
    // Safe try: the attacker moves away without capturing; now the lion is safe and wins.
    let away = pos("Lg1/3/2l/3[Geecc] b");
    let away = away.play(&Rules::SAFE_TRY, fen::parse_move(&away, &Rules::SAFE_TRY, "b4c4").unwrap());
    let away = away.unwrap();
    assert_eq!(away.outcome(&Rules::SAFE_TRY), Some(Outcome { winner: Some(Side::First), end: End::Try }));
    assert_eq!(away.solver_end(&Rules::SAFE_TRY), Some((Value::Win(Dtm(1)), End::Try)));
    // Safe try, both lions safe on their far ranks: a draw.
    let both = pos("L2/3/3/2l[GGEECC] w");
    assert_eq!(both.outcome(&Rules::SAFE_TRY), Some(Outcome { winner: None, end: End::BothTries }));
    assert_eq!(both.solver_end(&Rules::SAFE_TRY), Some((Value::Draw, End::BothTries)));
}

#[test]
fn rotation_and_mirror_keep_the_game() {
    let p = pos("gl1/1cE/1C1/2L[Ge] w");
    let r = p.rotate();
    assert_eq!(r.side_to_move(), Side::Second);
    assert_eq!(r.rotate(), p);
    assert_eq!(p.mirror().mirror(), p);
    let n = |q: &Position| q.legal_moves(&Rules::TANAKA).len();
    assert_eq!(n(&p), n(&r));
    assert_eq!(n(&p), n(&p.mirror()));
}

#[test]
fn diagram_shows_board_hands_and_side() {
    let d = diagram(&pos("gl1/1cE/1+C1/2L[Ge] w"));
    assert_eq!(
        d,
        "  a b c\n4 g l .\n3 . c E\n2 . H .\n1 . . L\nsecond in hand: E\nfirst in hand: G\nfirst to move\n"
    );
}

#[test]
fn rule_names() {
    for (rules, name) in Rules::all().iter().zip(Rules::names()) {
        assert_eq!(rules.name(), *name);
        assert_eq!(Rules::from_name(name), Ok(*rules));
    }
    assert_eq!(Rules::default(), Rules::TANAKA);
    let e = Rules::from_name("fischer").unwrap_err().to_string();
    assert!(e.contains("fischer") && e.contains("tanaka") && !e.contains('\n'));
}

/// `Exposure::loses_at_once` answers without playing the move what playing it and looking for
/// an attack on the lion answers, for every move of a spread of positions (both players to move,
/// lions attacked or not, pieces in hand).
#[test]
fn exposure_tells_the_moves_that_lose_at_once() {
    let (mut moves, mut losing) = (0, 0);
    for k in 0..200_000u64 {
        let entry = k.wrapping_mul(0x9e37_79b9_7f4a_7c15) % dobutsu_shogi::index::SIZE;
        let Some(first) = dobutsu_shogi::index::unrank(entry) else { continue };
        for p in [first, first.rotate(), first.mirror()] {
            let exposure = p.exposure();
            p.for_each_move(|mv| {
                let loses = p.play_unchecked(mv).can_capture_lion();
                assert_eq!(exposure.loses_at_once(mv), loses, "{mv:?} from {p:?}");
                moves += 1;
                losing += usize::from(loses);
            });
        }
    }
    // Both answers occur often: random positions leave the lion attacked after most moves.
    assert!(moves > 1_000_000 && losing > moves / 4 && moves - losing > moves / 4, "{losing} of {moves}");
}
