//! The site's answers against the server's, over the fixture's tables: the same JSON for the
//! same URL, fetched in as few rounds as the crate says.

use std::path::PathBuf;

use nana_front::Game;
use nana_probe::ProbeRules;
use nana_server::Explorer;
use nana_tablebase::Tablebase;
use nana_web::{Outcome, Site, SiteTable, TAIL};

/// A site over `files`, and how it answers: fetching what it needs from the files, as the page
/// does; the answer with the rounds of fetching and the bytes fetched.
struct Fetcher {
    site: Site,
    files: Vec<(String, Vec<u8>)>,
}

impl Fetcher {
    fn new(paths: &[PathBuf]) -> Fetcher {
        let files: Vec<(String, Vec<u8>)> = paths
            .iter()
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(p).unwrap()))
            .collect();
        Fetcher::of(files)
    }

    fn of(files: Vec<(String, Vec<u8>)>) -> Fetcher {
        let tables: Vec<SiteTable> =
            files.iter().map(|(f, b)| SiteTable { file: f.clone(), size: b.len() as u64 }).collect();
        Fetcher { site: Site::new(&tables), files }
    }

    fn get(&self, url: &str) -> (u16, String, usize, u64) {
        let got = self.get_so_far(url);
        (got.status, got.body, got.rounds, got.bytes)
    }

    /// The answer to `url`, with every view so far the site gave on the way.
    fn get_so_far(&self, url: &str) -> Got {
        let (mut rounds, mut bytes, mut requests) = (0, 0, 0);
        let mut so_far = Vec::new();
        loop {
            match self.site.handle(url) {
                Outcome::Answer { status, body } => {
                    return Got { status, body, rounds, bytes, requests, so_far };
                }
                Outcome::Need { ranges, so_far: view } => {
                    if let Some(view) = view {
                        so_far.push(SoFar { view, rounds, bytes, requests });
                    }
                    rounds += 1;
                    assert!(rounds < 1000, "{url}: no answer after 1000 rounds");
                    for r in ranges {
                        let (_, data) = self.files.iter().find(|(f, _)| *f == r.file).unwrap();
                        bytes += r.end - r.start;
                        requests += 1;
                        self.site.supply(&r.file, r.start, &data[r.start as usize..r.end as usize]).unwrap();
                    }
                }
            }
        }
    }
}

/// An answer, the rounds of fetching, bytes and range requests it took, and the views so far.
struct Got {
    status: u16,
    body: String,
    rounds: usize,
    bytes: u64,
    requests: usize,
    so_far: Vec<SoFar>,
}

/// A view so far, after `rounds` rounds of fetching, `bytes` bytes in `requests` requests.
struct SoFar {
    view: String,
    rounds: usize,
    bytes: u64,
    requests: usize,
}

/// Positions along random games from the start (a small linear congruential generator, fixed
/// seed): `n` of them.
fn walk<R: ProbeRules>(rules: &R, n: usize, seed: u64) -> Vec<String> {
    let mut state = seed;
    let mut out = Vec::new();
    let mut pos = rules.start();
    while out.len() < n {
        out.push(rules.position_string(&pos));
        let mut children = Vec::new();
        rules.for_each_move(&pos, |_, child| children.push(child.clone()));
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if children.is_empty() || rules.terminal(&pos).is_some() || state >> 60 == 0 {
            pos = rules.start();
        } else {
            pos = children.swap_remove((state >> 33) as usize % children.len());
        }
    }
    out
}

fn url_of(fen: &str) -> String {
    fen.replace(' ', "_").replace('+', "%2B").replace('#', "%23")
}

