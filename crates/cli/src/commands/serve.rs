//! `nana serve`: the tablebase explorer (the HTTP JSON API and its web page) over every game's
//! tables, or only `--game`'s when it is given; see docs/EXPLORER.md.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;

use nana_server::{missing_message, Missing, Registry};

use crate::games::Registered;
use crate::progress::Bars;

/// The address to listen on: an IP address, or a host name such as `localhost` (its first
/// address).
fn address(bind: &str, port: u16) -> Result<SocketAddr, String> {
    let bad = |why: String| format!("--bind {}: {why}", nana_probe::echo::cut(bind));
    let mut found = (bind, port).to_socket_addrs().map_err(|e| bad(e.to_string()))?;
    found.next().ok_or_else(|| bad("the name has no address".to_string()))
}

/// Serves `games` on `bind:port`, their tables from `dir`.
pub fn run(
    bind: &str,
    port: u16,
    no_solve: bool,
    games: &[&dyn Registered],
    dir: &Path,
) -> Result<(), String> {
    // A bad address fails at once, before any table is loaded.
    let addr = address(bind, port)?;
    let missing = if no_solve { Missing::Refuse } else { Missing::Solve };
    if no_solve {
        // Every missing file of every game at once, before anything is loaded.
        let absent: Vec<_> = games.iter().flat_map(|g| g.missing_tables(dir)).collect();
        if !absent.is_empty() {
            return Err(missing_message(&absent));
        }
    } else {
        crate::pool::start()?;
    }
    // Every table is opened (or solved) before the server listens.
    let mut registry = Registry::new();
    for game in games {
        let name = game.name();
        game.serve(
            &mut registry,
            dir,
            missing,
            &|rules| Box::new(Bars::new(format!("{name} {rules}"))),
            &mut |rules, path| {
                eprintln!("note: no tablebase at {}; solving {rules} in memory", path.display());
            },
        )?;
    }
    nana_server::run(addr, Arc::new(registry), |addr| {
        eprintln!("listening on http://{addr}/ (Ctrl-C stops)");
    })
    .map_err(|e| format!("{addr}: {e}"))
}
