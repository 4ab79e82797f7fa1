//! `nana-engine`, started as a GUI starts an engine: the program alone, no arguments, in its own
//! folder, the tables named by `NANA_TABLEBASE_DIR`.

use std::process::Command;

use crate::{dobutsu_dir, Engine};

/// Dobutsu's start as an SFEN.
const DOBUTSU_START: &str = "gle/1c1/1C1/ELG b - 1";

/// `nana-engine` with no arguments, started in its own folder, with the tables of `dir`.
fn launched(dir: &std::path::Path) -> Engine {
    let program = assert_cmd::cargo::cargo_bin("nana-engine");
    let mut command = Command::new(&program);
    command.current_dir(program.parent().expect("a folder")).env("NANA_TABLEBASE_DIR", dir);
    Engine::spawn(command)
}

/// The `bestmove` line after `position` and `go`, the lines before it returned too.
fn best(engine: &mut Engine, position: &str) -> (String, Vec<String>) {
    engine.send(position);
    engine.send("go");
    let mut lines = engine.until("bestmove");
    let best = lines.pop().expect("a bestmove line");
    (best, lines)
}

#[test]
fn the_engine_program_takes_no_arguments_and_its_game_from_a_position_only_that_game_reads() {
    let dir = dobutsu_dir();
    let mut engine = launched(&dir);
    engine.send("usi");
    let handshake = engine.until("usiok");
    assert!(handshake.iter().any(|l| l.starts_with("id name nana ")), "{handshake:?}");

    // No USI_Variant: the default game (Nana) cannot read a Dobutsu SFEN, Dobutsu alone can.
    let position = format!("position sfen {DOBUTSU_START} moves 2c2b");
    let (found, lines) = best(&mut engine, &position);
    assert!(
        lines
            .iter()
            .any(|l| l == "info string a position of dobutsu: playing dobutsu, as after UCI_Variant dobutsu"),
        "{lines:?}"
    );

    // The same answer as with the variant named, from `nana engine`.
    let mut named = Engine::nana(&dir);
    named.send("usi");
    named.until("usiok");
    named.send("setoption name USI_Variant value dobutsu");
    let (expected, _) = best(&mut named, &position);
    assert_eq!(found, expected);
    assert_ne!(found, "bestmove resign");

    // Once the GUI names the game, a position of another game is refused, not switched to.
    engine.send("setoption name USI_Variant value nana");
    let (refused, lines) = best(&mut engine, &format!("position sfen {DOBUTSU_START}"));
    assert_eq!(refused, "bestmove resign");
    assert!(lines.iter().any(|l| l.starts_with("info string error: position not set: ")), "{lines:?}");
}
