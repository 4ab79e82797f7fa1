//! The identity of Dobutsu's tablebase files: their names, and the header fields that say which
//! game and rule set a table was built for.

use nana_engine::par::prelude::*;
use nana_engine::{ByteCode, CheckError, EntryWidth, Problem, Progress, Solution, SolveError};
use nana_probe::table::{RulesError, TableRules};
use nana_tablebase::{Encoding, Expected, Header, Layout};

use crate::dense::Dense;
use crate::types::{Rules, TryRule};
use crate::DobutsuGame;
use crate::{index, survey};

/// The game name in the header.
pub const GAME: &str = "dobutsu-shogi";

fn rule_set_id(rules: &Rules) -> u32 {
    match rules.try_rule {
        TryRule::Tanaka => 0,
        TryRule::SafeTry => 1,
    }
}

impl TableRules for Rules {
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
            // Every win as one value, its distance searched: the table is 40 % smaller.
            encoding: Encoding::DtmPliesWinsAsOne,
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

    /// Surveys every entry of the index (a "survey" phase, [`crate::survey`]) and solves it
    /// from the survey's bytes (the engine's phases), which become the solver's cells in place:
    /// one byte an entry. The index has no entry for a position where the side to move can take
    /// the lion (a win in 1 the probe decides); its unused entries (mirror images) stay unused.
    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        progress.plan(&[&["survey"], nana_engine::phases(&DobutsuGame::new(*self))].concat());
        progress.begin("survey", index::SIZE);
        let survey = survey::survey(self, &|n| progress.advance(n));
        progress.end();
        nana_engine::solve_census(&DobutsuGame::new(*self), survey.into_census(), progress)
    }

    /// zstd blocks of 4096 entries (level 6): 53.9 MB for Tanaka's table, where LZ4 blocks take
    /// 86.2 MB, and a block decodes in tens of microseconds, which a lookup that misses the
    /// cache pays (`docs/PERFORMANCE.md`, "Value coding and codec").
    fn layout(&self) -> Layout {
        Layout::ZstdBlocks { block_entries: 4096 }
    }

    /// The entries outside the solved set are don't-care: the probe decides a position where
    /// the side to move can take the lion (or has lost it) by the rules before any lookup, and
    /// ranks every other legal position to the entry of its canonical form, which is in the set.
    fn dont_care(&self) -> bool {
        true
    }

    /// Every entry outside the solved set ([`survey::in_set`]): of no position (a mirror image's
    /// entry), or of one where the side to move can take the lion; found as the survey finds
    /// the set ([`survey::for_each_in_set`]).
    fn mark_unused(&self, entries: &mut [u8]) {
        entries.par_chunks_mut(1 << 16).enumerate().for_each(|(c, chunk)| {
            let first = (c as u64) << 16;
            let mut used = vec![false; chunk.len()];
            survey::for_each_in_set(first..first + chunk.len() as u64, |i, _| {
                used[(i - first) as usize] = true
            });
            for (entry, used) in chunk.iter_mut().zip(used) {
                if !used {
                    *entry = ByteCode::ILLEGAL.0;
                }
            }
        });
    }

    /// Marks the solved set again, plainly ([`survey::in_set`]: every legal position where the
    /// side to move cannot take the lion), and checks the table's entries there with the
    /// engine's independent check, from the moves of each; every other entry must be unused.
    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError> {
        assert_eq!(width, EntryWidth::One, "Dobutsu tables have one-byte entries");
        let game = self.in_set_plainly();
        let dense = game.gather(entries);
        nana_engine::check_with(&game, &dense, width, progress).map_err(|e| game.error_at_full_index(e))?;
        // A value stored outside the solved set.
        let stray = (0..entries.len() as u64)
            .into_par_iter()
            .find_first(|&i| entries[i as usize] != ByteCode::ILLEGAL.0 && game.rank(i).is_none());
        match stray {
            Some(index) => {
                Err(CheckError { index, stored: width.value(entries, index), problem: Problem::Illegal })
            }
            None => Ok(()),
        }
    }

    /// Over the solved set: the entries used (those [`TableRules::mark_unused`] leaves).
    fn restore_wins(&self, entries: &[u8], width: EntryWidth) -> Result<Vec<u8>, CheckError> {
        assert_eq!(width, EntryWidth::One, "Dobutsu tables have one-byte entries");
        let game = self.over_used(entries);
        let dense = nana_engine::restore_wins(&game, &game.gather(entries), width, &|_| {})
            .map_err(|e| game.error_at_full_index(e))?;
        Ok(game.spread(&dense))
    }

    /// Over the solved set, as [`TableRules::restore_wins`].
    fn wins_of_at_least(
        &self,
        entries: &[u8],
        width: EntryWidth,
        at_least: u16,
    ) -> Result<Vec<(u16, u64)>, CheckError> {
        assert_eq!(width, EntryWidth::One, "Dobutsu tables have one-byte entries");
        let game = self.over_used(entries);
        let wins = nana_engine::wins_of_at_least(&game, &game.gather(entries), width, at_least)
            .map_err(|e| game.error_at_full_index(e))?;
        Ok(wins.into_iter().map(|(d, i)| (d, game.select(i))).collect())
    }
}

impl Rules {
    /// The game over the entries of `entries` that are used: the solved set, where the unused
    /// entries are marked.
    fn over_used(&self, entries: &[u8]) -> Dense<DobutsuGame> {
        let words: Vec<u64> = entries
            .par_chunks(64)
            .map(|chunk| {
                chunk
                    .iter()
                    .enumerate()
                    .filter(|(_, &e)| e != ByteCode::ILLEGAL.0)
                    .fold(0, |a, (b, _)| a | 1 << b)
            })
            .collect();
        Dense::from_words(DobutsuGame::new(*self), &words)
    }

    /// The game over its solved set, marked plainly ([`survey::in_set`] of every entry).
    fn in_set_plainly(&self) -> Dense<DobutsuGame> {
        let words: Vec<u64> = (0..index::SIZE.div_ceil(64))
            .into_par_iter()
            .map(|w| {
                (0..64)
                    .filter(|b| w * 64 + b < index::SIZE && survey::in_set(w * 64 + b))
                    .fold(0, |a, b| a | 1 << b)
            })
            .collect();
        Dense::from_words(DobutsuGame::new(*self), &words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set's header encodes, reads back with the rules it was written for, passes its
    /// own expectations and no other rule set's, under file names of their own.
    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        nana_fixture::assert_header_round_trip(&Rules::all());
    }
}
