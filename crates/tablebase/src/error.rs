//! The crate's error type.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// Everything that can go wrong reading, validating or writing a tablebase.
///
/// Every `Display` message is a single line naming the problem, never the
/// command that fixes it (the crate knows no program; callers add that, see
/// [`TablebaseError::needs_regeneration`]). Variants about a damaged file
/// say so; variants about a file that is intact but not the expected table
/// name both the expected and the found values.
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
    /// Bytes of a table that was opened and checked could not be read when an entry or a
    /// block needed them: the file is shorter than when it was opened (truncated or rewritten
    /// in place under the reader: [`io::ErrorKind::UnexpectedEof`]), or the operating system
    /// (or the source of [`Tablebase::from_reader`](crate::Tablebase::from_reader)) failed to
    /// read them. The message names the bytes, not the file: the caller knows which table it
    /// read.
    Read {
        /// Where the bytes start, from the start of the file.
        offset: u64,
        /// How many bytes were wanted.
        len: u64,
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
    /// The file starts with [`MAGIC_V1`](crate::MAGIC_V1): it is in format
    /// version 1, which this build no longer reads.
    OldFormat,
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
    /// The entry encoding id is not one this build knows (see
    /// [`Encoding::from_id`](crate::Encoding::from_id)).
    UnknownEncoding(u32),
    /// The payload layout id is not one this build knows (see
    /// [`Layout::from_fields`](crate::Layout::from_fields)).
    UnknownLayout(u32),
    /// The header's description of its payload contradicts itself (a block
    /// size of zero, a plain payload of the wrong length, ...).
    BadLayout(&'static str),
    /// A block of a compressed payload cannot be read: its index entry is
    /// out of order or out of bounds, it does not decode, or it decodes to
    /// the wrong length.
    CorruptBlock {
        /// The block's number, from 0.
        block: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A block of a compressed payload does not match its CRC-32.
    BlockChecksum {
        /// The block's number, from 0.
        block: u64,
        /// CRC-32 stored in the block index.
        expected: u32,
        /// CRC-32 computed over the block's stored bytes.
        actual: u32,
    },
    /// The entry array a compressed payload decodes to does not match its
    /// CRC-32.
    EntriesChecksum {
        /// CRC-32 stored in the header.
        expected: u32,
        /// CRC-32 computed over the decoded entries.
        actual: u32,
    },
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
    /// The file was solved under a different rule set or options.
    WrongRules {
        /// Rule set id the caller asked for.
        expected_rule_set_id: u32,
        /// Rule option bits the caller asked for.
        expected_option_bits: u32,
        /// Rule set id stored in the file.
        found_rule_set_id: u32,
        /// Rule option bits stored in the file.
        found_option_bits: u32,
        /// The file's rule set name.
        found_rule_set: String,
        /// The file's options as text.
        found_options: String,
    },
    /// The file was written with a different position-index layout.
    WrongLayout {
        /// Layout version the caller uses.
        expected: u32,
        /// Layout version stored in the file.
        found: u32,
    },
    /// The file's entries are of another width or encoding than the caller
    /// reads.
    WrongEncoding {
        /// Entry width the caller reads, in bytes.
        expected_width: u32,
        /// Encoding the caller reads.
        expected: crate::Encoding,
        /// Entry width stored in the file.
        found_width: u32,
        /// Encoding stored in the file.
        found: crate::Encoding,
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
        /// Field name (`"game"`, `"rule set"` or `"options"`).
        field: &'static str,
        /// Length of the value in bytes.
        len: usize,
        /// Maximum length in bytes.
        max: usize,
    },
    /// A text field is not valid for its header slot (for example it
    /// contains a NUL byte, or a name is not ASCII).
    InvalidText {
        /// Field name (`"game"`, `"rule set"` or `"options"`).
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
    /// Long: one exhaustive match, one arm per variant, so that every message of the file
    /// format can be read in one place.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "I/O error on {}: {source}", path.display()),
            Self::Read { offset, len, source } => {
                write!(
                    f,
                    "cannot read bytes {offset}..{} of the table: {source}",
                    offset.saturating_add(*len)
                )
            }
            Self::Truncated { len, expected } => {
                write!(f, "the file is truncated: it has {len} bytes but must have {expected}")
            }
            Self::TrailingBytes { len, expected } => {
                write!(f, "the file is corrupted: it has {len} bytes but its header accounts for {expected}")
            }
            Self::BadMagic => f.write_str("not a tablebase file (bad magic bytes)"),
            Self::OldFormat => write!(
                f,
                "the file is in the old tablebase format (version 1); this build reads only version {}",
                crate::FORMAT_VERSION
            ),
            Self::UnsupportedVersion { found, supported } => write!(
                f,
                "unsupported tablebase format version {found} (this build reads version {supported})"
            ),
            Self::BadHeaderSize { found } => write!(
                f,
                "the file is corrupted: header size field is {found}, expected {}",
                crate::HEADER_SIZE
            ),
            Self::HeaderChecksum { expected, actual } => write!(
                f,
                "the file is corrupted: header checksum mismatch (stored {expected:#010x}, \
                 computed {actual:#010x})"
            ),
            Self::ReservedNotZero { offset } => write!(
                f,
                "the file is corrupted or from an incompatible writer: reserved header byte at \
                 offset {offset} is not zero"
            ),
            Self::BadEntryWidth(width) => {
                write!(f, "unsupported entry width {width} bytes (must be 1 or 2)")
            }
            Self::UnknownEncoding(id) => {
                write!(f, "unknown entry encoding id {id} (this build reads id 1, distance to mate in plies)")
            }
            Self::UnknownLayout(id) => write!(
                f,
                "unknown payload layout id {id} (this build reads id 1, a plain entry array, id 2, \
                 LZ4 blocks, and id 3, zstd blocks)"
            ),
            Self::BadLayout(reason) => {
                write!(f, "the file is corrupted: its header's payload layout is invalid: {reason}")
            }
            Self::CorruptBlock { block, reason } => {
                write!(f, "the file is corrupted: compressed block {block}: {reason}")
            }
            Self::BlockChecksum { block, expected, actual } => write!(
                f,
                "the file is corrupted: checksum mismatch in compressed block {block} (stored \
                 {expected:#010x}, computed {actual:#010x})"
            ),
            Self::EntriesChecksum { expected, actual } => write!(
                f,
                "the file is corrupted: the decoded entries' checksum mismatches (stored \
                 {expected:#010x}, computed {actual:#010x})"
            ),
            Self::PayloadChecksum { expected, actual } => write!(
                f,
                "the file is corrupted: payload checksum mismatch (stored {expected:#010x}, \
                 computed {actual:#010x})"
            ),
            Self::WrongGame { expected, found } => {
                write!(f, "wrong tablebase: it is for game {found:?}, expected {expected:?}")
            }
            Self::WrongRules {
                expected_rule_set_id,
                expected_option_bits,
                found_rule_set_id,
                found_option_bits,
                found_rule_set,
                found_options,
            } => write!(
                f,
                "wrong tablebase: it was solved for rule set {found_rule_set_id} ({found_rule_set:?}), \
                 option bits {found_option_bits:#x} ({found_options:?}), expected rule set \
                 {expected_rule_set_id}, option bits {expected_option_bits:#x}"
            ),
            Self::WrongLayout { expected, found } => write!(
                f,
                "outdated tablebase: index layout version {found}, this build uses version \
                 {expected}"
            ),
            Self::WrongEncoding { expected_width, expected, found_width, found } => write!(
                f,
                "wrong tablebase: its entries are {found_width}-byte {found}, expected \
                 {expected_width}-byte {expected}"
            ),
            Self::WrongSize { expected, found } => {
                write!(f, "wrong tablebase: it has {found} entries, expected {expected}")
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

impl TablebaseError {
    /// Whether the file itself is at fault in a way that making the table
    /// again cures: damaged, truncated (also after it was opened: a
    /// [`TablebaseError::Read`] that ran past the end), from another format
    /// version or encoding, or solved for another index layout or size. False
    /// for other I/O errors, files that are not tablebases at all, and tables of another
    /// game or other rules (the caller asked for something else). Meant for
    /// the errors of opening a file and of reading its blocks (a damaged
    /// block is [`TablebaseError::BlockChecksum`] or
    /// [`TablebaseError::CorruptBlock`], both true); the writer's own errors
    /// ([`TablebaseError::FieldTooLong`], [`TablebaseError::PayloadLength`])
    /// are false.
    #[must_use]
    pub fn needs_regeneration(&self) -> bool {
        match self {
            Self::Truncated { .. }
            | Self::TrailingBytes { .. }
            | Self::OldFormat
            | Self::UnsupportedVersion { .. }
            | Self::BadHeaderSize { .. }
            | Self::HeaderChecksum { .. }
            | Self::ReservedNotZero { .. }
            | Self::BadEntryWidth(_)
            | Self::UnknownEncoding(_)
            | Self::UnknownLayout(_)
            | Self::BadLayout(_)
            | Self::CorruptBlock { .. }
            | Self::BlockChecksum { .. }
            | Self::EntriesChecksum { .. }
            | Self::PayloadChecksum { .. }
            | Self::InvalidText { .. }
            | Self::WrongLayout { .. }
            | Self::WrongEncoding { .. }
            | Self::WrongSize { .. } => true,
            Self::Read { source, .. } => source.kind() == io::ErrorKind::UnexpectedEof,
            Self::Io { .. }
            | Self::BadMagic
            | Self::WrongGame { .. }
            | Self::WrongRules { .. }
            | Self::FieldTooLong { .. }
            | Self::PayloadLength { .. } => false,
        }
    }
}

impl Error for TablebaseError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::Io { source, .. } | Self::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}
