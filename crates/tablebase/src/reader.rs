//! Validating reader: [`validate_bytes`] for any buffer, [`Tablebase`] for a
//! file, an owned buffer or any [`ReadAt`] source.
//!
//! Long: the checks of a file, in the order they run, and the readers they guard.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::blocks::{
    check_histogram, check_index, crc_of, decode_block, end_of, histogram_of, start_of, Blocks, Codec, Shape,
    HISTOGRAM_RECORD_BYTES, RECORD_BYTES,
};
use crate::source::ReadAt;
use crate::{Expected, Header, Storage, TablebaseError, HEADER_SIZE};

/// Validates a complete tablebase file held in memory, every byte of it, and
/// returns its header.
///
/// Performs every check [`Tablebase::open`] performs (see there), then, for
/// compressed blocks, every block's CRC-32 over its stored bytes, in
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
    let shape = match Codec::of(storage.layout) {
        None => {
            let actual = crc32fast::hash(payload);
            if actual != storage.payload_crc {
                return Err(TablebaseError::PayloadChecksum { expected: storage.payload_crc, actual });
            }
            None
        }
        Some((codec, block_entries)) => {
            let shape = Shape::new(header.entries, header.entry_width, block_entries, codec)?;
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

/// The bytes of a validated table: all of them in memory, or a compressed table's read a
/// range at a time.
#[derive(Debug)]
pub(crate) enum Bytes {
    /// The whole file: handed over by the caller ([`Tablebase::from_bytes`]), or a plain
    /// table's, read whole when it was opened.
    Owned(Vec<u8>),
    /// A compressed table read a range at a time ([`Tablebase::open`],
    /// [`Tablebase::from_reader`]), with its histogram, read and checked when it was opened,
    /// and its block index where that was read and checked whole then (a file's): without it,
    /// each block's records are read with the block.
    Read { source: Box<dyn ReadAt>, histogram: Vec<u8>, index: Option<Vec<u8>> },
}

impl Bytes {
    /// The file's bytes as one slice (empty for a table read a range at a time).
    fn all(&self) -> &[u8] {
        match self {
            Self::Owned(bytes) => bytes,
            Self::Read { .. } => &[],
        }
    }
}

/// How many stored bytes of consecutive blocks a read of a whole table, or of a span of its
/// blocks, takes from a file at a time ([`Tablebase::check_blocks`], [`Tablebase::entries`],
/// [`Tablebase::decode_blocks`]): checking Dobutsu's 63,325 blocks took 37 ms with a read a
/// block, 8 ms with reads of 1 MiB.
const SPAN_BYTES: u64 = 1 << 20;

/// Decoded bytes a task decodes at a time when a table is decoded whole
/// ([`Tablebase::entries`]), in whole blocks: Dobutsu's 63,325 blocks of 4 KiB in 62 runs,
/// Nana's 568 of 32 KiB in 5.
#[cfg(feature = "parallel")]
const DECODE_RUN_BYTES: usize = 4 << 20;

/// Numbers the tables of a process, so that a cached block is never taken
/// for another table's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How many decoded blocks each thread keeps: 16,384 blocks of 4096 1-byte
/// entries are 64 MiB, filled as blocks are read (a Nana table's 568 blocks
/// of 32 KiB, 18.6 MB, all fit). The explorer's answers along a game (a
/// mainline ranks every move at each of its plies) read tens of thousands of
/// Dobutsu's blocks, each a zstd decode of about 35 µs on a miss: with 4096
/// slots its answers ran at half the rate, with 256 at a sixth.
const CACHED_BLOCKS: usize = 16_384;

/// The most a table decoded whole may take ([`Tablebase::entry`]): 512 MiB, twice Dobutsu's
/// 259 MB.
const WHOLE_BYTES: u64 = 512 << 20;

/// After how many distinct blocks of a table have been decoded, by lookups on every thread, a
/// table too large for a thread's cache is decoded whole ([`Tablebase::entry`]): half of them,
/// at least 1024. Dobutsu's 63,325 blocks: 31,662, which random lookups reach within about
/// 44,000 lookups, and which the explorer's answers along its test's games (read again and
/// again from the threads' caches) do not: a quarter, 15,831, they sometimes did.
fn blocks_before_whole(blocks: u64) -> u64 {
    (blocks / 2).max(1024)
}

/// A table's entries decoded whole once lookups have decoded enough distinct blocks of it.
#[derive(Default)]
struct Whole {
    entries: std::sync::OnceLock<Vec<u8>>,
    /// A bit a block, set when a lookup first decodes it (made on the first miss).
    seen: std::sync::OnceLock<Vec<AtomicU64>>,
    /// How many bits of `seen` are set.
    distinct: AtomicU64,
}

impl std::fmt::Debug for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Whole")
            .field("entries", &self.entries.get().map(Vec::len))
            .field("distinct", &self.distinct.load(Ordering::Relaxed))
            .finish()
    }
}

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

