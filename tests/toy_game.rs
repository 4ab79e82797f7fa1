//! A third game, added to the command line and the explorer by one registration: take-away, a
//! test double written here against the front layer's traits alone. It is solved, queried,
//! checked, verified, served, played by `nana engine` and listed like the games of the `nana`
//! binary, with no other edit to any crate.
//!
//! Take-away: a pile of 0 to 12 stones, the side to move takes one or two; who cannot move has
//! lost. Positions with a multiple of 3 stones are lost, in as many plies as there are stones
//! times 2/3: the start (12 stones) is a loss in 8 for the first player.
//!
//! Long: the whole game is written here, against the front layer's traits alone, as a new
//! game would be.

use std::ffi::OsString;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use nana_cli::games::{game, Registered, GAMES};
use nana_engine::{CheckError, Dtm, EntryWidth, Node, Progress, Solution, SolveError, Value};
use nana_front::{
    Board, CheckFailed, Claims, EndingWords, Explorable, Game, Hand, Load, MoveSquares, Palette, Perft,
    PieceView, ProtocolNotation, Report, ReportError, RuleSet, SquareView, WholeCheck, Words,
};
use nana_probe::table::{RulesError, Table, TableRules};
use nana_probe::{Ending, InputError, ProbeRules, Terminal};
use nana_server::{Missing, Registry, Status};
use nana_tablebase::{Encoding, Expected, Header};
use tower::ServiceExt;

const MAX: u8 = 12;
const EMPTY: Ending = Ending::new("empty");

/// A pile and the side to move (0 moves first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pile {
    stones: u8,
    side: u8,
}

impl fmt::Display for Pile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.stones, ['a', 'b'][usize::from(self.side)])
    }
}

/// The rule sets: the same game, `Gated`'s solve waiting for [`open_gate`] (a stand-in for a
/// solve that takes minutes, as Dobutsu's does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Toy {
    Standard,
    Gated,
}

/// Whether `Gated`'s solves may run.
static GATE: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

fn open_gate() {
    *GATE.0.lock().unwrap() = true;
    GATE.1.notify_all();
}

/// The game as the solver sees it: entry `2 * stones + side`.
struct Solver;

impl nana_engine::Graph for Solver {
    fn size(&self) -> u64 {
        2 * (u64::from(MAX) + 1)
    }
    fn successors(&self, index: u64, out: &mut Vec<u64>) -> Node {
        let (stones, side) = (index / 2, index % 2);
        for take in (1..=2).filter(|&t| t <= stones) {
            out.push(2 * (stones - take) + (1 - side));
        }
        Node::moves_or_loss(stones > 0)
    }
    fn predecessors(&self, index: u64, out: &mut Vec<u64>) {
        let (stones, side) = (index / 2, index % 2);
        for take in (1..=2).filter(|&t| stones + t <= u64::from(MAX)) {
            out.push(2 * (stones + take) + (1 - side));
        }
    }
}

impl ProbeRules for Toy {
    type Position = Pile;
    type Move = u8;
    type ParseError = InputError;
    const ENDINGS: &'static [Ending] = &[EMPTY];
    const TERMINAL_VALUES: &'static [Value] = &[Value::Loss(Dtm(0))];

