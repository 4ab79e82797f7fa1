//! Where a [`Probe`](crate::Probe) reads its entries: a solution's bytes, a table file, a
//! solve's result, or a reader of the caller's own.

use std::fmt;

use nana_engine::{ByteCode, EntryWidth, Solution, Value, WideCode};
use nana_tablebase::{Tablebase, TablebaseError};

/// Where a [`Probe`] reads its entries.
#[derive(Debug, Clone, Copy)]
pub enum Entries<'a> {
    /// A solution's bytes in memory.
    Bytes(&'a [u8]),
    /// A validated table file, read one entry at a time (a compressed table decodes the entry's
    /// block).
    File(&'a Tablebase),
    /// A solve's result, whichever way it holds its entries.
    Solution(&'a Solution),
    /// A reader of the caller's own over a table file (an export's bounded cache of decoded
    /// blocks), one entry at a time.
    Reader(&'a dyn ReadEntries),
}

/// Entries read one at a time by the caller's own means, as [`Tablebase::entry`] reads them: a
/// raw entry (a two-byte entry little-endian), `None` past the last; an error where the block
/// that holds it is damaged.
pub trait ReadEntries: fmt::Debug + Sync {
    fn entry(&self, index: u64) -> Result<Option<u16>, TablebaseError>;
}

impl Entries<'_> {
    /// The value entry `index` holds in entries of `width`; `None` for an unused entry.
    ///
    /// # Errors
    /// Where a table file's block that holds the entry is damaged (it does not match its
    /// checksum, or does not decode): [`Tablebase::entry`]'s error. Never for entries in memory.
    #[inline]
    pub fn value(&self, width: EntryWidth, index: u64) -> Result<Option<Value>, TablebaseError> {
        Ok(match self {
            Entries::Bytes(bytes) => width.value(bytes, index),
            Entries::File(file) => file.entry(index)?.and_then(|raw| raw_value(width, raw)),
            Entries::Reader(reader) => reader.entry(index)?.and_then(|raw| raw_value(width, raw)),
            Entries::Solution(solution) => solution.value(index),
        })
    }
}

/// The value a raw entry of `width` holds; `None` for an unused one.
#[inline]
fn raw_value(width: EntryWidth, raw: u16) -> Option<Value> {
    match width {
        // A one-byte entry is read as a number below 256.
        EntryWidth::One => ByteCode(raw as u8).value(),
        EntryWidth::Two => WideCode(raw).value(),
    }
}
