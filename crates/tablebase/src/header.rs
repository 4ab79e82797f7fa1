//! The fixed 256-byte file header: encoding, decoding and the caller's
//! expectations.

use crate::TablebaseError;

/// The first eight bytes of every tablebase file.
///
/// The `\r\n` makes text-mode transfers that rewrite line endings corrupt the
/// magic, so such damage is caught immediately.
pub const MAGIC: [u8; 8] = *b"NANATB\r\n";

/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Size of the header in bytes; the payload starts at this offset.
pub const HEADER_SIZE: usize = 256;

/// Maximum length of [`Header::game`] in bytes.
pub const GAME_NAME_MAX: usize = 16;

/// Maximum length of [`Header::rules`] in bytes.
pub const RULES_MAX: usize = 64;

/// Byte offsets of the header fields (see `docs/FORMAT.md`).
mod offset {
    pub const VERSION: usize = 8;
    pub const HEADER_SIZE: usize = 12;
    pub const GAME: usize = 16;
    pub const VARIANT: usize = 32;
    pub const OPTIONS: usize = 36;
    pub const RULES: usize = 40;
    pub const ENTRIES: usize = 104;
    pub const ENTRY_WIDTH: usize = 112;
    pub const LAYOUT_VERSION: usize = 116;
    pub const WINS: usize = 120;
    pub const LOSSES: usize = 128;
    pub const DRAWS: usize = 136;
    pub const ILLEGAL: usize = 144;
    pub const MAX_DTM: usize = 152;
    pub const PAYLOAD_CRC: usize = 156;
    pub const RESERVED: usize = 160;
    pub const HEADER_CRC: usize = 252;
}

// The layout is contiguous and ends exactly at HEADER_SIZE.
const _: () = {
    assert!(offset::GAME + GAME_NAME_MAX == offset::VARIANT);
    assert!(offset::RULES + RULES_MAX == offset::ENTRIES);
    assert!(offset::HEADER_CRC - offset::RESERVED == 92);
    assert!(offset::HEADER_CRC + 4 == HEADER_SIZE);
};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Name of the game, ASCII, at most [`GAME_NAME_MAX`] bytes, no NUL
    /// (e.g. `"nana-shogi"`).
    pub game: String,
    /// Game-defined rule variant id.
    pub variant: u32,
    /// Game-defined rule option bits.
    pub options: u32,
    /// Human-readable description of the rules, UTF-8, at most
    /// [`RULES_MAX`] bytes, no NUL.
    pub rules: String,
    /// Number of entries in the payload.
    pub entries: u64,
    /// Size of one entry in bytes: 1 or 2.
    pub entry_width: u32,
    /// Game-defined version of the position-index layout.
    pub layout_version: u32,
    /// Outcome totals.
    pub counts: Counts,
    /// Longest distance to mate in the table, in plies.
    pub max_dtm: u32,
}

/// What the caller expects a tablebase to be.
///
/// [`Header::check_expected`] compares it field by field; every mismatch is
/// its own [`TablebaseError`] variant naming both values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected<'a> {
    /// Game name.
    pub game: &'a str,
    /// Rule variant id.
    pub variant: u32,
    /// Rule option bits.
    pub options: u32,
    /// Position-index layout version.
    pub layout_version: u32,
    /// Number of entries the caller's index addresses.
    pub entries: u64,
}

