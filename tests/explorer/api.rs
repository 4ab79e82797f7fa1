//! The JSON API over Nana's solved tables, request by request through the router: answers,
//! every error case, CORS, the page routes, and a fuzz of query strings and paths.

use std::sync::Arc;

use crate::common::{get, registry, request, table};
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use nana_engine::EntryWidth;
use nana_front::{Explorable, Game};
use nana_probe::table::{Table, TableRules};
use nana_probe::{ProbeError, ProbeRules};
use nana_server::{add_game, Explorer, Missing, Registry, DRAW_LINE};
use nana_shogi::{Nana, Rules};
use serde_json::{json, Value};

const START: &str = "3/3/3 b KRBkrb";

#[tokio::test]
async fn health() {
    let r = get("/api/health").await;
    assert_eq!(r.status, StatusCode::OK);
    let health = r.json();
    // The safe-try reading's table is missing (`common::registry`): degraded, not failed.
    assert_eq!(health["status"], "degraded", "{health}");
    let states: Vec<_> = health["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["game"].as_str().unwrap(), r["rules"].as_str().unwrap(), r["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        states,
        [
            ("nana", "current", "ready"),
            ("nana", "original", "ready"),
            ("dobutsu", "tanaka", "ready"),
            ("dobutsu", "safe-try", "missing")
        ]
    );
}

#[tokio::test]
async fn games_lists_every_game_and_rule_set() {
    let r = get("/api/games").await;
    assert_eq!(r.status, StatusCode::OK);
    let games = r.json();
    assert_eq!(games[0]["game"], "nana");
    let names: Vec<&str> =
        games[0]["rule_sets"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["current", "original"]);
    assert_eq!(games[0]["rule_sets"][1]["description"], "original, drop-stalemate on, hand-stalemate on");
    assert_eq!(games[0]["words"]["players"], json!(["black", "white"]));
    assert_eq!(games[1]["game"], "dobutsu");
}

/// The answer is the probe's, byte for byte (the JSON of `nana query --json`), and the start is
/// the default position, also spelt with underscores or with encoded spaces.
#[tokio::test]
async fn answer_is_the_probes_and_the_start_is_the_default() {
    let start = Rules::ORIGINAL.start();
    let expected =
        serde_json::to_string(&table("original").probe().answer(&start, DRAW_LINE).unwrap()).unwrap();
    for uri in [
        "/api/nana/original",
        "/api/nana/original?fen=3/3/3_b_KRBkrb_1",
        "/api/nana/original?position=3/3/3_b_KRBkrb_1",
        "/api/nana/original?fen=3%2F3%2F3%20b%20KRBkrb",
        "/api/nana/original?fen=3/3/3+b+KRBkrb",
    ] {
        let r = get(uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text());
        assert_eq!(r.text(), expected, "{uri}");
        assert_eq!(r.headers[header::CONTENT_TYPE], "application/json");
    }
    let a = get("/api/nana/original").await.json();
    assert_eq!(
        (a["fen"].as_str(), a["category"].as_str(), a["dtm"].as_u64()),
        (Some(START), Some("win"), Some(31))
    );
    assert_eq!(a["mainline"].as_array().unwrap().len(), 31);
    // Moves are ranked best first, each valued for the opponent (as Lichess does).
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!((moves[0]["category"].as_str(), moves[0]["dtm"].as_u64()), (Some("loss"), Some(30)));
    assert_eq!(moves[0]["uci"], a["best_move"]);
    let c = get("/api/nana/current").await.json();
    assert_eq!((c["category"].as_str(), c["dtm"].as_u64()), (Some("draw"), None));
    assert_eq!(c["mainline"].as_array().unwrap().len(), DRAW_LINE);
}

/// From docs/QUERY.md: after C*2a B*2c Cx2c=SW from R1K/2B/2k b Rb, White is mated.
fn mated() -> String {
    let mut pos = Rules::ORIGINAL.parse_position("R1K/2B/2k b Rb").unwrap();
    for m in ["C*2a", "B*2c", "Cx2c=SW"] {
        pos = Rules::ORIGINAL.play(&pos, Rules::ORIGINAL.parse_move(&pos, m).unwrap());
    }
    Rules::ORIGINAL.position_string(&pos)
}

