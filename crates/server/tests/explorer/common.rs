//! What the explorer's tests share: Nana's two rule sets solved once per test binary, Dobutsu's
//! solved once and kept between runs, requests to the router in process, and a server on a
//! loopback port.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use nana_engine::NoProgress;
use nana_probe::table::Table;
use nana_server::{Registry, DOBUTSU, DOBUTSU_RULE_SETS, NANA, NANA_RULE_SETS};
use nana_shogi::Rules;
use tower::ServiceExt;

type Tables = Vec<(&'static str, Arc<Table<Rules>>)>;

/// The solved tables, by rule set name.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        NANA_RULE_SETS
            .iter()
            .map(|&(name, rules)| (name, Arc::new(Table::solve(rules, &NoProgress).expect("Nana solves"))))
            .collect()
    })
}

pub fn table(name: &str) -> &'static Table<Rules> {
    &tables().iter().find(|(n, _)| *n == name).expect("a rule set").1
}

/// A registry over the solved tables: Nana's two rule sets and Dobutsu's (see [`dobutsu`]).
pub fn registry() -> Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let mut r = Registry::new();
            for (name, table) in tables() {
                r.add(NANA, name, Box::new(table.clone()));
            }
            for (name, table) in dobutsu_tables() {
                r.add(DOBUTSU, name, Box::new(table.clone()));
            }
            Arc::new(r)
        })
        .clone()
}

/// The heavy tests (load, browser, fuzz) take turns, so that each one's timing is its own.
pub fn heavy() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request through the router, in process.
pub async fn request(registry: Arc<Registry>, request: Request<Body>) -> Reply {
    let response = nana_server::router(registry).oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body").to_vec();
    Reply { status, headers, body }
}

pub async fn get(uri: &str) -> Reply {
    request(registry(), Request::get(uri).body(Body::empty()).expect("a valid request")).await
}

/// A server on a loopback port in a runtime of its own, stopped when dropped.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start(registry: Arc<Registry>, workers: usize) -> Server {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers)
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
                addr_tx.send(listener.local_addr().expect("an address")).expect("the test waits");
                nana_server::serve(listener, registry, async {
                    let _ = stopped.await;
                })
                .await
                .expect("serves");
            });
        });
        let addr = addr_rx.recv().expect("the server starts");
        Server { addr, stop: Some(stop), thread: Some(thread) }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

type DobutsuTables = Vec<(&'static str, Arc<Table<dobutsu_shogi::Rules>>)>;

/// Dobutsu's two rule sets, real tables shared by the whole test binary, kept in
/// `CARGO_TARGET_TMPDIR/dobutsu-tables` between runs (where the Dobutsu crate's whole-game test,
/// `dobutsu_solved_and_checked`, also leaves the tables it checked): each file is loaded when
/// it is there and valid (the loader checks its header and checksums). Otherwise Tanaka's rules
/// are solved (minutes), and
/// the safe-try table is Tanaka's entries once the engine's independent check
/// (`TableGame::check`: every reachable entry against its successors under the safe-try rules,
/// nothing stored elsewhere) accepts them as the safe-try solution — DOBUTSU.md finds every
/// reachable position valued the same under both readings — or, should it refuse them, solved.
/// One solve per fresh target folder, not two.
pub fn dobutsu_tables() -> &'static DobutsuTables {
    use dobutsu_shogi::Rules;
    use nana_probe::table::TableGame;
    static TABLES: OnceLock<DobutsuTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dobutsu-tables");
        std::fs::create_dir_all(&dir).expect("the test's temporary folder");
        let saved = |rules: Rules, solution: &nana_engine::Solution| {
            let path = nana_probe::table::write(&rules, &dir, solution).expect("writes the Dobutsu table");
            Arc::new(Table::open(rules, &path).expect("the table just written opens"))
        };
        let open = |rules: Rules| {
            let path = dir.join(rules.file_name());
            match Table::open(rules, &path) {
                Ok(table) => Some(Arc::new(table)),
                Err(e) if path.exists() => {
                    eprintln!("{e}; making it again");
                    None
                }
                Err(_) => None,
            }
        };
        let solve = |rules: Rules| {
            let start = std::time::Instant::now();
            let solution = rules.solve(&NoProgress).expect("Dobutsu solves");
            eprintln!("solved Dobutsu ({}) in {:.1} s", rules.describe(), start.elapsed().as_secs_f64());
            saved(rules, &solution)
        };
        let tanaka = open(Rules::TANAKA).unwrap_or_else(|| solve(Rules::TANAKA));
        let safe_try = open(Rules::SAFE_TRY).unwrap_or_else(|| {
            let start = std::time::Instant::now();
            match Rules::SAFE_TRY.check(tanaka.entries(), tanaka.width(), &|_| {}) {
                Ok(()) => {
                    eprintln!(
                        "Tanaka's Dobutsu table checked as the safe-try solution in {:.1} s",
                        start.elapsed().as_secs_f64()
                    );
                    let solution = nana_engine::Solution {
                        entries: tanaka.entries().to_vec(),
                        width: tanaka.width(),
                        stats: tanaka.stats(),
                    };
                    saved(Rules::SAFE_TRY, &solution)
                }
                Err(e) => {
                    eprintln!("Tanaka's Dobutsu table is not the safe-try solution ({e}): solving it");
                    solve(Rules::SAFE_TRY)
                }
            }
        });
        let tables = vec![("tanaka", tanaka), ("safe-try", safe_try)];
        let names: Vec<&str> = tables.iter().map(|(n, _)| *n).collect();
        let expected: Vec<&str> = DOBUTSU_RULE_SETS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, expected, "the fixture covers every Dobutsu rule set");
        tables
    })
}

/// The table of Dobutsu's rule set `name`.
pub fn dobutsu(name: &str) -> &'static Table<dobutsu_shogi::Rules> {
    &dobutsu_tables().iter().find(|(n, _)| *n == name).expect("a Dobutsu rule set").1
}
