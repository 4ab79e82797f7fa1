//! Validating reader: [`validate_bytes`] for any buffer, [`Tablebase`] for a
//! memory-mapped file or an owned buffer.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::Mmap;

use crate::blocks::{Blocks, Shape};
use crate::{Expected, Header, Layout, Storage, TablebaseError, HEADER_SIZE};

/// Validates a complete tablebase file held in memory, every byte of it, and
/// returns its header.
///
/// Performs every check [`Tablebase::open`] performs (see there), then, for
/// [`Layout::Lz4Blocks`], every block's CRC-32 over its stored bytes, in
/// order, as [`Tablebase::check_blocks`] does: every byte of the file is
/// checked against a checksum, in one sequential read. Nothing is decoded: a
/// compressed table's decoded entries are checked against their CRC-32 by
/// [`Tablebase::entries`].
///
/// # Errors
///
/// The first failed check, as the matching [`TablebaseError`] variant
/// ([`TablebaseError::BlockChecksum`] for the first damaged block). Never
/// panics, whatever the input.
pub fn validate_bytes(bytes: &[u8]) -> Result<Header, TablebaseError> {
    let (header, storage, shape) = validate(bytes)?;
    if let Some(shape) = shape {
        Blocks::checked_before(payload_of(bytes), shape, storage.histogram_records).check_all()?;
    }
    Ok(header)
}

/// The checks of [`Tablebase::open`]: the header, the exact file length and
/// the payload's checksum (for compressed blocks, of the index and the
/// histogram, with the blocks' bounds), not the blocks' own checksums.
/// Returns what the header says about its payload and the shape of a
/// compressed payload's blocks too.
fn validate(bytes: &[u8]) -> Result<(Header, Storage, Option<Shape>), TablebaseError> {
    let (header, storage) = Header::decode(bytes)?;

    let len = bytes.len() as u64;
    // A payload length so large that the file length overflows can never be
    // satisfied; report it as truncation against the largest length.
    let expected = storage.payload_len.saturating_add(HEADER_SIZE as u64);
    if len < expected {
        return Err(TablebaseError::Truncated { len, expected });
    }
    if len > expected {
        return Err(TablebaseError::TrailingBytes { len, expected });
    }

    let payload = payload_of(bytes);
    let shape = match storage.layout {
        Layout::Plain => {
            let actual = crc32fast::hash(payload);
            if actual != storage.payload_crc {
                return Err(TablebaseError::PayloadChecksum { expected: storage.payload_crc, actual });
            }
            None
        }
        Layout::Lz4Blocks { block_entries } => {
            let shape = Shape::new(header.entries, header.entry_width, block_entries)?;
            Blocks::new(payload, shape, storage.histogram_records, storage.payload_crc)?;
            Some(shape)
        }
    };
    Ok((header, storage, shape))
}

/// The bytes after the header (empty if there are none).
fn payload_of(bytes: &[u8]) -> &[u8] {
    bytes.get(HEADER_SIZE..).unwrap_or_default()
}

/// The bytes of a validated table: memory-mapped from a file, or handed
/// over by the caller.
#[derive(Debug)]
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Bytes {
    fn all(&self) -> &[u8] {
        match self {
            Self::Mapped(map) => map,
            Self::Owned(bytes) => bytes,
        }
    }
}

/// Numbers the tables of a process, so that a cached block is never taken
/// for another table's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How many decoded blocks each thread keeps: 4096 blocks of 4096 1-byte
/// entries are 16 MiB, filled as blocks are read. Enough for the lookups of
/// the explorer's answers along a game (a mainline ranks every move at each
/// of its plies): with 256, Dobutsu's answers ran at a third of the rate.
const CACHED_BLOCKS: usize = 4096;

/// A thread's decoded blocks: (table id, block number, bytes), block `k` of a
/// table in slot `first + k` (mod the slots), `first` hashed from the table's
/// id (table id 0: empty).
#[derive(Debug, Default)]
struct BlockCache {
    slots: Vec<(u64, u64, Vec<u8>)>,
}

thread_local! {
    static BLOCK_CACHE: RefCell<BlockCache> = RefCell::new(BlockCache::default());
}

