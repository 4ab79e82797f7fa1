//! Fairy-Stockfish 11.1, the engine GUIs drive for Dobutsu: the same commands sent to it and to
//! `nana engine`, in both dialects, where both read the rules alike. Its `dobutsu` treats the
//! lion as royal (no move leaves it where it can be taken), so its moves are ours but those.

use std::collections::BTreeSet;
use std::path::PathBuf;

use dobutsu_shogi::{Dobutsu, Move, Position, Rules};
use nana_front::ProtocolNotation;
use nana_probe::ProbeRules;
use nana_protocol::{Dialect, PositionForm};

use crate::{dobutsu_dir, Engine, Rng};

/// Where Fairy-Stockfish is: `$FAIRY_STOCKFISH`, `fairy-stockfish` on the `PATH`, or Debian's
/// `/usr/games/fairy-stockfish`.
pub fn path() -> PathBuf {
    if let Some(path) = std::env::var_os("FAIRY_STOCKFISH") {
        return path.into();
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|dir| dir.join("fairy-stockfish")).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games/fairy-stockfish")])
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "Fairy-Stockfish is missing ($FAIRY_STOCKFISH, fairy-stockfish on the PATH, \
                 /usr/games/fairy-stockfish): `cargo xtask test` installs it, as does \
                 `apt-get install fairy-stockfish`"
            )
        })
}

/// Starts a dialogue in `dialect` with the variant set; the lines of the handshake.
pub fn open(engine: &mut Engine, dialect: Dialect, variant_option: &str) -> Vec<String> {
    let (hello, ok) = match dialect {
        Dialect::Uci => ("uci", "uciok"),
        Dialect::Usi => ("usi", "usiok"),
    };
    engine.send(hello);
    let lines = engine.until(ok);
    engine.send(&format!("setoption name {variant_option} value dobutsu"));
    engine.sync();
    lines
}

/// Fairy-Stockfish in `dialect` with the variant `dobutsu`. Version 11.1 names the option
/// `UCI_Variant` in both dialects; `nana engine` reads that name in both too.
pub fn fairy(dialect: Dialect) -> Engine {
    let mut engine = Engine::start(&path(), &[]);
    let lines = open(&mut engine, dialect, "UCI_Variant");
    assert!(lines.iter().any(|l| l.starts_with("id name Fairy-Stockfish 11.1")), "{lines:?}");
    engine
}

/// `nana engine` in `dialect` with the variant `dobutsu`, set by the dialect's option name.
pub fn nana(dialect: Dialect) -> Engine {
    let mut engine = Engine::nana(&dobutsu_dir());
    let name = match dialect {
        Dialect::Uci => "UCI_Variant",
        Dialect::Usi => "USI_Variant",
    };
    open(&mut engine, dialect, name);
    engine
}

/// The position `d` prints in `form` (Fairy-Stockfish prints its board first and more lines
/// after: everything up to `Checkers:`; `nana engine` prints the two forms).
fn shown(engine: &mut Engine, fairy: bool, form: PositionForm) -> Position {
    engine.send("d");
    let lines = if fairy { engine.until("Checkers:") } else { engine.until("Sfen:") };
    let key = match form {
        PositionForm::Fen => "Fen: ",
        PositionForm::Sfen => "Sfen: ",
    };
    let text = lines.iter().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("{lines:?}"));
    Dobutsu::parse_protocol_position(&Rules::TANAKA, text, form).unwrap_or_else(|e| panic!("{e}"))
}

/// The moves `go perft 1` lists.
fn perft_moves(engine: &mut Engine) -> BTreeSet<String> {
    engine.send("go perft 1");
    let lines = engine.until("Nodes searched");
    let moves = lines.iter().filter(|l| !l.starts_with("Nodes searched"));
    moves.filter_map(|l| l.strip_suffix(": 1")).map(str::to_string).collect()
}

fn bestmove(engine: &mut Engine, go: &str) -> String {
    engine.send(go);
    let lines = engine.until("bestmove");
    let last = lines.last().expect("a bestmove line");
    last.split_whitespace().nth(1).expect("a move").to_string()
}

