//! Binary tablebase file format.
//!
//! A tablebase file is a fixed 256-byte little-endian [`Header`] followed by
//! a payload that stores an array of [`Header::entries`] entries of
//! [`Header::entry_width`] bytes each, in one of three [`Layout`]s: the array
//! itself, or the array cut into blocks each compressed on its own with LZ4
//! (the default) or zstd (decoded by the C library behind the `files` feature,
//! by the pure-Rust `ruzstd` without it; written with the C library, behind
//! `files`), found through an index of their
//! offsets, so that one entry is read by decoding one block. The crate knows nothing about any
//! game's rules: the game writes its identity (name, rule set, options, as
//! text and as opaque ids, and its index layout version), which the crate
//! stores and compares. How an entry is read is in the file itself: its
//! width and its [`Encoding`]. A table may say that its unused entries are
//! don't-care ([`Header::dont_care`]): the writer then stores each filled
//! with the value before it in its block, for compression, and the game that
//! reads it knows them from its rules. A compressed payload also carries the
//! histogram of the entries as given ([`Tablebase::histogram`]). The byte
//! layout is described in `docs/FORMAT.md`.
//!
//! Integrity is checked on every open: magic, format version, header
//! CRC-32, reserved bytes, entry width and encoding, payload layout, exact
//! file length and payload CRC-32 (for compressed blocks, that of the block
//! index and the histogram, with every block's bounds). Each compressed
//! block has its own CRC-32, checked whenever the block is read, before it
//! is decoded, and a whole-table read also checks the CRC-32 of the decoded
//! entries. Any mismatch is an error; a corrupted file never yields an
//! entry it does not hold. Files of the old format version 1 are refused as
//! such.
//!
//! * [`write()`] writes a file atomically (temporary file, fsync, rename),
//!   in compressed blocks; [`write_with`] in a layout of the caller's.
//! * [`Tablebase::entry`] reads one entry (checking and decoding its block);
//!   [`Tablebase::entries`] all (checking and decoding every block).
//! * [`Tablebase::open`] validates a file and reads it with positioned reads, a block at a
//!   time (a plain table whole, when it opens it): never a memory map, so that a file
//!   truncated under a reader is an error ([`TablebaseError::Read`]), not a crash;
//!   [`Tablebase::from_bytes`] validates and keeps a buffer (same checks);
//!   [`Tablebase::open_expecting`] also checks that it is the table the
//!   caller wants (game, rules, index layout, encoding, size).
//! * [`Tablebase::check_blocks`] checks every block of an open table;
//!   [`validate_bytes`] runs the checks of an open and that one on a
//!   borrowed buffer, so that every byte is checked.
//!
//! The writer and [`Tablebase::open`] (with [`Tablebase::open_expecting`]) are the crate's
//! only use of files, behind its default feature `files`; without it, tables are read from
//! bytes ([`Tablebase::from_bytes`], [`Tablebase::from_reader`]) and `std::fs` is not used: the
//! static site's WebAssembly module (`docs/SITE.md`).
//!
//! ```
//! use nana_tablebase::{Counts, Encoding, Expected, Header, Tablebase};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("demo.tb");
//! let header = Header {
//!     game: "demo".to_owned(),
//!     rule_set: "standard".to_owned(),
//!     rule_set_id: 0,
//!     options: String::new(),
//!     option_bits: 0,
//!     layout_version: 1,
//!     entries: 3,
//!     entry_width: 1,
//!     encoding: Encoding::DtmPlies,
//!     counts: Counts { wins: 1, losses: 1, draws: 1, illegal: 0 },
//!     max_dtm: 1,
//!     dont_care: false,
//! };
//! nana_tablebase::write(&path, &header, &[0, 1, 2])?;
//!
//! let expected = Expected {
//!     game: "demo",
//!     rule_set_id: 0,
//!     option_bits: 0,
//!     layout_version: 1,
//!     entry_width: 1,
//!     encoding: Encoding::DtmPlies,
//!     entries: 3,
//! };
//! let table = Tablebase::open_expecting(&path, &expected)?;
//! assert_eq!(&table.entries()?[..], &[0, 1, 2]);
//! assert_eq!(table.entry(2)?, Some(2));
//! // The same bytes held in memory (e.g. fetched by a web page) read the same.
//! let in_memory = Tablebase::from_bytes(std::fs::read(&path)?)?;
//! assert_eq!(in_memory.header(), table.header());
//! # Ok(())
//! # }
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod blocks;
mod error;
#[cfg(feature = "files")]
mod file;
mod header;
mod reader;
mod source;
#[cfg(feature = "files")]
mod writer;

pub use blocks::MAX_BLOCK_BYTES;
pub use error::TablebaseError;
pub use header::{
    Counts, Encoding, Expected, Header, Layout, Storage, FORMAT_VERSION, GAME_NAME_MAX, HEADER_SIZE, MAGIC,
    MAGIC_V1, OPTIONS_MAX, RULE_SET_MAX, WIN_AS_ONE,
};
pub use reader::{validate_bytes, Tablebase};
pub use source::ReadAt;
#[cfg(feature = "files")]
pub use writer::{write, write_from, write_with};

/// Decodes `frame` as a layout-3 block of `len` bytes with `ruzstd`, the decoder of the builds
/// without the zstd C library (the WebAssembly module), whichever this build's reader uses:
/// the fuzz target `zstd_frame_ruzstd` keeps that decoder under fuzzing in native builds.
#[doc(hidden)]
pub fn decode_zstd_frame_ruzstd(frame: &[u8], len: usize) -> Result<Vec<u8>, &'static str> {
    let mut out = vec![0; len];
    blocks::zstd_frame::decode_with(blocks::zstd_frame::Decoder::Rust, frame, &mut out).map(|()| out)
}