/// The site's answers at `walk_len` positions of a walk of each rule set of `G` named in
/// `rule_sets`, and to a malformed position, against the server's over the fixture's tables.
fn same_answers<G: Game>(rule_sets: &[&str], walk_len: usize)
where
    G::Rules: Clone,
{
    let chosen: Vec<_> = G::RULE_SETS.iter().filter(|r| rule_sets.contains(&r.name)).collect();
    assert_eq!(chosen.len(), rule_sets.len(), "{rule_sets:?} are rule sets of {}", G::NAME);
    let fetcher = Fetcher::new(&chosen.iter().map(|r| nana_fixture::path(r.rules)).collect::<Vec<_>>());
    let game = G::NAME;
    for rule_set in chosen {
        let rules = rule_set.name;
        let table = nana_fixture::table(rule_set.rules);
        for fen in walk(&rule_set.rules, walk_len, 7) {
            let url = format!("/api/{game}/{rules}/view?fen={}", url_of(&fen));
            let (status, body, _, _) = fetcher.get(&url);
            let server =
                Explorer::view(&table, game, rules, Some(&fen)).map(|v| serde_json::to_string(&v).unwrap());
            match server {
                Ok(expected) => assert_eq!((status, body), (200, expected), "{url}"),
                Err(e) => assert_eq!((status, body), (e.code(), e.body()), "{url}"),
            }
        }
        let (status, body, _, _) = fetcher.get(&format!("/api/{game}/{rules}?fen=not_a_position"));
        let expected = Explorer::answer(&table, Some("not a position")).unwrap_err();
        assert_eq!((status, body), (400, expected.body()));
    }
}

#[test]
fn nanas_answers_are_the_servers() {
    same_answers::<nana_shogi::Nana>(&["current", "original"], 100);
}

#[test]
fn dobutsus_answers_are_the_servers() {
    same_answers::<dobutsu_shogi::Dobutsu>(&["tanaka"], 100);
}

/// The same of the safe-try reading: its table is a second whole-game solve, which the
/// self-check's `nana verify --solve` makes anyway (the fixture takes its table from there).
#[test]
#[ignore = "exhaustive tier: cargo xtask self-check"]
fn dobutsus_safe_try_answers_are_the_servers() {
    same_answers::<dobutsu_shogi::Dobutsu>(&["safe-try"], 100);
}

/// The Dobutsu start from a cold cache: the first view so far, with the start's value and
/// ranked moves, after 3 rounds (the header with the histogram, the index records, the blocks)
/// and under 64 KB; every later view so far holds the mainline a little further; the whole
/// answer is the server's. The rounds and bytes are printed
/// (`cargo test -p nana-web --test site -- --nocapture`).
#[test]
fn dobutsus_start_from_a_cold_cache() {
    let path = nana_fixture::path(dobutsu_shogi::Rules::TANAKA);
    let fetcher = Fetcher::new(&[path]);
    let (status, _, rounds, bytes) = fetcher.get("/api/games");
    assert_eq!((status, rounds, bytes), (200, 0, 0), "listing the games fetches nothing");
    let got = fetcher.get_so_far("/api/dobutsu/tanaka/view");
    let table = nana_fixture::table(dobutsu_shogi::Rules::TANAKA);
    let expected = Explorer::view(&table, "dobutsu", "tanaka", None).unwrap();
    assert_eq!((got.status, got.body), (200, serde_json::to_string(&expected).unwrap()));
    let first = got.so_far.first().expect("a view before the whole mainline");
    assert_eq!(first.rounds, 3, "the first view so far after the header, the index records and the blocks");
    assert!(first.bytes <= 64 << 10, "{} bytes for the first view", first.bytes);
    let mut known = 0;
    for so_far in &got.so_far {
        let view: serde_json::Value = serde_json::from_str(&so_far.view).unwrap();
        let mut whole = serde_json::to_value(&expected).unwrap();
        // The view so far is the server's view, its two mainlines cut to the plies known.
        let plies = view["mainline"].as_array().unwrap().len();
        assert!(plies < expected.mainline.len() && plies >= known, "{plies} plies after {known}");
        known = plies;
        whole["mainline"].as_array_mut().unwrap().truncate(plies);
        whole["answer"]["mainline"].as_array_mut().unwrap().truncate(plies);
        assert_eq!(view, whole, "the view so far after {} rounds", so_far.rounds);
    }
    println!(
        "the Dobutsu start's view: value and ranked moves after {} rounds, {} bytes in {} requests; \
         the whole mainline ({} plies) after {} rounds, {} bytes in {} requests",
        first.rounds,
        first.bytes,
        first.requests,
        expected.mainline.len(),
        got.rounds,
        got.bytes,
        got.requests
    );
    let (_, _, again, _) = fetcher.get("/api/dobutsu/tanaka/view");
    assert_eq!(again, 0, "asked again, nothing is fetched");

    // The page fetches the header and the last TAIL bytes while the module compiles: the first
    // view then takes 2 rounds.
    let fetcher = Fetcher::new(&[nana_fixture::path(dobutsu_shogi::Rules::TANAKA)]);
    let (file, bytes) = &fetcher.files[0];
    let len = bytes.len();
    fetcher.site.supply(file, 0, &bytes[..256]).unwrap();
    fetcher.site.supply(file, (len - TAIL as usize) as u64, &bytes[len - TAIL as usize..]).unwrap();
    let got = fetcher.get_so_far("/api/dobutsu/tanaka/view");
    assert_eq!(got.so_far.first().map(|s| s.rounds), Some(2), "the header and histogram fetched first");
}

