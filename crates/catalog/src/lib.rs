//! Every game of the project, listed once.
//!
//! The front ends (the command line with its explorer and engine, the Python package, the
//! static site) name no game: each implements its face of a game for any type with the front
//! layer's roles ([`Game`], [`Perft`], [`Claims`], [`ProtocolNotation`]), and builds its list of
//! games by handing a [`Visit`] to [`each_game`], which calls it once per game. A new game is
//! one line here (and its crate).

use nana_front::{Claims, Game, Perft, ProtocolNotation};

/// Every role a game plays in the front ends.
pub trait Complete: Game + Perft + Claims + ProtocolNotation {}
impl<G: Game + Perft + Claims + ProtocolNotation> Complete for G {}

/// What a front end does with each game.
pub trait Visit {
    /// Called once for each game `G`, in the order of [`each_game`].
    fn game<G: Complete>(&mut self);
}

/// Calls `visit` with every game, the default (the command line's `--game` not given) first.
pub fn each_game(visit: &mut impl Visit) {
    visit.game::<nana_shogi::Nana>();
    visit.game::<dobutsu_shogi::Dobutsu>();
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Names(Vec<&'static str>);

    impl Visit for Names {
        fn game<G: Complete>(&mut self) {
            self.0.push(G::NAME);
        }
    }

    #[test]
    fn every_game_once_the_default_first() {
        let mut names = Names(Vec::new());
        each_game(&mut names);
        assert_eq!(names.0, ["nana", "dobutsu"]);
    }
}
