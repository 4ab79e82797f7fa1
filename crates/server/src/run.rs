//! Running the server: on a listener until a shutdown signal, or in one call with its own
//! runtime ([`run`]).

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use crate::guard::{Guarded, Limits};
use crate::registry::Registry;
use crate::routes::router_within;

/// Serves `router(registry)` on `listener` until `shutdown` completes, then lets the requests
/// under way finish, with the default [`Limits`].
pub async fn serve(
    listener: tokio::net::TcpListener,
    registry: Arc<Registry>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(listener, registry, Limits::default(), shutdown).await
}

/// [`serve`] within `limits`. Each connection is read through
/// [`LineGuard`](crate::guard::LineGuard): a line too long is a 414 with a JSON body, a request
/// head not whole within the header-read timeout of its first byte, a connection idle for the
/// idle timeout, or an answer not read for the write timeout closes the connection; at most
/// `max_connections` are open; a request running over its time limit is a JSON 503.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    registry: Arc<Registry>,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = router_within(registry, limits.request_timeout);
    axum::serve(Guarded::new(listener, limits), router).with_graceful_shutdown(shutdown).await
}

/// Completes on Ctrl-C (SIGINT), or on SIGTERM on Unix. The handlers are installed when it is
/// called, not when the future is first polled (which `axum::serve` does from a task of its
/// own): called before the server says it is listening, it misses no signal sent after that.
/// Must be called within a Tokio runtime.
pub fn ctrl_c() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let (interrupt, terminate) = (signal(SignalKind::interrupt()), signal(SignalKind::terminate()));
        async move {
            // Without a signal handler there is nothing to wait for: run until killed.
            let recv = |s: std::io::Result<tokio::signal::unix::Signal>| async move {
                match s {
                    Ok(mut s) => {
                        s.recv().await;
                    }
                    Err(_) => std::future::pending::<()>().await,
                }
            };
            tokio::select! { _ = recv(interrupt) => {}, _ = recv(terminate) => {} }
        }
    }
    #[cfg(not(unix))]
    async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// `nana serve` in one call, for a caller without an async runtime: starts one, logs requests
/// to standard error (unless a `tracing` subscriber is installed already), binds `addr` (a
/// busy port fails here, before anything is loaded), builds the registry with `registry` (which
/// may queue solves: they run in the background), calls `listening` with the address bound
/// (port 0 picks one), and serves within `limits` until Ctrl-C. An error of `registry` is returned as it is;
/// the server's own become an `E` too.
pub fn run<E: From<RunError>>(
    addr: SocketAddr,
    limits: Limits,
    registry: impl FnOnce() -> Result<Arc<Registry>, E>,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), E> {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(lookup_threads())
        .enable_all()
        .build()
        .map_err(RunError::Runtime)?;
    let at = |source| RunError::Socket { addr, source };
    let listener = runtime.block_on(tokio::net::TcpListener::bind(addr)).map_err(at)?;
    let registry = registry()?;
    let bound = listener.local_addr().map_err(at)?;
    let shutdown = {
        let _runtime = runtime.enter();
        ctrl_c()
    };
    listening(bound);
    Ok(runtime.block_on(serve_with(listener, registry, limits, shutdown)).map_err(at)?)
}

/// The blocking pool's threads, on which every read of a table runs: twice the cores, 4 to 16.
/// Each thread keeps its own cache of decoded blocks (up to 64 MiB), so the pool's size bounds
/// what the caches hold; lookups beyond it wait their turn (and answer 503 past the time limit).
pub fn lookup_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    (2 * cores).clamp(4, 16)
}

/// Why [`run`] could not serve.
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// The async runtime could not start.
    Runtime(std::io::Error),
    /// Binding, or serving on, the socket at `addr` failed.
    Socket { addr: SocketAddr, source: std::io::Error },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Runtime(e) => write!(f, "cannot start the server: {e}"),
            RunError::Socket { addr, source } => write!(f, "{addr}: {source}"),
        }
    }
}

impl Error for RunError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            RunError::Runtime(e) | RunError::Socket { source: e, .. } => Some(e),
        }
    }
}
