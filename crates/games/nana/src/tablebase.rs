//! The identity of Nana's tablebase files: their names, and the header fields that say which
//! game, rule set and options a table was built for. The tablebase crate stores and compares
//! these fields without knowing what they mean; this module is where they get their meaning.

use nana_engine::par::prelude::*;
use nana_engine::{ByteCode, CheckError, EntryWidth, Progress, Solution, SolveError};
use nana_probe::table::{RulesError, TableRules};
use nana_tablebase::{Encoding, Expected, Header, Layout};

use crate::index;
use crate::types::{Rules, Variant};
use crate::NanaGame;

/// Entries a block of its tables holds (zstd blocks, [`Layout::ZstdBlocks`]): measured against
/// 16,384 and 65,536 in `docs/PERFORMANCE.md` ("Value coding and codec").
pub const BLOCK_ENTRIES: u32 = 32_768;

/// The game name in the header.
pub const GAME: &str = "nana-shogi";

fn rule_set_id(v: Variant) -> u32 {
    match v {
        Variant::Current => 0,
        Variant::Original => 1,
    }
}

fn option_bits(rules: &Rules) -> u32 {
    u32::from(rules.drop_stalemate) | u32::from(rules.hand_stalemate) << 1
}

/// A rule set with its options is a table of its own.
impl TableRules for Rules {
    /// `nana-current.tb`, `nana-original-hand-stalemate-off.tb`, …
    fn file_name(&self) -> String {
        let mut name = format!("nana-{}", self.variant.name());
        if !self.drop_stalemate {
            name.push_str("-drop-stalemate-off");
        }
        if !self.hand_stalemate {
            name.push_str("-hand-stalemate-off");
        }
        name + ".tb"
    }

    fn rule_set_name(&self) -> String {
        self.variant.name().to_string()
    }

    /// `drop-stalemate on, hand-stalemate on`, so that [`TableRules::describe`] gives e.g.
    /// `original, drop-stalemate on, hand-stalemate on`.
    fn options_text(&self) -> String {
        let sw = |b: bool| if b { "on" } else { "off" };
        format!("drop-stalemate {}, hand-stalemate {}", sw(self.drop_stalemate), sw(self.hand_stalemate))
    }

    fn expected(&self) -> Expected<'static> {
        Expected {
            game: GAME,
            rule_set_id: rule_set_id(self.variant),
            option_bits: option_bits(self),
            layout_version: index::LAYOUT_VERSION,
            // One-byte distance-to-mate entries, every win stored as one value (its distance
            // searched: the tables are half the size): the longest win is 181 plies.
            entry_width: 1,
            encoding: Encoding::DtmPliesWinsAsOne,
            entries: index::SIZE,
        }
    }

    fn from_header(header: &Header) -> Result<Rules, RulesError> {
        let variant = match header.rule_set_id {
            0 => Variant::Current,
            1 => Variant::Original,
            v => return Err(RulesError::RuleSetId(v)),
        };
        let bits = header.option_bits;
        if bits > 3 {
            return Err(RulesError::OptionBits(bits));
        }
        Ok(Rules { variant, drop_stalemate: bits & 1 != 0, hand_stalemate: bits & 2 != 0 })
    }

    /// The unused entries, those of no legal position, are don't-care: the probe looks up legal
    /// positions only (a position string or a move that leads to an illegal one is refused
    /// before any lookup), and a legal position's entry is never unused.
    fn dont_care(&self) -> bool {
        true
    }

    /// zstd blocks of [`BLOCK_ENTRIES`] entries (1,956,279 and 1,353,959 bytes, every win as one
    /// value, in the file order: `docs/PERFORMANCE.md`).
    fn layout(&self) -> Layout {
        Layout::ZstdBlocks { block_entries: BLOCK_ENTRIES }
    }

    /// Every entry without a legal position ([`NanaGame::position`]): an index entry of no
    /// position, or one where White, who has just moved, is in check.
    fn mark_unused(&self, entries: &mut [u8]) {
        let game = NanaGame::new(*self);
        entries.par_chunks_mut(1 << 14).enumerate().for_each(|(c, chunk)| {
            let first = (c as u64) << 14;
            for (i, entry) in chunk.iter_mut().enumerate() {
                if game.position(first + i as u64).is_none() {
                    *entry = ByteCode::ILLEGAL.0;
                }
            }
        });
    }

    /// The engine's phases over [`NanaGame::solver`].
    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        nana_engine::solve(&NanaGame::solver(*self), progress)
    }

    /// Against the rules alone (an unprepared game).
    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError> {
        nana_engine::check_with(&NanaGame::new(*self), entries, width, progress)
    }

    /// Over the solve's successors ([`NanaGame::solver`]).
    fn restore_wins(&self, entries: &[u8], width: EntryWidth) -> Result<Vec<u8>, CheckError> {
        nana_engine::restore_wins(&NanaGame::solver(*self), entries, width, &|_| {})
    }

    /// Over the solve's successors and predecessors ([`NanaGame::solver`]).
    fn wins_of_at_least(
        &self,
        entries: &[u8],
        width: EntryWidth,
        at_least: u16,
    ) -> Result<Vec<(u16, u64)>, CheckError> {
        nana_engine::wins_of_at_least(&NanaGame::solver(*self), entries, width, at_least)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set's header encodes, reads back with the rules it was written for, passes its
    /// own expectations and no other rule set's, in one-byte distance-to-mate entries with every
    /// win as one value.
    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        let rule_sets: Vec<Rules> = Rules::all().collect();
        nana_fixture::assert_header_round_trip(&rule_sets);
        for rules in rule_sets {
            assert_eq!(
                (rules.expected().entry_width, rules.expected().encoding),
                (1, Encoding::DtmPliesWinsAsOne)
            );
        }
    }
}
