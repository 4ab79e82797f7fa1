//! A table as the handlers see it, whatever its game: [`Explorer`], the object-safe face of a
//! `Table<G>` of a game the page can show ([`Explorable`]).

use std::sync::Arc;

use nana_front::{Explorable, Words};
use nana_probe::table::{Source, Table, TableError};
use nana_probe::{Answer, GameAnalysis, LinePly as Ply, Probe, ProbeRules};

use crate::error::ApiError;
use crate::request;
use crate::response::{LinePly, LongWin, Mainline, MoveView, TableStats, View};

/// How many plies of a drawing line the answers show (as `nana query` does).
pub const DRAW_LINE: usize = 10;

/// How many of the longest wins [`TableStats`] lists.
pub const LONGEST_WINS: usize = 10;

/// A table as the handlers see it. Positions are the game's strings, with `_` accepted for
/// spaces (`None` for the start).
pub trait Explorer: Send + Sync {
    /// The rule set and options in words.
    fn description(&self) -> String;
    /// Where the table came from: its file's name (never its folder), or "solved in memory".
    fn origin(&self) -> String;
    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError>;
    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError>;
    fn view(&self, game: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError>;
    /// Counts every entry: call once, the registry keeps the result. Reads the whole table: a
    /// damaged block of its file is an error (500).
    fn stats(&self) -> Result<TableStats, ApiError>;
    /// How the page words the game ([`Explorable::words`]).
    fn words(&self) -> Words;
}

/// The plies of a line in both notations, with the positions they lead to.
fn line<G: ProbeRules>(game: &G, plies: &[Ply<G>]) -> Vec<LinePly> {
    plies
        .iter()
        .map(|ply| LinePly {
            uci: game.machine_notation(&ply.from, ply.ranked.mv),
            san: game.human_notation(&ply.from, ply.ranked.mv),
            fen: game.position_string(&ply.ranked.child),
            category: ply.ranked.child_value.category(),
            dtm: ply.ranked.child_value.dtm().map(|d| d.0),
        })
        .collect()
}

/// The view of `pos` ([`Explorer::view`]) from its analysis: the rule set `rules` of the game
/// `game_name`, as the API names them. An analysis whose mainline is not whole yet (a table
/// read a range at a time: [`Probe::walk_so_far`]) gives a view with the mainline so far.
pub fn view_of<G: Explorable>(
    probe: &Probe<'_, G>,
    game_name: &str,
    rules: &str,
    pos: &G::Position,
    analysis: &GameAnalysis<G>,
) -> View {
    let game = probe.game();
    let moves = analysis
        .moves
        .iter()
        .map(|m| MoveView {
            uci: game.machine_notation(pos, m.mv),
            squares: game.move_squares(pos, m.mv),
            fen: game.position_string(&m.child),
        })
        .collect();
    View {
        game: game_name.to_string(),
        rules: rules.to_string(),
        description: game.describe(),
        moves,
        mainline: line(game, &analysis.mainline),
        board: game.board(pos),
        palette: game.palette(),
        sfen: game.usi_position(pos),
        kif: game.kif_position(pos),
        answer: probe.answer_of(pos, analysis),
    }
}

impl<G> Explorer for Table<G>
where
    G: Explorable + Clone + Send + Sync + 'static,
{
    fn description(&self) -> String {
        self.game().describe()
    }

    fn origin(&self) -> String {
        match self.source() {
            Source::File(tb) => tb.path().map_or_else(|| "in memory".to_string(), crate::registry::file_name),
            Source::Memory(_) => "solved in memory".to_string(),
        }
    }

    fn words(&self) -> Words {
        self.game().words()
    }

    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError> {
        let pos = request::position(self.game(), position)?;
        self.probe().answer(&pos, DRAW_LINE).map_err(ApiError::probe)
    }

    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError> {
        let game = self.game();
        let pos = request::position(game, position)?;
        let probe = self.probe();
        let value = probe.value(&pos).map_err(ApiError::probe)?;
        let plies = probe.walk(&pos, DRAW_LINE).map_err(ApiError::probe)?;
        Ok(Mainline {
            fen: game.position_string(&pos),
            category: value.category(),
            dtm: value.dtm().map(|d| d.0),
            mainline: line(game, &plies),
        })
    }

    fn view(&self, game_name: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError> {
        let pos = request::position(self.game(), position)?;
        let probe: Probe<'_, G> = self.probe();
        let analysis = probe.analyse(&pos, DRAW_LINE).map_err(ApiError::probe)?;
        Ok(view_of(&probe, game_name, rules, &pos, &analysis))
    }

    fn stats(&self) -> Result<TableStats, ApiError> {
        let s = Table::stats(self);
        let game = self.game();
        let failed = |e| match e {
            // The file's name, never the server's folder.
            TableError::File { path, error } => {
                ApiError::Damaged(format!("{}: {error}", crate::registry::file_name(&path)))
            }
            other => ApiError::Internal(other.to_string()),
        };
        // The shortest win distance that still belongs among the longest LONGEST_WINS.
        let mut threshold = u16::MAX;
        let mut seen = 0;
        for d in (1..s.per_dtm.len()).rev().filter(|d| d % 2 == 1) {
            if seen >= LONGEST_WINS as u64 {
                break;
            }
            seen += s.per_dtm[d];
            threshold = d as u16;
        }
        let mut wins = if threshold == u16::MAX {
            Vec::new()
        } else {
            self.wins_of_at_least(threshold).map_err(failed)?
        };
        wins.sort_by_key(|&(d, i)| (std::cmp::Reverse(d), i));
        let longest_wins = wins
            .into_iter()
            .filter_map(|(dtm, i)| game.unindex(i).map(|p| LongWin { fen: game.position_string(&p), dtm }))
            .take(LONGEST_WINS)
            .collect();
        Ok(TableStats {
            description: game.describe(),
            origin: Explorer::origin(self),
            entries: game.size(),
            wins: s.wins,
            losses: s.losses,
            draws: s.draws,
            unused: s.illegal,
            max_dtm: s.max_dtm,
            longest_win: longest_at(&s.per_dtm, 1),
            longest_loss: longest_at(&s.per_dtm, 0),
            per_dtm: s.per_dtm,
            longest_wins,
            longest_wins_omitted: false,
        })
    }
}

/// A shared table serves as well (a registry may share tables with other users).
impl<E: Explorer + ?Sized> Explorer for Arc<E> {
    fn description(&self) -> String {
        (**self).description()
    }
    fn origin(&self) -> String {
        (**self).origin()
    }
    fn answer(&self, position: Option<&str>) -> Result<Answer, ApiError> {
        (**self).answer(position)
    }
    fn mainline(&self, position: Option<&str>) -> Result<Mainline, ApiError> {
        (**self).mainline(position)
    }
    fn view(&self, game: &str, rules: &str, position: Option<&str>) -> Result<View, ApiError> {
        (**self).view(game, rules, position)
    }
    fn stats(&self) -> Result<TableStats, ApiError> {
        (**self).stats()
    }
    fn words(&self) -> Words {
        (**self).words()
    }
}

/// The longest distance `d` with `d % 2 == parity` that some entry has (`per_dtm[d] > 0`).
pub fn longest_at(per_dtm: &[u64], parity: usize) -> Option<u16> {
    (0..per_dtm.len()).rev().find(|&d| d % 2 == parity && per_dtm[d] > 0).map(|d| d as u16)
}