#[tokio::test]
async fn a_finished_game_has_no_moves() {
    let fen = mated().replace(' ', "_");
    let a = get(&format!("/api/nana/original?position={fen}")).await.json();
    assert_eq!(
        (a["category"].as_str(), a["dtm"].as_u64(), a["checkmate"].as_bool()),
        (Some("loss"), Some(0), Some(true))
    );
    assert_eq!(a["moves"], json!([]));
    assert_eq!(a["best_move"], Value::Null);
}

#[tokio::test]
async fn mainline_walks_to_mate() {
    let r = get("/api/nana/original/mainline?position=R1K/2B/2k_b_Rb").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let m = r.json();
    assert_eq!((m["category"].as_str(), m["dtm"].as_u64()), (Some("win"), Some(3)));
    let plies = m["mainline"].as_array().unwrap();
    let san: Vec<&str> = plies.iter().map(|p| p["san"].as_str().unwrap()).collect();
    assert_eq!(san, ["C*2a", "B*2c", "Cx2c=SW"]);
    let dtms: Vec<u64> = plies.iter().map(|p| p["dtm"].as_u64().unwrap()).collect();
    assert_eq!(dtms, [2, 1, 0]);
    // Every ply's position answers with the value the line gives it.
    for p in plies {
        let fen = p["fen"].as_str().unwrap().replace(' ', "_");
        let a = get(&format!("/api/nana/original?position={fen}")).await.json();
        assert_eq!((&a["category"], &a["dtm"]), (&p["category"], &p["dtm"]));
    }
    let start = get("/api/nana/original/mainline").await.json();
    assert_eq!(start["mainline"].as_array().unwrap().len(), 31);
}

/// The view's moves are the answer's, in its order, each with the position it leads to, whose
/// own answer has the value the move was given.
#[tokio::test]
async fn view_moves_lead_where_they_say() {
    let v = get("/api/nana/original/view?position=R1K/2B/2k_b_Rb").await.json();
    let answer_moves = v["answer"]["moves"].as_array().unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(answer_moves.len(), moves.len());
    assert_eq!(answer_moves.len(), 18);
    for (a, m) in answer_moves.iter().zip(moves) {
        assert_eq!(a["uci"], m["uci"]);
        let after =
            get(&format!("/api/nana/original?position={}", m["fen"].as_str().unwrap().replace(' ', "_")))
                .await
                .json();
        assert_eq!((&after["category"], &after["dtm"]), (&a["category"], &a["dtm"]), "{}", m["uci"]);
        // A drop names the hand piece, a board move its square.
        assert_eq!(m["drop"].is_null(), !m["from"].is_null());
    }
    assert_eq!(v["board"]["squares"][0]["name"], "3a");
    assert_eq!(v["board"]["squares"][0]["piece"]["label"], "R");
    assert_eq!(v["board"]["squares"][8]["piece"]["owner"], "white");
    assert_eq!(v["board"]["side_to_move"], "black");
    assert_eq!(v["board"]["hands"][0]["pieces"][1]["count"], 1);
    assert_eq!(v["mainline"][0]["san"], "C*2a");
}

