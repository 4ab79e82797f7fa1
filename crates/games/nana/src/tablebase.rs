//! The identity of Nana's tablebase files: their names, and the header fields that say which
//! game, rule set and options a table was built for. The tablebase crate stores and compares
//! these fields without knowing what they mean; this module is where they get their meaning.

use nana_tablebase::{Counts, Encoding, Expected, Header};

use crate::index;
use crate::types::{Rules, Variant};

/// The game name in the header.
pub const GAME: &str = "nana-shogi";

/// `nana-current.tb`, `nana-original-hand-stalemate-off.tb`, …
pub fn file_name(rules: &Rules) -> String {
    let mut name = format!("nana-{}", rules.variant.name());
    if !rules.drop_stalemate {
        name.push_str("-drop-stalemate-off");
    }
    if !rules.hand_stalemate {
        name.push_str("-hand-stalemate-off");
    }
    name + ".tb"
}

fn rule_set_id(v: Variant) -> u32 {
    match v {
        Variant::Current => 0,
        Variant::Original => 1,
    }
}

fn option_bits(rules: &Rules) -> u32 {
    u32::from(rules.drop_stalemate) | u32::from(rules.hand_stalemate) << 1
}

/// The rule options as text, stored in headers: `drop-stalemate on, hand-stalemate on`.
fn options_text(rules: &Rules) -> String {
    let sw = |b: bool| if b { "on" } else { "off" };
    format!("drop-stalemate {}, hand-stalemate {}", sw(rules.drop_stalemate), sw(rules.hand_stalemate))
}

/// The full rule description, e.g. `original, drop-stalemate on, hand-stalemate on`.
pub fn describe(rules: &Rules) -> String {
    format!("{}, {}", rules.variant.name(), options_text(rules))
}

/// The rules a header says its table was built with.
pub fn rules_of(header: &Header) -> Result<Rules, String> {
    let variant = match header.rule_set_id {
        0 => Variant::Current,
        1 => Variant::Original,
        v => return Err(format!("unknown rule set id {v} in the header")),
    };
    let bits = header.option_bits;
    if bits > 3 {
        return Err(format!("unknown rule option bits {bits:#x} in the header"));
    }
    Ok(Rules { variant, drop_stalemate: bits & 1 != 0, hand_stalemate: bits & 2 != 0 })
}

/// What a reader of the table for `rules` expects to find in its header.
pub fn expected(rules: &Rules) -> Expected<'static> {
    Expected {
        game: GAME,
        rule_set_id: rule_set_id(rules.variant),
        option_bits: option_bits(rules),
        layout_version: index::LAYOUT_VERSION,
        // The engine's one-byte distance-to-mate entries, all that the probe reads.
        entry_width: 1,
        encoding: Encoding::DtmPlies,
        entries: index::SIZE,
    }
}

/// The header of the table for `rules`: the game's identity and the entry encoding are those a
/// reader expects (see [`expected`]), so what is written is what is accepted.
pub fn header(rules: &Rules, counts: Counts, max_dtm: u32) -> Header {
    let want = expected(rules);
    Header {
        game: want.game.to_string(),
        rule_set: rules.variant.name().to_string(),
        rule_set_id: want.rule_set_id,
        options: options_text(rules),
        option_bits: want.option_bits,
        layout_version: want.layout_version,
        entries: want.entries,
        entry_width: want.entry_width,
        encoding: want.encoding,
        counts,
        max_dtm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule set's header encodes, reads back with the rules it was written for, passes its
    /// own expectations and no other rule set's.
    #[test]
    fn headers_name_their_rules_and_meet_only_their_expectations() {
        for rules in Rules::all() {
            let written = header(&rules, Counts::default(), 0);
            let (read, _) = Header::decode(&written.encode(0).unwrap()).unwrap();
            assert_eq!(read, written);
            assert_eq!(rules_of(&read), Ok(rules));
            assert_eq!(format!("{}, {}", read.rule_set, read.options), describe(&rules));
            assert_eq!((read.entry_width, read.encoding), (1, Encoding::DtmPlies));
            for other in Rules::all() {
                assert_eq!(
                    read.check_expected(&expected(&other)).is_ok(),
                    other == rules,
                    "{rules:?} / {other:?}"
                );
            }
        }
    }
}
