//! Integration tests: round trips through the file system, rejection of
//! damaged files, the caller's expectations and the atomic writer.
//!
//! Long: every way a file can be damaged, each a short test on the same fixtures.

mod common;

use std::fs;

use common::{
    dir_entries, expected, file_bytes, fix_header_crc, header, payload, runs, v1_file_bytes,
    BLOCK_ENTRIES_AT, ENCODING_AT, ENTRIES_AT, ENTRIES_CRC_AT, ENTRY_WIDTH_AT, FLAGS_AT,
    HISTOGRAM_RECORDS_AT, LAYOUT_AT, PAYLOAD_CRC_AT, PAYLOAD_LEN_AT, RESERVED, VERSION_AT,
};
use nana_tablebase::{
    validate_bytes, write, write_with, Encoding, Expected, Header, Layout, Tablebase, TablebaseError,
    HEADER_SIZE, MAGIC,
};

/// Size of the small table used by the damage tests: 256 + 100 bytes.
const ENTRIES: u64 = 100;

/// The layouts the round trips go through: plain, the default blocks, and
/// blocks small enough that a small table has many, the last one short.
const LAYOUTS: [Layout; 4] = [
    Layout::Plain,
    Layout::DEFAULT,
    Layout::Lz4Blocks { block_entries: 7 },
    Layout::ZstdBlocks { block_entries: 7 },
];

/// The compressed layouts, by their block size: LZ4 blocks (layout 2) and zstd frames (3).
const CODECS: [fn(u32) -> Layout; 2] = [
    |block_entries| Layout::Lz4Blocks { block_entries },
    |block_entries| Layout::ZstdBlocks { block_entries },
];

fn round_trip(entries: u64, width: u32) {
    for layout in LAYOUTS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.tb");
        let header = header(entries, width);
        let payload = payload(entries, width);

        write_with(&path, &header, &payload, layout).unwrap();
        let table = Tablebase::open(&path).unwrap();

        assert_eq!(table.header(), &header);
        assert_eq!(table.storage().layout, layout);
        assert_eq!(table.entries().unwrap(), payload.as_slice(), "{layout}");
        for i in 0..entries {
            let at = (i * u64::from(width)) as usize;
            let want = if width == 1 {
                u16::from(payload[at])
            } else {
                u16::from_le_bytes([payload[at], payload[at + 1]])
            };
            assert_eq!(table.entry(i).unwrap(), Some(want), "{layout}, entry {i}");
        }
        assert_eq!((table.entry(entries).unwrap(), table.entry(u64::MAX).unwrap()), (None, None));
        assert_eq!(table.path(), Some(path.as_path()));
        let stored = HEADER_SIZE as u64 + table.storage().payload_len;
        assert_eq!(fs::metadata(&path).unwrap().len(), stored);
        // A plain file is read whole when it is opened; a compressed one a block at a time.
        if layout == Layout::Plain {
            assert_eq!(table.payload(), Some(payload.as_slice()));
        } else {
            assert_eq!(table.payload(), None);
        }
        // The temporary file is gone.
        assert_eq!(dir_entries(dir.path()), ["table.tb"]);

        // The same bytes handed over in memory give the same table.
        let in_memory = Tablebase::from_bytes(fs::read(&path).unwrap()).unwrap();
        assert_eq!(in_memory.header(), table.header());
        assert_eq!(in_memory.payload().map(<[u8]>::len), Some(table.storage().payload_len as usize));
        assert_eq!(in_memory.storage(), table.storage());
        assert_eq!(in_memory.entries().unwrap(), table.entries().unwrap());
        assert_eq!(in_memory.path(), None);
    }
}

#[test]
fn round_trip_one_byte_entries() {
    round_trip(1000, 1);
}

#[test]
fn round_trip_two_byte_entries() {
    round_trip(1000, 2);
}

#[test]
fn round_trip_empty_table() {
    round_trip(0, 1);
}

#[test]
fn every_truncated_length_is_rejected_as_truncated() {
    let full = file_bytes(ENTRIES, 1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.tb");
    for len in 0..full.len() {
        let want_len = if len < HEADER_SIZE { HEADER_SIZE } else { full.len() } as u64;
        let check = |result: Result<_, TablebaseError>| match result {
            Err(TablebaseError::Truncated { len: l, expected }) => {
                assert_eq!((l, expected), (len as u64, want_len), "length {len}");
            }
            other => panic!("length {len}: expected Truncated, got {other:?}"),
        };
        check(validate_bytes(&full[..len]).map(|_| ()));
        check(Tablebase::from_bytes(full[..len].to_vec()).map(|_| ()));
        fs::write(&path, &full[..len]).unwrap();
        check(Tablebase::open(&path).map(|_| ()));
    }
}

#[test]
fn header_only_file_of_non_empty_table_is_truncated() {
    let full = file_bytes(ENTRIES, 2);
    assert!(matches!(
        validate_bytes(&full[..HEADER_SIZE]),
        Err(TablebaseError::Truncated { len: 256, expected: 456 })
    ));
}

#[test]
fn trailing_byte_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.tb");
    let mut bytes = file_bytes(ENTRIES, 1);
    bytes.push(0);
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(Tablebase::open(&path), Err(TablebaseError::TrailingBytes { len: 357, expected: 356 })));
    assert!(matches!(
        Tablebase::from_bytes(bytes),
        Err(TablebaseError::TrailingBytes { len: 357, expected: 356 })
    ));
}

/// Which error a single flipped bit at `pos` must produce.
fn expected_flip_error(pos: usize, err: &TablebaseError) -> bool {
    match pos {
        0..=7 => matches!(err, TablebaseError::BadMagic),
        8..=11 => matches!(err, TablebaseError::UnsupportedVersion { supported: 4, .. }),
        12..=255 => matches!(err, TablebaseError::HeaderChecksum { .. }),
        _ => matches!(err, TablebaseError::PayloadChecksum { .. }),
    }
}

#[test]
fn every_single_bit_flip_is_detected_in_memory() {
    let good = file_bytes(ENTRIES, 1);
    validate_bytes(&good).unwrap();
    for pos in 0..good.len() {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[pos] ^= 1 << bit;
            match validate_bytes(&bad) {
                Err(err) => {
                    assert!(expected_flip_error(pos, &err), "byte {pos} bit {bit}: unexpected error {err:?}")
                }
                Ok(_) => panic!("byte {pos} bit {bit}: flip not detected"),
            }
            match Tablebase::from_bytes(bad) {
                Err(err) => {
                    assert!(expected_flip_error(pos, &err), "from_bytes, byte {pos} bit {bit}: {err:?}")
                }
                Ok(_) => panic!("from_bytes, byte {pos} bit {bit}: flip not detected"),
            }
        }
    }
}

#[test]
fn every_flipped_byte_is_detected_by_open() {
    let good = file_bytes(ENTRIES, 2);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flipped.tb");
    for pos in 0..good.len() {
        let mut bad = good.clone();
        bad[pos] ^= 1 << (pos % 8);
        fs::write(&path, &bad).unwrap();
        match Tablebase::open(&path) {
            Err(err) => assert!(expected_flip_error(pos, &err), "byte {pos}: unexpected error {err:?}"),
            Ok(_) => panic!("byte {pos}: flip not detected"),
        }
    }
}

