//! The worker threads. Only work that runs in parallel (solving, the reachable-set enumeration,
//! checking a table, perft) starts the pool, so `--threads` costs nothing to a command that never
//! uses it: starting every thread up front made `nana --threads 10000 moves` take 41 s.

use std::sync::{Arc, OnceLock};

use crate::error::CliError;

/// The most `--threads` accepts: far more than the work can use (a few cores' worth), few enough
/// that starting them is instant.
pub const MAX_THREADS: i64 = 256;

static THREADS: OnceLock<Option<u16>> = OnceLock::new();
static STARTED: OnceLock<Result<(), (u16, Arc<rayon::ThreadPoolBuildError>)>> = OnceLock::new();

/// Records `--threads` (`None`: rayon's default, one per core) for [`start`].
pub fn set_threads(n: Option<u16>) {
    let _ = THREADS.set(n);
}

/// Starts the global pool with the recorded number of threads; later calls do nothing.
pub fn start() -> Result<(), CliError> {
    STARTED
        .get_or_init(|| match THREADS.get().copied().flatten() {
            None => Ok(()),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n.into())
                .build_global()
                .map_err(|e| (n, Arc::new(e))),
        })
        .clone()
        .map_err(|(threads, source)| CliError::Threads { threads, source })
}
