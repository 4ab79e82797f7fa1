//! `nana`: the command line over every game of [`nana_cli::games::GAMES`]; see `nana --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`nana query | head`), as command-line tools do, instead of
    // reporting a write error.
    #[cfg(unix)]
    // Safety: restoring the default disposition of SIGPIPE at start-up, before any thread
    // exists, has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    nana_cli::main(&nana_cli::games::GAMES, std::env::args_os().collect(), &mut out)
}