#[test]
fn wrong_magic_is_rejected() {
    let mut bytes = file_bytes(ENTRIES, 1);
    bytes[..8].copy_from_slice(b"NANATB\n\n");
    assert!(matches!(validate_bytes(&bytes), Err(TablebaseError::BadMagic)));
    // The text-mode damage the magic is built to catch: CRLF -> LF, LF -> CRLF.
    let mut crlf_to_lf = bytes.clone();
    crlf_to_lf.remove(4);
    assert!(matches!(validate_bytes(&crlf_to_lf), Err(TablebaseError::BadMagic)));
    let mut lf_to_crlf = bytes.clone();
    lf_to_crlf.insert(7, b'\r');
    assert!(matches!(validate_bytes(&lf_to_crlf), Err(TablebaseError::BadMagic)));
    // Short non-tablebase files are "not a tablebase", not "truncated".
    assert!(matches!(validate_bytes(b"hello"), Err(TablebaseError::BadMagic)));
    let mut short = MAGIC.to_vec();
    short.push(2);
    assert!(matches!(validate_bytes(&short), Err(TablebaseError::Truncated { len: 9, expected: 256 })));
    assert!(matches!(validate_bytes(&MAGIC[..3]), Err(TablebaseError::Truncated { len: 3, expected: 256 })));
    assert_eq!(&MAGIC, b"\x89RTB\r\n\x1a\n");
}

#[test]
fn version_1_files_are_refused_as_old_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.tb");
    let v1 = v1_file_bytes(ENTRIES);
    fs::write(&path, &v1).unwrap();
    for result in [
        validate_bytes(&v1).map(|_| ()),
        Tablebase::open(&path).map(|_| ()),
        Tablebase::from_bytes(v1.clone()).map(|_| ()),
    ] {
        match result {
            Err(err @ TablebaseError::OldFormat) => {
                let message = err.to_string();
                assert!(message.contains("old tablebase format (version 1)"), "{message}");
                assert!(err.needs_regeneration());
            }
            other => panic!("expected OldFormat, got {other:?}"),
        }
    }
    // Recognised from the magic alone, so even a cut-off old file says so.
    assert!(matches!(validate_bytes(&v1[..8]), Err(TablebaseError::OldFormat)));
    assert!(matches!(validate_bytes(&v1[..100]), Err(TablebaseError::OldFormat)));
}

#[test]
fn unsupported_version_is_rejected() {
    for version in [0u32, 1, 2, 3, 5, u32::MAX] {
        let mut bytes = file_bytes(ENTRIES, 1);
        bytes[VERSION_AT..VERSION_AT + 4].copy_from_slice(&version.to_le_bytes());
        fix_header_crc(&mut bytes);
        assert!(matches!(
            validate_bytes(&bytes),
            Err(TablebaseError::UnsupportedVersion { found, supported: 4 }) if found == version
        ));
        // Checked as soon as the version bytes are present, before the length.
        assert!(matches!(
            validate_bytes(&bytes[..12]),
            Err(TablebaseError::UnsupportedVersion { found, supported: 4 }) if found == version
        ));
    }
}

#[test]
fn bad_header_size_is_rejected() {
    let mut bytes = file_bytes(ENTRIES, 1);
    bytes[12..16].copy_from_slice(&512u32.to_le_bytes());
    fix_header_crc(&mut bytes);
    assert!(matches!(validate_bytes(&bytes), Err(TablebaseError::BadHeaderSize { found: 512 })));
}

#[test]
fn non_zero_reserved_byte_is_rejected() {
    for offset in [RESERVED.start, 230, RESERVED.end - 1] {
        let mut bytes = file_bytes(ENTRIES, 1);
        bytes[offset] = 1;
        fix_header_crc(&mut bytes);
        assert!(matches!(
            validate_bytes(&bytes),
            Err(TablebaseError::ReservedNotZero { offset: o }) if o == offset
        ));
    }
    // A plain file with don't-care entries or a histogram, or with a flag this build does not
    // know.
    for (offset, value) in [(FLAGS_AT, 1), (FLAGS_AT, 2), (HISTOGRAM_RECORDS_AT, 1)] {
        let mut bytes = file_bytes(ENTRIES, 1);
        bytes[offset] = value;
        fix_header_crc(&mut bytes);
        assert!(matches!(validate_bytes(&bytes), Err(TablebaseError::BadLayout(_))), "{offset}");
    }
}

#[test]
fn bad_entry_width_is_rejected() {
    for width in [0u32, 3, 8] {
        let mut bytes = file_bytes(ENTRIES, 1);
        bytes[ENTRY_WIDTH_AT..ENTRY_WIDTH_AT + 4].copy_from_slice(&width.to_le_bytes());
        fix_header_crc(&mut bytes);
        assert!(matches!(
            validate_bytes(&bytes),
            Err(TablebaseError::BadEntryWidth(w)) if w == width
        ));
    }
}

#[test]
fn unknown_encoding_is_rejected() {
    for id in [0u32, 3, 0x100, u32::MAX] {
        let mut bytes = file_bytes(ENTRIES, 1);
        bytes[ENCODING_AT..ENCODING_AT + 4].copy_from_slice(&id.to_le_bytes());
        fix_header_crc(&mut bytes);
        match validate_bytes(&bytes) {
            Err(err @ TablebaseError::UnknownEncoding(i)) if i == id => {
                assert!(err.to_string().contains(&format!("encoding id {id}")), "{err}");
            }
            other => panic!("id {id}: expected UnknownEncoding, got {other:?}"),
        }
    }
}

#[test]
fn the_file_alone_says_how_to_read_an_entry() {
    for width in [1, 2] {
        let table = Tablebase::from_bytes(file_bytes(ENTRIES, width)).unwrap();
        assert_eq!((table.header().entry_width, table.header().encoding), (width, Encoding::DtmPlies));
    }
}

#[test]
fn huge_entry_count_is_truncated_not_overflow() {
    let mut bytes = file_bytes(ENTRIES, 2);
    bytes[ENTRIES_AT..ENTRIES_AT + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
    bytes[PAYLOAD_LEN_AT..PAYLOAD_LEN_AT + 8].copy_from_slice(&(u64::MAX - 1).to_le_bytes());
    fix_header_crc(&mut bytes);
    assert!(matches!(
        validate_bytes(&bytes),
        Err(TablebaseError::Truncated { len: 456, expected: u64::MAX })
    ));
}

#[test]
fn payload_checksum_error_names_both_values() {
    let mut bytes = file_bytes(ENTRIES, 1);
    let stored = u32::from_le_bytes(bytes[PAYLOAD_CRC_AT..PAYLOAD_CRC_AT + 4].try_into().unwrap());
    bytes[HEADER_SIZE + 5] ^= 0xff;
    let actual = crc32fast::hash(&bytes[HEADER_SIZE..]);
    match validate_bytes(&bytes) {
        Err(err @ TablebaseError::PayloadChecksum { expected, actual: a }) => {
            assert_eq!((expected, a), (stored, actual));
            let message = err.to_string();
            assert!(message.contains("corrupted"), "{message}");
            assert!(err.needs_regeneration());
        }
        other => panic!("expected PayloadChecksum, got {other:?}"),
    }
}

#[test]
fn empty_and_missing_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.tb");
    fs::write(&empty, b"").unwrap();
    assert!(matches!(Tablebase::open(&empty), Err(TablebaseError::Truncated { len: 0, expected: 256 })));
    let missing = dir.path().join("missing.tb");
    match Tablebase::open(&missing) {
        Err(TablebaseError::Io { path, source }) => {
            assert_eq!(path, missing);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected Io, got {other:?}"),
    }
}

// ---- expectations ----

fn written_table(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("t.tb");
    write(&path, &header(ENTRIES, 1), &payload(ENTRIES, 1)).unwrap();
    path
}

#[test]
fn matching_expectations_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_table(&dir);
    let table = Tablebase::open_expecting(&path, &expected(ENTRIES)).unwrap();
    table.check_expected(&expected(ENTRIES)).unwrap();
}

