//! `nana serve`: the tablebase explorer (the HTTP JSON API and its web page) over every game's
//! tables, or only `--game`'s when it is given; see docs/EXPLORER.md.
//!
//! The port is bound first (a busy one fails at once), the tables in the folder are opened, and
//! the server answers; missing tables are solved in the background, smallest first, written to
//! the folder and served as each is done.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;

use nana_server::{Missing, Registry};

use crate::error::CliError;
use crate::games::Registered;
use crate::progress::Bars;

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
    games: &[&dyn Registered],
    dir: &Path,
) -> Result<(), CliError> {
    // A bad address fails at once, before any table is loaded.
    let addr = address(bind, port)?;
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
    nana_server::run(addr, registry, |addr| {
        eprintln!("listening on http://{addr}/ (Ctrl-C stops)");
    })
}
