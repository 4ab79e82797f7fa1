//! `nana-engine`: `nana engine` as a program of its own, for GUIs that start an engine as one
//! executable with no arguments (docs/ENGINE-PROTOCOL.md). `nana-engine ARGS` runs `nana ARGS
//! engine`: the command line's global flags, such as `--tablebase-dir DIR`, may be given.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    args.push("engine".into());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    nana_cli::main(&nana_cli::games::GAMES, args, &mut out)
}
