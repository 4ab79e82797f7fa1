//! The games the command line is built with: one registration line each in [`GAMES`].
//!
//! A game is registered as [`game::<G>()`](game), where `G` implements the front layer's roles
//! of a game ([`Game`], [`Perft`], [`Claims`], [`ProtocolNotation`]): everything the commands,
//! the explorer and the engine need comes from there. [`Registered`] is
//! the object-safe face of a game, so that one list holds games of different types; each of its
//! methods runs generic code for the game's own types.

use std::ffi::OsString;
use std::io::Write;
use std::marker::PhantomData;
use std::path::Path;
use std::process::ExitCode;

use nana_front::{Claims, Game, Perft, ProtocolNotation};
use nana_server::{Missing, Registry};

/// Every game of the `nana` command line and explorer, the default (`--game` not given) first.
pub const GAMES: &[&dyn Registered] = &[game::<nana_shogi::Nana>(), game::<dobutsu_shogi::Dobutsu>()];

/// A game of the registry, whatever its type.
pub trait Registered: Sync {
    /// Its name in `--game` and URLs.
    fn name(&self) -> &'static str;
    /// In words, for `--game`'s help.
    fn about(&self) -> &'static str;
    /// Parses the arguments as this game's command line and runs the command; `games` is the
    /// whole registry (for `--game`'s values, `serve` and `verify --all-games`).
    fn run(&self, args: Vec<OsString>, games: &[&dyn Registered], out: &mut dyn Write) -> ExitCode;
    /// `verify` of this game.
    fn verify(
        &self,
        dir: &Path,
        steps: crate::commands::verify::Steps,
        out: &mut dyn Write,
    ) -> Result<(), crate::CliError>;
    /// The game as `nana engine` lists it (a value of `UCI_Variant`).
    fn engine_game(&self) -> &'static dyn nana_protocol::EngineGame;
    /// Adds the game's rule sets to the explorer's registry ([`nana_server::add_game`]): each
    /// table opened from `dir`, or queued for its solve or reported missing as `missing` says,
    /// or reported damaged; a line for the console about each table not opened.
    fn serve(&self, registry: &mut Registry, dir: &Path, missing: Missing) -> Vec<String>;
}

/// A game's registration.
#[derive(Debug)]
pub struct Registration<G>(PhantomData<fn() -> G>);

/// The registration of `G`, for [`GAMES`].
pub const fn game<G: Game + Perft + Claims + ProtocolNotation>() -> &'static dyn Registered {
    &Registration::<G>(PhantomData)
}

impl<G: Game + Perft + Claims + ProtocolNotation> Registered for Registration<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn about(&self) -> &'static str {
        G::ABOUT
    }

    fn run(&self, args: Vec<OsString>, games: &[&dyn Registered], out: &mut dyn Write) -> ExitCode {
        crate::parse_and_run::<G>(args, games, out)
    }

    fn verify(
        &self,
        dir: &Path,
        steps: crate::commands::verify::Steps,
        out: &mut dyn Write,
    ) -> Result<(), crate::CliError> {
        crate::commands::verify::run::<G>(dir, steps, out)
    }

    fn engine_game(&self) -> &'static dyn nana_protocol::EngineGame {
        nana_protocol::engine_game::<G>()
    }

    fn serve(&self, registry: &mut Registry, dir: &Path, missing: Missing) -> Vec<String> {
        nana_server::add_game::<G>(registry, dir, missing)
    }
}

/// The game named by `--game NAME` or `--game=NAME` among the arguments (before a `--`), if it
/// is one of `games`; otherwise the first, and clap reports an unknown name when it parses the
/// arguments for that game.
pub fn from_args<'a>(games: &[&'a dyn Registered], args: &[OsString]) -> &'a dyn Registered {
    let mut value = None;
    let mut iter = args.iter().skip(1).map(|a| a.to_str());
    while let Some(arg) = iter.next() {
        match arg {
            Some("--") => break,
            Some("--game") => value = iter.next().flatten(),
            Some(a) if a.starts_with("--game=") => value = Some(&a["--game=".len()..]),
            _ => {}
        }
    }
    value.and_then(|v| games.iter().copied().find(|g| g.name() == v)).unwrap_or(games[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(args: &[&str]) -> &'static str {
        from_args(GAMES, &args.iter().map(Into::into).collect::<Vec<_>>()).name()
    }

    #[test]
    fn the_game_is_found_before_parsing() {
        assert_eq!(game(&["nana", "query"]), "nana");
        assert_eq!(game(&["nana", "--game", "nana", "query"]), "nana");
        assert_eq!(game(&["nana", "query", "--game=nana"]), "nana");
        assert_eq!(game(&["nana", "--game", "dobutsu", "query"]), "dobutsu");
        assert_eq!(game(&["nana", "query", "--game=dobutsu"]), "dobutsu");
        assert_eq!(game(&["nana", "--", "--game", "dobutsu"]), "nana");
        // Unknown names fall back to the default; clap then reports them.
        assert_eq!(game(&["nana", "--game", "chess"]), "nana");
        assert_eq!(game(&["nana", "--game"]), "nana");
    }

    #[test]
    fn the_games_have_distinct_names() {
        let mut names: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len());
    }
}