/// An open, validated tablebase: read from a file ([`Tablebase::open`]), held in memory
/// ([`Tablebase::from_bytes`], for a server or WebAssembly that has the bytes but no file), or
/// read a range at a time from any source ([`Tablebase::from_reader`]).
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
    whole: std::sync::Arc<Whole>,
}

impl Tablebase {
    /// Validates a complete tablebase file held in memory, with the checks of
    /// [`Tablebase::open`], and keeps it.
    ///
    /// # Errors
    ///
    /// Those of [`Tablebase::open`] but I/O.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self, TablebaseError> {
        Self::validated(Bytes::Owned(bytes), None)
    }

    /// Opens a table whose bytes come from `source` a range at a time: a file too large to
    /// hold, or fetched over a network. Reads and checks the header, the exact length and, for
    /// compressed blocks, the histogram (its order and that it counts every entry); then
    /// each entry read reads its block's index record (that the block ends in order and in
    /// bounds is checked there) and its block, checked against its CRC-32 before it is decoded.
    /// The CRC-32 of the whole index cannot be checked without reading all of it: a damaged
    /// index record shows as its block failing its checksum or its bounds. A plain table is read
    /// whole and checked as [`Tablebase::from_bytes`] does. `name` names the table in errors
    /// and is its [`Tablebase::path`].
    ///
    /// # Errors
    ///
    /// [`TablebaseError::Io`] where `source` fails to read, and the failed check otherwise.
    pub fn from_reader(source: Box<dyn ReadAt>, name: &str) -> Result<Self, TablebaseError> {
        Self::from_source(source, PathBuf::from(name), false)
    }

    /// Opens a table whose bytes come from `source`, named `path`: a plain table read whole
    /// and checked as [`Tablebase::from_bytes`] does; for compressed blocks, the header, the
    /// exact length and the histogram read and checked, and with `whole_index` the block
    /// index too, read, held, and checked with the histogram against their CRC-32, every
    /// block's bounds with it ([`Tablebase::open`]); without it, each block's index records
    /// are read with the block ([`Tablebase::from_reader`]).
    pub(crate) fn from_source(
        source: Box<dyn ReadAt>,
        path: PathBuf,
        whole_index: bool,
    ) -> Result<Self, TablebaseError> {
        let io_error = |source: io::Error| TablebaseError::Io { path: path.clone(), source };
        let len = source.len();
        let mut head = vec![0u8; (HEADER_SIZE as u64).min(len) as usize];
        source.read_at(&mut head, 0).map_err(io_error)?;
        let (header, storage) = Header::decode(&head)?;
        let expected = storage.payload_len.saturating_add(HEADER_SIZE as u64);
        if len < expected {
            return Err(TablebaseError::Truncated { len, expected });
        }
        if len > expected {
            return Err(TablebaseError::TrailingBytes { len, expected });
        }
        let Some((codec, block_entries)) = Codec::of(storage.layout) else {
            let mut all = vec![0u8; len as usize];
            source.read_at(&mut all, 0).map_err(io_error)?;
            return Self::validated(Bytes::Owned(all), Some(path));
        };
        let shape = Shape::new(header.entries, header.entry_width, block_entries, codec)?;
        let histogram_len = u64::from(storage.histogram_records) * HISTOGRAM_RECORD_BYTES as u64;
        let index_len = shape
            .index_len()
            .filter(|&index| index.saturating_add(histogram_len) <= storage.payload_len)
            .ok_or(TablebaseError::BadLayout("the payload is too short for its block index and histogram"))?;
        let mut histogram = vec![0u8; histogram_len as usize];
        source.read_at(&mut histogram, len - histogram_len).map_err(io_error)?;
        let index = if whole_index {
            let mut index = vec![0u8; index_len as usize];
            source.read_at(&mut index, HEADER_SIZE as u64).map_err(io_error)?;
            let data_len = storage.payload_len - index_len - histogram_len;
            check_index(&index, &histogram, data_len, &shape, storage.payload_crc)?;
            Some(index)
        } else {
            check_histogram(&histogram, &shape)?;
            None
        };
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Self {
            path: Some(path),
            header,
            storage,
            shape: Some(shape),
            id,
            bytes: Bytes::Read { source, histogram, index },
            whole: std::sync::Arc::default(),
        })
    }

    /// Block `k` of a table read a range at a time: its index record (held, or read), its
    /// bounds, its bytes and their CRC-32, decoded into `out` where there is one.
    fn read_block(
        &self,
        source: &dyn ReadAt,
        index: Option<&[u8]>,
        shape: Shape,
        k: u64,
        out: Option<&mut Vec<u8>>,
    ) -> Result<(), TablebaseError> {
        let read = |buf: &mut [u8], offset: u64| {
            source.read_at(buf, offset).map_err(|source| TablebaseError::Read {
                offset,
                len: buf.len() as u64,
                source,
            })
        };
        let index_len = shape.blocks * RECORD_BYTES as u64;
        let histogram_len = u64::from(self.storage.histogram_records) * HISTOGRAM_RECORD_BYTES as u64;
        let data_len = self.storage.payload_len - index_len - histogram_len;
        // Where the block starts and ends, and its CRC-32: from the index held, else from
        // records k - 1 and k, read.
        let (start, end, crc) = match index {
            Some(index) => (start_of(index, k), end_of(index, k), crc_of(index, k)),
            None => {
                let first = k.saturating_sub(1);
                let mut records = vec![0u8; (k - first + 1) as usize * RECORD_BYTES];
                read(&mut records, HEADER_SIZE as u64 + first * RECORD_BYTES as u64)?;
                // `records` holds records `first..=k`: record k is the last.
                let k_within = k - first;
                (start_of(&records, k_within), end_of(&records, k_within), crc_of(&records, k_within))
            }
        };
        let len = shape.len_of(k);
        if end < start || end > data_len || end - start > shape.codec.max_stored(len) {
            return Err(TablebaseError::CorruptBlock { block: k, reason: "it ends out of order or bounds" });
        }
        let mut stored = vec![0u8; (end - start) as usize];
        read(&mut stored, HEADER_SIZE as u64 + index_len + start)?;
        let actual = crc32fast::hash(&stored);
        if actual != crc {
            return Err(TablebaseError::BlockChecksum { block: k, expected: crc, actual });
        }
        out.map_or(Ok(()), |out| decode_block(shape.codec, &stored, k, len, out))
    }

    /// The one constructor behind both sources, so that they are validated
    /// by the same code.
    pub(crate) fn validated(bytes: Bytes, path: Option<PathBuf>) -> Result<Self, TablebaseError> {
        let (header, storage, shape) = validate(bytes.all())?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Self { path, header, storage, shape, id, bytes, whole: std::sync::Arc::default() })
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

    /// The stored payload, everything after the header, where the table holds it in memory: a
    /// table from bytes ([`Tablebase::from_bytes`]), and a plain table, read whole when it was
    /// opened; for [`Layout::Plain`](crate::Layout::Plain) the entry array itself. `None` for a
    /// compressed table read a range at a time (a file's, [`Tablebase::open`], or a reader's):
    /// its length is [`Storage::payload_len`] of [`Tablebase::storage`].
    #[must_use]
    pub fn payload(&self) -> Option<&[u8]> {
        match &self.bytes {
            Bytes::Owned(bytes) => Some(payload_of(bytes)),
            Bytes::Read { .. } => None,
        }
    }

    /// The entry array, `entries × entry_width` bytes: borrowed from the
    /// payload held in memory for [`Layout::Plain`](crate::Layout::Plain), decoded (all of it,
    /// into memory of that size) for a compressed table, each block checked against its CRC-32
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
    /// checksums, so a writer that stored what it was not given);
    /// [`TablebaseError::Read`] where a block read from the file cannot be read.
    pub fn entries(&self) -> Result<Cow<'_, [u8]>, TablebaseError> {
        let Some(shape) = self.shape else {
            return Ok(Cow::Borrowed(payload_of(self.bytes.all())));
        };
        if let Some(all) = self.whole.entries.get() {
            return Ok(Cow::Borrowed(all));
        }
        let (all, actual) = self.decode_all(shape)?;
        if actual != self.storage.entries_crc {
            return Err(TablebaseError::EntriesChecksum { expected: self.storage.entries_crc, actual });
        }
        Ok(Cow::Owned(all))
    }

    /// Every block of a compressed table checked and decoded, in order: on rayon's threads in
    /// runs of [`DECODE_RUN_BYTES`], each decoded into its own part of the entries (one after
    /// another without them, as in WebAssembly); with the entries' CRC-32, each run's taken
    /// while it is in cache. The first damaged block, in order, is the error.
    fn decode_all(&self, shape: Shape) -> Result<(Vec<u8>, u32), TablebaseError> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            let mut all = vec![0; shape.total as usize];
            let run = (DECODE_RUN_BYTES / shape.block_bytes as usize).max(1);
            let results: Vec<Result<crc32fast::Hasher, TablebaseError>> = all
                .par_chunks_mut(run * shape.block_bytes as usize)
                .enumerate()
                .map(|(r, part)| {
                    let first = (r * run) as u64;
                    let blocks = first..(first + run as u64).min(shape.blocks);
                    let mut at = 0;
                    self.each_block(shape, blocks, true, |block| {
                        part[at..at + block.len()].copy_from_slice(block);
                        at += block.len();
                    })?;
                    let mut crc = crc32fast::Hasher::new();
                    crc.update(part);
                    Ok(crc)
                })
                .collect();
            let mut crc = crc32fast::Hasher::new();
            for part in results {
                crc.combine(&part?);
            }
            Ok((all, crc.finalize()))
        }
        #[cfg(not(feature = "parallel"))]
        {
            let mut all = Vec::with_capacity(shape.total as usize);
            self.each_block(shape, 0..shape.blocks, true, |block| all.extend_from_slice(block))?;
            let crc = crc32fast::hash(&all);
            Ok((all, crc))
        }
    }

    /// Entry `index` as an unsigned integer (a 2-byte entry little-endian),
    /// or `None` past the last entry. A don't-care entry
    /// ([`Header::dont_care`]) reads as stored: its neighbour's value.
    ///
    /// A compressed table checks the block that holds it against its CRC-32
    /// and decodes it (reading it from the file first, for a table read a range at a time),
    /// unless this thread's cache of decoded blocks holds it.
    /// Only a block that was checked and decoded is cached: a damaged one is
    /// refused every time it is read.
    ///
    /// A table with more blocks than a thread's cache holds (Dobutsu's), read from a file and
    /// at most 512 MiB decoded, is decoded whole once lookups, over every thread, have decoded
    /// half of its blocks (distinct ones) on a miss: on a thread of its own, from the file opened
    /// again, every block checked and the whole against the entries' CRC-32
    /// ([`Tablebase::entries`]), then kept for the table's life, so that lookups spread over
    /// the whole table (a pass over random positions, a long-running server) read memory
    /// instead of decoding a block each. Until then lookups go on block by block. A table with
    /// a damaged block, or whose file was replaced, is never decoded whole: its lookups go on
    /// block by block, the damaged block an error each time.
    ///
    /// # Errors
    ///
    /// Where the entry's block is damaged: [`TablebaseError::BlockChecksum`]
    /// if its bytes do not match their CRC-32, [`TablebaseError::CorruptBlock`]
    /// if they do but do not decode to its length (only a writer that stored
    /// a block not of its layout's codec makes one); [`TablebaseError::Read`] where it cannot
    /// be read (a file truncated after it was opened). Never for a plain table, which is
    /// read and checked whole when it is opened.
    pub fn entry(&self, index: u64) -> Result<Option<u16>, TablebaseError> {
        if index >= self.header.entries {
            return Ok(None);
        }
        let width = self.header.entry_width as usize;
        let Some(shape) = self.shape else {
            return Ok(Some(read_entry(payload_of(self.bytes.all()), index as usize * width, width)));
        };
        let at = index * width as u64;
        if let Some(all) = self.whole.entries.get() {
            return Ok(Some(read_entry(all, at as usize, width)));
        }
        let (k, within) = (at / shape.block_bytes, (at % shape.block_bytes) as usize);
        let mut decode_whole = false;
        let entry = BLOCK_CACHE.with(|cache| {
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
                self.block(shape, k, Some(block))?;
                (*id, *number) = (self.id, k);
                decode_whole = self.missed(shape, k);
            }
            Ok(Some(read_entry(block, within, width)))
        });
        if decode_whole {
            self.decode_whole_in_background();
        }
        entry
    }

    /// Decodes the table whole on a thread of its own, from its file opened again, and keeps
    /// the entries for [`Tablebase::entry`] once they are checked; lookups meanwhile go on block
    /// by block. A file that is no longer this table (its header or checksums differ: replaced
    /// under its name) or has a damaged block is left, and lookups stay block by block.
    fn decode_whole_in_background(&self) {
        #[cfg(feature = "files")]
        if let Some(path) = self.path.clone() {
            let (whole, header, storage) =
                (std::sync::Arc::clone(&self.whole), self.header.clone(), self.storage);
            let decode = move || {
                let Ok(again) = Tablebase::open(&path) else { return };
                if (again.header(), again.storage()) != (&header, &storage) {
                    return;
                }
                // Checked block by block and whole against the entries' CRC-32, which is ours.
                if let Ok(all) = again.entries() {
                    let _ = whole.entries.set(all.into_owned());
                }
            };
            // Where no thread can be made, the table stays read block by block.
            let _ = std::thread::Builder::new().name("tablebase-whole".into()).spawn(decode);
        }
    }

    /// Whether lookups now read the table decoded whole ([`Tablebase::entry`]).
    #[must_use]
    pub fn decoded_whole(&self) -> bool {
        self.whole.entries.get().is_some()
    }

    /// Notes block `k` decoded on a cache miss, for a table that may be decoded whole; true for
    /// the one miss that makes the distinct blocks decoded reach the threshold.
    fn missed(&self, shape: Shape, k: u64) -> bool {
        let eligible = shape.blocks > CACHED_BLOCKS as u64
            && shape.total <= WHOLE_BYTES
            && matches!(self.bytes, Bytes::Read { index: Some(_), .. });
        if !eligible || self.whole.entries.get().is_some() {
            return false;
        }
        let seen = self
            .whole
            .seen
            .get_or_init(|| (0..shape.blocks.div_ceil(64)).map(|_| AtomicU64::new(0)).collect());
        let bit = 1 << (k % 64);
        if seen[(k / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit != 0 {
            return false;
        }
        self.whole.distinct.fetch_add(1, Ordering::Relaxed) + 1 == blocks_before_whole(shape.blocks)
    }

    /// The entries of a compressed table's blocks `blocks`, decoded into `out` (replacing what
    /// it held) one after the other, each block checked against its CRC-32 first as
    /// [`Tablebase::entry`] checks it: a reader's own cache of a span of decoded blocks,
    /// without the whole table in memory. Nothing is cached here. Don't-care entries read as
    /// stored. `None` for a plain table, whose entries are [`Tablebase::payload`].
    ///
    /// # Errors
    ///
    /// Those of [`Tablebase::entry`] for the first damaged block of the span.
    ///
    /// # Panics
    ///
    /// Where the span ends past the table's last block ([`Tablebase::block_entries`]).
    pub fn decode_blocks(
        &self,
        blocks: std::ops::Range<u64>,
        out: &mut Vec<u8>,
    ) -> Option<Result<(), TablebaseError>> {
        let shape = self.shape?;
        assert!(blocks.end <= shape.blocks, "blocks {blocks:?} of a table of {}", shape.blocks);
        out.clear();
        Some(self.each_block(shape, blocks, true, |block| out.extend_from_slice(block)))
    }

    /// How many entries a compressed table's block holds (the last may hold fewer), and how
    /// many blocks it has; `None` for a plain table.
    #[must_use]
    pub fn block_entries(&self) -> Option<(u64, u64)> {
        self.shape.map(|s| (s.block_bytes / s.width as u64, s.blocks))
    }

    /// Where a compressed table's block index lies in its file (right after the header: a
    /// record of 12 bytes a block); `None` for a plain table. A reader that fetches a file a
    /// range at a time can fetch it whole, so that no block's record takes a fetch of its own.
    #[must_use]
    pub fn block_index(&self) -> Option<std::ops::Range<u64>> {
        let shape = self.shape?;
        let start = HEADER_SIZE as u64;
        Some(start..start + shape.blocks * crate::blocks::RECORD_BYTES as u64)
    }

    /// How many entries hold each value, value by value in increasing order,
    /// as the writer was given them (don't-care entries counted as unused);
    /// read from a compressed table's histogram without decoding any block.
    /// `None` for [`Layout::Plain`](crate::Layout::Plain), which has no histogram.
    #[must_use]
    pub fn histogram(&self) -> Option<Vec<(u16, u64)>> {
        match (&self.bytes, self.shape) {
            (_, None) => None,
            (Bytes::Read { histogram, .. }, Some(_)) => Some(histogram_of(histogram).collect()),
            (Bytes::Owned(bytes), Some(shape)) => Some(
                Blocks::checked_before(payload_of(bytes), shape, self.storage.histogram_records)
                    .histogram()
                    .collect(),
            ),
        }
    }

    /// Checks every block of a compressed table against its CRC-32, in order,
    /// in one sequential read of the blocks; nothing is decoded. Nothing to
    /// do for a plain table, checked whole when it was opened. For a caller
    /// that wants the whole file checked before it reads any entry.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] for the first block whose bytes do
    /// not match their CRC-32; for a table read a range at a time,
    /// [`TablebaseError::CorruptBlock`] for a block whose record its index did not check and
    /// that ends out of order or bounds, and [`TablebaseError::Read`] where a block cannot be read.
    pub fn check_blocks(&self) -> Result<(), TablebaseError> {
        self.shape.map_or(Ok(()), |shape| self.each_block(shape, 0..shape.blocks, false, |_| {}))
    }

    /// Blocks `blocks` of a compressed table of `shape`, in order, each checked against its
    /// CRC-32 and, with `decode`, decoded and handed to `f`. A file's (its block index held)
    /// are read [`SPAN_BYTES`] at a time, many blocks a read; other sources' a block at a time.
    fn each_block(
        &self,
        shape: Shape,
        blocks: std::ops::Range<u64>,
        decode: bool,
        mut f: impl FnMut(&[u8]),
    ) -> Result<(), TablebaseError> {
        let mut block = Vec::with_capacity(shape.block_bytes as usize);
        let Bytes::Read { source, index: Some(index), .. } = &self.bytes else {
            for k in blocks {
                self.block(shape, k, decode.then_some(&mut block))?;
                if decode {
                    f(&block);
                }
            }
            return Ok(());
        };
        let data = HEADER_SIZE as u64 + shape.blocks * RECORD_BYTES as u64;
        let mut stored = Vec::new();
        let mut k = blocks.start;
        while k < blocks.end {
            // Blocks k..next, SPAN_BYTES together or one larger block; bounds checked on open.
            let start = start_of(index, k);
            let mut next = k + 1;
            while next < blocks.end && end_of(index, next) - start <= SPAN_BYTES {
                next += 1;
            }
            stored.resize((end_of(index, next - 1) - start) as usize, 0);
            let offset = data + start;
            source.read_at(&mut stored, offset).map_err(|source| TablebaseError::Read {
                offset,
                len: stored.len() as u64,
                source,
            })?;
            for k in k..next {
                let (from, to) = ((start_of(index, k) - start) as usize, (end_of(index, k) - start) as usize);
                let bytes = &stored[from..to];
                let len = shape.len_of(k);
                if bytes.len() as u64 > shape.codec.max_stored(len) {
                    return Err(TablebaseError::CorruptBlock {
                        block: k,
                        reason: "it ends out of order or bounds",
                    });
                }
                let (expected, actual) = (crc_of(index, k), crc32fast::hash(bytes));
                if actual != expected {
                    return Err(TablebaseError::BlockChecksum { block: k, expected, actual });
                }
                if decode {
                    decode_block(shape.codec, bytes, k, len, &mut block)?;
                    f(&block);
                }
            }
            k = next;
        }
        Ok(())
    }

    /// Block `k` of a compressed table of `shape`, checked against its CRC-32 and, with `out`,
    /// decoded into it: from the bytes in memory, or read from the source first.
    fn block(&self, shape: Shape, k: u64, out: Option<&mut Vec<u8>>) -> Result<(), TablebaseError> {
        match &self.bytes {
            Bytes::Read { source, index, .. } => {
                self.read_block(source.as_ref(), index.as_deref(), shape, k, out)
            }
            Bytes::Owned(bytes) => {
                let blocks = Blocks::checked_before(payload_of(bytes), shape, self.storage.histogram_records);
                match out {
                    Some(out) => blocks.decode(k, out),
                    None => blocks.check(k),
                }
            }
        }
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
