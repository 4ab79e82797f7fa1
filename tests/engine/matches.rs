//! A match between `nana engine` and Fairy-Stockfish 11.1 over UCI, adjudicated by our rules
//! (Tanaka's): games from the start with us as the second player (a win in 78 plies), and games
//! from random positions the table values as a win or a draw for the side to move, which we
//! play, the first and the second player in turn. Every won game must be won within the
//! table's distance, and no game lost. The results are in docs/ENGINE-PROTOCOL.md (`cargo test
//! -p nana-cli --test engine -- match_against_fairy_stockfish --nocapture` prints them).

use dobutsu_shogi::{Dobutsu, Position, Rules};
use nana_engine::Value;
use nana_front::{Game, ProtocolNotation};
use nana_probe::ProbeRules;
use nana_protocol::{Dialect, PositionForm};

use crate::fairy::{fairy, nana};
use crate::{Engine, Rng};

/// A drawn game is adjudicated a draw after this many plies.
const DRAW_PLIES: u32 = 100;

/// How a game ended, for us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Won,
    Drawn,
    Lost,
}

/// One game of the match.
struct Played {
    start: String,
    /// 0: we are the first player.
    ours: usize,
    /// Fairy-Stockfish's `go depth`.
    depth: u32,
    /// The value of the start for us.
    value: Value,
    outcome: Outcome,
    plies: u32,
    /// Why it ended.
    why: String,
}

fn bestmove(engine: &mut Engine, go: &str) -> String {
    engine.send(go);
    let lines = engine.until("bestmove");
    lines.last().and_then(|l| l.split_whitespace().nth(1)).expect("a move").to_string()
}

/// Plays one game from `start`, `ours` (0 or 1) being our side.
///
/// Long: one game's loop, each ply checked against the table as it is played.
fn play(
    nana: &mut Engine,
    fsf: &mut Engine,
    probe: &dobutsu_shogi::probe::Probe,
    start: Position,
    ours: usize,
    depth: u32,
) -> Played {
    let rules = Rules::TANAKA;
    for engine in [&mut *nana, &mut *fsf] {
        engine.send("ucinewgame");
        engine.sync();
    }
    let fen = Dobutsu::protocol_position(&rules, &start, PositionForm::Fen);
    let for_us = |pos: &Position, v: Value| if Dobutsu::side_to_move(pos) == ours { v } else { v.negate() };
    let value = for_us(&start, probe.value(&start).expect("a position of the table"));
    assert!(!matches!(value, Value::Loss(_)), "{fen}: a lost start");
    let mut game = Played {
        start: fen.clone(),
        ours,
        depth,
        value,
        outcome: Outcome::Drawn,
        plies: 0,
        why: String::new(),
    };
    let (mut pos, mut moves) = (start, Vec::<String>::new());
    loop {
        let our_turn = Dobutsu::side_to_move(&pos) == ours;
        if let Some(over) = rules.terminal(&pos) {
            let ending = over.ending.name;
            game.outcome = match (over.value, our_turn) {
                // A try completed at our own turn: won, with no move to make.
                (Value::Win(_), true) => Outcome::Won,
                (Value::Loss(_), false) => Outcome::Won,
                (Value::Draw, _) => Outcome::Drawn,
                _ => Outcome::Lost,
            };
            game.why = ending.to_string();
            return game;
        }
        let now = for_us(&pos, probe.value(&pos).expect("a position of the table"));
        match (game.value, now) {
            (Value::Win(d0), Value::Win(d)) => {
                assert!(
                    game.plies + u32::from(d.0) <= u32::from(d0.0),
                    "{fen} {moves:?}: won in {d:?} after {} plies",
                    game.plies
                )
            }
            (Value::Win(_), _) => panic!("{fen} {moves:?}: a won game is no longer won ({now:?})"),
            (_, Value::Loss(_)) => panic!("{fen} {moves:?}: a drawn game is lost ({now:?})"),
            _ => {}
        }
        if game.plies >= DRAW_PLIES {
            game.why = format!("{DRAW_PLIES} plies");
            game.outcome = if matches!(now, Value::Win(_)) { Outcome::Won } else { Outcome::Drawn };
            return game;
        }
        let command = format!("position fen {fen} moves {}", moves.join(" "));
        let best = if our_turn {
            nana.send(&command);
            bestmove(nana, "go wtime 60000 btime 60000")
        } else {
            fsf.send(&command);
            bestmove(fsf, &format!("go depth {depth}"))
        };
        if best == "(none)" {
            // No move its rules allow: each of ours leaves its lion where we take it.
            assert!(!our_turn, "{fen} {moves:?}: nana engine gave no move");
            let exposure = pos.exposure();
            rules.for_each_move(&pos, |mv, _| assert!(exposure.loses_at_once(mv), "{fen} {moves:?}"));
            game.outcome = Outcome::Won;
            game.why = "Fairy-Stockfish has no move that keeps its lion".to_string();
            return game;
        }
        let who = if our_turn { "nana engine" } else { "Fairy-Stockfish" };
        let mv = Dobutsu::parse_protocol_move(&rules, &pos, &best, Dialect::Uci)
            .unwrap_or_else(|e| panic!("{fen} {moves:?}: {who} played {best}: {e}"));
        // Our form of the move: Fairy-Stockfish 11.1 may leave a chick unpromoted on the far
        // rank (`b3b4`), which our rules read as the promotion they require (`b3b4+`); both
        // engines then go on from the promoted chick.
        moves.push(Dobutsu::protocol_move(&rules, &pos, mv, Dialect::Uci));
        pos = rules.play(&pos, mv);
        game.plies += 1;
    }
}

