//! A game's notation in the engine protocol (`nana engine`, [`ProtocolNotation`]): its name as
//! a value of `UCI_Variant`, its positions after `position fen|sfen` and its moves per
//! [`Dialect`]. The protocol crate reads and writes through it; a game implements it here, in
//! the front layer, so that it needs no dependency on the protocol.

use crate::{Game, Mv, ParseError, Pos};
use nana_probe::ProbeRules;

/// The engine protocol a GUI speaks (`nana engine`): the one it opens with, `uci` or `usi`.
/// They differ in how moves, mate distances and some option names are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    Uci,
    Usi,
}

/// How a `position` command gives a position: after `fen` or after `sfen` (in either dialect,
/// as Fairy-Stockfish reads them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionForm {
    Fen,
    Sfen,
}

/// A game's notation in the engine protocol. Every method has a default, the game's own string
/// forms: a game no other engine plays implements it with an empty `impl`.
pub trait ProtocolNotation: Game {
    /// Its value of `UCI_Variant` / `USI_Variant`: Fairy-Stockfish's name for the game where it
    /// has one, by default [`Game::NAME`].
    const PROTOCOL_NAME: &'static str = Self::NAME;

    /// Reads a position of a `position fen|sfen` command; by default the game's own string
    /// form after either keyword (a game no other engine plays).
    fn parse_protocol_position(
        rules: &Self::Rules,
        input: &str,
        form: PositionForm,
    ) -> Result<Pos<Self>, ParseError<Self>> {
        let _ = form;
        rules.parse_position(input)
    }

    /// A position as `form` writes it; by default the game's own string form.
    fn protocol_position(rules: &Self::Rules, pos: &Pos<Self>, form: PositionForm) -> String {
        let _ = form;
        rules.position_string(pos)
    }

    /// A legal move as the dialect writes it (`bestmove`, `pv`, `go perft`); by default the
    /// game's machine notation.
    fn protocol_move(rules: &Self::Rules, pos: &Pos<Self>, mv: Mv<Self>, dialect: Dialect) -> String {
        let _ = dialect;
        rules.machine_notation(pos, mv)
    }

    /// Reads a legal move of `pos` as the dialect writes it; by default in any notation the
    /// game reads.
    fn parse_protocol_move(
        rules: &Self::Rules,
        pos: &Pos<Self>,
        input: &str,
        dialect: Dialect,
    ) -> Result<Mv<Self>, ParseError<Self>> {
        let _ = dialect;
        rules.parse_move(pos, input)
    }
}