#[test]
fn wrong_game_is_its_own_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_table(&dir);
    let want = Expected { game: "other-game", ..expected(ENTRIES) };
    match Tablebase::open_expecting(&path, &want) {
        Err(TablebaseError::WrongGame { expected, found }) => {
            assert_eq!((expected.as_str(), found.as_str()), ("other-game", "test-game"));
        }
        other => panic!("expected WrongGame, got {other:?}"),
    }
}

#[test]
fn wrong_variant_or_options_is_wrong_rules() {
    let dir = tempfile::tempdir().unwrap();
    let table = Tablebase::open(&written_table(&dir)).unwrap();
    for (rule_set_id, option_bits) in [(0, 0b101), (1, 0b100), (7, 0)] {
        let want = Expected { rule_set_id, option_bits, ..expected(ENTRIES) };
        match table.check_expected(&want) {
            Err(err @ TablebaseError::WrongRules { .. }) => {
                let TablebaseError::WrongRules {
                    expected_rule_set_id,
                    expected_option_bits,
                    found_rule_set_id,
                    found_option_bits,
                    ref found_rule_set,
                    ref found_options,
                } = err
                else {
                    unreachable!()
                };
                assert_eq!((expected_rule_set_id, expected_option_bits), (rule_set_id, option_bits));
                assert_eq!((found_rule_set_id, found_option_bits), (1, 0b101));
                assert_eq!(
                    (found_rule_set.as_str(), found_options.as_str()),
                    ("original", "drop-stalemate on, hand-stalemate on")
                );
                let message = err.to_string();
                assert!(
                    message.contains("\"original\"") && message.contains("hand-stalemate on"),
                    "{message}"
                );
                assert!(!err.needs_regeneration());
            }
            other => panic!("({rule_set_id}, {option_bits}): expected WrongRules, got {other:?}"),
        }
    }
}

#[test]
fn wrong_layout_is_its_own_error() {
    let dir = tempfile::tempdir().unwrap();
    let table = Tablebase::open(&written_table(&dir)).unwrap();
    let want = Expected { layout_version: 4, ..expected(ENTRIES) };
    assert!(matches!(
        table.check_expected(&want),
        Err(TablebaseError::WrongLayout { expected: 4, found: 3 })
    ));
}

#[test]
fn wrong_width_or_encoding_is_its_own_error() {
    let dir = tempfile::tempdir().unwrap();
    let table = Tablebase::open(&written_table(&dir)).unwrap();
    let want = Expected { entry_width: 2, ..expected(ENTRIES) };
    match table.check_expected(&want) {
        Err(
            err @ TablebaseError::WrongEncoding {
                expected_width: 2,
                expected: Encoding::DtmPlies,
                found_width: 1,
                found: Encoding::DtmPlies,
            },
        ) => {
            let message = err.to_string();
            assert!(message.contains("1-byte distance to mate in plies, expected 2-byte"), "{message}");
        }
        other => panic!("expected WrongEncoding, got {other:?}"),
    }
}

#[test]
fn wrong_size_is_its_own_error() {
    let dir = tempfile::tempdir().unwrap();
    let table = Tablebase::open(&written_table(&dir)).unwrap();
    let want = expected(ENTRIES + 1);
    assert!(matches!(
        table.check_expected(&want),
        Err(TablebaseError::WrongSize { expected: 101, found: 100 })
    ));
}

// ---- writer ----

#[test]
fn write_replaces_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    write(&path, &header(ENTRIES, 1), &payload(ENTRIES, 1)).unwrap();

    let new_header = header(50, 2);
    let new_payload = vec![0xab; 100];
    write(&path, &new_header, &new_payload).unwrap();

    let new = Tablebase::open(&path).unwrap();
    assert_eq!(new.header(), &new_header);
    assert_eq!(new.entries().unwrap(), new_payload.as_slice());
    assert_eq!(dir_entries(dir.path()), ["t.tb"]);
}

/// A reader that has the old file open keeps seeing the complete old
/// table: the writer replaces the directory entry, never the old bytes.
/// (Unix only: elsewhere an open file cannot be renamed over.)
#[cfg(unix)]
#[test]
fn an_open_table_survives_replacement() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    write(&path, &header(ENTRIES, 1), &payload(ENTRIES, 1)).unwrap();
    let old = Tablebase::open(&path).unwrap();

    write(&path, &header(50, 2), &[0xab; 100]).unwrap();

    assert_eq!(old.header(), &header(ENTRIES, 1));
    assert_eq!(old.entries().unwrap(), payload(ENTRIES, 1).as_slice());
    assert_eq!(old.entry(ENTRIES - 1).unwrap(), Some(u16::from(payload(ENTRIES, 1)[ENTRIES as usize - 1])));
    assert_eq!(validate_bytes(&fs::read(&path).unwrap()).unwrap(), header(50, 2));
}

