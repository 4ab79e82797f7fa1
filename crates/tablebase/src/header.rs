//! The fixed 256-byte file header: encoding, decoding and the caller's
//! expectations.
//!
//! Long: the encoding and decoding of every field side by side, with their tests (a third
//! of the file).

use std::fmt;

use crate::TablebaseError;

/// The first eight bytes of every tablebase file: `\x89 R T B \r \n \x1a \n`
/// ("RTB", retrograde tablebase, in the PNG signature's scheme).
///
/// The byte with the high bit set catches transfers that strip the eighth
/// bit; `\r\n` and the lone `\n` catch text-mode transfers that rewrite line
/// endings either way; `\x1a` stops a DOS `type` from printing the payload.
pub const MAGIC: [u8; 8] = *b"\x89RTB\r\n\x1a\n";

/// The magic of format version 1 (written until this format), recognised
/// only to refuse such files with [`TablebaseError::OldFormat`].
pub const MAGIC_V1: [u8; 8] = *b"NANATB\r\n";

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 4;

/// Size of the header in bytes; the payload starts at this offset.
pub const HEADER_SIZE: usize = 256;

/// Maximum length of [`Header::game`] in bytes.
pub const GAME_NAME_MAX: usize = 16;

/// Maximum length of [`Header::rule_set`] in bytes.
pub const RULE_SET_MAX: usize = 16;

/// Maximum length of [`Header::options`] in bytes.
pub const OPTIONS_MAX: usize = 64;

/// Byte offsets of the header fields (see `docs/FORMAT.md`).
mod offset {
    pub const VERSION: usize = 8;
    pub const HEADER_SIZE: usize = 12;
    pub const ENTRY_WIDTH: usize = 16;
    pub const ENCODING: usize = 20;
    pub const ENTRIES: usize = 24;
    pub const GAME: usize = 32;
    pub const RULE_SET: usize = 48;
    pub const RULE_SET_ID: usize = 64;
    pub const OPTION_BITS: usize = 68;
    pub const OPTIONS: usize = 72;
    pub const LAYOUT_VERSION: usize = 136;
    pub const MAX_DTM: usize = 140;
    pub const WINS: usize = 144;
    pub const LOSSES: usize = 152;
    pub const DRAWS: usize = 160;
    pub const ILLEGAL: usize = 168;
    pub const PAYLOAD_CRC: usize = 176;
    pub const LAYOUT: usize = 180;
    pub const BLOCK_ENTRIES: usize = 184;
    pub const ENTRIES_CRC: usize = 188;
    pub const PAYLOAD_LEN: usize = 192;
    pub const FLAGS: usize = 200;
    pub const HISTOGRAM_RECORDS: usize = 204;
    pub const RESERVED: usize = 208;
    pub const HEADER_CRC: usize = 252;
}

// The layout is contiguous and ends exactly at HEADER_SIZE.
const _: () = {
    assert!(offset::GAME + GAME_NAME_MAX == offset::RULE_SET);
    assert!(offset::RULE_SET + RULE_SET_MAX == offset::RULE_SET_ID);
    assert!(offset::OPTIONS + OPTIONS_MAX == offset::LAYOUT_VERSION);
    assert!(offset::PAYLOAD_CRC + 4 == offset::LAYOUT);
    assert!(offset::PAYLOAD_LEN + 8 == offset::FLAGS);
    assert!(offset::HISTOGRAM_RECORDS + 4 == offset::RESERVED);
    assert!(offset::HEADER_CRC + 4 == HEADER_SIZE);
};

/// What every won entry of [`Encoding::DtmPliesWinsAsOne`] holds (of either width): the
/// [`Encoding::DtmPlies`] value of a win in 1.
pub const WIN_AS_ONE: u16 = 2;

/// What an entry means. Together with [`Header::entry_width`] it tells a
/// reader how to read the payload without knowing the game.
///
/// The id `0` is not an encoding, so a zeroed field is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// Distance to mate in plies, as an unsigned integer `v` of the entry
    /// width: `0` = draw; the largest value of the width (`0xFF`, `0xFFFF`)
    /// = not a legal position; otherwise decided with `d = v - 1` plies, `d`
    /// even = the side to move loses, `d` odd = it wins. Id `1`.
    DtmPlies,
    /// [`Encoding::DtmPlies`] but for wins: every won entry holds `2` (a win in 1, whatever
    /// its distance), which a reader finds by a search of the position's moves: one more than
    /// the least distance of a lost position a move leads to. Id `2`.
    DtmPliesWinsAsOne,
}

