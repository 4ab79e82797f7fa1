//! The identity of Dobutsu's tablebase files: their names, and the header fields that say which
//! game and rule set a table was built for.

use nana_engine::{CheckError, EntryWidth, Progress, Solution, SolveError};
use nana_probe::table::TableGame;
use nana_tablebase::{Encoding, Expected, Header};

use crate::index;
use crate::types::{Rules, TryRule};
use crate::DobutsuGame;

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

    fn from_header(header: &Header) -> Result<Rules, String> {
        if header.game != GAME {
            return Err(format!("the table is of the game \"{}\", not {GAME}", header.game));
        }
        let rules = match header.rule_set_id {
            0 => Rules::TANAKA,
            1 => Rules::SAFE_TRY,
            v => return Err(format!("unknown Dobutsu rule set id {v} in the header")),
        };
        if header.option_bits != 0 {
            return Err(format!("unknown rule option bits {:#x} in the header", header.option_bits));
        }
        Ok(rules)
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        nana_engine::solve(&DobutsuGame::new(*self), progress)
    }

    fn check(
        &self,
        entries: &[u8],
        width: EntryWidth,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), CheckError> {
        nana_engine::check_with(&DobutsuGame::new(*self), entries, width, progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nana_tablebase::Counts;

    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        for rules in Rules::all() {
            let written = rules.header(Counts::default(), 0);
            let (read, _) = Header::decode(&written.encode(0).unwrap()).unwrap();
            assert_eq!(read, written);
            assert_eq!(Rules::from_header(&read), Ok(rules));
            for other in Rules::all() {
                assert_eq!(read.check_expected(&other.expected()).is_ok(), other == rules);
            }
        }
        assert_ne!(Rules::TANAKA.file_name(), Rules::SAFE_TRY.file_name());
    }
}