/// The longest win and the longest loss apart: under the current rules the longest distance
/// (136 plies) is a loss's, and the longest win is one ply shorter, as the histogram has them.
#[tokio::test]
async fn stats_tell_the_longest_win_from_the_longest_loss() {
    let s = get("/api/nana/current/stats").await.json();
    let per: Vec<u64> = s["per_dtm"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let last = |parity: usize| (0..per.len()).rev().find(|&d| d % 2 == parity && per[d] > 0).unwrap() as u64;
    let (win, loss) = (s["longest_win"].as_u64().unwrap(), s["longest_loss"].as_u64().unwrap());
    assert_eq!((win, loss), (last(1), last(0)));
    assert_eq!((win, loss, s["max_dtm"].as_u64().unwrap()), (135, 136, 136));
    assert_eq!(s["longest_wins"][0]["dtm"].as_u64(), Some(win));
}

#[tokio::test]
async fn stats_count_every_entry_and_list_the_longest_wins() {
    let r = get("/api/nana/original/stats").await;
    assert_eq!(r.status, StatusCode::OK);
    let s = r.json();
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("losses") + n("draws") + n("unused"), n("entries"));
    let per: u64 = s["per_dtm"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(per, n("wins") + n("losses"));
    let longest = s["longest_wins"].as_array().unwrap();
    assert_eq!(longest.len(), nana_server::LONGEST_WINS);
    assert_eq!(longest[0]["dtm"].as_u64(), Some(n("longest_win")));
    assert_eq!(n("max_dtm"), n("longest_win").max(n("longest_loss")));
    for w in longest {
        let a = get(&format!("/api/nana/original?position={}", w["fen"].as_str().unwrap().replace(' ', "_")))
            .await
            .json();
        assert_eq!((a["category"].as_str(), &a["dtm"]), (Some("win"), &w["dtm"]));
    }
}

async fn error(uri: &str, status: StatusCode) -> Value {
    let r = get(uri).await;
    assert_eq!(r.status, status, "{uri}: {}", r.text());
    assert_eq!(r.headers[header::CONTENT_TYPE], "application/json", "{uri}");
    let body = r.json();
    assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{uri}: {body}");
    body
}

#[tokio::test]
async fn malformed_positions_are_400_naming_the_problem() {
    let e = error("/api/nana/original?position=3/3/3_x_KRBkrb", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("bad position \"3/3/3 x KRBkrb\""), "{e}");
    let e = error("/api/nana/original?position=K2/3/2k_b_RBrbB", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("cubes"), "{e}");
    let e = error("/api/nana/current?position=", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("empty position"), "{e}");
    let e = error("/api/nana/current?position=___", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("empty position"), "{e}");
    let long = "1".repeat(1000);
    let e = error(&format!("/api/nana/current?position={long}"), StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("too long"), "{e}");
    let e =
        error("/api/nana/current?position=3/3/3_b_KRBkrb&position=3/3/3_b_KRBkrb", StatusCode::BAD_REQUEST)
            .await;
    assert!(e["error"].as_str().unwrap().contains("more than once"), "{e}");
    let e =
        error("/api/nana/current?fen=3/3/3_b_KRBkrb&position=3/3/3_b_KRBkrb", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("more than once"), "{e}");
    // An unknown parameter is refused, naming the ones the endpoint takes (it was once ignored:
    // `?fen=` answered the start before `fen` was read).
    let e = error("/api/nana/original?fen=3/3/3_b_KRBkrb&other=x", StatusCode::BAD_REQUEST).await;
    assert!(e["error"].as_str().unwrap().contains("unknown query parameter \"other\""), "{e}");
    assert_eq!(e["valid"], json!(["fen", "position"]));
    for uri in ["/api/health?x=1", "/api/games?fen=x", "/api/nana/original/stats?fen=x"] {
        let e = error(uri, StatusCode::BAD_REQUEST).await;
        assert!(e["error"].as_str().unwrap().contains("takes none"), "{uri}: {e}");
    }
    for kind in ["mainline", "view"] {
        error(&format!("/api/nana/current/{kind}?position=zzz"), StatusCode::BAD_REQUEST).await;
    }
    // Percent-escapes that decode to bytes that are not UTF-8.
    error("/api/nana/current?position=%FF%FE", StatusCode::BAD_REQUEST).await;
    error("/api/nana/current?position=3/3/3%00_b", StatusCode::BAD_REQUEST).await;
}

#[tokio::test]
async fn unknown_games_and_rule_sets_are_404_listing_the_valid_ones() {
    let e = error("/api/chess/standard", StatusCode::NOT_FOUND).await;
    assert_eq!(e["valid"], json!(["nana", "dobutsu"]));
    assert!(e["error"].as_str().unwrap().contains("unknown game \"chess\""));
    for uri in
        ["/api/nana/newest", "/api/nana/newest/mainline", "/api/nana/newest/view", "/api/nana/newest/stats"]
    {
        let e = error(uri, StatusCode::NOT_FOUND).await;
        assert_eq!(e["valid"], json!(["current", "original"]), "{uri}");
    }
    let e = error("/nana/newest", StatusCode::NOT_FOUND).await;
    assert_eq!(e["valid"], json!(["current", "original"]));
    // A game without a rule set is not a game named "api".
    let e = error("/api/nana", StatusCode::NOT_FOUND).await;
    assert_eq!(e["valid"], json!(["current", "original"]), "{e}");
    assert!(!e["error"].as_str().unwrap().contains("\"api\""), "{e}");
    let e = error("/api/chess", StatusCode::NOT_FOUND).await;
    assert_eq!(e["valid"], json!(["nana", "dobutsu"]), "{e}");
}

#[tokio::test]
async fn unknown_paths_are_404_and_no_file_is_served() {
    for uri in [
        "/api/nana/original/bogus",
        "/api/nana",
        "/api",
        "/favicon.ico",
        "/etc/passwd",
        "/../../../etc/passwd",
        "/nana/original/../../Cargo.toml",
        "/api/..%2F..%2FCargo.toml/x",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/nana/original/stats/x",
        "/crates/server/assets/explorer.html",
    ] {
        let r = get(uri).await;
        assert!(r.status == StatusCode::NOT_FOUND, "{uri}: {} {}", r.status, r.text());
        assert!(!r.text().contains("[workspace]") && !r.text().contains("root:"), "{uri}");
    }
}

#[tokio::test]
async fn cors_is_open_for_get() {
    let req = Request::get("/api/nana/original")
        .header(header::ORIGIN, "https://example.org")
        .body(Body::empty())
        .unwrap();
    let r = request(registry(), req).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    let preflight = Request::builder()
        .method(Method::OPTIONS)
        .uri("/api/nana/original")
        .header(header::ORIGIN, "https://example.org")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "GET")
        .body(Body::empty())
        .unwrap();
    let r = request(registry(), preflight).await;
    assert_eq!(r.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    assert!(r.headers[header::ACCESS_CONTROL_ALLOW_METHODS].to_str().unwrap().contains("GET"));
    // Errors carry it too, so that a page elsewhere can read the reason.
    let req = Request::get("/api/nana/original?position=x")
        .header(header::ORIGIN, "https://example.org")
        .body(Body::empty())
        .unwrap();
    let r = request(registry(), req).await;
    assert_eq!(
        (r.status, &r.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN]),
        (StatusCode::BAD_REQUEST, &"*".parse().unwrap())
    );
}

