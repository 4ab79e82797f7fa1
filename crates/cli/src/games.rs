//! The games the command line is built with, [`GAMES`]: every game of `nana_catalog`.
//!
//! A game is registered as [`game::<G>()`](game), where `G` implements the front layer's roles
//! of a game ([`Game`], [`Perft`], [`Claims`], [`ProtocolNotation`]): everything the commands,
//! the explorer and the engine need comes from there. [`Registered`] is the program's one
//! object-safe face of a game, so that one list holds games of different types; each of its
//! methods runs generic code for the game's own types: its commands, its engine (a fresh
//! [`DynEngine`], the engine's own object) and its rule sets in the explorer
//! ([`nana_server::add_game`]). It is implemented on the front layer's [`GameType`], with the
//! front layer's [`DynGame`] (name, about) as its supertrait.

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::LazyLock;

use nana_front::{game_type, Claims, DynGame, Game, GameType, Perft, ProtocolNotation};
use nana_protocol::{DynEngine, GameEngine};

/// Every game of the `nana` command line and explorer, the default (`--game` not given) first:
/// `nana_catalog`'s list, registered on first use.
///
/// A `static`, not a `const`: a constant is copied into every crate that names it, and with it
/// the code of every game's commands (this crate's generic code, compiled for each game),
/// which each of the two programs and every test binary would then compile again.
pub static GAMES: LazyLock<Vec<&'static dyn Registered>> = LazyLock::new(|| {
    struct Registry(Vec<&'static dyn Registered>);
    impl nana_catalog::Visit for Registry {
        fn game<G: nana_catalog::Complete>(&mut self) {
            self.0.push(game::<G>());
        }
    }
    let mut registry = Registry(Vec::new());
    nana_catalog::each_game(&mut registry);
    registry.0
});

/// A game of the registry, whatever its type; its name and words come from [`DynGame`].
pub trait Registered: DynGame + Sync {
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
    /// A fresh engine of this game for `nana engine`: its default rules, its start position, no
    /// table open.
    fn engine(&self) -> Box<dyn DynEngine>;
    /// Adds every rule set of this game to the explorer's `registry`
    /// ([`nana_server::add_game`]); returns a line for the console about each not opened.
    #[cfg(feature = "serve")]
    fn add_to(
        &self,
        registry: &mut nana_server::Registry,
        dir: &Path,
        missing: nana_server::Missing,
    ) -> Vec<String>;
}

/// The registration of `G`, for [`GAMES`].
pub const fn game<G: Game + Perft + Claims + ProtocolNotation>() -> &'static dyn Registered {
    game_type::<G>()
}

impl<G: Game + Perft + Claims + ProtocolNotation> Registered for GameType<G> {
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

    fn engine(&self) -> Box<dyn DynEngine> {
        GameEngine::<G>::boxed()
    }

    #[cfg(feature = "serve")]
    fn add_to(
        &self,
        registry: &mut nana_server::Registry,
        dir: &Path,
        missing: nana_server::Missing,
    ) -> Vec<String> {
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
        from_args(&GAMES, &args.iter().map(Into::into).collect::<Vec<_>>()).name()
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
