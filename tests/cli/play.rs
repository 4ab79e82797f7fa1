//! `nana play` against perfect play.

use std::collections::HashMap;

use crate::common::*;

#[test]
fn play_black_wins_along_the_mainline() {
    let mainline = original_mainline();
    // The same line in Hodges style, from the text output.
    let text = query("original", &[]).stdout;
    let pv = text.lines().find_map(|l| l.strip_prefix("principal variation: ")).unwrap();
    let hodges: Vec<&str> = pv.split_whitespace().filter(|t| !t.ends_with('.')).collect();
    assert_eq!(hodges.len(), mainline.len());

    // hint, an illegal move, undo with nothing to undo, help, then Black's plies of the line,
    // alternately in USI and Hodges notation.
    let mut input = String::from("hint\nK*2b\nundo\nhelp\n\n");
    for (j, i) in (0..mainline.len()).step_by(2).enumerate() {
        let mv = if j % 2 == 0 { mainline[i].as_str() } else { hodges[i] };
        input.push_str(mv);
        input.push('\n');
    }
    let run = play("original", &[], &input);
    let out = &run.stdout;
    assert!(out.starts_with("You play black (original, drop-stalemate on, hand-stalemate on)."), "{out}");
    assert!(out.contains("evaluation: win, mate in 31 plies for black"), "{out}");
    assert!(out.contains("hint: K*2a (K*2a)"), "{out}");
    assert!(out.contains("bad move \"K*2b\": nothing may be dropped on the centre; try again"), "{out}");
    assert!(out.contains("nothing to undo."), "{out}");
    assert!(out.contains("undo, hint, quit"), "help text: {out}");
    // The engine answers along the line.
    let expected: Vec<String> = mainline.iter().skip(1).step_by(2).cloned().collect();
    assert_eq!(engine_moves(&run), expected);
    let end: Vec<&str> = out.lines().rev().take(2).collect();
    assert!(
        end[1] == "white has no legal move (stalemate) and has lost."
            || end[1] == "white has no legal move (checkmate) and has lost.",
        "the game ends with Black's win: {end:?}\n{out}"
    );
    assert_eq!(end[0], "you win.", "{out}");
    assert!(out.contains("evaluation: loss (no legal move) for white"), "{out}");
}

#[test]
fn play_quit_undo_and_end_of_input() {
    // quit
    let run = play("original", &[], "K*2a\nquit\nK*2c\n");
    assert_eq!(run.stdout.lines().last().unwrap(), "your move> game abandoned.");
    assert_eq!(engine_moves(&run), ["K*2c"]);
    // undo takes back the engine's reply and the move before it.
    let run = play("original", &[], "K*2a\nundo\nK*2c\nquit\n");
    assert_eq!(engine_moves(&run), ["K*2c", "K*2a"], "after undo, K*2c is answered by K*2a");
    assert_eq!(run.stdout.matches("black hand: K O D").count(), 2, "the start is shown again after undo");
    // end of input
    let run = play("original", &[], "K*2a\n");
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    let run = play("current", &[], "");
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    assert!(run.stdout.contains("evaluation: draw for black"), "{run:#?}");
}

#[test]
fn play_as_white() {
    let mainline = original_mainline();
    let run = play("original", &["--side", "white"], &format!("hint\n{}\n", mainline[1]));
    let out = &run.stdout;
    assert!(out.starts_with("You play white"), "{out}");
    // The engine (Black) moves first, before any prompt.
    let first_engine = out.find("engine plays K*2a (K*2a)").expect("engine opens with K*2a");
    assert!(first_engine < out.find("your move>").unwrap(), "{out}");
    assert!(out.contains("evaluation: loss, mated in 30 plies for white"), "{out}");
    assert!(out.contains(&format!("hint: {} ", mainline[1])), "{out}");
    assert_eq!(engine_moves(&run), mainline[..3].iter().step_by(2).cloned().collect::<Vec<_>>());
    assert!(out.ends_with("end of input: game abandoned.\n"), "{out}");
}

/// Both sides playing the first ranked move under the current rules (a draw) must cycle:
/// returns the line as a function of the ply, with the ply where the cycle starts and its length.
fn drawn_cycle() -> (Vec<String>, usize, usize) {
    let mut line: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    loop {
        let moves: Vec<&str> = line.iter().map(String::as_str).collect();
        let q = query_json("current", None, &moves);
        assert_eq!(q["category"], "draw", "a drawn line stays drawn");
        let fen = s(&q["fen"]).to_string();
        if let Some(&start) = seen.get(&fen) {
            return (line.clone(), start, line.len() - start);
        }
        seen.insert(fen, line.len());
        line.push(s(&q["best_move"]).to_string());
        assert!(line.len() < 400, "no cycle found");
    }
}

#[test]
fn play_repetition_ends_the_game() {
    let (line, start, period) = drawn_cycle();
    let ply =
        |i: usize| if i < line.len() { line[i].clone() } else { line[start + (i - start) % period].clone() };
    // The position at ply `start` occurs for the n-th time at ply start + (n - 1) × period.
    let black_moves = |n: u32| -> String {
        let end = start + (n as usize - 1) * period;
        (0..end).step_by(2).map(|i| ply(i) + "\n").collect()
    };
    for (n, extra) in [(2u32, vec!["--repetition", "2"]), (3, vec!["--repetition", "3"]), (4, vec![])] {
        let run = play("current", &extra, &black_moves(n));
        let last = run.stdout.lines().last().unwrap();
        assert_eq!(
            last,
            format!("the position occurred {n} times: the game is drawn by repetition."),
            "{run:#?}"
        );
    }
    // One occurrence short of the default (4): the game goes on until the input ends.
    let run = play("current", &[], &black_moves(3));
    assert!(run.stdout.ends_with("end of input: game abandoned.\n"), "{run:#?}");
    // Fewer than 2 is refused.
    let run = nana(&["play", "--repetition", "1"]);
    assert_usage_error(&run, &["--repetition"]);
}

#[test]
fn undo_as_white_before_any_move_of_yours_has_nothing_to_undo() {
    let run = play("original", &["--side", "white"], "undo\nquit\n");
    assert!(run.stdout.contains("your move> nothing to undo."), "{run:#?}");
    assert_eq!(engine_moves(&run), ["K*2a"], "the engine's opening move is neither undone nor replayed");
    // After a move of yours, undo goes back to your previous turn (before the reply).
    let mainline = original_mainline();
    let run = play("original", &["--side", "white"], &format!("{}\nundo\nundo\nquit\n", mainline[1]));
    assert_eq!(engine_moves(&run), [mainline[0].as_str(), mainline[2].as_str()]);
    assert_eq!(run.stdout.matches("nothing to undo.").count(), 1, "{run:#?}");
}
