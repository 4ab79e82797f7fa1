//! Won positions' distances found by a search of their moves ([`Wins::Searched`](crate::Wins)):
//! the search itself, and the best move found with no more searches than the position's value
//! needs.
//!
//! A won position's distance is one more than the least distance of a lost position one of its
//! moves leads to. The best move of a position that wins or draws leads to a loss or a draw,
//! whose entries hold their distances: no search. The best move of a losing position leads to
//! the slowest win, one ply shorter than the loss: a move whose search meets a faster loss is
//! passed over there and then, and only the best moves are searched to the end.

use nana_engine::{Dtm, Value};

use crate::{MoveCounts, Probe, ProbeError, ProbeRules, Ranked, RankedMove};

/// A value as far as a position's entry tells without a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shallow {
    /// The value with its distance: the rules', or an entry's loss or draw.
    Exact(Value),
    /// A won position's entry: its distance takes a search.
    Win,
}

impl<G: ProbeRules> Probe<'_, G> {
    /// A won position's value found by a search of its moves.
    pub(crate) fn searched_win(&self, pos: &G::Position) -> Result<Value, ProbeError> {
        if let Some(t) = self.game.terminal(pos) {
            return Ok(t.value);
        }
        match self.least_loss(pos, 0)? {
            Some(d) => Ok(Value::Win(Dtm(d + 1))),
            None => Err(self.inconsistent(pos)),
        }
    }

    /// The least distance of a lost position one of `pos`'s moves leads to, each valued by
    /// the rules or by its entry (`None`: no move leads to a loss); or, as soon as a move leads
    /// to a loss in fewer than `enough` plies, that one's.
    fn least_loss(&self, pos: &G::Position, enough: u16) -> Result<Option<u16>, ProbeError> {
        let mut least = None::<u16>;
        self.try_each_move(pos, |_, child| {
            if least.is_some_and(|l| l < enough) {
                return Ok(());
            }
            let value = match self.game.value_by_rules(child) {
                Some(value) => value,
                None => self.stored(child)?,
            };
            if let Value::Loss(d) = value {
                least = Some(least.map_or(d.0, |l| l.min(d.0)));
            }
            Ok(())
        })?;
        Ok(least)
    }

    /// A legal position's value as its entry gives it, a win's distance not searched: what
    /// [`Probe::value`] gives but for that distance.
    fn shallow(&self, pos: &G::Position) -> Result<Shallow, ProbeError> {
        if let Some(value) = self.game.value_by_rules(pos) {
            return Ok(Shallow::Exact(value));
        }
        Ok(match self.stored(pos)? {
            Value::Win(_) => match self.game.terminal(pos) {
                Some(t) => Shallow::Exact(t.value),
                None => Shallow::Win,
            },
            value => Shallow::Exact(value),
        })
    }

    /// [`Probe::best_move_and_counts`] where wins' distances are searched: the same move, the
    /// same counts and the same checks, a won move's distance searched only where the position
    /// loses, and there only as far as it may be the slowest.
    pub(crate) fn best_move_searched(
        &self,
        pos: &G::Position,
    ) -> Result<(Option<Ranked<G>>, MoveCounts), ProbeError> {
        let own = self.shallow(pos)?;
        if let Some(t) = self.game.terminal(pos) {
            return if own == Shallow::Exact(t.value) {
                Ok((None, MoveCounts::default()))
            } else {
                Err(self.inconsistent(pos))
            };
        }
        let mut moves = Vec::new();
        self.try_each_move(pos, |mv, child| {
            let shallow = self.shallow(child)?;
            let ending = match shallow {
                Shallow::Exact(value) => self.ending(child, value)?,
                Shallow::Win => None,
            };
            moves.push((mv, child.clone(), shallow, ending));
            Ok(())
        })?;
        let mut counts = MoveCounts::default();
        for (.., shallow, _) in &moves {
            match shallow {
                Shallow::Exact(Value::Loss(_)) => counts.winning += 1,
                Shallow::Exact(Value::Draw) => counts.drawing += 1,
                _ => {}
            }
        }
        // Where every move leads to a win, the position loses in `d` and its best moves lead
        // to wins in `d - 1`; elsewhere the best moves lead to losses or draws, exact already.
        let slowest = match (counts.winning + counts.drawing, own) {
            (0, Shallow::Exact(Value::Loss(d))) if d.0 > 1 => Some(d.0 - 1),
            (0, _) => return Err(self.inconsistent(pos)),
            _ => None,
        };
        let mut candidates = Vec::new();
        for (mv, child, shallow, ending) in moves {
            let child_value = match (shallow, slowest) {
                (Shallow::Exact(value), _) => value,
                (Shallow::Win, None) => continue,
                // A win in `1 + least` for the opponent: the slowest only where `least` is
                // `slowest - 1`, never more (the position would lose more slowly).
                (Shallow::Win, Some(slowest)) => match self.least_loss(&child, slowest - 1)? {
                    Some(least) if least + 1 == slowest => Value::Win(Dtm(slowest)),
                    Some(least) if least + 1 < slowest => continue,
                    _ => return Err(self.inconsistent(&child)),
                },
            };
            candidates.push(RankedMove { mv, child, child_value, ending });
        }
        let least = candidates.iter().map(|m| self.order(m)).min();
        let best = candidates
            .into_iter()
            .filter(|m| Some(self.order(m)) == least)
            .min_by_key(|m| self.game.machine_notation(pos, m.mv));
        match own {
            Shallow::Exact(own) => self.checked_best(pos, own, best.as_ref())?,
            // A won position's searched value is its best move's: a move into a loss.
            Shallow::Win if best.as_ref().is_some_and(|b| matches!(b.value(), Value::Win(_))) => {}
            Shallow::Win => return Err(self.inconsistent(pos)),
        }
        Ok((best, counts))
    }
}