/// Once a first view is shown, the page fetches the block index of each table opened by range
/// (`Site::block_indexes`, 12 bytes a block): every later ply of the mainline then takes one
/// round of fetching, its blocks, not two. Before the table is opened, and once its index is
/// fetched, there is nothing to fetch in the background.
#[test]
fn with_the_block_index_fetched_a_mainline_takes_a_round_a_ply() {
    let fetcher = Fetcher::new(&[nana_fixture::path(dobutsu_shogi::Rules::TANAKA)]);
    let (file, bytes) = &fetcher.files[0];
    let url = "/api/dobutsu/tanaka/view";
    assert_eq!(fetcher.site.block_indexes(), [], "no table is open yet");
    let mut rounds = 0;
    let first_plies = loop {
        let Outcome::Need { ranges, so_far } = fetcher.site.handle(url) else {
            panic!("an answer before a view")
        };
        if let Some(view) = so_far {
            let view: serde_json::Value = serde_json::from_str(&view).unwrap();
            break view["mainline"].as_array().unwrap().len();
        }
        rounds += 1;
        for r in ranges {
            fetcher.site.supply(&r.file, r.start, &bytes[r.start as usize..r.end as usize]).unwrap();
        }
    };
    let index = fetcher.site.block_indexes();
    let (_, blocks) = Tablebase::from_bytes(bytes.clone()).unwrap().block_entries().unwrap();
    assert_eq!(index.len(), 1, "{index:?}");
    assert_eq!(
        (index[0].file.as_str(), index[0].start, index[0].end),
        (file.as_str(), 256, 256 + 12 * blocks)
    );
    fetcher.site.supply(file, 256, &bytes[256..(256 + 12 * blocks) as usize]).unwrap();
    assert_eq!(fetcher.site.block_indexes(), [], "the index is fetched");

    let got = fetcher.get_so_far(url);
    let table = nana_fixture::table(dobutsu_shogi::Rules::TANAKA);
    let expected = Explorer::view(&table, "dobutsu", "tanaka", None).unwrap();
    assert_eq!((got.status, got.body), (200, serde_json::to_string(&expected).unwrap()));
    let plies = expected.mainline.len() - first_plies;
    assert!(got.rounds <= plies + 1, "{} rounds for {plies} plies after the first view", got.rounds);
    println!("after the block index: {} rounds for the last {plies} plies of the mainline ({rounds} rounds before)", got.rounds);
}

/// A damaged block of a table read by range: the block is named and its positions refused,
/// every time; the other positions still answer.
#[test]
fn a_damaged_block_is_named_and_its_position_refused() {
    let rules = dobutsu_shogi::Rules::TANAKA;
    let path = nana_fixture::path(rules);
    let mut bytes = std::fs::read(&path).unwrap();
    let start = rules.start();
    let block = nana_fixture::damage_block_of(&mut bytes, rules.file_order().place(rules.index(&start)));
    let fetcher = Fetcher::of(vec![("dobutsu-tanaka.tb".to_string(), bytes)]);
    for _ in 0..2 {
        let (status, body, _, _) = fetcher.get("/api/dobutsu/tanaka");
        assert_eq!(status, 500, "{body}");
        assert!(body.contains(&format!("block {block}")), "{body}");
    }
    // A position whose entry lies in another block answers as the intact table does.
    let table = nana_fixture::table(rules);
    let other = walk(&rules, 40, 3)
        .into_iter()
        .map(|fen| rules.parse_position(&fen).unwrap())
        .find(|p| {
            let i = rules.index(p) / 4096;
            i != block && rules.terminal(p).is_none() && table.probe().answer(p, 0).is_ok()
        })
        .expect("a position in another block");
    let fen = rules.position_string(&other);
    let (status, body, _, _) = fetcher.get(&format!("/api/dobutsu/tanaka/mainline?fen={}", url_of(&fen)));
    let expected = serde_json::to_string(&Explorer::mainline(&table, Some(&fen)).unwrap()).unwrap();
    if body.contains(&format!("block {block}")) {
        // Its mainline runs through the damaged block: refused too, never a wrong value.
        assert_eq!(status, 500, "{body}");
    } else {
        assert_eq!((status, body), (200, expected));
    }
}