impl Encoding {
    /// The id stored in the header.
    #[must_use]
    pub const fn id(self) -> u32 {
        match self {
            Self::DtmPlies => 1,
            Self::DtmPliesWinsAsOne => 2,
        }
    }

    /// Whether a won entry holds no distance, only that it is won ([`WIN_AS_ONE`]): its
    /// distance is found by a search of its moves.
    #[must_use]
    pub const fn folds_wins(self) -> bool {
        matches!(self, Self::DtmPliesWinsAsOne)
    }

    /// The encoding with the given header id.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::UnknownEncoding`] for an id this build does not
    /// know.
    pub const fn from_id(id: u32) -> Result<Self, TablebaseError> {
        match id {
            1 => Ok(Self::DtmPlies),
            2 => Ok(Self::DtmPliesWinsAsOne),
            other => Err(TablebaseError::UnknownEncoding(other)),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DtmPlies => f.write_str("distance to mate in plies"),
            Self::DtmPliesWinsAsOne => f.write_str("distance to mate in plies, every win as one value"),
        }
    }
}

/// How the payload stores the entry array.
///
/// The id `0` is not a layout, so a zeroed field is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layout {
    /// The entry array itself: entry `i` at payload bytes `i × width ..
    /// (i + 1) × width`. Id `1`.
    Plain,
    /// The entry array cut into blocks of `block_entries` entries (the last
    /// block holds the rest), each compressed on its own as an LZ4 block,
    /// after an index of the blocks' offsets. Id `2`.
    Lz4Blocks {
        /// Entries per block (at least 1).
        block_entries: u32,
    },
    /// The entry array cut into blocks as [`Layout::Lz4Blocks`] cuts it, each
    /// compressed on its own as one zstd frame (single segment, its content
    /// size written, no checksum, no dictionary). Id `3`.
    ZstdBlocks {
        /// Entries per block (at least 1).
        block_entries: u32,
    },
}

impl Layout {
    /// The layout [`write`](fn@crate::write) uses: zstd blocks of 4096 entries, the layout both
    /// games' tables are written in (`docs/FORMAT.md`).
    pub const DEFAULT: Layout = Layout::ZstdBlocks { block_entries: 4096 };

    /// The id stored in the header.
    #[must_use]
    pub const fn id(self) -> u32 {
        match self {
            Self::Plain => 1,
            Self::Lz4Blocks { .. } => 2,
            Self::ZstdBlocks { .. } => 3,
        }
    }

    /// The block size stored in the header: `0` for [`Layout::Plain`].
    #[must_use]
    pub const fn block_entries(self) -> u32 {
        match self {
            Self::Plain => 0,
            Self::Lz4Blocks { block_entries } | Self::ZstdBlocks { block_entries } => block_entries,
        }
    }

    /// The layout of a header's id and block size.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::UnknownLayout`] for an id this build does not
    /// know; [`TablebaseError::BadLayout`] for a block size the layout does
    /// not allow.
    pub const fn from_fields(id: u32, block_entries: u32) -> Result<Self, TablebaseError> {
        match (id, block_entries) {
            (1, 0) => Ok(Self::Plain),
            (1, _) => Err(TablebaseError::BadLayout("a plain payload has a block size")),
            (2 | 3, 0) => Err(TablebaseError::BadLayout("the block size is zero")),
            (2, block_entries) => Ok(Self::Lz4Blocks { block_entries }),
            (3, block_entries) => Ok(Self::ZstdBlocks { block_entries }),
            (other, _) => Err(TablebaseError::UnknownLayout(other)),
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Plain => f.write_str("plain entry array"),
            Self::Lz4Blocks { block_entries } => write!(f, "LZ4 blocks of {block_entries} entries"),
            Self::ZstdBlocks { block_entries } => write!(f, "zstd blocks of {block_entries} entries"),
        }
    }
}

/// What a header says about its payload: how it stores the entries, its
/// stored length and the checksums of the stored bytes and of the entry
/// array they hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storage {
    /// How the entries are stored.
    pub layout: Layout,
    /// Length of the stored payload (everything after the header), bytes.
    pub payload_len: u64,
    /// CRC-32 of the stored payload.
    pub payload_crc: u32,
    /// CRC-32 of the entry array as stored (`entries × entry_width` bytes,
    /// decoded, don't-care entries as filled); for [`Layout::Plain`] the
    /// same as `payload_crc`.
    pub entries_crc: u32,
    /// Records of the histogram at the payload's end: `0` for
    /// [`Layout::Plain`], which has none.
    pub histogram_records: u32,
}

