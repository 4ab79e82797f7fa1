//! Helpers shared by the integration tests. Offsets are written out as
//! literals so the tests check the documented layout independently of the
//! crate's own constants.

#![allow(dead_code)]

use std::path::Path;

use nana_tablebase::{Counts, Expected, Header};

/// Offset of the header CRC-32 (it covers bytes `0..252`).
pub const HEADER_CRC_AT: usize = 252;

/// A header for a small table of `entries` entries of `width` bytes.
pub fn header(entries: u64, width: u32) -> Header {
    Header {
        game: "test-game".to_owned(),
        variant: 1,
        options: 0b101,
        rules: "original, drop-stalemate on, hand-stalemate on".to_owned(),
        entries,
        entry_width: width,
        layout_version: 3,
        counts: Counts { wins: 10, losses: 20, draws: 30, illegal: entries.saturating_sub(60) },
        max_dtm: 41,
    }
}

/// What a reader of [`header`] expects.
pub fn expected(entries: u64) -> Expected<'static> {
    Expected { game: "test-game", variant: 1, options: 0b101, layout_version: 3, entries }
}

/// A deterministic, non-constant payload.
pub fn payload(entries: u64, width: u32) -> Vec<u8> {
    let len = usize::try_from(entries * u64::from(width)).unwrap();
    (0..len).map(|i| (i * 37 + 11) as u8).collect()
}

/// The complete bytes of a valid file.
pub fn file_bytes(entries: u64, width: u32) -> Vec<u8> {
    let payload = payload(entries, width);
    let mut bytes = header(entries, width).encode(crc32fast::hash(&payload)).unwrap().to_vec();
    bytes.extend_from_slice(&payload);
    bytes
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