    fn size(&self) -> u64 {
        nana_engine::Graph::size(&Solver)
    }
    fn index(&self, p: &Pile) -> u64 {
        2 * u64::from(p.stones) + u64::from(p.side)
    }
    fn for_each_move(&self, p: &Pile, mut f: impl FnMut(u8, &Pile)) {
        for take in (1..=2).filter(|&t| t <= p.stones) {
            f(take, &Pile { stones: p.stones - take, side: 1 - p.side });
        }
    }
    fn terminal(&self, p: &Pile) -> Option<Terminal> {
        (p.stones == 0).then_some(Terminal { value: Value::Loss(Dtm(0)), ending: EMPTY })
    }
    fn machine_notation(&self, _: &Pile, take: u8) -> String {
        format!("-{take}")
    }
    fn human_notation(&self, _: &Pile, take: u8) -> String {
        format!("take {take}")
    }
    fn position_string(&self, p: &Pile) -> String {
        p.to_string()
    }
    fn unindex(&self, i: u64) -> Option<Pile> {
        (i < self.size()).then_some(Pile { stones: (i / 2) as u8, side: (i % 2) as u8 })
    }
    fn start(&self) -> Pile {
        Pile { stones: MAX, side: 0 }
    }
    fn parse_position(&self, input: &str) -> Result<Pile, InputError> {
        let bad = || InputError(format!("not a pile of 0 to {MAX} stones and a side a or b: {input}"));
        let (stones, side) = input.trim().split_once(' ').ok_or_else(bad)?;
        let stones = stones.parse().ok().filter(|&s| s <= MAX).ok_or_else(bad)?;
        let side = match side {
            "a" => 0,
            "b" => 1,
            _ => return Err(bad()),
        };
        Ok(Pile { stones, side })
    }
    fn parse_move(&self, p: &Pile, input: &str) -> Result<u8, InputError> {
        let take = input.trim().strip_prefix('-').and_then(|t| t.parse().ok());
        take.filter(|&t| (1..=2).contains(&t) && t <= p.stones)
            .ok_or_else(|| InputError(format!("not a legal move: {input}")))
    }
    fn play(&self, p: &Pile, take: u8) -> Pile {
        Pile { stones: p.stones - take, side: 1 - p.side }
    }
}

impl TableRules for Toy {
    fn file_name(&self) -> String {
        format!("toy-{}.tb", self.rule_set_name())
    }
    fn rule_set_name(&self) -> String {
        match self {
            Toy::Standard => "standard",
            Toy::Gated => "gated",
        }
        .to_string()
    }
    fn options_text(&self) -> String {
        String::new()
    }
    fn expected(&self) -> Expected<'static> {
        Expected {
            game: "toy-take-away",
            rule_set_id: *self as u32,
            option_bits: 0,
            layout_version: 1,
            entry_width: 1,
            encoding: Encoding::DtmPlies,
            entries: self.size(),
        }
    }
    fn from_header(header: &Header) -> Result<Toy, RulesError> {
        match (header.rule_set_id, header.option_bits) {
            (0, 0) => Ok(Toy::Standard),
            (1, 0) => Ok(Toy::Gated),
            (0 | 1, bits) => Err(RulesError::OptionBits(bits)),
            (id, _) => Err(RulesError::RuleSetId(id)),
        }
    }
    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        if *self == Toy::Gated {
            progress.begin("waiting for the gate", 1);
            let mut open = GATE.0.lock().unwrap();
            while !*open {
                open = GATE.1.wait(open).unwrap();
            }
            progress.end();
        }
        nana_engine::solve(&Solver, progress)
    }
    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError> {
        nana_engine::check_with(&Solver, entries, width, progress)
    }
    fn restore_wins(&self, entries: &[u8], width: EntryWidth) -> Result<Vec<u8>, CheckError> {
        nana_engine::restore_wins(&Solver, entries, width, &|_| {})
    }
    fn wins_of_at_least(
        &self,
        entries: &[u8],
        width: EntryWidth,
        at_least: u16,
    ) -> Result<Vec<(u16, u64)>, CheckError> {
        nana_engine::wins_of_at_least(&Solver, entries, width, at_least)
    }
}

const PLAYERS: [&str; 2] = ["first", "second"];

fn stone() -> PieceView {
    PieceView { owner: PLAYERS[0], code: 'S', label: "S", name: "stone", kind: "", steps: Vec::new() }
}

