//! Thousands of made-up paths and query strings through the router: random bytes, positions
//! with random edits (where a parser's mistakes hide), odd escapes and odd lengths. None may
//! panic or answer 5xx, and every API answer is JSON.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

/// xorshift64*: the same cases on every run, so that a failure can be replayed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Positions to edit: real ones, from the tables' own answers.
const SEEDS: &[&str] = &[
    "3/3/3 b KRBkrb 1",
    "R1K/2B/2k b Rb",
    "1k1/1SC/1K1 b RB 1",
    "K2/3/2k b RBrb",
    "2k/3/K2 w RBrb",
    "k1K/3/3 w 2R2B",
    "1K1/3/1k1 b -",
    "gle/1c1/1C1/ELG[-] w 0 1",
    "g1e/1l1/3/ELG[Cc] w 0 1",
    "gle/1C1/3/ELG[C] b",
    "L1e/2l/1C1/E1G[gc] b 0 1",
    "l2/1+C1/3/1L1[GGEEc] w 0 1",
];

/// The characters of position strings, their neighbours, and trouble.
const ALPHABET: &[&str] = &[
    "K",
    "k",
    "L",
    "l",
    "E",
    "e",
    "H",
    "h",
    "[",
    "]",
    "[-]",
    "@",
    "R",
    "r",
    "B",
    "b",
    "C",
    "c",
    "W",
    "w",
    "G",
    "g",
    "T",
    "t",
    "S",
    "s",
    "D",
    "d",
    "1",
    "2",
    "3",
    "4",
    "9",
    "0",
    "/",
    " ",
    "_",
    "-",
    "+",
    "%",
    "%20",
    "%2F",
    "%00",
    "%FF",
    "%C3%A9",
    "é",
    "&",
    "=",
    "?",
    "#",
    "*",
    ".",
    "..",
    "12345678901234567890",
    "\u{1F600}",
    "\t",
    "x",
    "position",
    ";",
    "'",
    "\"",
    "<",
    ">",
];

/// Percent-encodes what a URI may not hold as is, and leaves the rest (a stray `%` included) to
/// reach the server as typed.
fn uri_safe(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            'A'..='Z'
            | 'a'..='z'
            | '0'..='9'
            | '/'
            | '_'
            | '-'
            | '.'
            | '~'
            | '%'
            | '&'
            | '='
            | '+'
            | '*'
            | ';'
            | '?' => out.push(c),
            _ => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
        }
    }
    out
}

fn position(rng: &mut Rng) -> String {
    match rng.below(3) {
        // Random tokens.
        0 => (0..rng.below(30)).map(|_| *rng.pick(ALPHABET)).collect(),
        // A real position with a few random edits.
        _ => {
            let mut chars: Vec<String> = rng.pick(SEEDS).chars().map(String::from).collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 if at < chars.len() => chars[at] = rng.pick(ALPHABET).to_string(),
                    _ => chars.insert(at, rng.pick(ALPHABET).to_string()),
                }
            }
            chars.concat()
        }
    }
}

fn path(rng: &mut Rng) -> String {
    let games = [
        "nana", "nana", "nana", "dobutsu", "dobutsu", "dobutsu", "chess", "", "NANA", "..", "%2e%2e",
        "na%00na",
    ];
    let rules = [
        "original",
        "current",
        "current",
        "tanaka",
        "tanaka",
        "safe-try",
        "newest",
        "",
        "..",
        "original%2F..",
        "%FF",
        "safe_try",
    ];
    let kinds = ["", "", "/mainline", "/view", "/stats", "/bogus", "/", "/mainline/x"];
    let base = if rng.below(5) == 0 { "" } else { "/api" };
    let mut p = format!("{base}/{}/{}{}", rng.pick(&games), rng.pick(&rules), rng.pick(&kinds));
    if rng.below(10) == 0 {
        p = (0..rng.below(8)).map(|_| format!("/{}", rng.pick(ALPHABET))).collect();
    }
    p
}

/// A query for `path`: mostly a position under `fen` or `position`; for a path that takes no
/// parameter (`/stats`), mostly none.
fn query(rng: &mut Rng, path: &str) -> String {
    if path.ends_with("/stats") && rng.below(4) != 0 {
        return String::new();
    }
    match rng.below(12) {
        0..=2 => String::new(),
        3 => format!("?{}", position(rng)),
        4 => format!("?position={}&position={}", position(rng), position(rng)),
        5 => format!("?fen={}&position={}", position(rng), position(rng)),
        6 => format!("?{}={}", rng.pick(ALPHABET), position(rng)),
        7 | 8 => format!("?position={}", position(rng)),
        _ => format!("?fen={}", position(rng)),
    }
}

#[test]
fn made_up_requests_never_fail_the_server() {
    let _turn = crate::common::heavy();
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    runtime.block_on(fuzz());
}

async fn fuzz() {
    let router = nana_server::router(crate::common::registry());
    let mut rng = Rng(0x005E_ED0F_E1A1_u64);
    let (mut sent, mut unsendable) = (0, 0);
    let mut statuses = std::collections::BTreeMap::new();
    let mut ok = std::collections::BTreeMap::new();
    for case in 0..8000 {
        let p = path(&mut rng);
        let raw = format!("{p}{}", query(&mut rng, &p));
        let uri = uri_safe(&raw);
        // Some strings are no URI at all (a `%` that starts no escape in a path is fine for
        // the parser, others are not): a client could not send them either.
        let Ok(request) = Request::get(uri.as_str()).body(Body::empty()) else {
            unsendable += 1;
            continue;
        };
        sent += 1;
        let response = router.clone().oneshot(request).await.expect("infallible");
        let status = response.status();
        let is_api = uri.starts_with("/api/");
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body");
        // The one 5xx: a 503 for the safe-try reading, whose table the registry lacks.
        let missing = status == StatusCode::SERVICE_UNAVAILABLE
            && String::from_utf8_lossy(&body).contains("dobutsu-safe-try.tb");
        assert!(
            !status.is_server_error() || missing,
            "case {case}: {uri} -> {status}: {}",
            String::from_utf8_lossy(&body)
        );
        if is_api || status != StatusCode::OK {
            let json: Result<serde_json::Value, _> = serde_json::from_slice(&body);
            assert!(
                json.is_ok(),
                "case {case}: {uri} -> {status}, not JSON: {}",
                String::from_utf8_lossy(&body)
            );
        }
        *statuses.entry(status.as_u16()).or_insert(0u32) += 1;
        if status == StatusCode::OK && is_api {
            let game = uri.split('/').nth(2).unwrap_or("").to_string();
            *ok.entry(game).or_insert(0u32) += 1;
        }
    }
    eprintln!("{sent} requests sent ({unsendable} strings were no URI): {statuses:?}");
    assert!(sent >= 6500, "only {sent} cases were sendable");
    // The generator reaches every kind of answer, for both games.
    for s in [200, 400, 404] {
        assert!(statuses.get(&s).is_some_and(|&n| n >= 100), "few answers {s}: {statuses:?}");
    }
    for game in ["nana", "dobutsu"] {
        assert!(ok.get(game).is_some_and(|&n| n >= 50), "few answers 200 for {game}: {ok:?}");
    }
}
