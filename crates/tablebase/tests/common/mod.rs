//! Helpers shared by the integration tests. Offsets are written out as
//! literals so the tests check the documented layout independently of the
//! crate's own constants.

#![allow(dead_code)]

use std::path::Path;

use nana_tablebase::{Counts, Encoding, Expected, Header};

/// Offset of the header CRC-32 (it covers bytes `0..252`).
pub const HEADER_CRC_AT: usize = 252;
/// Offset of the format version, u32.
pub const VERSION_AT: usize = 8;
/// Offset of the entry width, u32.
pub const ENTRY_WIDTH_AT: usize = 16;
/// Offset of the encoding id, u32.
pub const ENCODING_AT: usize = 20;
/// Offset of the entry count, u64.
pub const ENTRIES_AT: usize = 24;
/// Offset of the payload CRC-32.
pub const PAYLOAD_CRC_AT: usize = 176;
/// Offset of the payload layout id, u32.
pub const LAYOUT_AT: usize = 180;
/// Offset of the block size in entries, u32.
pub const BLOCK_ENTRIES_AT: usize = 184;
/// Offset of the decoded entries' CRC-32.
pub const ENTRIES_CRC_AT: usize = 188;
/// Offset of the stored payload length, u64.
pub const PAYLOAD_LEN_AT: usize = 192;
/// The reserved bytes.
pub const FLAGS_AT: usize = 200;
/// Offset of the number of histogram records.
pub const HISTOGRAM_RECORDS_AT: usize = 204;
/// The reserved bytes of the header.
pub const RESERVED: std::ops::Range<usize> = 208..252;

/// A header for a small table of `entries` entries of `width` bytes.
pub fn header(entries: u64, width: u32) -> Header {
    Header {
        game: "test-game".to_owned(),
        rule_set: "original".to_owned(),
        rule_set_id: 1,
        options: "drop-stalemate on, hand-stalemate on".to_owned(),
        option_bits: 0b101,
        layout_version: 3,
        entries,
        entry_width: width,
        encoding: Encoding::DtmPlies,
        counts: Counts { wins: 10, losses: 20, draws: 30, illegal: entries.saturating_sub(60) },
        max_dtm: 41,
        dont_care: false,
    }
}

/// What a reader of [`header`] with 1-byte entries expects.
pub fn expected(entries: u64) -> Expected<'static> {
    Expected {
        game: "test-game",
        rule_set_id: 1,
        option_bits: 0b101,
        layout_version: 3,
        entry_width: 1,
        encoding: Encoding::DtmPlies,
        entries,
    }
}

/// A deterministic, non-constant payload.
pub fn payload(entries: u64, width: u32) -> Vec<u8> {
    let len = usize::try_from(entries * u64::from(width)).unwrap();
    (0..len).map(|i| (i * 37 + 11) as u8).collect()
}

/// Entries that compress: runs of a few values, as a solved table has.
pub fn runs(entries: u64, width: u32) -> Vec<u8> {
    let len = usize::try_from(entries * u64::from(width)).unwrap();
    (0..len).map(|i| [0u8, 1, 255, 7][(i / 13 + i / 101) % 4]).collect()
}

/// The complete bytes of a valid file with a plain payload.
pub fn file_bytes(entries: u64, width: u32) -> Vec<u8> {
    let payload = payload(entries, width);
    let mut bytes = header(entries, width).encode(crc32fast::hash(&payload)).unwrap().to_vec();
    bytes.extend_from_slice(&payload);
    bytes
}

/// A version-1 header as the old writer laid it out (magic `NANATB\r\n`,
/// version 1, game at 16, entry count at 104, entry width at 112, payload
/// CRC at 156), with valid CRCs, followed by its payload: what a table
/// solved before format version 2 looks like.
pub fn v1_file_bytes(entries: u64) -> Vec<u8> {
    let payload = payload(entries, 1);
    let mut b = vec![0u8; 256];
    b[..8].copy_from_slice(b"NANATB\r\n");
    b[8..12].copy_from_slice(&1u32.to_le_bytes());
    b[12..16].copy_from_slice(&256u32.to_le_bytes());
    b[16..26].copy_from_slice(b"nana-shogi");
    b[40..47].copy_from_slice(b"current");
    b[104..112].copy_from_slice(&entries.to_le_bytes());
    b[112..116].copy_from_slice(&1u32.to_le_bytes());
    b[156..160].copy_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    fix_header_crc(&mut b);
    b.extend_from_slice(&payload);
    b
}

/// Recomputes the header CRC after a deliberate header edit, so that a
/// later check is the one that fails.
pub fn fix_header_crc(bytes: &mut [u8]) {
    let crc = crc32fast::hash(&bytes[..HEADER_CRC_AT]);
    bytes[HEADER_CRC_AT..HEADER_CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Sorted names of the entries of `dir`.
pub fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