impl Header {
    /// Encodes the header, with the given payload CRC-32, into its 256-byte
    /// on-disk form (including the header CRC-32).
    ///
    /// # Errors
    ///
    /// [`TablebaseError::FieldTooLong`] if the game name is longer than
    /// [`GAME_NAME_MAX`] bytes or the rules description longer than
    /// [`RULES_MAX`] bytes; [`TablebaseError::InvalidText`] if either
    /// contains a NUL byte or the game name is not ASCII;
    /// [`TablebaseError::BadEntryWidth`] if the entry width is not 1 or 2.
    pub fn encode(&self, payload_crc: u32) -> Result<[u8; HEADER_SIZE], TablebaseError> {
        self.check_fields()?;
        let mut b = [0u8; HEADER_SIZE];
        b[..MAGIC.len()].copy_from_slice(&MAGIC);
        put_u32(&mut b, offset::VERSION, FORMAT_VERSION);
        put_u32(&mut b, offset::HEADER_SIZE, HEADER_SIZE as u32);
        put_bytes(&mut b, offset::GAME, self.game.as_bytes());
        put_u32(&mut b, offset::VARIANT, self.variant);
        put_u32(&mut b, offset::OPTIONS, self.options);
        put_bytes(&mut b, offset::RULES, self.rules.as_bytes());
        put_u64(&mut b, offset::ENTRIES, self.entries);
        put_u32(&mut b, offset::ENTRY_WIDTH, self.entry_width);
        put_u32(&mut b, offset::LAYOUT_VERSION, self.layout_version);
        put_u64(&mut b, offset::WINS, self.counts.wins);
        put_u64(&mut b, offset::LOSSES, self.counts.losses);
        put_u64(&mut b, offset::DRAWS, self.counts.draws);
        put_u64(&mut b, offset::ILLEGAL, self.counts.illegal);
        put_u32(&mut b, offset::MAX_DTM, self.max_dtm);
        put_u32(&mut b, offset::PAYLOAD_CRC, payload_crc);
        let header_crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        put_u32(&mut b, offset::HEADER_CRC, header_crc);
        Ok(b)
    }

    /// Decodes and validates a header from the start of `bytes` (which may
    /// be a whole file; bytes after the header are ignored).
    ///
    /// Returns the header and the payload CRC-32 it stores. Checks, in
    /// order: magic (on however many bytes are present), format version
    /// (once its bytes are present), length, header CRC-32, header size,
    /// reserved bytes, entry width, text fields. Because the CRC is checked
    /// before any other field is interpreted, a damaged header is reported
    /// as [`TablebaseError::HeaderChecksum`] unless the damage is in the
    /// magic or version.
    ///
    /// # Errors
    ///
    /// The first failed check, as the matching [`TablebaseError`] variant.
    pub fn decode(bytes: &[u8]) -> Result<(Header, u32), TablebaseError> {
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

        let header = Header {
            game: get_text(b, offset::GAME, GAME_NAME_MAX, "game", true)?,
            variant: get_u32(b, offset::VARIANT),
            options: get_u32(b, offset::OPTIONS),
            rules: get_text(b, offset::RULES, RULES_MAX, "rules", false)?,
            entries: get_u64(b, offset::ENTRIES),
            entry_width,
            layout_version: get_u32(b, offset::LAYOUT_VERSION),
            counts: Counts {
                wins: get_u64(b, offset::WINS),
                losses: get_u64(b, offset::LOSSES),
                draws: get_u64(b, offset::DRAWS),
                illegal: get_u64(b, offset::ILLEGAL),
            },
            max_dtm: get_u32(b, offset::MAX_DTM),
        };
        Ok((header, get_u32(b, offset::PAYLOAD_CRC)))
    }

    /// Payload length in bytes, `entries × entry_width`, or `None` if that
    /// overflows `u64`.
    #[must_use]
    pub fn payload_len(&self) -> Option<u64> {
        self.entries.checked_mul(u64::from(self.entry_width))
    }