/// `n` bytes of xorshift noise from `seed`: entries that do not compress.
fn noise(n: u64, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

/// A file cut short after it was opened (another process truncating it under the reader) is an
/// error where an entry's block lies past its new end, every time, and the same for reading the
/// whole table or checking its blocks: never a crash (a memory-mapped file kills its reader with
/// SIGBUS there) and never a value. A block read before is still answered from this thread's
/// cache; a plain table, read whole when it was opened, answers as before.
#[test]
fn a_file_truncated_after_it_was_opened_is_an_error_not_a_crash() {
    const MANY: u64 = 1 << 16;
    // Bytes that do not compress: the blocks fill the file, and the last lies past its new end.
    let entries = noise(MANY, 0x9e37_79b9_7f4a_7c15);
    let layouts = [
        Layout::Lz4Blocks { block_entries: 1024 },
        Layout::ZstdBlocks { block_entries: 1024 },
        Layout::Plain,
    ];
    for layout in layouts {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tb");
        write_with(&path, &header(MANY, 1), &entries, layout).unwrap();
        let len = fs::metadata(&path).unwrap().len();
        let table = Tablebase::open(&path).unwrap();
        assert_eq!(table.entry(0).unwrap(), Some(u16::from(entries[0])), "{layout}");

        let cut = len / 2;
        fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(cut).unwrap();
        let last = MANY - 1;
        if layout == Layout::Plain {
            assert_eq!(table.entry(last).unwrap(), Some(u16::from(entries[last as usize])));
            assert_eq!(table.entries().unwrap(), entries.as_slice());
            table.check_blocks().unwrap();
            continue;
        }
        for _ in 0..2 {
            let error = table.entry(last).unwrap_err();
            match &error {
                TablebaseError::Read { offset, len: wanted, source } => {
                    assert_eq!(source.kind(), std::io::ErrorKind::UnexpectedEof, "{layout}: {error}");
                    assert!(offset + wanted > cut && offset + wanted <= len, "{layout}: {error}");
                }
                other => panic!("{layout}: expected Read, got {other:?}"),
            }
            let message = error.to_string();
            assert!(
                message.contains(&format!("the file has {cut} bytes now, {len} when it was opened")),
                "{message}"
            );
            assert!(!message.contains('\n') && error.needs_regeneration(), "{message}");
        }
        // Block 0 was read and cached before the cut.
        assert_eq!(table.entry(0).unwrap(), Some(u16::from(entries[0])), "{layout}");
        assert!(matches!(table.entries(), Err(TablebaseError::Read { .. })), "{layout}");
        assert!(matches!(table.check_blocks(), Err(TablebaseError::Read { .. })), "{layout}");
        let (_, blocks) = table.block_entries().unwrap();
        let mut out = Vec::new();
        let decoded = table.decode_blocks(blocks - 1..blocks, &mut out).unwrap();
        assert!(matches!(decoded, Err(TablebaseError::Read { .. })), "{layout}");
    }
}

/// A file's blocks are read many at a time (up to 1 MiB of them a read) by a whole-table read,
/// a span's decode and the check of every block: across those reads they decode to the
/// entries, and a block damaged in the file is named by each of them and by a lookup in it,
/// the other blocks' entries answered.
#[test]
fn a_file_read_many_blocks_at_a_time_reads_and_checks_each() {
    // 10 MiB: a table decoded whole is decoded in runs of 4 MiB on rayon's threads.
    const MANY: u64 = 10 << 20;
    const BLOCK: u64 = 1 << 16;
    let entries = noise(MANY, 0x2545_f491_4f6c_dd1d);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    write_with(&path, &header(MANY, 1), &entries, Layout::Lz4Blocks { block_entries: BLOCK as u32 }).unwrap();
    let table = Tablebase::open(&path).unwrap();
    assert_eq!(table.entries().unwrap(), entries.as_slice());
    table.check_blocks().unwrap();
    let mut out = Vec::new();
    table.decode_blocks(5..40, &mut out).unwrap().unwrap();
    assert_eq!(out.as_slice(), &entries[(5 * BLOCK) as usize..(40 * BLOCK) as usize]);

    // One byte of block 30's stored bytes, in the second MiB of blocks.
    let mut bytes = fs::read(&path).unwrap();
    let blocks = (MANY / BLOCK) as usize;
    let end_of = |k: usize| {
        let at = HEADER_SIZE + 12 * k;
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize
    };
    let at = HEADER_SIZE + 12 * blocks + end_of(29) + 7;
    let at_150 = HEADER_SIZE + 12 * blocks + end_of(149) + 7;
    assert!(end_of(29) > 1 << 20, "block 30 is past the first read");
    bytes[at] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let table = Tablebase::open(&path).unwrap();
    let damaged = |e: TablebaseError| matches!(e, TablebaseError::BlockChecksum { block: 30, .. });
    assert!(damaged(table.check_blocks().unwrap_err()));
    assert!(damaged(table.entries().unwrap_err()));
    assert!(damaged(table.decode_blocks(20..35, &mut out).unwrap().unwrap_err()));
    assert!(damaged(table.entry(30 * BLOCK + 1).unwrap_err()));
    for i in [0, 29 * BLOCK + 3, 31 * BLOCK, MANY - 1] {
        assert_eq!(table.entry(i).unwrap(), Some(u16::from(entries[i as usize])), "entry {i}");
    }

    // Block 150 damaged too, in the third run of a whole decode: the error is still the
    // first damaged block in order; with block 30 mended, it is block 150.
    bytes[at_150] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    assert!(damaged(Tablebase::open(&path).unwrap().entries().unwrap_err()));
    bytes[at] ^= 0x40;
    fs::write(&path, &bytes).unwrap();
    let err = Tablebase::open(&path).unwrap().entries().unwrap_err();
    assert!(matches!(err, TablebaseError::BlockChecksum { block: 150, .. }), "{err}");
}

#[test]
fn write_creates_missing_directories() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("t.tb");
    write(&path, &header(ENTRIES, 1), &payload(ENTRIES, 1)).unwrap();
    Tablebase::open_expecting(&path, &expected(ENTRIES)).unwrap();
    assert_eq!(dir_entries(&dir.path().join("a").join("b")), ["t.tb"]);
}

#[test]
fn write_with_wrong_payload_length_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("t.tb");
    for len in [0, 99, 101, 200] {
        let result = write(&path, &header(ENTRIES, 1), &vec![0; len]);
        assert!(
            matches!(result, Err(TablebaseError::PayloadLength { len: l, expected: 100 }) if l == len as u64),
            "{result:?}"
        );
    }
    let result = write(&path, &header(ENTRIES, 2), &payload(ENTRIES, 1));
    assert!(matches!(result, Err(TablebaseError::PayloadLength { len: 100, expected: 200 })));
    assert!(dir_entries(dir.path()).is_empty());
}

#[test]
fn write_with_unencodable_header_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    let mut long_game = header(ENTRIES, 1);
    long_game.game = "a-very-long-game-name".to_owned();
    assert!(matches!(
        write(&path, &long_game, &payload(ENTRIES, 1)),
        Err(TablebaseError::FieldTooLong { field: "game", len: 21, max: 16 })
    ));
    let mut long_rules = header(ENTRIES, 1);
    long_rules.options = "x".repeat(65);
    assert!(matches!(
        write(&path, &long_rules, &payload(ENTRIES, 1)),
        Err(TablebaseError::FieldTooLong { field: "options", len: 65, max: 64 })
    ));
    let mut bad_width = header(ENTRIES, 1);
    bad_width.entry_width = 4;
    assert!(matches!(write(&path, &bad_width, &payload(ENTRIES, 4)), Err(TablebaseError::BadEntryWidth(4))));
    assert!(dir_entries(dir.path()).is_empty());
}

#[test]
fn failed_rename_removes_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    // The target is a non-empty directory, so the final rename must fail.
    let path = dir.path().join("t.tb");
    fs::create_dir(&path).unwrap();
    fs::write(path.join("keep"), b"x").unwrap();
    match write(&path, &header(ENTRIES, 1), &payload(ENTRIES, 1)) {
        Err(TablebaseError::Io { path: p, .. }) => assert_eq!(p, path),
        other => panic!("expected Io, got {other:?}"),
    }
    assert_eq!(dir_entries(dir.path()), ["t.tb"]);
    assert_eq!(dir_entries(&path), ["keep"]);
}

