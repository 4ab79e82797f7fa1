//! `nana serve`: the tablebase explorer (the HTTP JSON API and its web page) over every game's
//! tables, or only `--game`'s when it is given; see docs/EXPLORER.md.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;

use clap::ValueEnum;
use nana_server::{Missing, Registry};

use crate::games::GameName;
use crate::progress::Bars;

/// The games served: `--game`'s alone when it is given, else every game the explorer knows.
fn games(game: Option<GameName>) -> Vec<String> {
    match game {
        Some(g) => vec![g.to_possible_value().expect("every game has a name").get_name().to_string()],
        None => nana_server::GAMES.iter().map(|g| g.to_string()).collect(),
    }
}

pub fn run(
    bind: IpAddr,
    port: u16,
    no_solve: bool,
    game: Option<GameName>,
    dir: &Path,
) -> Result<(), String> {
    let missing = if no_solve { Missing::Refuse } else { Missing::Solve };
    let games = games(game);
    let games: Vec<&str> = games.iter().map(String::as_str).collect();
    // Every table is opened (or solved) before the server listens.
    let mut registry = Registry::new();
    if !no_solve {
        crate::pool::start()?;
    }
    nana_server::add_games(
        &mut registry,
        &games,
        dir,
        missing,
        &|game, rules| Box::new(Bars::new(format!("{game} {rules}"))),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of `--game` are the explorer's names of the games.
    #[test]
    fn every_game_of_the_command_line_is_served() {
        let all: Vec<String> = GameName::value_variants().iter().flat_map(|&g| games(Some(g))).collect();
        assert_eq!(all, games(None));
    }
}
