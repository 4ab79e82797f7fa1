//! Property tests: the validator never panics, valid files round-trip, and
//! damage is always detected.

mod common;

use common::{
    file_bytes, fix_header_crc, fix_payload_crc, BLOCK_ENTRIES_AT, ENCODING_AT, ENTRIES_AT, ENTRY_WIDTH_AT,
    LAYOUT_AT, PAYLOAD_LEN_AT, RESERVED, VERSION_AT,
};
use nana_tablebase::{
    validate_bytes, write_with, Counts, Encoding, Header, Layout, Tablebase, TablebaseError, HEADER_SIZE,
    MAGIC,
};
use proptest::prelude::*;

fn arb_header() -> impl Strategy<Value = (Header, Vec<u8>)> {
    (
        ("[ -~]{0,16}", "[ -~]{0,16}"),
        "\\PC{0,40}".prop_map(|mut options: String| {
            // Cut to the 64-byte slot at a character boundary.
            while options.len() > 64 {
                options.pop();
            }
            options
        }),
        any::<(u32, u32, u32, u32)>(),
        any::<(u64, u64, u64, u64)>(),
        1u32..=2,
        0u64..200,
    )
        .prop_flat_map(|((game, rule_set), options, ids, counts, width, entries)| {
            let len = (entries * u64::from(width)) as usize;
            let header = Header {
                game,
                rule_set,
                rule_set_id: ids.0,
                options,
                option_bits: ids.1,
                layout_version: ids.2,
                entries,
                entry_width: width,
                encoding: Encoding::DtmPlies,
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
        encoding in 0u32..3,
    ) {
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[VERSION_AT..VERSION_AT + 4].copy_from_slice(&3u32.to_le_bytes());
        bytes[12..16].copy_from_slice(&256u32.to_le_bytes());
        bytes[ENTRY_WIDTH_AT..ENTRY_WIDTH_AT + 4].copy_from_slice(&width.to_le_bytes());
        bytes[ENCODING_AT..ENCODING_AT + 4].copy_from_slice(&encoding.to_le_bytes());
        if zero_reserved {
            bytes[RESERVED].fill(0);
        }
        fix_header_crc(&mut bytes);
        let _ = validate_bytes(&bytes);
    }

    /// Random payloads behind a header that passes every check before the
    /// blocks (the stated length and payload CRC made to match), so that the
    /// block index and the LZ4 decoder meet arbitrary bytes: never a panic,
    /// and never a table whose entries do not match the stated checksum.
    #[test]
    fn arbitrary_blocks_never_panic(
        mut bytes in proptest::collection::vec(any::<u8>(), HEADER_SIZE..HEADER_SIZE + 512),
        width in 1u32..3,
        entries in 0u64..400,
        layout in 1u32..4,
        block_entries in 0u32..40,
        small_offsets in any::<bool>(),
    ) {
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[VERSION_AT..VERSION_AT + 4].copy_from_slice(&3u32.to_le_bytes());
        bytes[12..16].copy_from_slice(&256u32.to_le_bytes());
        bytes[ENTRY_WIDTH_AT..ENTRY_WIDTH_AT + 4].copy_from_slice(&width.to_le_bytes());
        bytes[ENCODING_AT..ENCODING_AT + 4].copy_from_slice(&1u32.to_le_bytes());
        bytes[ENTRIES_AT..ENTRIES_AT + 8].copy_from_slice(&entries.to_le_bytes());
        bytes[32..48].fill(b'g');
        bytes[48..64].fill(b'r');
        bytes[72..136].fill(b'o');
        bytes[LAYOUT_AT..LAYOUT_AT + 4].copy_from_slice(&layout.to_le_bytes());
        bytes[BLOCK_ENTRIES_AT..BLOCK_ENTRIES_AT + 4].copy_from_slice(&block_entries.to_le_bytes());
        let payload_len = (bytes.len() - HEADER_SIZE) as u64;
        bytes[PAYLOAD_LEN_AT..PAYLOAD_LEN_AT + 8].copy_from_slice(&payload_len.to_le_bytes());
        bytes[RESERVED].fill(0);
        if small_offsets {
            // Offsets that are small and increasing reach the decoder more often.
            for (k, offset) in bytes[HEADER_SIZE..].chunks_exact_mut(8).enumerate().take(8) {
                offset.copy_from_slice(&(k as u64 * 3).to_le_bytes());
            }
        }
        fix_payload_crc(&mut bytes);
        if let Ok(table) = Tablebase::from_bytes(bytes) {
            let all = table.entries();
            prop_assert_eq!(crc32fast::hash(&all), table.storage().entries_crc);
            prop_assert_eq!(all.len() as u64, entries * u64::from(width));
        }
    }

    /// Any entries in blocks of any size round-trip, one at a time and as a
    /// whole.
    #[test]
    fn compressed_files_round_trip(
        (header, entries) in arb_header(),
        block_entries in 1u32..300,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tb");
        write_with(&path, &header, &entries, Layout::Lz4Blocks { block_entries }).unwrap();
        let table = Tablebase::open(&path).unwrap();
        prop_assert_eq!(table.header(), &header);
        prop_assert_eq!(&table.entries()[..], entries.as_slice());
        let width = header.entry_width as usize;
        for i in 0..header.entries as usize {
            let bytes = &entries[i * width..(i + 1) * width];
            let want = if width == 1 { u16::from(bytes[0]) } else { u16::from_le_bytes([bytes[0], bytes[1]]) };
            prop_assert_eq!(table.entry(i as u64), Some(want));
        }
    }

    /// Every encodable header with a matching payload validates and decodes
    /// to itself.
    #[test]
    fn valid_files_round_trip((header, payload) in arb_header()) {
        let bytes = file(&header, &payload);
        prop_assert_eq!(&validate_bytes(&bytes).unwrap(), &header);
        let table = Tablebase::from_bytes(bytes).unwrap();
        prop_assert_eq!(table.header(), &header);
        prop_assert_eq!(table.payload(), payload.as_slice());
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