#[test]
fn a_missing_table_is_named_with_its_command() {
    let fetcher = Fetcher::new(&[]);
    let (status, body, _, _) = fetcher.get("/api/dobutsu/safe-try");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("dobutsu-safe-try.tb"), "{body}");
    assert!(body.contains("nana --game dobutsu solve --rules safe-try"), "{body}");
    // A malformed position is a 400 all the same, as the server answers it.
    let (status, body, _, _) = fetcher.get("/api/dobutsu/safe-try?fen=x");
    assert_eq!(status, 400, "{body}");
    // Its board is drawn all the same, as the server draws it.
    let (status, body, _, _) = fetcher.get("/api/dobutsu/safe-try/board");
    let rules = dobutsu_shogi::Rules::SAFE_TRY;
    let expected = nana_server::board_of(rules)(None).unwrap();
    assert_eq!((status, body), (200, serde_json::to_string(&expected).unwrap()));
    assert_eq!(expected.fen, rules.position_string(&rules.start()));
    let (status, body, _, _) = fetcher.get("/api/dobutsu/safe-try/board?fen=nonsense");
    assert_eq!(status, 400, "{body}");
    let (status, body, _, _) = fetcher.get("/api/chess/x");
    assert_eq!(status, 404, "{body}");
    // An escape that is not one stays as it is, as the server's query extractor keeps it: the
    // position "%ZZ" is malformed. A path that is not UTF-8 once decoded is a 400 too.
    let (status, body, _, _) = fetcher.get("/api/nana/current?fen=%ZZ");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("%ZZ") && !body.contains("escape"), "{body}");
    let (status, body, _, _) = fetcher.get("/api/nana/%FF");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("malformed path"), "{body}");
}

/// Dobutsu's statistics, over a table read by range: the counts of its histogram, fetched with
/// its header in one round, are the server's (which counts every entry); the longest wins are
/// left out, and the answer says so.
#[test]
fn dobutsus_statistics_come_from_the_header() {
    let fetcher = Fetcher::new(&[nana_fixture::path(dobutsu_shogi::Rules::TANAKA)]);
    let (status, body, rounds, bytes) = fetcher.get("/api/dobutsu/tanaka/stats");
    assert_eq!(status, 200, "{body}");
    assert!(rounds <= 2 && bytes <= 256 + TAIL, "{rounds} rounds, {bytes} bytes");
    let got: serde_json::Value = serde_json::from_str(&body).unwrap();
    let table = nana_fixture::table(dobutsu_shogi::Rules::TANAKA);
    let mut want = serde_json::to_value(Explorer::stats(&table).unwrap()).unwrap();
    assert_eq!(got["longest_wins_omitted"], true);
    assert_eq!(got["longest_wins"], serde_json::json!([]));
    for key in ["origin", "longest_wins"] {
        want.as_object_mut().unwrap().remove(key);
    }
    for (key, value) in want.as_object().unwrap() {
        assert_eq!(&got[key], value, "{key}");
    }
    // Nana's tables, fetched whole, are counted as the server counts them, with no such note.
    let nana = Fetcher::new(&[nana_fixture::path(nana_shogi::Rules::CURRENT)]);
    let (status, body, _, _) = nana.get("/api/nana/current/stats");
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("longest_wins_omitted"), "{body}");
}