#[test]
fn error_messages_are_single_lines() {
    let errors = [
        TablebaseError::Io { path: "x.tb".into(), source: std::io::Error::other("boom") },
        TablebaseError::Read { offset: 256, len: 12, source: std::io::Error::other("boom") },
        TablebaseError::Truncated { len: 1, expected: 256 },
        TablebaseError::TrailingBytes { len: 300, expected: 256 },
        TablebaseError::BadMagic,
        TablebaseError::OldFormat,
        TablebaseError::UnsupportedVersion { found: 3, supported: 2 },
        TablebaseError::BadHeaderSize { found: 0 },
        TablebaseError::HeaderChecksum { expected: 1, actual: 2 },
        TablebaseError::ReservedNotZero { offset: 160 },
        TablebaseError::BadEntryWidth(3),
        TablebaseError::UnknownEncoding(7),
        TablebaseError::PayloadChecksum { expected: 1, actual: 2 },
        TablebaseError::UnknownLayout(3),
        TablebaseError::BadLayout("the block size is zero"),
        TablebaseError::CorruptBlock { block: 3, reason: "it decodes to the wrong length" },
        TablebaseError::BlockChecksum { block: 3, expected: 1, actual: 2 },
        TablebaseError::EntriesChecksum { expected: 1, actual: 2 },
        TablebaseError::WrongGame { expected: "a".into(), found: "b".into() },
        TablebaseError::WrongRules {
            expected_rule_set_id: 0,
            expected_option_bits: 1,
            found_rule_set_id: 1,
            found_option_bits: 0,
            found_rule_set: "original".into(),
            found_options: "drop-stalemate on".into(),
        },
        TablebaseError::WrongLayout { expected: 1, found: 2 },
        TablebaseError::WrongEncoding {
            expected_width: 1,
            expected: Encoding::DtmPlies,
            found_width: 2,
            found: Encoding::DtmPlies,
        },
        TablebaseError::WrongSize { expected: 1, found: 2 },
        TablebaseError::FieldTooLong { field: "game", len: 17, max: 16 },
        TablebaseError::InvalidText { field: "rules", reason: "it contains a NUL byte" },
        TablebaseError::PayloadLength { len: 1, expected: 2 },
    ];
    for err in &errors {
        let message = err.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message:?}");
        // The crate names the problem; which command cures it is the caller's business.
        assert!(!message.contains("nana"), "{message:?}");
    }
    assert!(
        std::error::Error::source(&errors[0]).is_some() && std::error::Error::source(&errors[1]).is_some()
    );
}

/// A killed writer's temporary file (its process gone) is removed by the next write of the same
/// table; those of a running process (this one), of another table and names that are not a
/// writer's are left.
#[cfg(target_os = "linux")]
#[test]
fn write_removes_temporary_files_of_dead_writers() {
    let dir = tempfile::tempdir().unwrap();
    // A process that has ended: its id names no running process (until reused, long after).
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let alive = std::process::id();
    let stale = format!("table.tb.tmp-{dead}-0");
    let kept = [
        format!("table.tb.tmp-{alive}-7"),
        format!("other.tb.tmp-{dead}-0"),
        format!("table.tb.tmp-{dead}-x"),
        format!("table.tb.tmp-{dead}"),
        format!("table.tb.tmp-{dead}-0.bak"),
    ];
    for name in kept.iter().chain([&stale]) {
        fs::write(dir.path().join(name), b"partial").unwrap();
    }
    write(&dir.path().join("table.tb"), &header(ENTRIES, 1), &payload(ENTRIES, 1)).unwrap();
    let mut left = kept.to_vec();
    left.push("table.tb".to_string());
    left.sort();
    assert_eq!(dir_entries(dir.path()), left);
}

// ---- compressed payloads ----

/// A compressed file of `entries` entries of `width` bytes, in LZ4 blocks of
/// `block_entries`, and its entries.
fn compressed(entries: u64, width: u32, block_entries: u32) -> (Vec<u8>, Vec<u8>) {
    compressed_as(Layout::Lz4Blocks { block_entries }, entries, width)
}

/// A file of `entries` entries of `width` bytes in `layout`, and its entries.
fn compressed_as(layout: Layout, entries: u64, width: u32) -> (Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.tb");
    let values = runs(entries, width);
    write_with(&path, &header(entries, width), &values, layout).unwrap();
    (fs::read(&path).unwrap(), values)
}

#[test]
fn compressed_fields_are_at_documented_offsets() {
    let (bytes, values) = compressed(1000, 2, 64);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    assert_eq!(u32_at(VERSION_AT), 4);
    assert_eq!((u32_at(LAYOUT_AT), u32_at(BLOCK_ENTRIES_AT)), (2, 64));
    assert_eq!(u32_at(ENTRIES_CRC_AT), crc32fast::hash(&values));
    assert_eq!(u64_at(PAYLOAD_LEN_AT), (bytes.len() - HEADER_SIZE) as u64);
    // No don't-care entries; the histogram has one record per value at the payload's end.
    let mut counts = std::collections::BTreeMap::new();
    for v in values.chunks(2) {
        *counts.entry(u16::from_le_bytes([v[0], v[1]])).or_insert(0u64) += 1;
    }
    assert_eq!((u32_at(FLAGS_AT), u32_at(HISTOGRAM_RECORDS_AT) as usize), (0, counts.len()));
    let histogram_at = bytes.len() - counts.len() * 10;
    let records: Vec<(u16, u64)> = bytes[histogram_at..]
        .chunks(10)
        .map(|r| (u16::from_le_bytes([r[0], r[1]]), u64::from_le_bytes(r[2..10].try_into().unwrap())))
        .collect();
    assert_eq!(records, counts.into_iter().collect::<Vec<_>>());
    // 16 blocks: 16 records of 12 bytes (the block's end, its CRC-32), the CRC-32 of the index
    // and the histogram in the header, the last end the blocks' length.
    let index_end = HEADER_SIZE + 16 * 12;
    let index_and_histogram = [&bytes[HEADER_SIZE..index_end], &bytes[histogram_at..]].concat();
    assert_eq!(u32_at(PAYLOAD_CRC_AT), crc32fast::hash(&index_and_histogram));
    assert_eq!(u64_at(index_end - 12), (histogram_at - index_end) as u64);
    // Block 0 is an LZ4 block of its 128 bytes, with its CRC-32; block 1 follows it.
    let first = &bytes[index_end..index_end + u64_at(HEADER_SIZE) as usize];
    assert_eq!(u32_at(HEADER_SIZE + 8), crc32fast::hash(first));
    assert_eq!(lz4_flex::block::decompress(first, 128).unwrap(), &values[..128]);
    let second =
        &bytes[index_end + u64_at(HEADER_SIZE) as usize..index_end + u64_at(HEADER_SIZE + 12) as usize];
    assert_eq!(u32_at(HEADER_SIZE + 20), crc32fast::hash(second));
    assert_eq!(lz4_flex::block::decompress(second, 128).unwrap(), &values[128..256]);
    assert!(bytes.len() < HEADER_SIZE + values.len() / 2, "{} bytes for {}", bytes.len(), values.len());
}

/// Layout 3 stores each block as one zstd frame: a single segment whose header states the
/// block's length, without checksum or dictionary, that any zstd decoder decodes.
#[test]
fn zstd_blocks_are_single_segment_frames() {
    let (bytes, values) = compressed_as(Layout::ZstdBlocks { block_entries: 64 }, 1000, 2);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    assert_eq!((u32_at(LAYOUT_AT), u32_at(BLOCK_ENTRIES_AT)), (3, 64));
    let index_end = HEADER_SIZE + 16 * 12;
    let mut start = index_end;
    for k in 0..16 {
        let end = index_end + u64_at(HEADER_SIZE + k * 12) as usize;
        let frame = &bytes[start..end];
        assert_eq!(u32_at(HEADER_SIZE + k * 12 + 8), crc32fast::hash(frame));
        assert_eq!(frame[..4], [0x28, 0xB5, 0x2F, 0xFD], "block {k}: the zstd magic");
        // Descriptor: single segment (0x20); no checksum, no dictionary, reserved bit clear.
        assert_eq!((frame[4] & 0x20, frame[4] & 0x0F), (0x20, 0), "block {k}");
        let len = if k < 15 { 128 } else { 2000 - 15 * 128 };
        let mut decoder = ruzstd::decoding::FrameDecoder::new();
        let mut out = vec![0u8; len + 1];
        assert_eq!(decoder.decode_all(frame, &mut out).unwrap(), len, "block {k}");
        assert_eq!(&out[..len], &values[k * 128..k * 128 + len], "block {k}");
        start = end;
    }
    assert_eq!(start, histogram_at(&bytes));
}

