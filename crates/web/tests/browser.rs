//! The static site end to end in headless Chromium: `cargo xtask site` writes it into a
//! temporary folder (under a sub-path) from the fixture's tables, npm's `http-server` serves it,
//! no `nana` process runs, and `tests/browser/site.mjs` (playwright-core) checks the page
//! against the answers of `nana query --json` (the probe's [`Answer`](nana_probe::Answer), whose
//! JSON the command prints). Needs Node.js and Chromium (`cargo xtask test` installs them) and
//! installs the pinned npm packages of `tests/browser` where they are missing.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nana_front::Game;
use nana_probe::table::TableRules;
use nana_probe::ProbeRules;
use serde_json::{json, Value};

const INSTALL: &str =
    "run the tests with `cargo xtask test`, which installs them, or install the browser test's \
     tools: `apt-get install -y nodejs npm chromium` and `npm ci --prefix tests/browser`";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace")
}

/// The positions of each rule set's random walk that the page answers (the site's own test,
/// `site.rs`, compares 100 a rule set natively).
const WALK: usize = 40;

/// Positions along random games from the start (fixed seed): `n` of them.
fn walk<R: ProbeRules>(rules: &R, n: usize, seed: u64) -> Vec<R::Position>
where
    R::Position: Clone,
{
    let mut state = seed;
    let mut out = Vec::new();
    let mut pos = rules.start();
    while out.len() < n {
        out.push(pos.clone());
        let mut children = Vec::new();
        rules.for_each_move(&pos, |_, child| children.push(child.clone()));
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        pos = if children.is_empty() || state >> 59 == 0 {
            rules.start()
        } else {
            children.swap_remove((state >> 33) as usize % children.len())
        };
    }
    out
}

/// What the page must show for every rule set of `G` but those named in `leave_out`: the start's
/// answer and those of a walk, as `nana query --json` prints them.
fn expected<G: Game>(walk_len: usize, leave_out: &[&str]) -> Vec<Value>
where
    G::Rules: Clone,
{
    G::RULE_SETS
        .iter()
        .filter(|r| !leave_out.contains(&r.name))
        .map(|r| {
            let table = nana_fixture::table(r.rules);
            let probe = table.probe();
            let answer = |p| serde_json::to_value(probe.answer(p, nana_server::DRAW_LINE).unwrap()).unwrap();
            let positions = walk(&r.rules, walk_len, 11);
            let start = r.rules.start();
            let walk: Vec<Value> = positions
                .iter()
                .map(|p| json!({"fen": r.rules.position_string(p), "answer": answer(p)}))
                .collect();
            // The counts of the table's statistics (its histogram, as the site reads them).
            let s = table.stats();
            let longest_win = (1..s.per_dtm.len()).rev().find(|&d| d % 2 == 1 && s.per_dtm[d] > 0);
            let stats = json!({
                "wins": s.wins,
                "losses": s.losses,
                "draws": s.draws,
                "unused": s.illegal,
                "longest_win": longest_win,
            });
            json!({
                "game": G::NAME,
                "rules": r.name,
                "file": r.rules.file_name(),
                "start": answer(&start),
                "walk": walk,
                "stats": stats,
            })
        })
        .collect()
}

/// A static file server the project did not write, killed when dropped.
struct StaticServer(Child);