/// Outcome totals over the whole table, stored in the header for reporting.
///
/// The crate stores these numbers as given and does not check them against
/// the payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions that are a win for the side to move.
    pub wins: u64,
    /// Positions that are a loss for the side to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Entries that are unused or not legal positions.
    pub illegal: u64,
}

/// The decoded contents of a tablebase header.
///
/// The game's identity (name, rule set, options, index layout) is written
/// by the game; this crate only stores it and compares the ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Name of the game, ASCII, at most [`GAME_NAME_MAX`] bytes, no NUL
    /// (e.g. `"nana-shogi"`).
    pub game: String,
    /// Name of the rule set, ASCII, at most [`RULE_SET_MAX`] bytes, no NUL
    /// (e.g. `"original"`).
    pub rule_set: String,
    /// Game-defined id of the rule set.
    pub rule_set_id: u32,
    /// The rule options as text, UTF-8, at most [`OPTIONS_MAX`] bytes, no
    /// NUL (e.g. `"drop-stalemate on, hand-stalemate on"`).
    pub options: String,
    /// Game-defined bits of the rule options.
    pub option_bits: u32,
    /// Game-defined version of the position-index layout.
    pub layout_version: u32,
    /// Number of entries in the payload.
    pub entries: u64,
    /// Size of one entry in bytes: 1 or 2 (a 2-byte entry is little-endian).
    pub entry_width: u32,
    /// What an entry means.
    pub encoding: Encoding,
    /// Outcome totals.
    pub counts: Counts,
    /// Longest distance to mate in the table, in plies.
    pub max_dtm: u32,
    /// Whether the entries the encoding marks unused are don't-care: the
    /// writer stores them as whatever compresses best (only in compressed
    /// blocks), so that a stored entry of that value says nothing; the game
    /// knows them from its rules, and its probe never reads them.
    pub dont_care: bool,
}

/// What the caller expects a tablebase to be.
///
/// [`Header::check_expected`] compares it field by field; every mismatch is
/// its own [`TablebaseError`] variant naming both values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected<'a> {
    /// Game name.
    pub game: &'a str,
    /// Rule set id.
    pub rule_set_id: u32,
    /// Rule option bits.
    pub option_bits: u32,
    /// Position-index layout version.
    pub layout_version: u32,
    /// Entry width in bytes the caller reads.
    pub entry_width: u32,
    /// Entry encoding the caller reads.
    pub encoding: Encoding,
    /// Number of entries the caller's index addresses.
    pub entries: u64,
}

impl Header {
    /// Encodes the header of a [`Layout::Plain`] file whose entry array has
    /// the CRC-32 `payload_crc` into its 256-byte on-disk form (including the
    /// header CRC-32): [`Header::encode_with`] with the storage of a plain
    /// payload.
    ///
    /// # Errors
    ///
    /// Those of [`Header::encode_with`].
    pub fn encode(&self, payload_crc: u32) -> Result<[u8; HEADER_SIZE], TablebaseError> {
        let storage = Storage {
            layout: Layout::Plain,
            payload_len: self.payload_len().unwrap_or(u64::MAX),
            payload_crc,
            entries_crc: payload_crc,
            histogram_records: 0,
        };
        self.encode_with(&storage)
    }

