//! Binary tablebase file format.
//!
//! A tablebase file is a fixed 256-byte little-endian [`Header`] followed by
//! a payload: an array of [`Header::entries`] entries of
//! [`Header::entry_width`] bytes each. The crate knows nothing about any
//! game's rules: a game is identified by a short name and opaque numeric ids
//! (variant, rule option bits, index layout version), and the meaning of an
//! entry is defined by the engine that wrote it. The byte layout is described
//! in `docs/FORMAT.md`.
//!
//! Integrity is checked on every open: magic, format version, header
//! CRC-32, reserved bytes, entry width, exact file length and payload
//! CRC-32. Any mismatch is an error; a corrupted file never yields entries.
//!
//! * [`write()`] writes a file atomically (temporary file, fsync, rename).
//! * [`Tablebase::open`] memory-maps and validates a file;
//!   [`Tablebase::open_expecting`] also checks that it is the table the
//!   caller wants (game, rules, index layout, size).
//! * [`validate_bytes`] runs the same checks on an in-memory buffer.
//!
//! ```
//! use nana_tablebase::{Counts, Expected, Header, Tablebase};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("demo.tb");
//! let header = Header {
//!     game: "demo".to_owned(),
//!     variant: 0,
//!     options: 0,
//!     rules: "standard".to_owned(),
//!     entries: 3,
//!     entry_width: 1,
//!     layout_version: 1,
//!     counts: Counts { wins: 1, losses: 1, draws: 1, illegal: 0 },
//!     max_dtm: 1,
//! };
//! nana_tablebase::write(&path, &header, &[0, 1, 2])?;
//!
//! let expected = Expected { game: "demo", variant: 0, options: 0, layout_version: 1, entries: 3 };
//! let table = Tablebase::open_expecting(&path, &expected)?;
//! assert_eq!(table.payload(), &[0, 1, 2]);
//! # Ok(())
//! # }
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod header;
mod reader;
mod writer;

pub use error::TablebaseError;
pub use header::{Counts, Expected, Header, FORMAT_VERSION, GAME_NAME_MAX, HEADER_SIZE, MAGIC, RULES_MAX};
pub use reader::{validate_bytes, Tablebase};
pub use writer::write;
