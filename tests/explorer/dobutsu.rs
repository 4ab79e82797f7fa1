//! The JSON API over a real Dobutsu table (Tanaka's rules, solved once and kept between runs;
//! the safe-try reading's table missing, see `common::dobutsu`): Tanaka's published values, the
//! answer against the probe's, the board view, the errors.

use std::sync::Arc;

use crate::common::{dobutsu, get};
use axum::http::StatusCode;
use dobutsu_shogi::Dobutsu;
use dobutsu_shogi::Rules;
use nana_front::Game;
use nana_probe::ProbeRules;
use nana_server::{add_game, Explorer, Missing, Registry, DRAW_LINE};
use serde_json::{json, Value};

const START: &str = "gle/1c1/1C1/ELG[-] w 0 1";

/// A position string in a URL: underscores for spaces, the brackets of the hands escaped.
fn url(fen: &str) -> String {
    fen.replace(' ', "_").replace('[', "%5B").replace(']', "%5D").replace('+', "%2B")
}

/// Tanaka (2009): the second player wins in 78 plies from the start, so the first player, to
/// move, loses in 78, along a mainline of 78 moves.
#[tokio::test]
async fn the_start_has_tanakas_value() {
    let a = get("/api/dobutsu/tanaka").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let a = a.json();
    assert_eq!(
        (a["fen"].as_str(), a["category"].as_str(), a["dtm"].as_u64()),
        (Some(START), Some("loss"), Some(78))
    );
    assert_eq!(a["moves"].as_array().unwrap().len(), 4);
    assert_eq!(a["mainline"].as_array().unwrap().len(), 78);
    // The safe-try reading's table is not in the folder: a 503 naming the command that makes it.
    let a = get("/api/dobutsu/safe-try").await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.text());
    assert!(a.text().contains("nana --game dobutsu solve --rules safe-try"), "{}", a.text());
}

/// The answer is the probe's, byte for byte (the JSON of `nana --game dobutsu query --json`),
/// whichever way the start is spelt: left out, with underscores, with encoded spaces, without
/// the counters.
#[tokio::test]
async fn the_answer_is_the_probes_whatever_the_spelling() {
    let table = dobutsu("tanaka");
    let expected =
        serde_json::to_string(&table.probe().answer(&Rules::TANAKA.start(), DRAW_LINE).unwrap()).unwrap();
    for uri in [
        "/api/dobutsu/tanaka".to_string(),
        format!("/api/dobutsu/tanaka?position={}", url(START)),
        "/api/dobutsu/tanaka?position=gle%2F1c1%2F1C1%2FELG%5B-%5D%20w%200%201".to_string(),
        "/api/dobutsu/tanaka?position=gle/1c1/1C1/ELG%5B%5D+w".to_string(),
        "/api/dobutsu/tanaka?position=gle/1c1/1C1/ELG_w".to_string(),
    ] {
        let r = get(&uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text());
        assert_eq!(r.text(), expected, "{uri}");
    }
    // A position 20 plies down the start's mainline.
    let start = Rules::TANAKA.start();
    let line = table.probe().mainline(&start, DRAW_LINE).unwrap();
    let mut pos = start;
    for &mv in &line[..20] {
        pos = Rules::TANAKA.play(&pos, mv);
    }
    let fen = Rules::TANAKA.position_string(&pos);
    let r = get(&format!("/api/dobutsu/tanaka?position={}", url(&fen))).await;
    assert_eq!(r.status, StatusCode::OK, "{fen}: {}", r.text());
    let expected = serde_json::to_string(&table.probe().answer(&pos, DRAW_LINE).unwrap()).unwrap();
    assert_eq!(r.text(), expected, "{fen}");
    assert_eq!((r.json()["category"].as_str(), r.json()["dtm"].as_u64()), (Some("loss"), Some(58)));
}