/// An open, validated tablebase: memory-mapped from a file
/// ([`Tablebase::open`]) or held in memory ([`Tablebase::from_bytes`], for
/// a server or WebAssembly that has the bytes but no file).
///
/// Construction checks the header, the exact file length and the payload's
/// checksum: for a plain table that is every byte; for a compressed table
/// the block index and the histogram, and where every block lies, but not
/// the blocks' bytes, which are checked against their own CRC-32 whenever
/// they are read. Entries are then read one at a time with
/// [`Tablebase::entry`] (a compressed table checks and decodes the entry's
/// block, and each thread keeps a cache of decoded blocks) or all at once
/// with [`Tablebase::entries`] (every block checked and decoded). A damaged
/// block is an error every time it is read, never a value.
/// [`Tablebase::check_blocks`] checks every block without decoding any.
/// Whether the table is the one the caller wants is a separate question:
/// use [`Tablebase::open_expecting`] or [`Tablebase::check_expected`] before
/// trusting any entry.
#[derive(Debug)]
pub struct Tablebase {
    path: Option<PathBuf>,
    header: Header,
    storage: Storage,
    /// The shape of a compressed table's blocks; `None` for a plain one.
    shape: Option<Shape>,
    id: u64,
    bytes: Bytes,
}

impl Tablebase {
    /// Opens, memory-maps and validates the file at `path`: the header checks
    /// of [`Header::decode`], then the exact file length (header plus the
    /// payload length the header states, nothing more), then the payload's
    /// checksum: of the whole payload for [`Layout::Plain`]; for
    /// [`Layout::Lz4Blocks`], of the block index and the histogram, then the
    /// histogram's counts and every block's bounds. A compressed table's
    /// blocks are checked against their own CRC-32 when they are read, not
    /// here: opening reads the header, the index and the histogram only.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::Io`] if the file cannot be opened or mapped, and
    /// the first failed check, as the matching [`TablebaseError`] variant.
    /// An empty file is reported as [`TablebaseError::Truncated`] (it is not
    /// mapped: empty mappings fail on some platforms).
    pub fn open(path: &Path) -> Result<Self, TablebaseError> {
        let io_error = |source: io::Error| TablebaseError::Io { path: path.to_path_buf(), source };
        let file = File::open(path).map_err(io_error)?;
        let len = file.metadata().map_err(io_error)?.len();
        if len == 0 {
            return Err(TablebaseError::Truncated { len, expected: HEADER_SIZE as u64 });
        }
        let map = map_read_only(&file).map_err(io_error)?;
        Self::validated(Bytes::Mapped(map), Some(path.to_path_buf()))
    }