    /// Encodes the header, with what it says about its payload, into its
    /// 256-byte on-disk form (including the header CRC-32).
    ///
    /// # Errors
    ///
    /// [`TablebaseError::FieldTooLong`] if a text field is longer than its
    /// slot; [`TablebaseError::InvalidText`] if one contains a NUL byte or
    /// the game or rule set name is not ASCII;
    /// [`TablebaseError::BadEntryWidth`] if the entry width is not 1 or 2;
    /// [`TablebaseError::BadLayout`] for don't-care entries in a plain
    /// payload.
    pub fn encode_with(&self, storage: &Storage) -> Result<[u8; HEADER_SIZE], TablebaseError> {
        self.check_fields()?;
        if self.dont_care && storage.layout == Layout::Plain {
            return Err(TablebaseError::BadLayout("a plain payload cannot have don't-care entries"));
        }
        let mut b = [0u8; HEADER_SIZE];
        b[..MAGIC.len()].copy_from_slice(&MAGIC);
        put_u32(&mut b, offset::VERSION, FORMAT_VERSION);
        put_u32(&mut b, offset::HEADER_SIZE, HEADER_SIZE as u32);
        put_u32(&mut b, offset::ENTRY_WIDTH, self.entry_width);
        put_u32(&mut b, offset::ENCODING, self.encoding.id());
        put_u64(&mut b, offset::ENTRIES, self.entries);
        put_bytes(&mut b, offset::GAME, self.game.as_bytes());
        put_bytes(&mut b, offset::RULE_SET, self.rule_set.as_bytes());
        put_u32(&mut b, offset::RULE_SET_ID, self.rule_set_id);
        put_u32(&mut b, offset::OPTION_BITS, self.option_bits);
        put_bytes(&mut b, offset::OPTIONS, self.options.as_bytes());
        put_u32(&mut b, offset::LAYOUT_VERSION, self.layout_version);
        put_u32(&mut b, offset::MAX_DTM, self.max_dtm);
        put_u64(&mut b, offset::WINS, self.counts.wins);
        put_u64(&mut b, offset::LOSSES, self.counts.losses);
        put_u64(&mut b, offset::DRAWS, self.counts.draws);
        put_u64(&mut b, offset::ILLEGAL, self.counts.illegal);
        put_u32(&mut b, offset::PAYLOAD_CRC, storage.payload_crc);
        put_u32(&mut b, offset::LAYOUT, storage.layout.id());
        put_u32(&mut b, offset::BLOCK_ENTRIES, storage.layout.block_entries());
        put_u32(&mut b, offset::ENTRIES_CRC, storage.entries_crc);
        put_u64(&mut b, offset::PAYLOAD_LEN, storage.payload_len);
        put_u32(&mut b, offset::FLAGS, u32::from(self.dont_care));
        put_u32(&mut b, offset::HISTOGRAM_RECORDS, storage.histogram_records);
        let header_crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        put_u32(&mut b, offset::HEADER_CRC, header_crc);
        Ok(b)
    }

    /// Decodes and validates a header from the start of `bytes` (which may
    /// be a whole file; bytes after the header are ignored).
    ///
    /// Returns the header and what it says about its payload. Checks, in
    /// order: the version-1 magic (refused as [`TablebaseError::OldFormat`]),
    /// magic (on however many bytes are present), format version (once its
    /// bytes are present), length, header CRC-32, header size, reserved
    /// bytes, entry width, encoding, payload layout, text fields. Because the CRC is checked
    /// before any other field is interpreted, a damaged header is reported
    /// as [`TablebaseError::HeaderChecksum`] unless the damage is in the
    /// magic or version.
    ///
    /// # Errors
    ///
    /// The first failed check, as the matching [`TablebaseError`] variant.
    ///
    /// Long: the checks one after another in the order given above, which is the order of the
    /// errors; split, that order would be spread out.
    pub fn decode(bytes: &[u8]) -> Result<(Header, Storage), TablebaseError> {
        if bytes.starts_with(&MAGIC_V1) {
            return Err(TablebaseError::OldFormat);
        }
        let magic_len = bytes.len().min(MAGIC.len());
        if bytes[..magic_len] != MAGIC[..magic_len] {
            return Err(TablebaseError::BadMagic);
        }
        if let Some(version) = bytes.get(offset::VERSION..).and_then(<[u8]>::first_chunk) {
            let found = u32::from_le_bytes(*version);
            if found != FORMAT_VERSION {
                return Err(TablebaseError::UnsupportedVersion { found, supported: FORMAT_VERSION });
            }
        }
        let Some(b) = bytes.first_chunk::<HEADER_SIZE>() else {
            return Err(TablebaseError::Truncated { len: bytes.len() as u64, expected: HEADER_SIZE as u64 });
        };

        let stored_crc = get_u32(b, offset::HEADER_CRC);
        let actual_crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        if stored_crc != actual_crc {
            return Err(TablebaseError::HeaderChecksum { expected: stored_crc, actual: actual_crc });
        }
        let header_size = get_u32(b, offset::HEADER_SIZE);
        if header_size as usize != HEADER_SIZE {
            return Err(TablebaseError::BadHeaderSize { found: header_size });
        }
        if let Some(i) = b[offset::RESERVED..offset::HEADER_CRC].iter().position(|&byte| byte != 0) {
            return Err(TablebaseError::ReservedNotZero { offset: offset::RESERVED + i });
        }
        let entry_width = get_u32(b, offset::ENTRY_WIDTH);
        check_entry_width(entry_width)?;
        let encoding = Encoding::from_id(get_u32(b, offset::ENCODING))?;
        let layout = Layout::from_fields(get_u32(b, offset::LAYOUT), get_u32(b, offset::BLOCK_ENTRIES))?;
        let dont_care = match get_u32(b, offset::FLAGS) {
            0 => false,
            1 => true,
            _ => return Err(TablebaseError::BadLayout("unknown flags")),
        };

        let header = Header {
            game: get_text(b, offset::GAME, GAME_NAME_MAX, "game", true)?,
            rule_set: get_text(b, offset::RULE_SET, RULE_SET_MAX, "rule set", true)?,
            rule_set_id: get_u32(b, offset::RULE_SET_ID),
            options: get_text(b, offset::OPTIONS, OPTIONS_MAX, "options", false)?,
            option_bits: get_u32(b, offset::OPTION_BITS),
            layout_version: get_u32(b, offset::LAYOUT_VERSION),
            entries: get_u64(b, offset::ENTRIES),
            entry_width,
            encoding,
            counts: Counts {
                wins: get_u64(b, offset::WINS),
                losses: get_u64(b, offset::LOSSES),
                draws: get_u64(b, offset::DRAWS),
                illegal: get_u64(b, offset::ILLEGAL),
            },
            max_dtm: get_u32(b, offset::MAX_DTM),
            dont_care,
        };
        let storage = Storage {
            layout,
            payload_len: get_u64(b, offset::PAYLOAD_LEN),
            payload_crc: get_u32(b, offset::PAYLOAD_CRC),
            entries_crc: get_u32(b, offset::ENTRIES_CRC),
            histogram_records: get_u32(b, offset::HISTOGRAM_RECORDS),
        };
        if layout == Layout::Plain {
            if header.dont_care {
                return Err(TablebaseError::BadLayout("a plain payload has don't-care entries"));
            }
            if storage.histogram_records != 0 {
                return Err(TablebaseError::BadLayout("a plain payload has a histogram"));
            }
            if Some(storage.payload_len) != header.payload_len() {
                return Err(TablebaseError::BadLayout(
                    "a plain payload's length is not the entry count times the entry width",
                ));
            }
            if storage.entries_crc != storage.payload_crc {
                return Err(TablebaseError::BadLayout("a plain payload has two different checksums"));
            }
        }
        Ok((header, storage))
    }

