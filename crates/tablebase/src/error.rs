//! The crate's error type.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Hint appended to messages about damaged or outdated files.
const REGENERATE: &str = "regenerate it with `nana solve`";

/// Everything that can go wrong reading, validating or writing a tablebase.
///
/// Every `Display` message is a single line. Variants about a damaged file
/// say so and suggest regenerating it; variants about a file that is intact
/// but not the expected table name both the expected and the found values.
#[derive(Debug)]
#[non_exhaustive]
pub enum TablebaseError {
    /// An operating-system error on `path` (open, map, write, rename, ...).
    Io {
        /// The file or directory the operation was about.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file is shorter than its header says it must be.
    Truncated {
        /// Actual length in bytes.
        len: u64,
        /// Required length in bytes (the header size while the header
        /// itself is incomplete, otherwise header plus payload).
        expected: u64,
    },
    /// The file is longer than header plus payload.
    TrailingBytes {
        /// Actual length in bytes.
        len: u64,
        /// Length implied by the header, in bytes.
        expected: u64,
    },
    /// The file does not start with [`MAGIC`](crate::MAGIC).
    BadMagic,
    /// The file uses a format version this build cannot read.
    UnsupportedVersion {
        /// Version stored in the file.
        found: u32,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// The header-size field is not [`HEADER_SIZE`](crate::HEADER_SIZE).
    BadHeaderSize {
        /// The value stored in the file.
        found: u32,
    },
    /// The header CRC-32 does not match the header bytes.
    HeaderChecksum {
        /// CRC-32 stored in the header.
        expected: u32,
        /// CRC-32 computed over the header bytes.
        actual: u32,
    },
    /// A reserved header byte is not zero.
    ReservedNotZero {
        /// Byte offset (from the start of the file) of the first non-zero
        /// reserved byte.
        offset: usize,
    },
    /// The entry width is neither 1 nor 2 bytes.
    BadEntryWidth(u32),
    /// The payload CRC-32 does not match the payload bytes.
    PayloadChecksum {
        /// CRC-32 stored in the header.
        expected: u32,
        /// CRC-32 computed over the payload.
        actual: u32,
    },
    /// The file belongs to a different game.
    WrongGame {
        /// The game the caller asked for.
        expected: String,
        /// The game named in the file.
        found: String,
    },
    /// The file was solved under a different rule variant or options.
    WrongRules {
        /// Variant id the caller asked for.
        expected_variant: u32,
        /// Rule option bits the caller asked for.
        expected_options: u32,
        /// Variant id stored in the file.
        found_variant: u32,
        /// Rule option bits stored in the file.
        found_options: u32,
        /// The file's human-readable rules description.
        found_rules: String,
    },
    /// The file was written with a different position-index layout.
    WrongLayout {
        /// Layout version the caller uses.
        expected: u32,
        /// Layout version stored in the file.
        found: u32,
    },
    /// The file has a different number of entries than the caller's index.
    WrongSize {
        /// Entry count the caller expects.
        expected: u64,
        /// Entry count stored in the file.
        found: u64,
    },
    /// A text field is too long for its fixed-size header slot.
    FieldTooLong {
        /// Field name (`"game"` or `"rules"`).
        field: &'static str,
        /// Length of the value in bytes.
        len: usize,
        /// Maximum length in bytes.
        max: usize,
    },
    /// A text field is not valid for its header slot (for example it
    /// contains a NUL byte, or the game name is not ASCII).
    InvalidText {
        /// Field name (`"game"` or `"rules"`).
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// [`write`](fn@crate::write) was given a payload whose length is not
    /// `entries × entry_width`.
    PayloadLength {
        /// Length of the payload given, in bytes.
        len: u64,
        /// Length implied by the header (`u64::MAX` if that overflows).
        expected: u64,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "I/O error on {}: {source}", path.display()),
            Self::Truncated { len, expected } => {
                write!(f, "the file is truncated: it has {len} bytes but must have {expected}; {REGENERATE}")
            }
            Self::TrailingBytes { len, expected } => write!(
                f,
                "the file is corrupted: it has {len} bytes but its header accounts for {expected}; \
                 {REGENERATE}"
            ),
            Self::BadMagic => f.write_str("not a nana tablebase file (bad magic bytes)"),
            Self::UnsupportedVersion { found, supported } => write!(
                f,
                "unsupported tablebase format version {found} (this build reads version \
                 {supported}); {REGENERATE} or use a matching build"
            ),
            Self::BadHeaderSize { found } => write!(
                f,
                "the file is corrupted: header size field is {found}, expected {}; {REGENERATE}",
                crate::HEADER_SIZE
            ),
            Self::HeaderChecksum { expected, actual } => write!(
                f,
                "the file is corrupted: header checksum mismatch (stored {expected:#010x}, \
                 computed {actual:#010x}); {REGENERATE}"
            ),
            Self::ReservedNotZero { offset } => write!(
                f,
                "the file is corrupted or from an incompatible writer: reserved header byte at \
                 offset {offset} is not zero; {REGENERATE}"
            ),
            Self::BadEntryWidth(width) => {
                write!(f, "unsupported entry width {width} bytes (must be 1 or 2); {REGENERATE}")
            }
            Self::PayloadChecksum { expected, actual } => write!(
                f,
                "the file is corrupted: payload checksum mismatch (stored {expected:#010x}, \
                 computed {actual:#010x}); {REGENERATE}"
            ),
            Self::WrongGame { expected, found } => {
                write!(f, "wrong tablebase: it is for game {found:?}, expected {expected:?}")
            }
            Self::WrongRules {
                expected_variant,
                expected_options,
                found_variant,
                found_options,
                found_rules,
            } => write!(
                f,
                "wrong tablebase: it was solved for variant {found_variant}, options \
                 {found_options:#x} ({found_rules:?}), expected variant {expected_variant}, \
                 options {expected_options:#x}; solve these rules with `nana solve`"
            ),
            Self::WrongLayout { expected, found } => write!(
                f,
                "outdated tablebase: index layout version {found}, this build uses version \
                 {expected}; {REGENERATE}"
            ),
            Self::WrongSize { expected, found } => {
                write!(f, "wrong tablebase: it has {found} entries, expected {expected}; {REGENERATE}")
            }
            Self::FieldTooLong { field, len, max } => {
                write!(f, "header field `{field}` is {len} bytes long, at most {max} bytes fit")
            }
            Self::InvalidText { field, reason } => {
                write!(f, "header field `{field}` is invalid: {reason}")
            }
            Self::PayloadLength { len, expected } => {
                write!(f, "payload is {len} bytes but the header's entry count and width require {expected}")
            }
        }
    }
}

impl Error for TablebaseError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