    /// Validates a complete tablebase file held in memory, with the checks of
    /// [`Tablebase::open`], and keeps it.
    ///
    /// # Errors
    ///
    /// Those of [`Tablebase::open`] but I/O.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, TablebaseError> {
        Self::validated(Bytes::Owned(bytes), None)
    }

    /// The one constructor behind both sources, so that they are validated
    /// by the same code.
    fn validated(bytes: Bytes, path: Option<PathBuf>) -> Result<Self, TablebaseError> {
        let (header, storage, shape) = validate(bytes.all())?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Self { path, header, storage, shape, id, bytes })
    }

    /// Opens the file at `path` like [`Tablebase::open`] and checks that it
    /// is the expected table with [`Tablebase::check_expected`].
    ///
    /// # Errors
    ///
    /// Any error of [`Tablebase::open`] or [`Tablebase::check_expected`].
    pub fn open_expecting(path: &Path, expected: &Expected<'_>) -> Result<Self, TablebaseError> {
        let table = Self::open(path)?;
        table.check_expected(expected)?;
        Ok(table)
    }

    /// Checks that this table is for the expected game, rules, index
    /// layout, entry encoding and size (see [`Header::check_expected`]).
    ///
    /// # Errors
    ///
    /// [`TablebaseError::WrongGame`], [`TablebaseError::WrongRules`],
    /// [`TablebaseError::WrongLayout`], [`TablebaseError::WrongEncoding`] or
    /// [`TablebaseError::WrongSize`].
    pub fn check_expected(&self, expected: &Expected<'_>) -> Result<(), TablebaseError> {
        self.header.check_expected(expected)
    }

    /// The validated header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// How the payload stores the entries, its length and checksums.
    #[must_use]
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The stored payload, everything after the header: for
    /// [`Layout::Plain`] the entry array itself.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        payload_of(self.bytes.all())
    }

    /// The entry array, `entries × entry_width` bytes: borrowed from the
    /// file for [`Layout::Plain`], decoded (all of it, into memory of that
    /// size) for a compressed table, each block checked against its CRC-32
    /// before it is decoded, and the decoded entries against theirs.
    /// Don't-care entries ([`Header::dont_care`]) are as stored: the game
    /// that wrote them knows which they are.
    ///
    /// # Errors
    ///
    /// For a compressed table, the first damaged block:
    /// [`TablebaseError::BlockChecksum`] if its bytes do not match their
    /// CRC-32, [`TablebaseError::CorruptBlock`] if they do but do not decode
    /// to its length; or [`TablebaseError::EntriesChecksum`] if the decoded
    /// entries do not match their checksum (blocks that matched their own
    /// checksums, so a writer that stored what it was not given).
    pub fn entries(&self) -> Result<Cow<'_, [u8]>, TablebaseError> {
        match self.blocks() {
            None => Ok(Cow::Borrowed(self.payload())),
            Some(blocks) => {
                let mut all = Vec::with_capacity(blocks.shape().total as usize);
                blocks.for_each(self.storage.entries_crc, |block| all.extend_from_slice(block))?;
                Ok(Cow::Owned(all))
            }
        }
    }

    /// Entry `index` as an unsigned integer (a 2-byte entry little-endian),
    /// or `None` past the last entry. A don't-care entry
    /// ([`Header::dont_care`]) reads as stored: its neighbour's value.
    ///
    /// A compressed table checks the block that holds it against its CRC-32
    /// and decodes it, unless this thread's cache of decoded blocks (256
    /// slots, each block in the slot its table and number hash to) holds it.
    /// Only a block that was checked and decoded is cached: a damaged one is
    /// refused every time it is read.
    ///
    /// # Errors
    ///
    /// Where the entry's block is damaged: [`TablebaseError::BlockChecksum`]
    /// if its bytes do not match their CRC-32, [`TablebaseError::CorruptBlock`]
    /// if they do but do not decode to its length (only a writer that stored
    /// a block that is not LZ4 makes one). Never for a plain table, which is
    /// checked whole when it is opened.
    pub fn entry(&self, index: u64) -> Result<Option<u16>, TablebaseError> {
        if index >= self.header.entries {
            return Ok(None);
        }
        let width = self.header.entry_width as usize;
        let Some(blocks) = self.blocks() else {
            return Ok(Some(read_entry(self.payload(), index as usize * width, width)));
        };
        let shape = blocks.shape();
        let at = index * width as u64;
        let (k, within) = (at / shape.block_bytes, (at % shape.block_bytes) as usize);
        BLOCK_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.slots.is_empty() {
                cache.slots.resize_with(CACHED_BLOCKS, || (0, 0, Vec::new()));
            }
            // Consecutive blocks of a table take consecutive slots, from a place of the
            // table's own: a table of at most CACHED_BLOCKS blocks never evicts its own.
            let first = (self.id.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize;
            let (id, number, block) = &mut cache.slots[(first + k as usize) % CACHED_BLOCKS];
            if (*id, *number) != (self.id, k) {
                // Whatever this slot held is replaced: empty until the block is checked and
                // decodes.
                *id = 0;
                blocks.decode(k, block)?;
                (*id, *number) = (self.id, k);
            }
            Ok(Some(read_entry(block, within, width)))
        })
    }

    /// How many entries hold each value, value by value in increasing order,
    /// as the writer was given them (don't-care entries counted as unused);
    /// read from a compressed table's histogram without decoding any block.
    /// `None` for [`Layout::Plain`], which has no histogram.
    #[must_use]
    pub fn histogram(&self) -> Option<Vec<(u16, u64)>> {
        self.blocks().map(|blocks| blocks.histogram().collect())
    }

    /// Checks every block of a compressed table against its CRC-32, in order,
    /// in one sequential read of the blocks; nothing is decoded. Nothing to
    /// do for a plain table, checked whole when it was opened. For a caller
    /// that wants the whole file checked before it reads any entry.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] for the first block whose bytes do
    /// not match their CRC-32.
    pub fn check_blocks(&self) -> Result<(), TablebaseError> {
        self.blocks().map_or(Ok(()), |blocks| blocks.check_all())
    }

    /// The block index of a compressed table, checked when it was opened.
    fn blocks(&self) -> Option<Blocks<'_>> {
        self.shape.map(|shape| Blocks::checked_before(self.payload(), shape, self.storage.histogram_records))
    }

    /// The path the table was opened from (`None` for
    /// [`Tablebase::from_bytes`]).
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}
/// The `width`-byte little-endian entry at byte `at` of `bytes`.
fn read_entry(bytes: &[u8], at: usize, width: usize) -> u16 {
    match width {
        1 => u16::from(bytes[at]),
        _ => u16::from_le_bytes([bytes[at], bytes[at + 1]]),
    }
}

/// Maps the whole of `file` read-only.
#[allow(unsafe_code)]
fn map_read_only(file: &File) -> io::Result<Mmap> {
    // Safety: `Mmap::map` is unsafe because the mapped bytes alias the file,
    // and the returned slice would change (or, if the file were truncated,
    // fault) should another process modify the file in place while it is
    // mapped. Tablebase files are never modified in place: `write` builds a
    // new file and renames it over the old path, which leaves an existing
    // mapping on the old, unchanged file. The mapping is read-only, and its
    // contents are validated before use: length, header and payload CRCs on
    // open, and a compressed table's blocks against their own CRC-32 each
    // time one is read; every access is bounds-checked.
    unsafe { Mmap::map(file) }
}
