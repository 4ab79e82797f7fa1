//! Property tests: the validator never panics, valid files round-trip, and
//! damage is always detected.

mod common;

use common::{file_bytes, fix_header_crc};
use nana_tablebase::{validate_bytes, Counts, Header, TablebaseError, HEADER_SIZE, MAGIC};
use proptest::prelude::*;

fn arb_header() -> impl Strategy<Value = (Header, Vec<u8>)> {
    (
        "[ -~]{0,16}",
        "\\PC{0,40}".prop_map(|mut rules: String| {
            // Cut to the 64-byte slot at a character boundary.
            while rules.len() > 64 {
                rules.pop();
            }
            rules
        }),
        any::<(u32, u32, u32, u32)>(),
        any::<(u64, u64, u64, u64)>(),
        1u32..=2,
        0u64..200,
    )
        .prop_flat_map(|(game, rules, ids, counts, width, entries)| {
            let len = (entries * u64::from(width)) as usize;
            let header = Header {
                game,
                variant: ids.0,
                options: ids.1,
                rules,
                entries,
                entry_width: width,
                layout_version: ids.2,
                counts: Counts { wins: counts.0, losses: counts.1, draws: counts.2, illegal: counts.3 },
                max_dtm: ids.3,
            };
            (Just(header), proptest::collection::vec(any::<u8>(), len))
        })
}

fn file(header: &Header, payload: &[u8]) -> Vec<u8> {
    let mut bytes = header.encode(crc32fast::hash(payload)).unwrap().to_vec();
    bytes.extend_from_slice(payload);
    bytes
}

proptest! {
    /// Arbitrary bytes never panic the validator.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        let _ = validate_bytes(&bytes);
    }

    /// Bytes that get past the magic, version and header CRC (the checks
    /// random bytes almost never pass) still never panic the validator.
    #[test]
    fn arbitrary_bytes_behind_valid_prefix_never_panic(
        mut bytes in proptest::collection::vec(any::<u8>(), HEADER_SIZE..HEADER_SIZE + 512),
        zero_reserved in any::<bool>(),
        width in 0u32..4,
    ) {
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        bytes[12..16].copy_from_slice(&256u32.to_le_bytes());
        bytes[112..116].copy_from_slice(&width.to_le_bytes());
        if zero_reserved {
            bytes[160..252].fill(0);
        }
        fix_header_crc(&mut bytes);
        let _ = validate_bytes(&bytes);
    }

    /// Every encodable header with a matching payload validates and decodes
    /// to itself.
    #[test]
    fn valid_files_round_trip((header, payload) in arb_header()) {
        let bytes = file(&header, &payload);
        prop_assert_eq!(validate_bytes(&bytes).unwrap(), header);
    }

    /// Changing any one byte to any other value is always detected
    /// (CRC-32 catches every error burst of up to 32 bits).
    #[test]
    fn any_single_byte_change_is_detected(pos in 0usize..HEADER_SIZE + 100, xor in 1u8..) {
        let mut bytes = file_bytes(100, 1);
        bytes[pos] ^= xor;
        prop_assert!(validate_bytes(&bytes).is_err());
    }

    /// Truncating or extending a valid file by any amount is detected as
    /// exactly that.
    #[test]
    fn any_length_change_is_detected((header, payload) in arb_header(), cut in 1usize..600, extra in 1usize..64) {
        let bytes = file(&header, &payload);
        let short = &bytes[..bytes.len().saturating_sub(cut)];
        let is_truncated = matches!(validate_bytes(short), Err(TablebaseError::Truncated { .. }));
        prop_assert!(is_truncated);
        let mut long = bytes.clone();
        long.resize(bytes.len() + extra, 0);
        let is_trailing = matches!(validate_bytes(&long), Err(TablebaseError::TrailingBytes { .. }));
        prop_assert!(is_trailing);
    }
}
