//! The explorer without the command line: `cargo run --release -p nana-server --example serve --
//! [ADDR] [TABLEBASE_DIR]` (default `127.0.0.1:8080` and `tablebase`). Nana's tables are
//! memory-mapped from the folder, or solved in memory where a file is missing.

use std::path::PathBuf;
use std::sync::Arc;

use nana_engine::NoProgress;
use nana_server::{add_nana, run, Missing, Registry};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8080".to_string()).parse()?;
    let dir = PathBuf::from(args.next().unwrap_or_else(|| "tablebase".to_string()));
    let mut registry = Registry::new();
    add_nana(&mut registry, &dir, Missing::Solve, &|_| Box::new(NoProgress), &mut |rules, path| {
        eprintln!("note: no tablebase at {}; solving {rules} in memory", path.display())
    })?;
    run(addr, Arc::new(registry), |bound| eprintln!("listening on http://{bound}/"))?;
    Ok(())
}