#[test]
fn the_same_entries_make_the_same_bytes() {
    for codec in CODECS {
        let (a, _) = compressed_as(codec(100), 5000, 1);
        let (b, _) = compressed_as(codec(100), 5000, 1);
        assert!(a == b);
    }
}

#[test]
fn every_truncated_length_of_a_compressed_file_is_truncated() {
    for codec in CODECS {
        let (full, _) = compressed_as(codec(16), 300, 1);
        for len in HEADER_SIZE..full.len() {
            assert!(
                matches!(validate_bytes(&full[..len]), Err(TablebaseError::Truncated { len: l, expected }) if (l, expected) == (len as u64, full.len() as u64)),
                "length {len}"
            );
        }
    }
}

/// Recomputes every block's CRC-32 in the index of a compressed file of
/// `blocks` blocks, then the index's and the header's, so that the checks
/// behind the checksums are the ones that meet a deliberate edit.
fn fix_block_crcs(bytes: &mut [u8], blocks: usize) {
    let index_end = HEADER_SIZE + blocks * 12;
    let mut start = index_end;
    for k in 0..blocks {
        let at = HEADER_SIZE + k * 12;
        let end = index_end + u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        let crc = crc32fast::hash(&bytes[start..end]);
        bytes[at + 8..at + 12].copy_from_slice(&crc.to_le_bytes());
        start = end;
    }
    let histogram_at = start;
    let crc = crc32fast::hash(&[&bytes[HEADER_SIZE..index_end], &bytes[histogram_at..]].concat());
    bytes[PAYLOAD_CRC_AT..PAYLOAD_CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    fix_header_crc(bytes);
}

/// Where the histogram of a compressed file starts.
fn histogram_at(bytes: &[u8]) -> usize {
    let records =
        u32::from_le_bytes(bytes[HISTOGRAM_RECORDS_AT..HISTOGRAM_RECORDS_AT + 4].try_into().unwrap());
    bytes.len() - records as usize * 10
}

/// A flipped bit anywhere in a compressed file is refused by
/// `validate_bytes`: in the header by the header's checks, in the index or
/// the histogram by the payload's checksum, in a block by that block's own
/// checksum, which names the block. The same file opens where the bit is in
/// a block: that block is refused each time it is read, as an entry, with
/// every block checked or as the whole array, and the entries of the other
/// blocks read as written. In either compressed layout.
#[test]
fn every_flipped_bit_of_a_compressed_file_is_detected() {
    CODECS.iter().for_each(|codec| flipped_bits_are_detected(codec(16)));
}

fn flipped_bits_are_detected(layout: Layout) {
    let (good, values) = compressed_as(layout, 300, 2);
    let blocks = 300usize.div_ceil(16);
    let index_end = HEADER_SIZE + blocks * 12;
    let block_of = |pos: usize| {
        let ends: Vec<usize> = (0..blocks)
            .map(|k| {
                let at = HEADER_SIZE + k * 12;
                index_end + u64::from_le_bytes(good[at..at + 8].try_into().unwrap()) as usize
            })
            .collect();
        ends.iter().position(|&end| pos < end).unwrap() as u64
    };
    for pos in 0..good.len() {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[pos] ^= 1 << bit;
            let err = validate_bytes(&bad).expect_err(&format!("byte {pos} bit {bit}: flip not detected"));
            let right = match pos {
                ..HEADER_SIZE => expected_flip_error(pos, &err),
                _ if pos < index_end || pos >= histogram_at(&good) => {
                    matches!(err, TablebaseError::PayloadChecksum { .. })
                }
                _ => matches!(err, TablebaseError::BlockChecksum { block, .. } if block == block_of(pos)),
            };
            assert!(right, "byte {pos} bit {bit}: {err:?}");
            let opened = Tablebase::from_bytes(bad);
            if !(index_end..histogram_at(&good)).contains(&pos) {
                assert!(opened.is_err(), "byte {pos} bit {bit}: opened");
                continue;
            }
            let table = opened.unwrap();
            let k = block_of(pos);
            let damaged =
                |e: &TablebaseError| matches!(e, TablebaseError::BlockChecksum { block, .. } if *block == k);
            for i in (0..300).step_by(5) {
                let want = u16::from_le_bytes([values[2 * i], values[2 * i + 1]]);
                match table.entry(i as u64) {
                    Err(e) if i as u64 / 16 == k => assert!(damaged(&e), "byte {pos} bit {bit}: {e:?}"),
                    read => assert_eq!(read.unwrap(), Some(want), "byte {pos} bit {bit}: entry {i}"),
                }
            }
            // Read again, from a thread whose cache is cold and from this one's: refused again.
            for _ in 0..2 {
                assert!(damaged(&table.entry(k * 16).unwrap_err()), "byte {pos} bit {bit}");
            }
            std::thread::scope(|s| {
                s.spawn(|| {
                    assert!(
                        damaged(&table.entry((k * 16 + 15).min(299)).unwrap_err()),
                        "byte {pos} bit {bit}"
                    )
                });
            });
            assert!(damaged(&table.check_blocks().unwrap_err()), "byte {pos} bit {bit}");
            assert!(damaged(&table.entries().unwrap_err()), "byte {pos} bit {bit}");
        }
    }
}

/// Damage behind checksums made to match it (a writer that stored what it
/// was not given) is met when the entries are decoded, by the block's
/// decoding or by the decoded entries' checksum: the entries are refused,
/// or, where the damage changes no entry (another match of the same bytes),
/// they are exactly the same. One entry at a time, such a block is an error
/// or, where the entries' checksum refuses the whole, another value. In either compressed
/// layout: for zstd, a frame header that states another length or has a flag this layout does
/// not allow is refused before `ruzstd` reads the frame.
#[test]
fn damage_behind_matching_checksums_never_changes_an_entry() {
    CODECS.iter().for_each(|codec| damage_never_changes_an_entry(codec(16)));
}

fn damage_never_changes_an_entry(layout: Layout) {
    let (good, values) = compressed_as(layout, 300, 2);
    let blocks = 300usize.div_ceil(16);
    let index_end = HEADER_SIZE + blocks * 12;
    let mut refused = 0;
    for pos in index_end..histogram_at(&good) {
        for flip in [0x01, 0x10, 0x80, 0xff] {
            let mut bad = good.clone();
            bad[pos] ^= flip;
            fix_block_crcs(&mut bad, blocks);
            let table = Tablebase::from_bytes(bad).unwrap();
            match table.entries() {
                Err(TablebaseError::CorruptBlock { .. } | TablebaseError::EntriesChecksum { .. }) => {
                    refused += 1
                }
                Err(other) => panic!("{layout}: byte {pos} ^ {flip:#x}: unexpected error {other:?}"),
                Ok(entries) => {
                    assert_eq!(&entries[..], values.as_slice(), "{layout}: byte {pos} ^ {flip:#x}")
                }
            }
            for i in 0..300 {
                let want = u16::from_le_bytes([values[2 * i], values[2 * i + 1]]);
                if let Ok(Some(read)) = table.entry(i as u64) {
                    if read != want {
                        // Only a block whose decoding the entries' checksum refuses.
                        assert!(table.entries().is_err(), "byte {pos} ^ {flip:#x}: entry {i}");
                    }
                }
            }
        }
    }
    assert!(refused > (histogram_at(&good) - index_end) * 3, "{layout}: only {refused} refused");
}

