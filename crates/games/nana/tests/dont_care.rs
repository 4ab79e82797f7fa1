//! Nana's tables leave unused entries don't-care: the file stores each one filled with the value
//! of the used entry before it in its block (of 32,768 entries), and nothing reads it. Checked
//! against a solve in memory, which marks them unused (the current rules'; the original rules'
//! entries are those the file reads whole, whose CRC-32 `golden.rs` checks):
//!
//! - the file's stored entries are the solve's in the file's order, with every win as one
//!   value and exactly its unused entries filled so;
//! - read whole, the file's entries are the solve's (its reader marks the unused entries again
//!   from the rules and restores the wins' distances from their moves);
//! - an entry is used exactly where it has a legal position, the only positions the probe
//!   looks up (a legal position's entry is that of its canonical form, `unindex_inverts_index`);
//! - the probe's answers (every move ranked by the value it leads to, the mainline) through the
//!   file equal those through the solve's entries, over positions of random games from the
//!   start and from random legal positions.

use nana_engine::{ByteCode, NoProgress};
use nana_probe::table::{Source, TableRules};
use nana_probe::ProbeRules;
use nana_shogi::index::{file_position, SIZE};
use nana_shogi::probe::Probe;
use nana_shogi::Rules;

mod common;
use common::XorShift;

/// The stored entries of a 1-byte table whose wins are stored as one value (a win in 1: every
/// even entry but 0), in the file's order (entry `i` at `file_position(rules.variant, i)`), and whose unused
/// entries are filled, made here from the solve's entries, block by block.
fn filled(rules: Rules, entries: &[u8], block: usize) -> Vec<u8> {
    let mut stored = vec![ByteCode::ILLEGAL.0; entries.len()];
    for (i, &e) in entries.iter().enumerate() {
        let e = if e.is_multiple_of(2) && e != 0 && e != ByteCode::ILLEGAL.0 { 2 } else { e };
        stored[file_position(rules.variant, i as u64) as usize] = e;
    }
    for chunk in stored.chunks_mut(block) {
        let Some(first) = chunk.iter().copied().find(|&e| e != ByteCode::ILLEGAL.0) else { continue };
        let mut last = first;
        for e in chunk.iter_mut() {
            if *e == ByteCode::ILLEGAL.0 {
                *e = last;
            } else {
                last = *e;
            }
        }
    }
    stored
}

#[test]
fn unused_entries_are_filled_in_the_file_and_never_read() {
    for rules in [Rules::CURRENT, Rules::ORIGINAL] {
        let table = nana_fixture::table(rules);
        // The current rules' entries solved here; the original rules' read whole from the
        // file, which `golden.rs` holds to the golden CRC-32 of their solve (one solve less).
        let solved = if rules == Rules::CURRENT {
            rules.solve(&NoProgress).unwrap().into_bytes()
        } else {
            table.entries().to_vec()
        };
        let Source::File(file) = table.source() else { panic!("the fixture's table is a file") };
        assert!(file.header().dont_care);
        let stored = file.entries().unwrap();
        let block = file.storage().layout.block_entries() as usize;
        assert!(
            stored[..] == filled(rules, &solved, block)[..],
            "{}: the stored entries",
            rules.short_name()
        );
        assert!(table.entries() == &solved[..], "{}: the entries read whole", rules.short_name());

        let used_without_position = (0..SIZE)
            .filter(|&i| rules.unindex(i).is_none() != (solved[i as usize] == ByteCode::ILLEGAL.0))
            .count();
        assert_eq!(used_without_position, 0, "{}", rules.short_name());

        let (from_file, from_solve) = (table.probe(), Probe::new(rules, &solved).unwrap());
        let mut rng = XorShift(0xd0c_a4e ^ rules.short_name().len() as u64);
        let mut compared = 0;
        for walk in 0..200u32 {
            let mut pos = if walk.is_multiple_of(2) {
                rules.start()
            } else {
                loop {
                    if let Some(p) = rules.unindex(rng.next() % SIZE) {
                        break if rng.next().is_multiple_of(2) { p } else { p.flip() };
                    }
                }
            };
            for _ in 0..40 {
                let answer = from_solve.answer(&pos, 8).unwrap();
                assert_eq!(from_file.answer(&pos, 8).unwrap(), answer, "{pos}");
                compared += 1;
                let mut children = Vec::new();
                rules.for_each_move(&pos, |_, child| children.push(*child));
                if children.is_empty() {
                    break;
                }
                pos = children[rng.below(children.len())];
            }
        }
        assert!(compared > 2000, "{compared}");
    }
}