#[tokio::test]
async fn the_page_is_served_at_its_urls() {
    for uri in ["/", "/nana/original", "/nana/current?position=3/3/3_b_KRBkrb", "/nana/original/stats"] {
        let r = get(uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(r.headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{uri}");
        assert!(r.text().contains("<script>") && r.text().contains("id=\"board\""), "{uri}");
    }
    // A method other than GET: 405, with a JSON body and CORS like every error.
    for uri in ["/api/nana/original", "/nana/original", "/api/health"] {
        let req =
            Request::post(uri).header(header::ORIGIN, "https://example.org").body(Body::empty()).unwrap();
        let r = request(registry(), req).await;
        assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{uri}");
        assert!(r.json()["error"].as_str().unwrap().contains("method POST not allowed"), "{uri}");
        assert_eq!(r.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*", "{uri}");
    }
}

/// A table without a value for a position (its entry marked unused, in a file written with a
/// valid header and checksums, whose unused entries are marked rather than don't-care, so that
/// the entry is stored so) answers 404 for it, and for a position whose move leads there.
#[tokio::test]
async fn a_position_outside_the_table_is_404() {
    let solved = table("original");
    let rules = Rules::ORIGINAL;
    let outside = rules.parse_position("R1K/2B/2k b Rb").unwrap();
    let mut entries = solved.entries().to_vec();
    entries[rules.index(&outside) as usize] = nana_engine::ByteCode::ILLEGAL.0;
    let solution = nana_engine::Solution::whole(entries, EntryWidth::One);
    let dir = tempfile::tempdir().unwrap();
    let s = &solution.stats;
    let counts =
        nana_tablebase::Counts { wins: s.wins, losses: s.losses, draws: s.draws, illegal: s.illegal };
    let header = nana_tablebase::Header { dont_care: false, ..rules.header(counts, u32::from(s.max_dtm)) };
    let path = dir.path().join(rules.file_name());
    let stored = rules.file_order().to_file_order(solution.bytes().into_owned(), 1);
    nana_tablebase::write(&path, &header, &stored).unwrap();
    let holed = Table::open(rules, &path).unwrap();
    assert_eq!(
        holed.probe().value(&outside),
        Err(ProbeError::Unused { index: rules.index(&outside), meaning: rules.unused_entry() })
    );
    let mut r = Registry::new();
    r.add(Nana::NAME, "original", Box::new(holed));
    let registry = Arc::new(r);
    for uri in [
        "/api/nana/original?position=R1K/2B/2k_b_Rb",
        "/api/nana/original/mainline?position=R1K/2B/2k_b_Rb",
        "/api/nana/original/view?position=R1K/2B/2k_b_Rb",
    ] {
        let r = request(registry.clone(), Request::get(uri).body(Body::empty()).unwrap()).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}: {}", r.text());
        assert!(r.json()["error"].as_str().unwrap().contains("not in the table"));
    }
    // Positions that do not lead there still answer: here a mate, without moves.
    let r = request(
        registry.clone(),
        Request::get(format!("/api/nana/original?position={}", mated().replace(' ', "_")))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["checkmate"], true);
}

/// `nana serve`'s start: tables opened from their files; with solving turned off, every
/// missing file named at once, each rule set reported missing.
#[test]
fn tables_load_from_their_files_and_missing_ones_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut registry = Registry::new();
    let notes = add_game::<Nana>(&mut registry, dir.path(), Missing::Refuse);
    for (note, file) in notes.iter().zip(["nana-current.tb", "nana-original.tb"]) {
        assert!(note.contains(&dir.path().join(file).display().to_string()), "{note}");
    }
    assert!(!registry.serves_anything());
    let states: Vec<_> = registry.health().rule_sets.into_iter().map(|r| r.status).collect();
    assert!(states.iter().all(|s| matches!(s, nana_server::Status::Missing { .. })), "{states:?}");
    // The test run's files, as `nana solve` writes them (tests/cli/solve.rs).
    for &nana_front::RuleSet { rules, .. } in Nana::RULE_SETS {
        std::fs::copy(nana_fixture::path(rules), dir.path().join(rules.file_name())).unwrap();
    }
    let mut registry = Registry::new();
    assert!(add_game::<Nana>(&mut registry, dir.path(), Missing::Refuse).is_empty());
    let games = registry.games();
    // The file's name, never the server's folder.
    assert_eq!(
        games[0].rule_sets[1].status,
        nana_server::Status::Ready { origin: "nana-original.tb".into() }
    );
    for &nana_front::RuleSet { name, .. } in Nana::RULE_SETS {
        let from_file = registry.get(Nana::NAME, name).unwrap().answer(Some("R1K/2B/2k_b_Rb")).unwrap();
        assert_eq!(from_file, table(name).answer(Some("R1K/2B/2k_b_Rb")).unwrap(), "{name}");
    }
}

/// A table whose file has a damaged block, served: every lookup that reads the block is a 500
/// naming it (never an answer, never a panic), every time it is asked; so are the statistics,
/// which read every block; a position whose lookups read other blocks answers as from the
/// intact table.
#[tokio::test]
async fn a_damaged_block_is_an_error_every_time_and_other_positions_answer() {
    let rules = Rules::CURRENT;
    let mut bytes = std::fs::read(nana_fixture::path(rules)).unwrap();
    let elsewhere = rules.parse_position("R1K/2B/2k b Rb").unwrap();
    let block = nana_fixture::damage_block_of(&mut bytes, rules.file_order().place(rules.index(&elsewhere)));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(rules.file_name());
    std::fs::write(&path, &bytes).unwrap();
    let mut r = Registry::new();
    r.add(Nana::NAME, "current", Box::new(Table::open(rules, &path).unwrap()));
    let registry = Arc::new(r);
    let named = format!("checksum mismatch in compressed block {block} ");
    for _ in 0..2 {
        for uri in [
            "/api/nana/current?position=R1K/2B/2k_b_Rb",
            "/api/nana/current/mainline?position=R1K/2B/2k_b_Rb",
            "/api/nana/current/view?position=R1K/2B/2k_b_Rb",
            "/api/nana/current/stats",
        ] {
            let r = request(registry.clone(), Request::get(uri).body(Body::empty()).unwrap()).await;
            assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR, "{uri}: {}", r.text());
            let error = r.json()["error"].as_str().unwrap().to_string();
            assert!(error.contains(&named), "{uri}: {error}");
            assert!(!error.contains(&dir.path().display().to_string()), "{uri}: {error}");
        }
    }
    let r = request(registry.clone(), Request::get("/api/nana/current").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json(), serde_json::to_value(table("current").answer(None).unwrap()).unwrap());
}

