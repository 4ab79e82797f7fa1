//! `nana serve`: the tablebase explorer (the HTTP JSON API and its web page) over every game's
//! tables, or only `--game`'s when it is given; see docs/EXPLORER.md.
//!
//! The port is bound first (a busy one fails at once), the tables in the folder are opened, and
//! the server answers; missing tables are solved in the background, smallest first, written to
//! the folder and served as each is done.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;

use std::time::Duration;

use clap::Args;
use nana_server::{Limits, Missing, Registry};

use crate::error::CliError;
use crate::games::Registered;
use crate::progress::Bars;

/// The server's limits (docs/EXPLORER.md, "Server limits").
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Connections open at once; beyond them, a new connection waits (it is not accepted) until
    /// one closes. Lowered to what the open-file limit allows, with a note.
    #[arg(long, default_value_t = Limits::default().max_connections, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    max_connections: usize,
    /// Seconds a request may run before its answer is a 503.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().request_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    request_timeout: u64,
    /// Seconds a request's head may take to come whole, from its first byte.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().header_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: u64,
    /// Seconds a connection may stay open without sending a request.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().idle_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    idle_timeout: u64,
    /// Seconds an answer may wait on a client that does not read it before its connection is
    /// closed.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().write_timeout.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    write_timeout: u64,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            max_connections: self.max_connections,
            request_timeout: Duration::from_secs(self.request_timeout),
            header_timeout: Duration::from_secs(self.header_timeout),
            idle_timeout: Duration::from_secs(self.idle_timeout),
            write_timeout: Duration::from_secs(self.write_timeout),
        }
    }
}

/// Files the process keeps open besides its connections: the tables, standard streams, the
/// runtime's own.
#[cfg(unix)]
const OTHER_FILES: libc::rlim_t = 64;

/// The connections the open-file limit leaves room for, up to `wanted`: the soft limit is
/// raised toward the hard one first.
#[cfg(unix)]
fn connection_room(wanted: usize) -> usize {
    // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return wanted;
    }
    let need = (wanted as libc::rlim_t).saturating_add(OTHER_FILES);
    if limit.rlim_cur < need {
        let raised = libc::rlimit { rlim_cur: need.min(limit.rlim_max), rlim_max: limit.rlim_max };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            limit.rlim_cur = raised.rlim_cur;
        }
    }
    let room = limit.rlim_cur.saturating_sub(OTHER_FILES).max(1);
    wanted.min(usize::try_from(room).unwrap_or(usize::MAX))
}

#[cfg(not(unix))]
fn connection_room(wanted: usize) -> usize {
    wanted
}

/// The address to listen on: an IP address, or a host name such as `localhost` (its first
/// address).
fn address(bind: &str, port: u16) -> Result<SocketAddr, CliError> {
    let bind_error = |source| CliError::Bind { bind: bind.to_string(), source };
    let mut found = (bind, port).to_socket_addrs().map_err(bind_error)?;
    found.next().ok_or_else(|| CliError::NoAddress { bind: bind.to_string() })
}

/// Serves `games` on `bind:port`, their tables from `dir`.
pub fn run(
    bind: &str,
    port: u16,
    no_solve: bool,
    limits: &LimitArgs,
    games: &[&dyn Registered],
    dir: &Path,
) -> Result<(), CliError> {
    // A bad address fails at once, before any table is loaded.
    let addr = address(bind, port)?;
    let mut limits = limits.limits();
    let room = connection_room(limits.max_connections);
    if room < limits.max_connections {
        eprintln!(
            "note: the open-file limit leaves room for {room} connections: at most {room} are open at once, not {}",
            limits.max_connections
        );
        limits.max_connections = room;
    }
    let missing = if no_solve { Missing::Refuse } else { Missing::Solve };
    let registry = || {
        let mut registry = Registry::new();
        let notes: Vec<String> = games.iter().flat_map(|g| g.add_to(&mut registry, dir, missing)).collect();
        if !registry.serves_anything() {
            // Nothing to serve: every table named, missing or damaged, with its command.
            return Err(CliError::NothingToServe(notes));
        }
        for note in &notes {
            eprintln!("note: {note}");
        }
        let registry = Arc::new(registry);
        if !no_solve {
            crate::pool::start()?;
            // The solves run while the server answers: one at a time, smallest first.
            let _ = registry.solve_queued(
                |game, rules| Box::new(Bars::new(format!("{game} {rules}"))),
                |note| eprintln!("note: {note}"),
            );
        }
        Ok(registry)
    };
    nana_server::run(addr, limits, registry, |addr| {
        eprintln!("listening on http://{addr}/ (Ctrl-C stops)");
    })
}