/// Along random games of moves both engines allow, in each dialect: after the same `position`
/// command (the start with the moves in the dialect's notation, and the position itself after
/// `fen` and after `sfen`) both show the same position in both forms; `go perft 1` lists the
/// same moves but ours that leave the lion where it can be taken; and the move Fairy-Stockfish
/// chooses is one `nana engine` reads, to the same position.
#[test]
fn same_answers_as_fairy_stockfish() {
    let rules = Rules::TANAKA;
    for dialect in [Dialect::Uci, Dialect::Usi] {
        let (mut fsf, mut ours) = (fairy(dialect), nana(dialect));
        let mut rng = Rng::new(27 + dialect as u64);
        let mut positions = 0;
        for _game in 0..6 {
            let mut pos = Position::start();
            let mut played: Vec<String> = Vec::new();
            for _ply in 0..30 {
                let commands = [
                    format!("position startpos moves {}", played.join(" ")),
                    format!("position fen {}", Dobutsu::protocol_position(&rules, &pos, PositionForm::Fen)),
                    format!("position sfen {}", Dobutsu::protocol_position(&rules, &pos, PositionForm::Sfen)),
                ];
                for command in &commands {
                    fsf.send(command);
                    ours.send(command);
                    for form in [PositionForm::Fen, PositionForm::Sfen] {
                        assert_eq!(shown(&mut fsf, true, form), pos, "{command}");
                        assert_eq!(shown(&mut ours, false, form), pos, "{command}");
                    }
                }
                positions += 1;
                let theirs = perft_moves(&mut fsf);
                let mine = perft_moves(&mut ours);
                let exposure = pos.exposure();
                let mut safe = BTreeSet::new();
                let mut count = 0;
                rules.for_each_move(&pos, |mv: Move, _| {
                    count += 1;
                    let text = Dobutsu::protocol_move(&rules, &pos, mv, dialect);
                    assert!(mine.contains(&text), "{pos}: {text} missing from {mine:?}");
                    if !exposure.loses_at_once(mv) {
                        safe.insert(text);
                    }
                });
                assert_eq!(mine.len(), count, "{pos}: {mine:?}");
                // Fairy-Stockfish 11.1 also lets a chick step onto the far rank without
                // promoting (`b3b4` beside `b3b4+`), where our rules always promote it.
                let unpromoted = |m: &String| theirs.contains(&format!("{m}+"));
                let theirs: BTreeSet<String> = theirs.iter().filter(|m| !unpromoted(m)).cloned().collect();
                assert_eq!(theirs, safe, "{dialect:?} {pos}");
                // Fairy-Stockfish's choice, read by ours.
                let best = bestmove(&mut fsf, "go depth 3");
                if best == "(none)" || best == "resign" {
                    // No move its rules allow: each of ours leaves the lion where it is taken.
                    assert!(safe.is_empty(), "{dialect:?} {pos}: {best}");
                    break;
                }
                let read =
                    Dobutsu::parse_protocol_move(&rules, &pos, &best, dialect).expect("a move we read");
                if Dobutsu::protocol_move(&rules, &pos, read, dialect) == best {
                    let command = format!("position startpos moves {} {best}", played.join(" "));
                    fsf.send(&command);
                    ours.send(&command);
                    let after = shown(&mut fsf, true, PositionForm::Fen);
                    assert_eq!(shown(&mut ours, false, PositionForm::Fen), after, "{command}");
                } else {
                    // A chick left unpromoted on the far rank, which we read as promoted.
                    assert_eq!(format!("{best}+"), Dobutsu::protocol_move(&rules, &pos, read, dialect));
                }
                // Then a random move both allow, while the game goes on under our rules.
                let safe: Vec<&String> = safe.iter().collect();
                if safe.is_empty() {
                    break;
                }
                let text = safe[rng.below(safe.len())].clone();
                let mv = Dobutsu::parse_protocol_move(&rules, &pos, &text, dialect).expect("a listed move");
                pos = rules.play(&pos, mv);
                played.push(text);
                if rules.terminal(&pos).is_some() {
                    break;
                }
            }
        }
        assert!(positions > 60, "{positions}");
    }
}