/// A malformed position is a 400 whatever the state of the rule set's table: read by the rules
/// while the table is being solved (queued here), before the 503 that a well-formed one gets.
#[tokio::test]
async fn a_malformed_position_is_a_400_before_the_table_is_ready() {
    let mut r = Registry::new();
    let current = Rules::CURRENT;
    r.add_pending("nana", "current", current.describe(), current.words(), nana_server::Status::Queued, None);
    r.set_board("nana", "current", nana_server::board_of(current));
    let registry = Arc::new(r);
    for kind in ["", "/mainline", "/view"] {
        let bad = format!("/api/nana/current{kind}?position=garbage");
        let reply = request(registry.clone(), Request::get(&bad).body(Body::empty()).unwrap()).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad}: {}", reply.text());
        assert!(reply.json()["error"].as_str().unwrap().contains("garbage"), "{}", reply.text());
        let good = format!("/api/nana/current{kind}?position=R1K/2B/2k_b_Rb");
        let reply = request(registry.clone(), Request::get(&good).body(Body::empty()).unwrap()).await;
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{good}: {}", reply.text());
    }
}

/// The same for Dobutsu, whose table is the one long in solving: `fen=garbage` is a 400 while
/// the table is being solved, the start a 503.
#[tokio::test]
async fn a_malformed_dobutsu_position_is_a_400_before_the_table_is_ready() {
    use dobutsu_shogi::Rules;
    let mut r = Registry::new();
    let tanaka = Rules::TANAKA;
    r.add_pending("dobutsu", "tanaka", tanaka.describe(), tanaka.words(), nana_server::Status::Queued, None);
    r.set_board("dobutsu", "tanaka", nana_server::board_of(tanaka));
    let registry = Arc::new(r);
    for kind in ["", "/mainline", "/view"] {
        let bad = format!("/api/dobutsu/tanaka{kind}?fen=garbage");
        let reply = request(registry.clone(), Request::get(&bad).body(Body::empty()).unwrap()).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{bad}: {}", reply.text());
        assert!(reply.json()["error"].as_str().unwrap().contains("garbage"), "{}", reply.text());
        let good = format!("/api/dobutsu/tanaka{kind}?fen=gle/1c1/1C1/ELG%5B-%5D_w_0_1");
        let reply = request(registry.clone(), Request::get(&good).body(Body::empty()).unwrap()).await;
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{good}: {}", reply.text());
    }
}