#[test]
fn inconsistent_layout_fields_are_refused() {
    CODECS.iter().for_each(|codec| inconsistent_fields_are_refused(codec(16)));
    // LZ4 blocks read as zstd frames, and zstd frames as LZ4 blocks: refused when decoded.
    for (written, read) in [(2u32, 3u32), (3, 2)] {
        let (mut bad, _) = compressed_as(Layout::from_fields(written, 16).unwrap(), 300, 1);
        bad[LAYOUT_AT..LAYOUT_AT + 4].copy_from_slice(&read.to_le_bytes());
        fix_header_crc(&mut bad);
        let table = Tablebase::from_bytes(bad).unwrap();
        assert!(matches!(table.entry(0), Err(TablebaseError::CorruptBlock { block: 0, .. })), "{read}");
        assert!(matches!(table.entries(), Err(TablebaseError::CorruptBlock { block: 0, .. })), "{read}");
    }
}

fn inconsistent_fields_are_refused(layout: Layout) {
    let (good, _) = compressed_as(layout, 300, 1);
    let edit = |at: usize, value: &[u8]| {
        let mut bad = good.clone();
        bad[at..at + value.len()].copy_from_slice(value);
        fix_header_crc(&mut bad);
        Tablebase::from_bytes(bad)
    };
    assert!(matches!(edit(LAYOUT_AT, &0u32.to_le_bytes()), Err(TablebaseError::UnknownLayout(0))));
    assert!(matches!(edit(LAYOUT_AT, &4u32.to_le_bytes()), Err(TablebaseError::UnknownLayout(4))));
    assert!(matches!(edit(BLOCK_ENTRIES_AT, &0u32.to_le_bytes()), Err(TablebaseError::BadLayout(_))));
    // A block of more than 1 MiB could make a reader allocate at will.
    assert!(matches!(edit(BLOCK_ENTRIES_AT, &u32::MAX.to_le_bytes()), Err(TablebaseError::BadLayout(_))));
    // Another block size: another index, whose checksum is not the header's.
    assert!(matches!(
        edit(BLOCK_ENTRIES_AT, &8u32.to_le_bytes()),
        Err(TablebaseError::PayloadChecksum { .. } | TablebaseError::BadLayout(_))
    ));
    // A plain layout over compressed bytes: the length is not the entries'.
    assert!(matches!(edit(LAYOUT_AT, &[1, 0, 0, 0, 0, 0, 0, 0]), Err(TablebaseError::BadLayout(_))));
    // The decoded entries' checksum: the blocks are intact, the entries are refused when
    // decoded.
    let other_crc = edit(ENTRIES_CRC_AT, &0u32.to_le_bytes()).unwrap();
    assert!(matches!(other_crc.entries(), Err(TablebaseError::EntriesChecksum { expected: 0, .. })));
    // One entry more than the histogram counts; one histogram record fewer.
    assert!(matches!(edit(ENTRIES_AT, &301u64.to_le_bytes()), Err(TablebaseError::BadLayout(_))));
    let records =
        u32::from_le_bytes(good[HISTOGRAM_RECORDS_AT..HISTOGRAM_RECORDS_AT + 4].try_into().unwrap());
    assert!(edit(HISTOGRAM_RECORDS_AT, &(records - 1).to_le_bytes()).is_err());
}

#[test]
fn write_refuses_blocks_over_a_mebibyte_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    for (width, block_entries) in [(1, 0), (1, (1 << 20) + 1), (2, 1 << 19 | 1)] {
        for codec in CODECS {
            let result =
                write_with(&path, &header(ENTRIES, width), &payload(ENTRIES, width), codec(block_entries));
            assert!(matches!(result, Err(TablebaseError::BadLayout(_))), "{result:?}");
        }
    }
    assert!(dir_entries(dir.path()).is_empty());
}

/// Entries read one at a time from two compressed tables in turn, from
/// several threads: each thread's decoded blocks are never taken for the
/// other table's, whose blocks have the same numbers.
#[test]
fn entries_of_two_tables_read_in_turn_from_several_threads() {
    let (a_bytes, a) = compressed(2000, 1, 16);
    let b_values: Vec<u8> = a.iter().map(|v| v.wrapping_add(1)).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.tb");
    write_with(&path, &header(2000, 1), &b_values, Layout::Lz4Blocks { block_entries: 16 }).unwrap();
    let (ta, tb) = (Tablebase::from_bytes(a_bytes).unwrap(), Tablebase::open(&path).unwrap());
    std::thread::scope(|s| {
        for t in 0..3u64 {
            let (ta, tb, a, b) = (&ta, &tb, &a, &b_values);
            s.spawn(move || {
                for k in 0..4000u64 {
                    let i = (k * 7919 + t * 13) % 2000;
                    assert_eq!(ta.entry(i).unwrap(), Some(u16::from(a[i as usize])), "a {i}");
                    assert_eq!(tb.entry(i).unwrap(), Some(u16::from(b[i as usize])), "b {i}");
                }
            });
        }
    });
}

/// A table whose unused entries are don't-care stores them filled within their block (the
/// entries read back as stored, their checksum the stored one) and counts them as unused in
/// its histogram; a plain layout cannot hold such a table.
#[test]
fn dont_care_entries_are_stored_filled_and_counted_as_unused() {
    CODECS.iter().for_each(|codec| dont_care_entries_are_stored_filled(codec(4)));
}

fn dont_care_entries_are_stored_filled(layout: Layout) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("filled.tb");
    // Blocks of 4: [5, -, -, 6] [-, 7, -, -] [-, -]
    let given = [5, 0xFF, 0xFF, 6, 0xFF, 7, 0xFF, 0xFF, 0xFF, 0xFF];
    let filled = Header { dont_care: true, ..header(10, 1) };
    write_with(&path, &filled, &given, layout).unwrap();
    let table = Tablebase::open(&path).unwrap();
    assert!(table.header().dont_care);
    let stored = [5, 5, 5, 6, 7, 7, 7, 7, 0xFF, 0xFF];
    assert_eq!(&table.entries().unwrap()[..], &stored);
    assert_eq!(table.storage().entries_crc, crc32fast::hash(&stored));
    assert_eq!((0..10).map(|i| table.entry(i).unwrap().unwrap() as u8).collect::<Vec<_>>(), stored);
    assert_eq!(table.histogram().unwrap(), [(5, 1), (6, 1), (7, 1), (0xFF, 7)]);
    // The same table without the flag stores the entries as given, with the same histogram.
    let plain_path = dir.path().join("marked.tb");
    write_with(&plain_path, &header(10, 1), &given, layout).unwrap();
    let marked = Tablebase::open(&plain_path).unwrap();
    assert_eq!((&marked.entries().unwrap()[..], marked.histogram()), (&given[..], table.histogram()));
    let result = write_with(&dir.path().join("plain.tb"), &filled, &given, Layout::Plain);
    assert!(matches!(result, Err(TablebaseError::BadLayout(_))), "{result:?}");
}

