//! `nana serve`: the tablebase explorer (the HTTP JSON API and its web page) over every game's
//! tables; see docs/EXPLORER.md.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;

use nana_server::{Missing, Registry};

use crate::progress::Bars;

pub fn run(bind: IpAddr, port: u16, no_solve: bool, dir: &Path) -> Result<(), String> {
    let missing = if no_solve { Missing::Refuse } else { Missing::Solve };
    // Every table is opened (or solved) before the server listens.
    let mut registry = Registry::new();
    if !no_solve {
        crate::pool::start()?;
    }
    nana_server::add_nana(
        &mut registry,
        dir,
        missing,
        &|rules| Box::new(Bars::new(rules)),
        &mut |rules, path| {
            eprintln!("note: no tablebase at {}; solving {rules} in memory", path.display());
        },
    )?;
    let addr = SocketAddr::new(bind, port);
    nana_server::run(addr, Arc::new(registry), |addr| {
        eprintln!("listening on http://{addr}/ (Ctrl-C stops)");
    })
    .map_err(|e| format!("{addr}: {e}"))
}