    /// Payload length in bytes, `entries × entry_width`, or `None` if that
    /// overflows `u64`.
    #[must_use]
    pub fn payload_len(&self) -> Option<u64> {
        self.entries.checked_mul(u64::from(self.entry_width))
    }

    /// Checks that this is the table the caller expects, in order: game,
    /// rules (rule set id and option bits), index layout version, entry
    /// width and encoding, entry count.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::WrongGame`], [`TablebaseError::WrongRules`],
    /// [`TablebaseError::WrongLayout`], [`TablebaseError::WrongEncoding`] or
    /// [`TablebaseError::WrongSize`] for the first mismatch.
    pub fn check_expected(&self, expected: &Expected<'_>) -> Result<(), TablebaseError> {
        if self.game != expected.game {
            return Err(TablebaseError::WrongGame {
                expected: expected.game.to_owned(),
                found: self.game.clone(),
            });
        }
        if self.rule_set_id != expected.rule_set_id || self.option_bits != expected.option_bits {
            return Err(TablebaseError::WrongRules {
                expected_rule_set_id: expected.rule_set_id,
                expected_option_bits: expected.option_bits,
                found_rule_set_id: self.rule_set_id,
                found_option_bits: self.option_bits,
                found_rule_set: self.rule_set.clone(),
                found_options: self.options.clone(),
            });
        }
        if self.layout_version != expected.layout_version {
            return Err(TablebaseError::WrongLayout {
                expected: expected.layout_version,
                found: self.layout_version,
            });
        }
        if self.entry_width != expected.entry_width || self.encoding != expected.encoding {
            return Err(TablebaseError::WrongEncoding {
                expected_width: expected.entry_width,
                expected: expected.encoding,
                found_width: self.entry_width,
                found: self.encoding,
            });
        }
        if self.entries != expected.entries {
            return Err(TablebaseError::WrongSize { expected: expected.entries, found: self.entries });
        }
        Ok(())
    }

    /// Checks everything [`Header::encode`] needs: text fields fit their
    /// slots and the entry width is supported.
    pub(crate) fn check_fields(&self) -> Result<(), TablebaseError> {
        check_text("game", &self.game, GAME_NAME_MAX, true)?;
        check_text("rule set", &self.rule_set, RULE_SET_MAX, true)?;
        check_text("options", &self.options, OPTIONS_MAX, false)?;
        check_entry_width(self.entry_width)
    }
}

fn check_entry_width(width: u32) -> Result<(), TablebaseError> {
    match width {
        1 | 2 => Ok(()),
        other => Err(TablebaseError::BadEntryWidth(other)),
    }
}