impl Explorable for Toy {
    fn board(&self, p: &Pile) -> Board {
        let squares = (0..MAX)
            .map(|i| SquareView { name: format!("s{}", i + 1), piece: (i < p.stones).then(stone) })
            .collect();
        let hands = PLAYERS.iter().map(|&owner| Hand { owner, pieces: Vec::new() }).collect();
        Board {
            columns: usize::from(MAX),
            rows: 1,
            squares,
            hands,
            side_to_move: PLAYERS[usize::from(p.side)],
        }
    }
    fn move_squares(&self, p: &Pile, take: u8) -> MoveSquares {
        MoveSquares {
            from: Some(format!("s{}", p.stones)),
            drop: None,
            to: format!("s{}", p.stones - take),
            shows: None,
        }
    }
    fn palette(&self) -> Palette {
        Palette {
            pieces: vec![stone()],
            sides: ['a', 'b'],
            empty_hands: "",
            layout: "{board} {side}",
            hand_counts: false,
        }
    }
    fn words(&self) -> Words {
        Words {
            players: PLAYERS,
            to_move: "{Side} player to move",
            win: "{Winner} player wins in {plies}",
            move_win: "win in {plies}",
            move_loss: "loss in {plies}",
            distance: "{plies}",
            endings: vec![EndingWords {
                ending: EMPTY.name,
                text: "{Winner} player wins — no stone is left",
            }],
        }
    }
}

/// Take-away as the front ends list it.
#[derive(Debug)]
struct TakeAway;

/// The published claim: the first player loses in 8 plies.
const CLAIM: Value = Value::Loss(Dtm(8));

impl Game for TakeAway {
    type Rules = Toy;
    const NAME: &'static str = "toy";
    const ABOUT: &'static str = "Take-away (a test double)";
    const RULE_SETS: &'static [RuleSet<Toy>] = &[
        RuleSet { name: "standard", help: "Take one or two stones.", rules: Toy::Standard },
        RuleSet { name: "gated", help: "The same, solved once the test lets it.", rules: Toy::Gated },
    ];
    const SIDES: [&'static str; 2] = PLAYERS;
    fn side_to_move(p: &Pile) -> usize {
        usize::from(p.side)
    }
    const MOVE_HELP: &'static str = "-1 or -2";
    const LOST: &'static str = "loss (no stone left)";
    const WIN_NAME: &'static str = "win";
    fn game_over(_: &Toy, p: &Pile) -> Option<String> {
        (p.stones == 0)
            .then(|| format!("the {} player has no stone to take and has lost", PLAYERS[usize::from(p.side)]))
    }
    fn diagram(p: &Pile) -> String {
        format!("{}\n", "o".repeat(usize::from(p.stones)))
    }
    const EXAMPLE_POSITION: &'static str = "12 a";
}

impl Perft for TakeAway {
    fn perft(rules: &Toy, p: &Pile, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        rules.for_each_move(p, |_, child| n += Self::perft(rules, child, depth - 1));
        n
    }
    fn perft_children(rules: &Toy, p: &Pile) -> Vec<Pile> {
        let mut children = Vec::new();
        rules.for_each_move(p, |_, child| children.push(*child));
        children
    }
}

impl Claims for TakeAway {
    fn claimed_rule_sets() -> Vec<Toy> {
        vec![Toy::Standard]
    }
    fn reachable_stats(_: &Toy, _: &(dyn Fn(u64) + Sync)) -> Vec<String> {
        vec![format!("index size: {}", Toy::Standard.size())]
    }
    fn verify(tables: &[Table<Toy>]) -> Result<Report, ReportError> {
        let start = tables[0].probe().value(&Toy::Standard.start())?;
        let ok = start == CLAIM;
        let verdict = if ok { "CONFIRMED" } else { "NOT CONFIRMED" };
        Ok(Report {
            table: format!("| claim | solver |\n|---|---|\n| {CLAIM} | {start} |\n"),
            summary: format!("{verdict} the first player loses in 8 plies\n"),
            failed: usize::from(!ok),
            claims: 1,
        })
    }
    fn results<E: From<ReportError>>(load: Load<'_, Toy, E>) -> Result<String, E> {
        let table = load(Toy::Standard)?;
        Ok(format!("longest loss: {} plies\n", table.stats().max_dtm))
    }
    fn whole_space_checks() -> Vec<WholeCheck> {
        vec![WholeCheck::new("retro-moves against moves", || match nana_engine::check_relations(&Solver) {
            Ok(edges) => Ok(format!("{edges} edges agree")),
            Err(e) => Err(CheckFailed(e.to_string())),
        })]
    }
}

