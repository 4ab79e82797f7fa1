//! A row's move counts: how many of its position's moves win and draw for the side to move,
//! counted again here from the probe's ranked moves (the value each move leads to), and in
//! keeping with the row's category: a won position has a winning move, a lost one neither a
//! winning nor a drawing move, a drawn one a drawing move and no winning one.

use nana_engine::Value;
use nana_export::rows;
use nana_front::FrontRules;
use nana_probe::table::Table;

fn counts_agree<R: FrontRules>(table: &Table<R>, span: u64) {
    let probe = table.probe();
    let game = table.game();
    let size = game.size();
    let mut checked = 0;
    for range in [0..span, size / 2..size / 2 + span, size - span..size] {
        for row in rows(&probe, range).expect("rows") {
            let pos = game.parse_position(&row.fen).expect("a row's position string reads back");
            let moves = probe.ranked_moves(&pos).expect("its moves");
            let count = |f: fn(&Value) -> bool| moves.iter().filter(|m| f(&m.value())).count() as u16;
            let (winning, drawing) = (count(|v| matches!(v, Value::Win(_))), count(|v| *v == Value::Draw));
            assert_eq!((row.winning_moves, row.drawing_moves), (winning, drawing), "{}", row.fen);
            let fits = match row.category {
                "win" => winning > 0,
                "loss" => winning == 0 && drawing == 0,
                "draw" => winning == 0 && drawing > 0,
                other => panic!("category {other}"),
            };
            assert!(fits, "{}: {} with {winning} winning and {drawing} drawing moves", row.fen, row.category);
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} rows");
}

#[test]
fn nanas_move_counts_are_its_ranked_moves() {
    counts_agree(&nana_fixture::table(nana_shogi::Rules::CURRENT), 20_000);
}

#[test]
fn dobutsus_move_counts_are_its_ranked_moves() {
    counts_agree(&nana_fixture::table(dobutsu_shogi::Rules::TANAKA), 6_000);
}