/// A text field must fit its NUL-padded slot and contain no NUL itself
/// (otherwise it would not read back unchanged); names must be ASCII.
fn check_text(field: &'static str, text: &str, max: usize, ascii: bool) -> Result<(), TablebaseError> {
    if text.len() > max {
        return Err(TablebaseError::FieldTooLong { field, len: text.len(), max });
    }
    if text.contains('\0') {
        return Err(TablebaseError::InvalidText { field, reason: "it contains a NUL byte" });
    }
    if ascii && !text.is_ascii() {
        return Err(TablebaseError::InvalidText { field, reason: "a name must be ASCII" });
    }
    Ok(())
}

fn put_bytes(b: &mut [u8; HEADER_SIZE], at: usize, bytes: &[u8]) {
    b[at..at + bytes.len()].copy_from_slice(bytes);
}

fn put_u32(b: &mut [u8; HEADER_SIZE], at: usize, value: u32) {
    put_bytes(b, at, &value.to_le_bytes());
}

fn put_u64(b: &mut [u8; HEADER_SIZE], at: usize, value: u64) {
    put_bytes(b, at, &value.to_le_bytes());
}

fn get_u32(b: &[u8; HEADER_SIZE], at: usize) -> u32 {
    let mut le = [0u8; 4];
    le.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(le)
}

fn get_u64(b: &[u8; HEADER_SIZE], at: usize) -> u64 {
    let mut le = [0u8; 8];
    le.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(le)
}