/// No other engine plays take-away: the protocol uses the game's own strings.
impl ProtocolNotation for TakeAway {}

/// The `nana` binary's games and take-away: the one registration.
fn games() -> Vec<&'static dyn Registered> {
    let mut all = GAMES.to_vec();
    all.push(game::<TakeAway>());
    all
}

/// `nana ARGS` in process over [`games`]: the exit code and the output.
fn nana(args: &[&str]) -> (bool, String) {
    let args: Vec<OsString> = std::iter::once("nana").chain(args.iter().copied()).map(Into::into).collect();
    let mut out = Vec::new();
    let code = nana_cli::main(&games(), args, &mut out);
    (code == std::process::ExitCode::SUCCESS, String::from_utf8(out).expect("UTF-8 output"))
}

fn dir_arg(dir: &Path) -> String {
    dir.to_str().expect("a UTF-8 temporary path").to_string()
}

/// Long: one walk through every command a registered game gets, each step on the tables the
/// one before it wrote.
#[test]
fn a_registered_game_is_solved_queried_verified_served_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir_arg(dir.path());

    // Listed: `--game` offers it beside the binary's games.
    let (ok, help) = nana(&["--help"]);
    assert!(ok);
    for g in games() {
        assert!(help.contains(&format!("- {}:", g.name())), "{help}");
    }

    // Solved and written.
    let (ok, text) = nana(&["--game", "toy", "solve", "--out", &d]);
    assert!(ok && text.contains("standard") && text.contains("longest distance to win: 8 plies"), "{text}");
    assert!(dir.path().join("toy-standard.tb").is_file());

    // Queried from the file, in words and in JSON.
    let (ok, text) = nana(&["--game", "toy", "--tablebase-dir", &d, "query", "5 b"]);
    assert!(ok && text.contains("value: win in 3 plies for second"), "{text}");
    assert!(text.contains("best move: -2 (take 2)"), "{text}");
    let (ok, json) = nana(&["--game", "toy", "--tablebase-dir", &d, "query", "--json"]);
    assert!(ok, "{json}");
    let answer: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((answer["category"].as_str(), answer["dtm"].as_u64()), (Some("loss"), Some(8)), "{json}");
    assert_eq!(answer["mainline"].as_array().map(Vec::len), Some(8), "{json}");

    // Checked entry by entry, verified against its claim, its results printed.
    let table = dir.path().join("toy-standard.tb");
    let (ok, text) = nana(&["--game", "toy", "check-table", &dir_arg(&table)]);
    assert!(ok && text.contains("all 26 entries consistent"), "{text}");
    let (ok, text) = nana(&["--game", "toy", "verify", "--dir", &d]);
    assert!(ok && text.contains("CONFIRMED the first player loses in 8 plies"), "{text}");
    let (ok, text) = nana(&["--game", "toy", "results", "--dir", &d]);
    assert!(ok && text == "longest loss: 8 plies\n", "{text}");
    // The self-check: solved with the cross-checks on, checked, its whole-space check run;
    // asked for without --solve and --check, refused.
    let (ok, text) = nana(&["--game", "toy", "verify", "--solve", "--check", "--self-check", "--dir", &d]);
    assert!(
        ok && text.contains("self-check: retro-moves against moves: ") && text.contains(" edges agree ("),
        "{text}"
    );
    assert!(
        text.contains("all 26 entries consistent") && text.contains("CONFIRMED the first player"),
        "{text}"
    );
    let (ok, _) = nana(&["--game", "toy", "verify", "--self-check", "--dir", &d]);
    assert!(!ok, "--self-check needs --solve and --check");

    // Played by the engine for GUIs: a value of `UCI_Variant`, with its rule-set option; the
    // start (a loss in 8 plies) is mate -4 over UCI, -8 over USI; 4 stones are taken down to 3.
    let input = "uci\nsetoption name UCI_Variant value toy\nisready\nposition startpos\ngo\n\
                 usi\nposition fen 4 a\ngo\nposition fen 13 a\nquit\n";
    let mut out = Vec::new();
    nana_cli::commands::engine::run(&games(), "nana", dir.path(), input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("option name UCI_Variant type combo default nana var nana var dobutsu var toy"),
        "{text}"
    );
    assert!(text.contains("option name ToyRules type combo default standard var standard"), "{text}");
    assert!(
        text.contains(
            "info depth 1 seldepth 8 multipv 1 score mate -4 pv -1 -2 -1 -2 -1 -2 -1 -2\nbestmove -1\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("usiok\ninfo depth 1 seldepth 3 multipv 1 score mate 3 pv -1 -1 -2\nbestmove -1\n"),
        "{text}"
    );
    let refused =
        "info string error: position not set: not a pile of 0 to 12 stones and a side a or b: 13 a\n";
    assert!(text.ends_with(refused), "{text}");

    // Another game's command refuses its table, naming both games.
    let (ok, _) = nana(&["query", "--tablebase", &dir_arg(&table)]);
    assert!(!ok);
    let opened = Table::open(nana_shogi::Rules::CURRENT, &table).unwrap_err().to_string();
    assert!(
        opened.contains("the table is of toy-take-away") && opened.contains("but nana-shogi"),
        "{opened}"
    );

    // Served: listed by the API and answered, from the file; the rule set without a file is
    // reported missing (solving is turned off), its routes a 503 naming the command.
    let mut registry = Registry::new();
    let notes = game::<TakeAway>().add_to(&mut registry, dir.path(), Missing::Refuse);
    assert!(notes.len() == 1 && notes[0].contains("`nana --game toy solve --rules gated`"), "{notes:?}");
    let router = nana_server::router(Arc::new(registry));
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let get = |uri: &str| {
        let request = Request::get(uri).body(Body::empty()).unwrap();
        let response = runtime.block_on(router.clone().oneshot(request)).unwrap();
        let status = response.status();
        let body = runtime.block_on(axum::body::to_bytes(response.into_body(), usize::MAX)).unwrap();
        (status, serde_json::from_slice::<serde_json::Value>(&body).unwrap())
    };
    let (status, games) = get("/api/games");
    assert_eq!((status, games[0]["game"].as_str()), (StatusCode::OK, Some("toy")), "{games}");
    let states: Vec<_> =
        games[0]["rule_sets"].as_array().unwrap().iter().map(|r| r["state"].clone()).collect();
    assert_eq!(states, ["ready", "missing"], "{games}");
    let (status, answer) = get("/api/toy/standard?fen=4_b");
    assert_eq!(status, StatusCode::OK, "{answer}");
    // API v1 and `query --json` are one type: the same JSON.
    let (ok, json) = nana(&["--game", "toy", "--tablebase-dir", &d, "query", "--json", "4 b"]);
    assert!(ok, "{json}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&json).unwrap(), answer);
    assert_eq!(answer["moves"][0]["uci"], "-1");
    assert_eq!(answer["moves"][0]["san"], "take 1");
    assert_eq!(
        (answer["category"].as_str(), answer["best_move"].as_str()),
        (Some("win"), Some("-1")),
        "{answer}"
    );
    let (status, view) = get("/api/toy/standard/view");
    assert_eq!((status, view["board"]["columns"].as_u64()), (StatusCode::OK, Some(12)), "{view}");
    let (status, missing) = get("/api/toy/gated");
    assert_eq!(
        (status, missing["state"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("missing")),
        "{missing}"
    );
    assert!(missing["error"].as_str().unwrap().contains("nana --game toy solve --rules gated"), "{missing}");
}

/// Every game of the registry is wired in: its command line parses, and the explorer finds (or
/// misses) its tables by the rule sets it lists, naming the command that writes each one.
#[test]
fn every_listed_game_is_wired_in() {
    let empty = tempfile::tempdir().unwrap();
    for g in games() {
        let (ok, text) = nana(&["--game", g.name(), "moves"]);
        assert!(ok && !text.is_empty(), "{}: {text}", g.name());
        let mut registry = Registry::new();
        let notes = g.add_to(&mut registry, empty.path(), Missing::Refuse);
        let health = registry.health();
        assert!(!notes.is_empty() && notes.len() == health.rule_sets.len(), "{}: {notes:?}", g.name());
        for state in health.rule_sets {
            let Status::Missing { command, .. } = state.status else { panic!("{state:?}") };
            assert!(command.starts_with(&format!("nana --game {} solve --rules ", g.name())), "{command}");
        }
    }
}

/// One HTTP/1.1 GET on a fresh connection: the status, the headers (lower case) and the body.
fn http_get(addr: std::net::SocketAddr, target: &str) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("the server accepts connections");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a whole response");
    let status = response.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (status, head.to_lowercase(), body.to_string())
}

/// `nana serve` over a folder: the registry built as the command builds it, its solves started,
/// served on a loopback port from a thread of its own (stopped when the test ends).
fn serve(dir: &Path, missing: Missing) -> (std::net::SocketAddr, Arc<Registry>, Vec<String>) {
    let mut registry = Registry::new();
    let notes = game::<TakeAway>().add_to(&mut registry, dir, missing);
    let registry = Arc::new(registry);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let served = registry.clone();
    std::thread::spawn(move || {
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        runtime.block_on(async move {
            listener.set_nonblocking(true).unwrap();
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            nana_server::serve(listener, served, std::future::pending()).await.unwrap();
        });
    });
    let _ = registry.solve_queued(|_, _| Box::new(nana_engine::NoProgress), |_| {});
    (addr, registry, notes)
}

/// GETs `target` until it answers 200, for at most `limit`; the last answer.
fn wait_for(addr: std::net::SocketAddr, target: &str, limit: Duration) -> (u16, String, String) {
    let start = Instant::now();
    loop {
        let reply = http_get(addr, target);
        if reply.0 == 200 || start.elapsed() > limit {
            return reply;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// On an empty folder the server answers at once: health within 2 s, each rule set once its
/// solve is done (the small one first), the other a 503 with `Retry-After` and the solve's
/// progress until then; each table solved is saved, so a restart answers at once from the files.
#[test]
fn the_server_answers_at_once_and_serves_each_table_when_solved_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let (addr, _registry, notes) = serve(dir.path(), Missing::Solve);
    assert_eq!(notes.len(), 2, "{notes:?}");
    let (status, _, health) = http_get(addr, "/api/health");
    assert!(status == 200 && start.elapsed() < Duration::from_secs(2), "{status} {health}");

    let (status, _, answer) = wait_for(addr, "/api/toy/standard", Duration::from_secs(30));
    assert_eq!(status, 200, "{answer}");
    // The gated rule set is being solved (its solve waits): a 503 with its progress.
    let (status, head, body) = http_get(addr, "/api/toy/gated?fen=5_a");
    assert_eq!(status, 503, "{body}");
    assert!(head.contains("retry-after: 5") && head.contains("access-control-allow-origin: *"), "{head}");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (json["state"].as_str(), json["progress"]["phase"].as_str()),
        (Some("solving"), Some("waiting for the gate")),
        "{json}"
    );
    assert!(json["error"].as_str().unwrap().contains("being solved"), "{json}");
    let (_, _, health) = http_get(addr, "/api/health");
    let health: serde_json::Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["status"], "solving", "{health}");
    assert_eq!(
        (health["rule_sets"][0]["state"].as_str(), health["rule_sets"][1]["state"].as_str()),
        (Some("ready"), Some("solving")),
        "{health}"
    );
    // The page of a rule set being solved is served: it shows the progress.
    assert_eq!(http_get(addr, "/toy/gated").0, 200);

    open_gate();
    let (status, _, answer) = wait_for(addr, "/api/toy/gated?fen=5_a", Duration::from_secs(30));
    assert_eq!(status, 200, "{answer}");
    for file in ["toy-standard.tb", "toy-gated.tb"] {
        assert!(dir.path().join(file).is_file(), "{file} is saved");
    }

    // A restart opens the saved tables: nothing to solve, every rule set answers at once.
    let start = Instant::now();
    let (addr, registry, notes) = serve(dir.path(), Missing::Solve);
    assert!(notes.is_empty(), "{notes:?}");
    let (status, _, answer) = http_get(addr, "/api/toy/gated?fen=5_a");
    assert!(status == 200 && start.elapsed() < Duration::from_secs(2), "{status} {answer}");
    assert_eq!(registry.health().status, "ok");
}

/// No answer of the server gives its table folder away: every route, ready or not, damaged or
/// missing, names a table by its file's name at most.
#[test]
fn no_route_shows_the_table_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().canonicalize().unwrap().display().to_string();
    let (ok, text) = nana(&["--game", "toy", "solve", "--out", &dir_arg(dir.path())]);
    assert!(ok, "{text}");
    let mut routes = vec![
        "/api/health".to_string(),
        "/api/games".to_string(),
        "/".to_string(),
        "/api/toy".to_string(),
        "/api/nothing/here/at/all".to_string(),
    ];
    for rules in ["standard", "gated"] {
        for tail in ["", "/mainline", "/view", "/stats", "?fen=nonsense", "?fen=3_a&x=1"] {
            routes.push(format!("/api/toy/{rules}{tail}"));
        }
        routes.push(format!("/toy/{rules}"));
        routes.push(format!("/toy/{rules}/stats"));
    }
    // The standard table ready, the gated one missing; then the standard one damaged.
    for damage in [false, true] {
        if damage {
            std::fs::write(dir.path().join("toy-standard.tb"), b"not a table").unwrap();
        }
        let (addr, _registry, _) = serve(&dir.path().canonicalize().unwrap(), Missing::Refuse);
        let mut states = Vec::new();
        for route in &routes {
            let (status, _, body) = http_get(addr, route);
            assert!(!body.contains(&folder), "{route} ({status}) shows the folder {folder}: {body}");
            if route.starts_with("/api") {
                let json: serde_json::Value =
                    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{route}: {e}: {body}"));
                if status >= 400 {
                    assert!(json["error"].is_string(), "{route}: {body}");
                }
            }
            if route == "/api/health" {
                states.push(body);
            }
        }
        let want = if damage { "\"state\":\"damaged\"" } else { "\"state\":\"ready\"" };
        assert!(states[0].contains(want) && states[0].contains("\"state\":\"missing\""), "{states:?}");
    }
}

/// Every error over the wire is JSON with a message and the CORS header, those the HTTP layer
/// would answer alone too: a method other than GET (405) and a request line too long (414).
#[test]
fn errors_over_the_wire_are_json_with_cors() {
    let dir = tempfile::tempdir().unwrap();
    let (addr, _registry, _) = serve(dir.path(), Missing::Refuse);
    let long = format!("/api/toy/standard?fen={}", "1".repeat(100_000));
    let (status, head, body) = http_get(addr, &long);
    assert_eq!(status, 414, "{head}");
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    let json: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(json["error"].as_str().unwrap().contains("too long"), "{json}");
    // A line just within the limit is read and answered as any other.
    let (status, _, body) = http_get(addr, &format!("/api/health?fen={}", "1".repeat(10_000)));
    assert_eq!(status, 400, "{body}");

    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "DELETE /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(
        head.starts_with("HTTP/1.1 405") && head.to_lowercase().contains("access-control-allow-origin: *"),
        "{head}"
    );
    let json: serde_json::Value = serde_json::from_str(body).unwrap();
    assert!(json["error"].as_str().unwrap().contains("method DELETE not allowed"), "{json}");
}