/// The mainline of the start: 78 moves, the last the second player's capture of the first
/// player's lion, each ply's position answering with the value the line gives it. The position
/// before the capture is not over: it lists its moves, the capture first, a win in 1 with the
/// ending `lion captured`; the position after it is over, a loss in 0.
#[tokio::test]
async fn the_mainline_walks_to_the_lions_capture() {
    let m = get("/api/dobutsu/tanaka/mainline").await.json();
    assert_eq!((m["category"].as_str(), m["dtm"].as_u64()), (Some("loss"), Some(78)));
    let plies = m["mainline"].as_array().unwrap();
    assert_eq!(plies.len(), 78);
    for (i, p) in plies.iter().enumerate() {
        assert_eq!(p["dtm"].as_u64(), Some(77 - i as u64), "{p}");
    }
    let before = plies[76]["fen"].as_str().unwrap();
    let a = get(&format!("/api/dobutsu/tanaka?position={}", url(before))).await.json();
    assert_eq!(
        (a["category"].as_str(), a["dtm"].as_u64(), a["lion_captured"].as_bool(), a["try"].as_bool()),
        (Some("win"), Some(1), Some(false), Some(false))
    );
    let capture = &a["moves"][0];
    assert_eq!(
        (capture["category"].as_str(), capture["dtm"].as_u64(), capture["lion_captured"].as_bool()),
        (Some("loss"), Some(0), Some(true)),
        "{a}"
    );
    assert_eq!(a["best_move"], plies[77]["uci"]);
    let after = plies[77]["fen"].as_str().unwrap();
    let a = get(&format!("/api/dobutsu/tanaka?position={}", url(after))).await.json();
    assert_eq!(
        (a["category"].as_str(), a["dtm"].as_u64(), a["lion_captured"].as_bool()),
        (Some("loss"), Some(0), Some(true)),
        "{a}"
    );
    assert_eq!(a["moves"], json!([]));
    assert_eq!(plies[0]["uci"], get("/api/dobutsu/tanaka").await.json()["best_move"]);
}