/// Reads a NUL-padded text slot: the text runs up to the first NUL (or the
/// end of the slot), and every byte after it must be NUL. With `ascii` the
/// text must also be ASCII.
fn get_text(
    b: &[u8; HEADER_SIZE],
    at: usize,
    len: usize,
    field: &'static str,
    ascii: bool,
) -> Result<String, TablebaseError> {
    let slot = &b[at..at + len];
    let end = slot.iter().position(|&byte| byte == 0).unwrap_or(len);
    let (text, padding) = slot.split_at(end);
    if padding.iter().any(|&byte| byte != 0) {
        return Err(TablebaseError::InvalidText {
            field,
            reason: "bytes after the NUL padding are not zero",
        });
    }
    if ascii && !text.is_ascii() {
        return Err(TablebaseError::InvalidText { field, reason: "a name must be ASCII" });
    }
    String::from_utf8(text.to_vec())
        .map_err(|_| TablebaseError::InvalidText { field, reason: "it is not valid UTF-8" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            game: "nana-shogi".to_owned(),
            rule_set: "original".to_owned(),
            rule_set_id: 0x0102_0304,
            options: "drop-stalemate on".to_owned(),
            option_bits: 0x0506_0708,
            layout_version: 0x2122_2324,
            entries: 0x1112_1314_1516_1718,
            entry_width: 2,
            encoding: Encoding::DtmPlies,
            counts: Counts {
                wins: 0x3132_3334_3536_3738,
                losses: 0x4142_4344_4546_4748,
                draws: 0x5152_5354_5556_5758,
                illegal: 0x6162_6364_6566_6768,
            },
            max_dtm: 0x7172_7374,
            dont_care: false,
        }
    }

    /// Pins every field to the documented offset (docs/FORMAT.md), with
    /// literal offsets rather than the `offset` constants.
    #[test]
    fn fields_are_at_documented_offsets() {
        let b = header().encode(0x8182_8384).unwrap();
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
        assert_eq!(&b[0..8], &[0x89, b'R', b'T', b'B', 0x0d, 0x0a, 0x1a, 0x0a]);
        assert_eq!(u32_at(8), 4);
        assert_eq!(u32_at(12), 256);
        assert_eq!(u32_at(16), 2);
        assert_eq!(u32_at(20), 1);
        assert_eq!(u64_at(24), 0x1112_1314_1516_1718);
        assert_eq!(&b[32..42], b"nana-shogi");
        assert!(b[42..48].iter().all(|&x| x == 0));
        assert_eq!(&b[48..56], b"original");
        assert!(b[56..64].iter().all(|&x| x == 0));
        assert_eq!(u32_at(64), 0x0102_0304);
        assert_eq!(u32_at(68), 0x0506_0708);
        assert_eq!(&b[72..89], b"drop-stalemate on");
        assert!(b[89..136].iter().all(|&x| x == 0));
        assert_eq!(u32_at(136), 0x2122_2324);
        assert_eq!(u32_at(140), 0x7172_7374);
        assert_eq!(u64_at(144), 0x3132_3334_3536_3738);
        assert_eq!(u64_at(152), 0x4142_4344_4546_4748);
        assert_eq!(u64_at(160), 0x5152_5354_5556_5758);
        assert_eq!(u64_at(168), 0x6162_6364_6566_6768);
        assert_eq!(u32_at(176), 0x8182_8384);
        // A plain payload: layout 1, no block size, the entries' CRC the
        // payload's, the payload `entries × width` bytes.
        assert_eq!((u32_at(180), u32_at(184), u32_at(188)), (1, 0, 0x8182_8384));
        assert_eq!(u64_at(192), 0x1112_1314_1516_1718 * 2);
        // No don't-care entries, no histogram.
        assert_eq!((u32_at(200), u32_at(204)), (0, 0));
        assert!(b[208..252].iter().all(|&x| x == 0));
        assert_eq!(u32_at(252), crc32fast::hash(&b[..252]));
        // Little-endian: least significant byte first.
        assert_eq!(b[64], 0x04);
    }

    #[test]
    fn encoding_ids_round_trip_and_unknown_ids_are_refused() {
        assert_eq!(Encoding::DtmPlies.id(), 1);
        assert_eq!(Encoding::from_id(1).unwrap(), Encoding::DtmPlies);
        assert_eq!(Encoding::DtmPliesWinsAsOne.id(), 2);
        assert_eq!(Encoding::from_id(2).unwrap(), Encoding::DtmPliesWinsAsOne);
        assert!(Encoding::DtmPliesWinsAsOne.folds_wins() && !Encoding::DtmPlies.folds_wins());
        for id in [0, 3, 255, u32::MAX] {
            assert!(matches!(Encoding::from_id(id), Err(TablebaseError::UnknownEncoding(i)) if i == id));
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        let h = header();
        let b = h.encode(0xdead_beef).unwrap();
        let plain = Storage {
            layout: Layout::Plain,
            payload_len: h.payload_len().unwrap(),
            payload_crc: 0xdead_beef,
            entries_crc: 0xdead_beef,
            histogram_records: 0,
        };
        assert_eq!(Header::decode(&b).unwrap(), (h.clone(), plain));
        let blocks = Storage {
            layout: Layout::Lz4Blocks { block_entries: 0x9192_9394 },
            payload_len: 0xa1a2_a3a4_a5a6_a7a8,
            payload_crc: 0xb1b2_b3b4,
            entries_crc: 0xc1c2_c3c4,
            histogram_records: 0xd1d2_d3d4,
        };
        let b = h.encode_with(&blocks).unwrap();
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        assert_eq!(
            (u32_at(176), u32_at(180), u32_at(184), u32_at(188)),
            (0xb1b2_b3b4, 2, 0x9192_9394, 0xc1c2_c3c4)
        );
        assert_eq!(u64::from_le_bytes(b[192..200].try_into().unwrap()), 0xa1a2_a3a4_a5a6_a7a8);
        assert_eq!((u32_at(200), u32_at(204)), (0, 0xd1d2_d3d4));
        assert_eq!(Header::decode(&b).unwrap(), (h.clone(), blocks));
        // Don't-care entries: flag bit 0, in compressed blocks only; any other flag is refused.
        let filled = Header { dont_care: true, ..h.clone() };
        let b = filled.encode_with(&blocks).unwrap();
        assert_eq!(u32::from_le_bytes(b[200..204].try_into().unwrap()), 1);
        assert_eq!(Header::decode(&b).unwrap(), (filled.clone(), blocks));
        assert!(matches!(filled.encode(0), Err(TablebaseError::BadLayout(_))));
        let mut b = h.encode_with(&blocks).unwrap();
        b[200] = 2;
        let crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        b[offset::HEADER_CRC..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(Header::decode(&b), Err(TablebaseError::BadLayout(_))));
    }

    #[test]
    fn layout_fields_are_checked() {
        assert_eq!(Layout::from_fields(1, 0).unwrap(), Layout::Plain);
        assert_eq!(Layout::from_fields(2, 7).unwrap(), Layout::Lz4Blocks { block_entries: 7 });
        assert!(matches!(Layout::from_fields(1, 4096), Err(TablebaseError::BadLayout(_))));
        assert!(matches!(Layout::from_fields(2, 0), Err(TablebaseError::BadLayout(_))));
        assert_eq!(Layout::from_fields(3, 7).unwrap(), Layout::ZstdBlocks { block_entries: 7 });
        assert!(matches!(Layout::from_fields(3, 0), Err(TablebaseError::BadLayout(_))));
        for id in [0, 4, u32::MAX] {
            assert!(matches!(Layout::from_fields(id, 1), Err(TablebaseError::UnknownLayout(i)) if i == id));
        }
        // A plain header whose payload length or second checksum disagrees.
        let h = header();
        for storage in [
            Storage {
                layout: Layout::Plain,
                payload_len: 5,
                payload_crc: 1,
                entries_crc: 1,
                histogram_records: 0,
            },
            Storage {
                layout: Layout::Plain,
                payload_len: h.payload_len().unwrap(),
                payload_crc: 1,
                entries_crc: 2,
                histogram_records: 0,
            },
            Storage {
                layout: Layout::Plain,
                payload_len: h.payload_len().unwrap(),
                payload_crc: 1,
                entries_crc: 1,
                histogram_records: 1,
            },
        ] {
            let b = h.encode_with(&storage).unwrap();
            assert!(matches!(Header::decode(&b), Err(TablebaseError::BadLayout(_))));
        }
    }

    #[test]
    fn text_fields_may_fill_their_slots_exactly() {
        let mut h = header();
        h.game = "g".repeat(GAME_NAME_MAX);
        h.rule_set = "r".repeat(RULE_SET_MAX);
        // 32 two-byte characters: exactly 64 bytes of UTF-8.
        h.options = "é".repeat(OPTIONS_MAX / 2);
        assert_eq!(h.options.len(), OPTIONS_MAX);
        let b = h.encode(0).unwrap();
        assert_eq!(Header::decode(&b).unwrap().0, h);
    }

    #[test]
    fn encode_rejects_long_game_name() {
        let mut h = header();
        h.game = "g".repeat(GAME_NAME_MAX + 1);
        assert!(matches!(h.encode(0), Err(TablebaseError::FieldTooLong { field: "game", len: 17, max: 16 })));
    }

    #[test]
    fn encode_rejects_long_rule_set_and_options() {
        let mut h = header();
        h.rule_set = "r".repeat(RULE_SET_MAX + 1);
        assert!(matches!(
            h.encode(0),
            Err(TablebaseError::FieldTooLong { field: "rule set", len: 17, max: 16 })
        ));
        let mut h = header();
        h.options = "o".repeat(OPTIONS_MAX + 1);
        assert!(matches!(
            h.encode(0),
            Err(TablebaseError::FieldTooLong { field: "options", len: 65, max: 64 })
        ));
    }

    #[test]
    fn encode_rejects_nul_and_non_ascii_names() {
        let mut h = header();
        h.game = "a\0b".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "game", .. })));
        h.game = "shōgi".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "game", .. })));
        let mut h = header();
        h.rule_set = "orīginal".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "rule set", .. })));
        let mut h = header();
        h.options = "x\0".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "options", .. })));
        // Options are UTF-8 text, not a name.
        h.options = "drop-stalemate ön".to_owned();
        h.encode(0).unwrap();
    }

    #[test]
    fn encode_rejects_bad_entry_width() {
        for width in [0, 3, 4, u32::MAX] {
            let mut h = header();
            h.entry_width = width;
            assert!(matches!(h.encode(0), Err(TablebaseError::BadEntryWidth(w)) if w == width));
        }
    }

    /// A writer that put garbage after the NUL terminator (with a valid CRC)
    /// is rejected rather than silently truncated.
    #[test]
    fn decode_rejects_garbage_after_padding() {
        let mut b = header().encode(0).unwrap();
        b[offset::GAME + GAME_NAME_MAX - 1] = b'x';
        let crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        b[offset::HEADER_CRC..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(Header::decode(&b), Err(TablebaseError::InvalidText { field: "game", .. })));
    }

    #[test]
    fn decode_rejects_invalid_utf8_options_and_non_ascii_rule_set() {
        let mut b = header().encode(0).unwrap();
        b[offset::OPTIONS] = 0xff;
        let crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        b[offset::HEADER_CRC..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(Header::decode(&b), Err(TablebaseError::InvalidText { field: "options", .. })));
        let mut b = header().encode(0).unwrap();
        b[offset::RULE_SET] = 0xc3;
        b[offset::RULE_SET + 1] = 0xa9;
        let crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        b[offset::HEADER_CRC..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(Header::decode(&b), Err(TablebaseError::InvalidText { field: "rule set", .. })));
    }

    #[test]
    fn payload_len_detects_overflow() {
        let mut h = header();
        h.entries = u64::MAX;
        assert_eq!(h.payload_len(), None);
        h.entry_width = 1;
        assert_eq!(h.payload_len(), Some(u64::MAX));
    }
}