impl Drop for StaticServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Long: one run of the site in Chromium, each step on what the one before made: the tools
/// checked, the tables copied and the answers expected, the site built and served, the
/// browser's script run.
#[test]
fn the_static_site_answers_in_chromium_as_the_command_line_does() {
    let root = workspace();
    assert!(
        Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success()),
        "Node.js (`node`) is not available: {INSTALL}"
    );
    let chromium =
        std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(chromium.exists(), "no Chromium at {}: {INSTALL}", chromium.display());
    let modules = root.join("tests/browser/node_modules");
    if !modules.join("playwright-core").is_dir() || !modules.join("http-server").is_dir() {
        let npm = Command::new("npm")
            .args(["ci", "--prefix", "tests/browser", "--no-audit", "--no-fund"])
            .current_dir(&root)
            .output();
        let ok = npm.as_ref().is_ok_and(|o| o.status.success());
        let why = npm.map_or_else(|e| e.to_string(), |o| String::from_utf8_lossy(&o.stderr).into_owned());
        assert!(ok, "`npm ci --prefix tests/browser` failed ({why}): {INSTALL}");
    }

    // Every table but Dobutsu's safe-try, which the site then names as missing.
    let mut rule_sets = expected::<nana_shogi::Nana>(WALK, &[]);
    rule_sets.extend(expected::<dobutsu_shogi::Dobutsu>(WALK, &["safe-try"]));
    let tables = tempfile::tempdir().expect("a temporary folder");
    for rs in &rule_sets {
        let file = rs["file"].as_str().unwrap();
        std::fs::copy(nana_fixture::run_dir().join(file), tables.path().join(file)).expect("copies a table");
    }
    let missing = [json!({
        "game": "dobutsu",
        "rules": "safe-try",
        "file": "dobutsu-safe-try.tb",
        "command": "nana --game dobutsu solve --rules safe-try",
    })];
    let bad = "garbage";
    let error = nana_shogi::Rules::CURRENT.parse_position(bad).unwrap_err().to_string();
    let expected = json!({
        "rule_sets": rule_sets,
        "bad": {"game": "nana", "rules": "current", "fen": bad, "error": error},
        "missing": missing,
    });

    let served = tempfile::tempdir().expect("a temporary folder");
    let site = served.path().join("user/repo");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["xtask", "site", "--out"])
        .arg(&site)
        .arg("--tablebase-dir")
        .arg(tables.path())
        .current_dir(&root)
        .status()
        .expect("cargo runs");
    assert!(built.success(), "`cargo xtask site` failed");
    for entry in walkdir(&site) {
        let len = entry.metadata().unwrap().len();
        assert!(len <= 50 << 20, "{} is {len} bytes, over 50 MB", entry.display());
    }
    let expected_file = served.path().join("expected.json");
    std::fs::write(&expected_file, expected.to_string()).unwrap();

    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let _server = StaticServer(
        Command::new("node")
            .arg(modules.join("http-server/bin/http-server"))
            .arg(served.path())
            .args(["-a", "127.0.0.1", "-p", &port.to_string(), "-c-1", "--silent"])
            .stdout(Stdio::null())
            .spawn()
            .expect("http-server starts"),
    );
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "http-server did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let run = Command::new("node")
        .arg(root.join("tests/browser/site.mjs"))
        .arg(format!("http://127.0.0.1:{port}/user/repo/"))
        .arg(&expected_file)
        .current_dir(&root)
        .output()
        .expect("node runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    eprintln!("{stdout}{stderr}");
    match run.status.code() {
        Some(0) => {}
        Some(2) => panic!("the browser test could not start: {}\n{INSTALL}", stderr.trim()),
        _ => panic!("the browser test failed ({}): {}", run.status, stderr.trim()),
    }
    let record = served.path().join("expected.json.record.json");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    the_record_reads_back(&record);
}

/// The game played in the page, its record copied as USI and as KIF (`site.mjs` writes them with
/// the positions of the game, `fens`): the USI moves, read by the game's USI reader and played
/// from the start, go through the game's positions; each KIF move, read here into USI form
/// (destination, piece, origin or 打, 成), is the USI record's move.
fn the_record_reads_back(record: &Value) {
    use dobutsu_shogi::{fen, usi, Position, Rules};
    let rules = Rules::TANAKA;
    let fens: Vec<Position> = record["fens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| fen::parse_position(f.as_str().unwrap()).unwrap())
        .collect();
    let text = record["usi"].as_str().unwrap();
    let moves: Vec<&str> = text.strip_prefix("position startpos moves ").expect(text).split(' ').collect();
    assert_eq!(moves.len() + 1, fens.len(), "{text}");
    let mut pos = Position::start();
    assert_eq!(pos, fens[0]);
    for (i, m) in moves.iter().enumerate() {
        let mv = usi::parse_move(&pos, &rules, m).unwrap_or_else(|e| panic!("USI move {}: {e}", i + 1));
        pos = pos.play(&rules, mv).unwrap();
        assert_eq!(pos, fens[i + 1], "after the USI record's move {} ({m})", i + 1);
    }
    let kif = record["kif"].as_str().unwrap();
    let (_, body) = kif.split_once("手数----指手---------消費時間--\n").expect(kif);
    let read: Vec<String> = body.lines().map(kif_move_as_usi).collect();
    assert_eq!(read, moves, "the KIF record's moves read as USI\n{kif}");
}

/// A KIF move line of Dobutsu shogi (`   1 ３三ライオン(24)`, `  12 ２二ひよこ打`,
/// `   5 ２一ひよこ成(22)`) in USI form (`2d3c`, `C*2b`, `2b2a+`): the destination is a
/// full-width file digit and a kanji rank (一 the top rank, `a` in USI), the origin two digits.
fn kif_move_as_usi(line: &str) -> String {
    let (_, mv) = line.trim_start().split_once(' ').unwrap_or_else(|| panic!("no move on the line {line:?}"));
    let mut chars = mv.chars();
    let file = chars.next().and_then(|c| "１２３".chars().position(|d| d == c)).expect(line) + 1;
    let rank = chars.next().and_then(|c| "一二三四".chars().position(|d| d == c)).expect(line);
    let to = format!("{file}{}", (b'a' + rank as u8) as char);
    let rest: String = chars.collect();
    let letter = [("ライオン", 'L'), ("キリン", 'G'), ("ゾウ", 'E'), ("ひよこ", 'C'), ("にわとり", 'H')];
    let (name, piece) = letter.iter().find(|(name, _)| rest.starts_with(name)).expect(line);
    let rest = &rest[name.len()..];
    if rest == "打" {
        return format!("{piece}*{to}");
    }
    let (promote, rest) = rest.strip_prefix("成").map_or(("", rest), |r| ("+", r));
    let from = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).expect(line);
    let (from_file, from_rank) = from.split_at(1);
    let from_rank = (b'a' + from_rank.parse::<u8>().expect(line) - 1) as char;
    format!("{from_file}{from_rank}{to}{promote}")
}

/// Every file under `dir`.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out
}