/// A completed try: the first player's lion on the second player's home rank (a4), out of
/// reach, with the second player to move, who has lost (a loss in 0, the ending `try`).
#[tokio::test]
async fn a_completed_try_is_a_loss_in_0() {
    let fen = "L1e/2l/1C1/E1G[gc] b 0 1";
    let a = get(&format!("/api/dobutsu/tanaka?position={}", url(fen))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let a = a.json();
    assert_eq!(
        (a["category"].as_str(), a["dtm"].as_u64(), a["try"].as_bool(), a["lion_captured"].as_bool()),
        (Some("loss"), Some(0), Some(true), Some(false)),
        "{a}"
    );
    assert_eq!(a["moves"], json!([]));
}

/// The board view: 3 files by 4 ranks from rank 4 down, the animals with their owners and
/// steps, both hands, every move's squares, a drop naming the hand piece; `/api/games` words
/// the game.
#[tokio::test]
async fn the_view_draws_the_animals() {
    let v = get("/api/dobutsu/tanaka/view").await.json();
    let board = &v["board"];
    assert_eq!((board["columns"].as_u64(), board["rows"].as_u64()), (Some(3), Some(4)));
    let names: Vec<&str> =
        board["squares"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a4", "b4", "c4", "a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"]);
    assert_eq!(
        board["squares"][1]["piece"],
        json!({"owner": "second", "code": "l", "label": "L", "name": "lion", "kind": "", "steps": [[0, 1], [-1, 0], [1, 0], [0, -1], [-1, 1], [1, 1], [-1, -1], [1, -1]]})
    );
    assert_eq!(board["squares"][7]["piece"]["owner"], "first");
    assert_eq!(board["squares"][7]["piece"]["steps"], json!([[0, 1]]));
    assert_eq!(board["side_to_move"], "first");
    let hand: Vec<&str> =
        board["hands"][1]["pieces"].as_array().unwrap().iter().map(|h| h["code"].as_str().unwrap()).collect();
    assert_eq!(hand, ["g", "e", "c"]);
    assert_eq!(v["palette"]["pieces"].as_array().unwrap().len(), 10);
    assert_eq!(v["palette"]["layout"], "{board}[{hands}] {side}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["uci"], v["answer"]["best_move"]);
    let capture = moves.iter().find(|m| m["uci"] == "b2b3").expect("the chick takes the chick");
    assert_eq!((capture["from"].as_str(), capture["to"].as_str()), (Some("b2"), Some("b3")));
    assert_eq!(capture["fen"], "gle/1C1/3/ELG[C] b 0 1");
    // After the chicks are exchanged, the first player drops its chick.
    let v =
        get(&format!("/api/dobutsu/tanaka/view?position={}", url("g1e/1l1/3/ELG[Cc] w 0 1"))).await.json();
    let drop = v["moves"].as_array().unwrap().iter().find(|m| m["uci"] == "C@a2").expect("a drop");
    assert_eq!(
        (drop["drop"].as_str(), drop["from"].as_str(), drop["to"].as_str()),
        (Some("C"), None, Some("a2"))
    );
    assert_eq!(v["board"]["hands"][0]["pieces"][2]["count"], 1);
    assert_eq!(v["board"]["hands"][1]["pieces"][2]["count"], 1);

    let games = get("/api/games").await.json();
    let d = games.as_array().unwrap().iter().find(|g| g["game"] == "dobutsu").expect("Dobutsu is served");
    let names: Vec<&str> =
        d["rule_sets"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["tanaka", "safe-try"]);
    assert_eq!(d["words"]["players"], json!(["first", "second"]));
    let endings: Vec<&str> =
        d["words"]["endings"].as_array().unwrap().iter().map(|e| e["ending"].as_str().unwrap()).collect();
    assert_eq!(endings, ["lion_captured", "try", "both_tries", "no_move"]);
}

/// Every move in USI's and KIF's forms beside `uci` and `san`, and the view's position in
/// USI's SFEN and as a KIF record's head: what the page's record copies.
#[tokio::test]
async fn moves_and_positions_come_in_usi_and_kif() {
    let v = get("/api/dobutsu/tanaka/view").await.json();
    assert_eq!(v["sfen"], "gle/1c1/1C1/ELG b - 1");
    let head = v["kif"].as_str().expect("a KIF head");
    assert!(head.contains("|vキvラvゾ|一\n| ・vひ ・|二\n| ・ ひ ・|三\n| ゾ ラ キ|四\n"), "{head}");
    let moves = v["answer"]["moves"].as_array().unwrap();
    let forms = |uci: &str| {
        let m = moves.iter().find(|m| m["uci"] == uci).expect("a move of the start");
        (
            m["san"].as_str().unwrap().to_string(),
            m["usi"].as_str().unwrap().to_string(),
            m["kif"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(forms("b1a2"), ("La2".into(), "2d3c".into(), "３三ライオン(24)".into()));
    assert_eq!(forms("b2b3"), ("Cxb3".into(), "2c2b".into(), "２二ひよこ(23)".into()));
    let v =
        get(&format!("/api/dobutsu/tanaka/view?position={}", url("g1e/1l1/3/ELG[Cc] w 0 1"))).await.json();
    assert_eq!(v["sfen"], "g1e/1l1/3/ELG b Cc 1");
    let drop = v["answer"]["moves"].as_array().unwrap().iter().find(|m| m["uci"] == "C@a2").expect("a drop");
    assert_eq!((drop["usi"].as_str(), drop["kif"].as_str()), (Some("C*3c"), Some("３三ひよこ打")));
    // Nana's moves are USI's already, and it has no KIF.
    let v = get("/api/nana/original/view").await.json();
    assert!(v.get("kif").is_none() && v["answer"]["moves"][0].get("kif").is_none(), "{v}");
    assert_eq!(v["answer"]["moves"][0]["usi"], v["answer"]["moves"][0]["uci"]);
    assert_eq!(v["sfen"], v["answer"]["fen"]);
}

/// The table's counts: the 243,345,746 entries of the solved set (every legal position where
/// the side to move cannot take the lion, docs/DOBUTSU.md), the longest win 173 plies as Tanaka
/// found it.
#[tokio::test]
async fn stats_count_tanakas_positions() {
    let s = get("/api/dobutsu/tanaka/stats").await.json();
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("losses") + n("draws"), 243_345_746);
    assert_eq!(n("wins") + n("losses") + n("draws") + n("unused"), n("entries"));
    assert_eq!(n("max_dtm"), 173);
    let longest = s["longest_wins"].as_array().unwrap();
    assert_eq!(longest.len(), nana_server::LONGEST_WINS);
    assert_eq!(longest[0]["dtm"].as_u64(), Some(173));
    let fen = longest[0]["fen"].as_str().unwrap();
    let a = get(&format!("/api/dobutsu/tanaka?position={}", url(fen))).await.json();
    assert_eq!((a["category"].as_str(), a["dtm"].as_u64()), (Some("win"), Some(173)));
}

async fn error(uri: &str, status: StatusCode) -> Value {
    let r = get(uri).await;
    assert_eq!(r.status, status, "{uri}: {}", r.text());
    let body = r.json();
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{uri}: {body}");
    body
}

#[tokio::test]
async fn malformed_positions_are_400_naming_the_problem() {
    for (fen, problem) in [
        ("gle/1c1/1C1 w", "4 ranks"),
        ("gle/1c1/1C1/ELG[-] x", "side to move is 'w' or 'b', found 'x'"),
        ("gle/1c1/1C1/ELGG[-] w", "rank 1 has more than 3 squares"),
        ("gle/1c1/1C1/EZG[-] w", "unknown piece 'Z'"),
        ("gle/1c1/1C1/ELG[C] w", "two chicks"),
        ("g1e/1c1/1C1/ELG[L] w", "the side that has just moved has no lion"),
        ("gle/1c1/1C1/ELG[-", "must end with ']'"),
    ] {
        for kind in ["", "/mainline", "/view"] {
            let e =
                error(&format!("/api/dobutsu/tanaka{kind}?position={}", url(fen)), StatusCode::BAD_REQUEST)
                    .await;
            let text = e["error"].as_str().unwrap();
            assert!(text.contains(problem) && text.contains(&fen[..8]), "{fen}: {text}");
        }
    }
    let e = error("/api/dobutsu/safe-try?position=___", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("empty position"), "{e}");
}

#[tokio::test]
async fn unknown_rule_sets_are_404_listing_tanaka_and_safe_try() {
    for uri in
        ["/api/dobutsu/standard", "/api/dobutsu/Tanaka/view", "/api/dobutsu/safe_try/stats", "/dobutsu/x"]
    {
        let e = error(uri, StatusCode::NOT_FOUND).await;
        assert_eq!(e["valid"], json!(["tanaka", "safe-try"]), "{uri}");
        assert!(e["error"].as_str().unwrap().contains("of dobutsu"), "{uri}: {e}");
    }
    let e = error("/api/shogi/tanaka", StatusCode::NOT_FOUND).await;
    assert_eq!(e["valid"], json!(["nana", "dobutsu"]));
    for uri in
        ["/dobutsu/tanaka", "/dobutsu/safe-try/stats", "/dobutsu/tanaka?position=gle/1c1/1C1/ELG%5B-%5D_w"]
    {
        assert_eq!(get(uri).await.status, StatusCode::OK, "{uri}");
    }
}

/// `nana serve --game dobutsu`'s start: a table opened from its file, answering as the table it
/// was written from; with solving turned off, every missing file named.
#[test]
fn dobutsu_tables_load_from_their_files_and_missing_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut registry = Registry::new();
    let notes = add_game::<Dobutsu>(&mut registry, dir.path(), Missing::Refuse).join("\n");
    for file in [
        "dobutsu-tanaka.tb",
        "dobutsu-safe-try.tb",
        "`nana --game dobutsu solve --rules tanaka`",
        "`nana --game dobutsu solve --rules safe-try`",
    ] {
        assert!(notes.contains(file), "{notes}");
    }
    // The shared table of Tanaka's rules is a file already: link it in. The safe-try reading's
    // is left to the self-check, and stays missing.
    crate::common::link_into(&nana_fixture::path(Rules::TANAKA), dir.path());
    let file = "dobutsu-tanaka.tb";
    let mut registry = Registry::new();
    let notes = add_game::<Dobutsu>(&mut registry, dir.path(), Missing::Refuse);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("dobutsu-safe-try.tb") && !notes[0].contains(file), "{notes:?}");
    let registry = Arc::new(registry);
    let from_file = registry.get(Dobutsu::NAME, "tanaka").unwrap().answer(None).unwrap();
    assert_eq!(from_file, dobutsu("tanaka").answer(None).unwrap());
    assert_eq!(
        registry.games()[0].rule_sets[0].status,
        nana_server::Status::Ready { origin: "dobutsu-tanaka.tb".into() }
    );
}

/// A Tanaka table whose file has a damaged block where the start's entry lies, served: the
/// start's answer is a 500 naming the block every time it is asked (never an answer, never a
/// panic), and so are the statistics, which read every block; a position whose lookups read
/// other blocks answers as from the intact table.
#[tokio::test]
async fn a_damaged_block_is_an_error_every_time_and_other_positions_answer() {
    let rules = Rules::TANAKA;
    let mut bytes = std::fs::read(nana_fixture::path(rules)).unwrap();
    let block =
        nana_fixture::damage_block_of(&mut bytes, rules.file_order().place(rules.index(&rules.start())));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(nana_probe::table::TableRules::file_name(&rules));
    std::fs::write(&path, &bytes).unwrap();
    drop(bytes);
    let mut r = Registry::new();
    r.add(Dobutsu::NAME, "tanaka", Box::new(nana_probe::table::Table::open(rules, &path).unwrap()));
    let registry = Arc::new(r);
    let ask = |uri: &str| {
        let request = axum::http::Request::get(uri).body(axum::body::Body::empty()).unwrap();
        crate::common::request(registry.clone(), request)
    };
    let named = format!("checksum mismatch in compressed block {block} ");
    for _ in 0..2 {
        for uri in ["/api/dobutsu/tanaka", "/api/dobutsu/tanaka/mainline", "/api/dobutsu/tanaka/stats"] {
            let r = ask(uri).await;
            assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{uri}: {}", r.text());
            let error = r.json()["error"].as_str().unwrap().to_string();
            assert!(error.contains(&named), "{uri}: {error}");
        }
    }
    let elsewhere = "g1e/2l/1EG/2L[Cc] b 0 1";
    let r = ask(&format!("/api/dobutsu/tanaka?position={}", url(elsewhere))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let intact = nana_fixture::table(rules).answer(Some(elsewhere)).unwrap();
    assert_eq!(r.json(), serde_json::to_value(intact).unwrap());
}