    /// Checks that this is the table the caller expects, in order: game,
    /// rules (variant and options), index layout version, entry count.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::WrongGame`], [`TablebaseError::WrongRules`],
    /// [`TablebaseError::WrongLayout`] or [`TablebaseError::WrongSize`] for
    /// the first mismatch.
    pub fn check_expected(&self, expected: &Expected<'_>) -> Result<(), TablebaseError> {
        if self.game != expected.game {
            return Err(TablebaseError::WrongGame {
                expected: expected.game.to_owned(),
                found: self.game.clone(),
            });
        }
        if self.variant != expected.variant || self.options != expected.options {
            return Err(TablebaseError::WrongRules {
                expected_variant: expected.variant,
                expected_options: expected.options,
                found_variant: self.variant,
                found_options: self.options,
                found_rules: self.rules.clone(),
            });
        }
        if self.layout_version != expected.layout_version {
            return Err(TablebaseError::WrongLayout {
                expected: expected.layout_version,
                found: self.layout_version,
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
        check_text("game", &self.game, GAME_NAME_MAX)?;
        if !self.game.is_ascii() {
            return Err(TablebaseError::InvalidText { field: "game", reason: "the game name must be ASCII" });
        }
        check_text("rules", &self.rules, RULES_MAX)?;
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
/// (otherwise it would not read back unchanged).
fn check_text(field: &'static str, text: &str, max: usize) -> Result<(), TablebaseError> {
    if text.len() > max {
        return Err(TablebaseError::FieldTooLong { field, len: text.len(), max });
    }
    if text.contains('\0') {
        return Err(TablebaseError::InvalidText { field, reason: "it contains a NUL byte" });
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
        return Err(TablebaseError::InvalidText { field, reason: "the game name must be ASCII" });
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
            variant: 0x0102_0304,
            options: 0x0506_0708,
            rules: "original, drop-stalemate on".to_owned(),
            entries: 0x1112_1314_1516_1718,
            entry_width: 2,
            layout_version: 0x2122_2324,
            counts: Counts {
                wins: 0x3132_3334_3536_3738,
                losses: 0x4142_4344_4546_4748,
                draws: 0x5152_5354_5556_5758,
                illegal: 0x6162_6364_6566_6768,
            },
            max_dtm: 0x7172_7374,
        }
    }

    /// Pins every field to the documented offset (docs/FORMAT.md), with
    /// literal offsets rather than the `offset` constants.
    #[test]
    fn fields_are_at_documented_offsets() {
        let b = header().encode(0x8182_8384).unwrap();
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
        assert_eq!(&b[0..8], b"NANATB\r\n");
        assert_eq!(u32_at(8), 1);
        assert_eq!(u32_at(12), 256);
        assert_eq!(&b[16..26], b"nana-shogi");
        assert!(b[26..32].iter().all(|&x| x == 0));
        assert_eq!(u32_at(32), 0x0102_0304);
        assert_eq!(u32_at(36), 0x0506_0708);
        assert_eq!(&b[40..67], b"original, drop-stalemate on");
        assert!(b[67..104].iter().all(|&x| x == 0));
        assert_eq!(u64_at(104), 0x1112_1314_1516_1718);
        assert_eq!(u32_at(112), 2);
        assert_eq!(u32_at(116), 0x2122_2324);
        assert_eq!(u64_at(120), 0x3132_3334_3536_3738);
        assert_eq!(u64_at(128), 0x4142_4344_4546_4748);
        assert_eq!(u64_at(136), 0x5152_5354_5556_5758);
        assert_eq!(u64_at(144), 0x6162_6364_6566_6768);
        assert_eq!(u32_at(152), 0x7172_7374);
        assert_eq!(u32_at(156), 0x8182_8384);
        assert!(b[160..252].iter().all(|&x| x == 0));
        assert_eq!(u32_at(252), crc32fast::hash(&b[..252]));
        // Little-endian: least significant byte first.
        assert_eq!(b[32], 0x04);
    }

    #[test]
    fn encode_decode_round_trip() {
        let h = header();
        let b = h.encode(0xdead_beef).unwrap();
        assert_eq!(Header::decode(&b).unwrap(), (h, 0xdead_beef));
    }

    #[test]
    fn text_fields_may_fill_their_slots_exactly() {
        let mut h = header();
        h.game = "g".repeat(GAME_NAME_MAX);
        // 32 two-byte characters: exactly 64 bytes of UTF-8.
        h.rules = "é".repeat(RULES_MAX / 2);
        assert_eq!(h.rules.len(), RULES_MAX);
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
    fn encode_rejects_long_rules() {
        let mut h = header();
        h.rules = "r".repeat(RULES_MAX + 1);
        assert!(matches!(
            h.encode(0),
            Err(TablebaseError::FieldTooLong { field: "rules", len: 65, max: 64 })
        ));
    }

    #[test]
    fn encode_rejects_nul_and_non_ascii_game() {
        let mut h = header();
        h.game = "a\0b".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "game", .. })));
        h.game = "shōgi".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "game", .. })));
        let mut h = header();
        h.rules = "x\0".to_owned();
        assert!(matches!(h.encode(0), Err(TablebaseError::InvalidText { field: "rules", .. })));
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
    fn decode_rejects_invalid_utf8_rules() {
        let mut b = header().encode(0).unwrap();
        b[offset::RULES] = 0xff;
        let crc = crc32fast::hash(&b[..offset::HEADER_CRC]);
        b[offset::HEADER_CRC..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(Header::decode(&b), Err(TablebaseError::InvalidText { field: "rules", .. })));
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
