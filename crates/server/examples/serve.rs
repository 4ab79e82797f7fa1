//! The explorer without the command line: `cargo run --release -p nana-server --example serve --
//! [ADDR] [TABLEBASE_DIR] [GAME...]` (default `127.0.0.1:8080`, `tablebase` and every game).
//! The tables are memory-mapped from the folder, or solved in memory where a file is missing.

use std::path::PathBuf;
use std::sync::Arc;

use nana_engine::NoProgress;
use nana_server::{add_games, run, Missing, Registry, GAMES};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8080".to_string()).parse()?;
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "tablebase".to_string()));
    let mut games: Vec<String> = args.collect();
    if games.is_empty() {
        games = GAMES.iter().map(|g| g.to_string()).collect();
    }
    let games: Vec<&str> = games.iter().map(String::as_str).collect();
    let mut registry = Registry::new();
    add_games(
        &mut registry,
        &games,
        &dir,
        Missing::Solve,
        &|_, _| Box::new(NoProgress),
        &mut |rules, path| eprintln!("note: no tablebase at {}; solving {rules} in memory", path.display()),
    )?;
    run(addr, Arc::new(registry), |bound| eprintln!("listening on http://{bound}/"))?;
    Ok(())
}