/// A table whose encoding stores every win as one value stores each win (an even value, neither
/// a draw nor unused) as `WIN_AS_ONE`, in every layout and width, fills don't-care entries with
/// what is stored, and keeps the given distances in its histogram.
#[test]
fn wins_as_one_value_are_stored_as_one_and_counted_as_given() {
    let dir = tempfile::tempdir().unwrap();
    // Draw, loss in 0, win in 1, win in 3, loss in 4, win in 9, unused (one byte).
    let given = [0u8, 1, 2, 4, 5, 10, 0xFF, 0xFE];
    let stored = [0u8, 1, 2, 2, 5, 2, 0xFF, 2];
    let folding = Header { encoding: Encoding::DtmPliesWinsAsOne, ..header(8, 1) };
    for layout in [Layout::Plain].into_iter().chain(CODECS.iter().map(|codec| codec(3))) {
        let path = dir.path().join("folded.tb");
        write_with(&path, &folding, &given, layout).unwrap();
        let table = Tablebase::open(&path).unwrap();
        assert_eq!(table.header().encoding, Encoding::DtmPliesWinsAsOne);
        assert_eq!(&table.entries().unwrap()[..], &stored, "{layout:?}");
        assert_eq!(table.storage().entries_crc, crc32fast::hash(&stored));
        if layout != Layout::Plain {
            let counts =
                given.iter().map(|&v| (u16::from(v), 1)).collect::<std::collections::BTreeMap<_, _>>();
            assert_eq!(table.histogram().unwrap(), counts.into_iter().collect::<Vec<_>>());
        }
    }
    // Two-byte entries: a win in 0x1233 plies is even, a loss in 0x1234 odd.
    let wide = [0x34u8, 0x12, 0x35, 0x12, 0xFF, 0xFF, 0, 0];
    let path = dir.path().join("wide.tb");
    let wide_header = Header { encoding: Encoding::DtmPliesWinsAsOne, dont_care: true, ..header(4, 2) };
    write_with(&path, &wide_header, &wide, CODECS[0](2)).unwrap();
    let table = Tablebase::open(&path).unwrap();
    assert_eq!(&table.entries().unwrap()[..], &[2, 0, 0x35, 0x12, 0, 0, 0, 0]);
    assert_eq!(table.histogram().unwrap(), [(0, 1), (0x1234, 1), (0x1235, 1), (0xFFFF, 1)]);
}

/// A compressed table's block index is where `Tablebase::block_index` says: right after the
/// header, 12 bytes a block, and with the histogram it is what the header's payload CRC-32 covers
/// (computed here over the file's bytes, not by the reader). A plain table has none.
#[test]
fn the_block_index_is_where_the_reader_says() {
    const MANY: u64 = 10_000;
    let entries = noise(MANY, 0x2545_f491_4f6c_dd1d);
    for layout in
        [Layout::Lz4Blocks { block_entries: 1000 }, Layout::ZstdBlocks { block_entries: 300 }, Layout::Plain]
    {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tb");
        write_with(&path, &header(MANY, 1), &entries, layout).unwrap();
        let table = Tablebase::open(&path).unwrap();
        let (Layout::Lz4Blocks { block_entries } | Layout::ZstdBlocks { block_entries }) = layout else {
            assert_eq!(table.block_index(), None);
            continue;
        };
        let index = table.block_index().unwrap();
        let bytes = fs::read(&path).unwrap();
        let blocks = MANY.div_ceil(u64::from(block_entries));
        assert_eq!(index, HEADER_SIZE as u64..HEADER_SIZE as u64 + 12 * blocks, "{layout}");
        let records = u32::from_le_bytes(bytes[HISTOGRAM_RECORDS_AT..][..4].try_into().unwrap()) as usize;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&bytes[index.start as usize..index.end as usize]);
        crc.update(&bytes[bytes.len() - 10 * records..]);
        let stored = u32::from_le_bytes(bytes[PAYLOAD_CRC_AT..][..4].try_into().unwrap());
        assert_eq!(crc.finalize(), stored, "{layout}");
    }
}

/// A file of more blocks than a thread's cache holds (16,384) is decoded whole once lookups
/// have decoded half of its blocks (distinct ones, at least 1,024): after that every entry
/// reads as written, from memory. One whose block is damaged never is: that block's entry is an
/// error every time, the others read as written.
#[test]
fn a_table_read_all_over_is_decoded_whole_unless_a_block_is_damaged() {
    const BLOCKS: u64 = 20_000;
    let entries = noise(BLOCKS, 0x9e37_79b9_7f4a_7c15);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.tb");
    write_with(&path, &header(BLOCKS, 1), &entries, Layout::ZstdBlocks { block_entries: 1 }).unwrap();
    let table = Tablebase::open(&path).unwrap();
    let read = |i: u64| table.entry(i).unwrap().unwrap();
    // 9,999 blocks, each read twice, the second time from the cache.
    for i in (0..9_999).chain(0..9_999) {
        assert_eq!(read(i * 2), u16::from(entries[(i * 2) as usize]));
    }
    assert!(!table.decoded_whole(), "9,999 distinct blocks: still read block by block");
    assert_eq!(read(19_999), u16::from(entries[19_999]));
    // The 10,000th distinct block starts decoding the table whole, on a thread of its own.
    let start = std::time::Instant::now();
    while !table.decoded_whole() {
        assert!(start.elapsed().as_secs() < 30, "the table is decoded whole within 30 s");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    for i in 0..BLOCKS {
        assert_eq!(read(i), u16::from(entries[i as usize]), "entry {i}");
    }
    // A file replaced under its name (written again, other entries) before the threshold: the
    // table read from the old file is not decoded whole from the new one, and reads as before.
    let old = Tablebase::open(&path).unwrap();
    for i in 0..9_999 {
        old.entry(i * 2).unwrap();
    }
    let other = noise(BLOCKS, 7);
    write_with(&path, &header(BLOCKS, 1), &other, Layout::ZstdBlocks { block_entries: 1 }).unwrap();
    old.entry(19_999).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!old.decoded_whole(), "the table is not decoded whole from a file replaced under it");
    for i in (0..BLOCKS).step_by(97) {
        assert_eq!(old.entry(i).unwrap(), Some(u16::from(entries[i as usize])), "entry {i}");
    }
    write_with(&path, &header(BLOCKS, 1), &entries, Layout::ZstdBlocks { block_entries: 1 }).unwrap();

    // A table in memory or read by range (without its whole block index) is never decoded
    // whole: what it would read is not at hand.
    let in_memory = Tablebase::from_bytes(fs::read(&path).unwrap()).unwrap();
    for i in 0..BLOCKS {
        assert_eq!(in_memory.entry(i).unwrap(), Some(u16::from(entries[i as usize])));
    }
    assert!(!in_memory.decoded_whole());

    // Block 5's byte flipped (block k is entry k): refused at every lookup, before and after
    // the misses that would have decoded the table whole.
    let mut bytes = fs::read(&path).unwrap();
    let end_of = |k: usize| {
        let at = HEADER_SIZE + 12 * k;
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize
    };
    let at = HEADER_SIZE + 12 * BLOCKS as usize + end_of(4) + 4;
    bytes[at] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    let table = Tablebase::open(&path).unwrap();
    let damaged = |e: TablebaseError| matches!(e, TablebaseError::BlockChecksum { block: 5, .. });
    assert!(damaged(table.entry(5).unwrap_err()));
    for i in (0..BLOCKS).filter(|&i| i != 5) {
        assert_eq!(table.entry(i).unwrap(), Some(u16::from(entries[i as usize])), "entry {i}");
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!table.decoded_whole(), "a damaged table is never decoded whole");
    assert!(damaged(table.entry(5).unwrap_err()));
}
