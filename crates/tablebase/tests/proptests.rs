//! Property tests: the validator never panics, valid files round-trip, and
//! damage is always detected.

mod common;

use common::{file_bytes, fix_header_crc, ENCODING_AT, ENTRY_WIDTH_AT, RESERVED, VERSION_AT};
use nana_tablebase::{
    validate_bytes, write_with, Counts, Encoding, Header, Layout, Storage, Tablebase, TablebaseError,
    HEADER_SIZE, MAGIC,
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
                dont_care: false,
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

    /// Random blocks behind an index and a header that match them (ends in
    /// order, every checksum right), so that the LZ4 or zstd decoder meets
    /// arbitrary bytes: the file opens, and reading its entries, all at once
    /// or one at a time, never panics; what it reads matches the entries'
    /// checksum.
    #[test]
    fn arbitrary_blocks_never_panic(
        zstd in any::<bool>(),
        width in 1u32..3,
        block_entries in 1u32..40,
        entries in 0u64..300,
        data in proptest::collection::vec(any::<u8>(), 0..600),
        cuts in proptest::collection::vec(any::<u16>(), 0..80),
    ) {
        let block_bytes = u64::from(block_entries * width);
        let blocks = (entries * u64::from(width)).div_ceil(block_bytes) as usize;
        let mut ends: Vec<u64> = (0..blocks)
            .map(|k| u64::from(cuts.get(k).copied().unwrap_or(0)) % (data.len() as u64 + 1))
            .collect();
        ends.sort_unstable();
        if let Some(last) = ends.last_mut() {
            *last = data.len() as u64;
        }
        let data = if blocks == 0 { Vec::new() } else { data };
        let mut payload = Vec::new();
        let mut start = 0;
        for &end in &ends {
            payload.extend_from_slice(&end.to_le_bytes());
            payload.extend_from_slice(&crc32fast::hash(&data[start as usize..end as usize]).to_le_bytes());
            start = end;
        }
        // A histogram of one record, every entry 0 (none where there are no entries).
        let histogram = if entries == 0 { Vec::new() } else { [&0u16.to_le_bytes()[..], &entries.to_le_bytes()].concat() };
        let payload_crc = crc32fast::hash(&[&payload[..], &histogram].concat());
        payload.extend_from_slice(&data);
        payload.extend_from_slice(&histogram);
        let mut header = common::header(entries, width);
        header.counts = Counts::default();
        let layout = if zstd { Layout::ZstdBlocks { block_entries } } else { Layout::Lz4Blocks { block_entries } };
        let storage = Storage {
            layout,
            payload_len: payload.len() as u64,
            payload_crc,
            entries_crc: 0,
            histogram_records: u32::from(entries > 0),
        };
        let mut bytes = header.encode_with(&storage).unwrap().to_vec();
        bytes.extend_from_slice(&payload);
        let table = Tablebase::from_bytes(bytes).unwrap();
        if let Ok(all) = table.entries() {
            prop_assert_eq!(crc32fast::hash(&all), 0);
        }
        for i in 0..entries {
            let _ = table.entry(i);
        }
    }

    /// Any entries in blocks of any size round-trip, one at a time and as a
    /// whole.
    #[test]
    fn compressed_files_round_trip(
        (header, entries) in arb_header(),
        block_entries in 1u32..300,
        zstd in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tb");
        let layout = if zstd { Layout::ZstdBlocks { block_entries } } else { Layout::Lz4Blocks { block_entries } };
        write_with(&path, &header, &entries, layout).unwrap();
        let table = Tablebase::open(&path).unwrap();
        prop_assert_eq!(table.header(), &header);
        prop_assert_eq!(&table.entries().unwrap()[..], entries.as_slice());
        let width = header.entry_width as usize;
        for i in 0..header.entries as usize {
            let bytes = &entries[i * width..(i + 1) * width];
            let want = if width == 1 { u16::from(bytes[0]) } else { u16::from_le_bytes([bytes[0], bytes[1]]) };
            prop_assert_eq!(table.entry(i as u64).unwrap(), Some(want));
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
        prop_assert_eq!(table.payload(), Some(payload.as_slice()));
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
