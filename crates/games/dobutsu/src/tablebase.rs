//! The identity of Dobutsu's tablebase files: their names, and the header fields that say which
//! game and rule set a table was built for.

use nana_engine::{CheckError, Entry, EntryWidth, Problem, Progress, Solution, SolveError, Stats};
use nana_probe::table::{RulesError, TableGame};
use nana_tablebase::{Encoding, Expected, Header};
use rayon::prelude::*;

use crate::dense::Dense;
use crate::types::{Rules, TryRule};
use crate::DobutsuGame;
use crate::{index, reach};

/// The game name in the header.
pub const GAME: &str = "dobutsu-shogi";

fn rule_set_id(rules: &Rules) -> u32 {
    match rules.try_rule {
        TryRule::Tanaka => 0,
        TryRule::SafeTry => 1,
    }
}

impl TableGame for Rules {
    /// `dobutsu-tanaka.tb`, `dobutsu-safe-try.tb`.
    fn file_name(&self) -> String {
        format!("dobutsu-{}.tb", self.name())
    }

    fn rule_set_name(&self) -> String {
        self.name().to_string()
    }

    fn options_text(&self) -> String {
        self.describe_try().to_string()
    }

    fn expected(&self) -> Expected<'static> {
        Expected {
            game: GAME,
            rule_set_id: rule_set_id(self),
            option_bits: 0,
            layout_version: index::LAYOUT_VERSION,
            // One byte: the longest win (Tanaka: 173 plies) is below 254.
            entry_width: 1,
            encoding: Encoding::DtmPlies,
            entries: index::SIZE,
        }
    }

    fn from_header(header: &Header) -> Result<Rules, RulesError> {
        let rules = match header.rule_set_id {
            0 => Rules::TANAKA,
            1 => Rules::SAFE_TRY,
            v => return Err(RulesError::RuleSetId(v)),
        };
        if header.option_bits != 0 {
            return Err(RulesError::OptionBits(header.option_bits));
        }
        Ok(rules)
    }

    /// Enumerates the reachable positions, surveying each (a "reach" phase), and solves them
    /// (the engine's phases, over the reachable entries numbered densely), and spreads the values
    /// over the index, unreachable entries marked unused.
    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        progress.begin("reach", 0);
        let (reached, survey) = reach::survey(self, &|_| {});
        let game = Dense::surveyed(DobutsuGame::new(*self), &reached, &survey);
        drop((reached, survey));
        progress.end();
        let dense = nana_engine::solve(&game, progress)?;
        let entries = game.spread(&dense.entries);
        let stats = Stats::of(&entries, EntryWidth::One);
        Ok(Solution { entries, width: EntryWidth::One, stats })
    }

    /// Enumerates the reachable positions again and checks the table's entries there with the
    /// engine's independent check; every other entry must be unused.
    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError> {
        assert_eq!(width, EntryWidth::One, "Dobutsu tables have one-byte entries");
        let reached = reach::reachable(self, &|_| {});
        let game = Dense::new(DobutsuGame::new(*self), &reached);
        drop(reached);
        let dense = game.gather(entries);
        nana_engine::check_with(&game, &dense, width, progress).map_err(|mut e| {
            e.index = game.select(e.index);
            e
        })?;
        // A value stored outside the reachable positions.
        let stray = (0..entries.len() as u64)
            .into_par_iter()
            .find_first(|&i| entries[i as usize] != Entry::ILLEGAL.0 && game.rank(i).is_none());
        match stray {
            Some(index) => {
                Err(CheckError { index, stored: width.value(entries, index), problem: Problem::Illegal })
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set's header encodes, reads back with the rules it was written for, passes its
    /// own expectations and no other rule set's, under file names of their own.
    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        nana_probe::table::assert_header_round_trip(&Rules::all());
    }
}
