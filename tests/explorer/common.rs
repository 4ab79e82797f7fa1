//! What the explorer's tests share: the tables of Nana's rule sets and of Dobutsu's Tanaka rules
//! (from the test run's fixture, `nana-fixture`: each solved once per run), requests to the
//! router in process, and a server on a loopback port.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use dobutsu_shogi::Dobutsu;
use nana_front::Game;
use nana_probe::table::Table;
use nana_server::{add_game, Missing, Registry};
use nana_shogi::{Nana, Rules};
use tower::ServiceExt;

type Tables = Vec<(&'static str, Arc<Table<Rules>>)>;

/// Nana's tables, by rule set name.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Nana::RULE_SETS.iter().map(|r| (r.name, nana_fixture::table(r.rules))).collect())
}

pub fn table(name: &str) -> &'static Table<Rules> {
    &tables().iter().find(|(n, _)| *n == name).expect("a rule set").1
}

/// A registry over the solved tables: Nana's two rule sets, and Dobutsu's as `nana serve
/// --no-solve` serves a folder holding Tanaka's table alone (see [`dobutsu`]): Tanaka's rules
/// ready, the safe-try reading missing.
pub fn registry() -> Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    REGISTRY
        .get_or_init(|| {
            let mut r = Registry::new();
            // As `nana serve` adds a game's tables (`add_game`): each with the board it draws.
            for (name, table) in tables() {
                r.add(Nana::NAME, name, Box::new(table.clone()));
                r.set_board(Nana::NAME, name, nana_server::board_of(*table.game()));
            }
            let notes = add_game::<Dobutsu>(&mut r, &dobutsu_folder(), Missing::Refuse);
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(notes[0].contains("dobutsu-safe-try.tb"), "{notes:?}");
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
        Server::start_with(registry, workers, nana_server::Limits::default())
    }

    /// A server within `limits`.
    pub fn start_with(registry: Arc<Registry>, workers: usize, limits: nana_server::Limits) -> Server {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            // The lookups' pool as `nana serve` has it: each of its threads keeps a cache of
            // decoded blocks, and tokio's default (512 threads) would warm one per request.
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers)
                .max_blocking_threads(nana_server::lookup_threads())
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
                addr_tx.send(listener.local_addr().expect("an address")).expect("the test waits");
                nana_server::serve_with(listener, registry, limits, async {
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

/// Dobutsu's table of Tanaka's rules, solved once per test run. The safe-try reading's is a
/// second whole-game solve, left to the self-check (`cargo xtask self-check`), whose `nana
/// verify` checks it; the server serves every rule set through the same code.
pub fn dobutsu(name: &str) -> &'static Table<dobutsu_shogi::Rules> {
    static TANAKA: OnceLock<Arc<Table<dobutsu_shogi::Rules>>> = OnceLock::new();
    assert_eq!(name, "tanaka", "the explorer's tests have Tanaka's table alone");
    TANAKA.get_or_init(|| nana_fixture::table(dobutsu_shogi::Rules::TANAKA))
}

/// A folder of the test run holding Tanaka's table alone (a hard link to the fixture's file).
pub fn dobutsu_folder() -> PathBuf {
    let tanaka = nana_fixture::path(dobutsu_shogi::Rules::TANAKA);
    let dir = nana_fixture::run_dir().join("explorer-dobutsu");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the explorer's Dobutsu folder");
    link_into(&tanaka, &dir);
    dir
}

/// The table file `table` in the folder `dir` under its own name: a hard link, or a copy where
/// the two folders are on different filesystems.
pub fn link_into(table: &std::path::Path, dir: &std::path::Path) {
    let to = dir.join(table.file_name().expect("a file"));
    std::fs::hard_link(table, &to)
        .or_else(|_| std::fs::copy(table, &to).map(|_| ()))
        .unwrap_or_else(|e| panic!("{} in {}: {e}", table.display(), dir.display()));
}