/// A position reached by `plies` random moves from the start (moves that keep the lion, as
/// both engines allow), or `None` where the game ended on the way.
fn random_position(rng: &mut Rng, plies: usize) -> Option<Position> {
    let rules = Rules::TANAKA;
    let mut pos = Position::start();
    for _ in 0..plies {
        let exposure = pos.exposure();
        let mut safe = Vec::new();
        rules.for_each_move(&pos, |mv, child| {
            if !exposure.loses_at_once(mv) {
                safe.push(*child);
            }
        });
        if safe.is_empty() {
            return None;
        }
        pos = safe[rng.below(safe.len())];
        if rules.terminal(&pos).is_some() {
            return None;
        }
    }
    Some(pos)
}

#[test]
fn match_against_fairy_stockfish() {
    let rules = Rules::TANAKA;
    let table = nana_fixture::table(rules);
    let probe = table.probe();
    let (mut ours, mut fsf) = (nana(Dialect::Uci), fairy(Dialect::Uci));
    let mut games = Vec::new();
    // From the start, we are the second player: Fairy-Stockfish searching deeper each game.
    for depth in [1, 3, 5, 8] {
        games.push(play(&mut ours, &mut fsf, &probe, Position::start(), 1, depth));
    }
    // From random positions: the side to move, ours, wins or draws; the first and the second
    // player in turn.
    let mut rng = Rng::new(2009);
    let wanted = [(0, true), (1, true), (0, false), (1, false), (0, true), (1, true), (0, false), (1, false)];
    for (ours_side, won) in wanted {
        let start = loop {
            let plies = 4 + rng.below(24);
            let Some(pos) = random_position(&mut rng, plies) else { continue };
            let value = probe.value(&pos).expect("a reachable position");
            let fits = if won { matches!(value, Value::Win(_)) } else { value == Value::Draw };
            if Dobutsu::side_to_move(&pos) == ours_side && fits {
                break pos;
            }
        };
        games.push(play(&mut ours, &mut fsf, &probe, start, ours_side, 5));
    }
    let mut report = String::from(
        "| start | we play | Fairy-Stockfish depth | table value for us | result | plies | ended by |\n|---|---|---|---|---|---|---|\n",
    );
    for g in &games {
        report += &format!(
            "| `{}` | {} | {} | {} | {:?} | {} | {} |\n",
            g.start,
            if g.ours == 0 { "first" } else { "second" },
            g.depth,
            match g.value {
                Value::Win(d) => format!("win in {} plies", d.0),
                Value::Loss(d) => format!("loss in {} plies", d.0),
                Value::Draw => "draw".to_string(),
            },
            g.outcome,
            g.plies,
            g.why
        );
    }
    let count = |o: Outcome| games.iter().filter(|g| g.outcome == o).count();
    let plies: u32 = games.iter().map(|g| g.plies).sum();
    report += &format!(
        "\n`games {}, won {}, drawn {}, lost {}, plies {plies}`",
        games.len(),
        count(Outcome::Won),
        count(Outcome::Drawn),
        count(Outcome::Lost)
    );
    eprintln!("{report}");
    for g in &games {
        match g.value {
            Value::Win(d) => assert!(
                g.outcome == Outcome::Won && g.plies <= u32::from(d.0),
                "{}: {:?} in {}",
                g.start,
                g.outcome,
                g.plies
            ),
            _ => assert_ne!(g.outcome, Outcome::Lost, "{}", g.start),
        }
    }
    assert_eq!(count(Outcome::Lost), 0);
    // The games are the same on every run: the doc shows them as this test prints them.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/ENGINE-PROTOCOL.md"))
        .expect("docs/ENGINE-PROTOCOL.md");
    assert!(doc.contains(&report), "docs/ENGINE-PROTOCOL.md does not hold the match as played:\n{report}");
}
