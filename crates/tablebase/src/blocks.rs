//! The payload of compressed blocks ([`Layout::Lz4Blocks`](crate::Layout::Lz4Blocks),
//! [`Layout::ZstdBlocks`](crate::Layout::ZstdBlocks)): an index of the blocks, then the
//! blocks, each of `block_entries` entries (the last one of the rest) compressed on its own by
//! the layout's [`Codec`] (an LZ4 block without a frame, or one zstd frame), then the histogram
//! of the entries' values.
//!
//! ```text
//! | index: blocks × (end u64, CRC-32 u32) | block 0 | block 1 | ... | histogram: n × (value u16, count u64) |
//! ```
//!
//! A block's end counts from the first block's first byte; a block starts
//! where the one before it ends (block 0 at 0). Ends never decrease, and the
//! last one is the length of the blocks together. Each record's CRC-32 is
//! that of its block's stored (compressed) bytes.
//!
//! The histogram counts the entries the writer was given, each value once
//! with how many entries hold it, values in increasing order. Where the
//! header says that unused entries are don't-care, the blocks store them
//! filled ([`fill_unused`]) and the histogram still counts them as unused.

use crate::{Layout, TablebaseError};

/// The largest block, in decoded bytes, a reader accepts and a writer
/// writes: it bounds what one block can make a reader allocate.
pub const MAX_BLOCK_BYTES: u64 = 1 << 20;

/// Bytes of one block's record in the index: its end and its CRC-32.
pub(crate) const RECORD_BYTES: usize = 12;

/// Bytes of one record of the histogram: a value and how many entries hold it.
pub(crate) const HISTOGRAM_RECORD_BYTES: usize = 10;

/// How each block of a blocked payload is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Codec {
    /// An LZ4 block (the raw block format, no frame, no size prefix): layout 2.
    Lz4,
    /// One zstd frame: single segment, its content size written, no checksum, no dictionary:
    /// layout 3.
    Zstd,
}

impl Codec {
    /// The codec and block size of a blocked layout; `None` for a plain one.
    pub fn of(layout: Layout) -> Option<(Codec, u32)> {
        match layout {
            Layout::Plain => None,
            Layout::Lz4Blocks { block_entries } => Some((Codec::Lz4, block_entries)),
            Layout::ZstdBlocks { block_entries } => Some((Codec::Zstd, block_entries)),
        }
    }

    /// The most bytes a block of `len` decoded bytes can take stored, with margin: what a
    /// hostile index record can make a reader fetch for one block.
    pub fn max_stored(self, len: usize) -> u64 {
        match self {
            Codec::Lz4 => (len + len / 255 + 16) as u64,
            // zstd's bound (`ZSTD_COMPRESSBOUND`) is `len + len / 256` and at most 64 bytes
            // more for a short input; a frame header takes at most 18.
            Codec::Zstd => (len + len / 256 + 128) as u64,
        }
    }
}

/// The shape of a blocked entry array: how many bytes it decodes to, in
/// which blocks, and how they are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Decoded bytes of the whole entry array.
    pub total: u64,
    /// Decoded bytes of every block but the last.
    pub block_bytes: u64,
    /// Number of blocks.
    pub blocks: u64,
    /// Bytes of an entry: 1 or 2.
    pub width: usize,
    /// How each block is compressed.
    pub codec: Codec,
}

impl Shape {
    /// The shape of `entries` entries of `width` bytes in blocks of
    /// `block_entries` entries compressed by `codec`.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BadLayout`] when a block would exceed
    /// [`MAX_BLOCK_BYTES`] or the array's length overflows.
    pub fn new(entries: u64, width: u32, block_entries: u32, codec: Codec) -> Result<Shape, TablebaseError> {
        let block_bytes = u64::from(block_entries) * u64::from(width);
        if block_bytes == 0 || block_bytes > MAX_BLOCK_BYTES {
            return Err(TablebaseError::BadLayout("a block is empty or larger than 1 MiB"));
        }
        let total = entries
            .checked_mul(u64::from(width))
            .ok_or(TablebaseError::BadLayout("the entry array's length overflows"))?;
        let blocks = total.div_ceil(block_bytes);
        Ok(Shape { total, block_bytes, blocks, width: width as usize, codec })
    }

    /// Decoded bytes of block `k` (below [`Shape::blocks`]).
    pub fn len_of(&self, k: u64) -> usize {
        (self.block_bytes.min(self.total - k * self.block_bytes)) as usize
    }

    /// Bytes of the block index, or `None` if that overflows.
    pub fn index_len(&self) -> Option<u64> {
        self.blocks.checked_mul(RECORD_BYTES as u64)
    }
}

/// The writer's side of the codec: an entry array compressed into a payload. Only the writer
/// (tables in files) uses it.
#[cfg(feature = "files")]
mod compress;
#[cfg(all(feature = "files", test))]
pub(crate) use compress::{compress, fill_unused, Whole, BATCH_BLOCKS};
#[cfg(feature = "files")]
pub(crate) use compress::{compress_blocks, fold_wins};

/// A blocked payload whose index and histogram have been checked: every
/// block's bytes lie in order inside the payload. A block's bytes are
/// checked against their CRC-32 whenever they are read ([`Blocks::decode`],
/// [`Blocks::check_all`]), never before.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks<'a> {
    shape: Shape,
    index: &'a [u8],
    data: &'a [u8],
    histogram: &'a [u8],
}

impl<'a> Blocks<'a> {
    /// Reads the index and the histogram (`histogram_records` records at the
    /// payload's end) of `payload` and checks them against their CRC-32
    /// `payload_crc` (of the index followed by the histogram), then the
    /// histogram (values in increasing order, counts that are not zero and
    /// add up to the entries), then every block's bounds: it ends where it
    /// may (ends never decrease, and the last one ends where the histogram
    /// starts). Reads the index and the histogram only: no block's bytes are
    /// read, nor checked against their CRC-32 ([`Blocks::check_all`] does
    /// that), and nothing is decoded.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BadLayout`] if the payload cannot hold its index
    /// and histogram or the histogram does not count the entries,
    /// [`TablebaseError::PayloadChecksum`] if the index and histogram do not
    /// match their CRC-32, [`TablebaseError::CorruptBlock`] for the first
    /// block that ends out of order or out of bounds.
    pub fn new(
        payload: &'a [u8],
        shape: Shape,
        histogram_records: u32,
        payload_crc: u32,
    ) -> Result<Blocks<'a>, TablebaseError> {
        let histogram_len = histogram_records as u64 * HISTOGRAM_RECORD_BYTES as u64;
        let index_len = shape
            .index_len()
            .filter(|&len| len.saturating_add(histogram_len) <= payload.len() as u64)
            .ok_or(TablebaseError::BadLayout("the payload is too short for its block index and histogram"))?;
        let (index, rest) = payload.split_at(index_len as usize);
        let (data, histogram) = rest.split_at(rest.len() - histogram_len as usize);
        check_index(index, histogram, data.len() as u64, &shape, payload_crc)?;
        Ok(Blocks { shape, index, data, histogram })
    }

    /// Checks every block's bytes against its CRC-32, in order: one
    /// sequential read of the blocks; nothing is decoded.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] for the first block whose bytes do
    /// not match their CRC-32.
    pub fn check_all(&self) -> Result<(), TablebaseError> {
        (0..self.shape.blocks).try_for_each(|k| self.check(k))
    }

    /// Checks block `k`'s bytes against its CRC-32; nothing is decoded.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] if they do not match.
    pub fn check(&self, k: u64) -> Result<(), TablebaseError> {
        self.checked(k).map(|_| ())
    }

    /// Block `k`'s stored (compressed) bytes, once they match its CRC-32.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] if they do not.
    fn checked(&self, k: u64) -> Result<&'a [u8], TablebaseError> {
        // The index was checked in `new`: the offsets are in order and in bounds.
        let block = &self.data[self.start(k) as usize..self.end(k) as usize];
        let (expected, actual) = (self.crc(k), crc32fast::hash(block));
        if actual != expected {
            return Err(TablebaseError::BlockChecksum { block: k, expected, actual });
        }
        Ok(block)
    }

    /// The blocks of a payload that [`Blocks::new`] has accepted before (a
    /// validated table's), without checking them again.
    pub fn checked_before(payload: &'a [u8], shape: Shape, histogram_records: u32) -> Blocks<'a> {
        let (index, rest) = payload.split_at(shape.blocks as usize * RECORD_BYTES);
        let (data, histogram) =
            rest.split_at(rest.len() - histogram_records as usize * HISTOGRAM_RECORD_BYTES);
        Blocks { shape, index, data, histogram }
    }

    /// The histogram's records: each value with how many entries hold it.
    pub fn histogram(&self) -> impl Iterator<Item = (u16, u64)> + 'a {
        histogram_of(self.histogram)
    }

    /// Where block `k` starts: where block `k - 1` ends, block 0 at 0.
    fn start(&self, k: u64) -> u64 {
        start_of(self.index, k)
    }

    /// Where block `k` ends, from its record.
    fn end(&self, k: u64) -> u64 {
        end_of(self.index, k)
    }

    /// Block `k`'s CRC-32, from its record.
    fn crc(&self, k: u64) -> u32 {
        crc_of(self.index, k)
    }

    /// Checks block `k`'s bytes against its CRC-32, then decodes them into
    /// `out`, which it resizes to the block's length. On an error `out`
    /// holds nothing to trust.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] if the block's bytes do not match
    /// their CRC-32, [`TablebaseError::CorruptBlock`] if they do but do not
    /// decode to exactly the block's length.
    pub fn decode(&self, k: u64, out: &mut Vec<u8>) -> Result<(), TablebaseError> {
        let block = self.checked(k)?;
        decode_block(self.shape.codec, block, k, self.shape.len_of(k), out)
    }

    /// Checks and decodes every block in order ([`Blocks::decode`]),
    /// handing each to `f`; checks the CRC-32 of the decoded whole against
    /// `entries_crc`: the codec's tests' whole-table read (a table's is
    /// [`Tablebase::entries`](crate::Tablebase::entries), whatever its bytes' source).
    ///
    /// # Errors
    ///
    /// The first block that does not match its CRC-32 or does not decode,
    /// or [`TablebaseError::EntriesChecksum`].
    #[cfg(test)]
    pub fn for_each(&self, entries_crc: u32, mut f: impl FnMut(&[u8])) -> Result<(), TablebaseError> {
        let mut crc = crc32fast::Hasher::new();
        let mut block = Vec::with_capacity(self.shape.block_bytes as usize);
        for k in 0..self.shape.blocks {
            self.decode(k, &mut block)?;
            crc.update(&block);
            f(&block);
        }
        let actual = crc.finalize();
        if actual != entries_crc {
            return Err(TablebaseError::EntriesChecksum { expected: entries_crc, actual });
        }
        Ok(())
    }
}

/// Checks a blocked payload's `index` and `histogram`, its blocks taking `data_len` bytes
/// between them: against their CRC-32 `payload_crc` (of the index followed by the histogram),
/// then the histogram ([`check_histogram`]), then every block's bounds (ends never decrease,
/// and the last one is `data_len`). The checks of [`Blocks::new`], in its order, for a reader
/// that holds the index and the histogram but not the blocks (a file read a range at a time).
///
/// # Errors
///
/// Those of [`Blocks::new`] but the payload too short for its index and histogram, which the
/// caller checks.
pub(crate) fn check_index(
    index: &[u8],
    histogram: &[u8],
    data_len: u64,
    shape: &Shape,
    payload_crc: u32,
) -> Result<(), TablebaseError> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(index);
    crc.update(histogram);
    let actual = crc.finalize();
    if actual != payload_crc {
        return Err(TablebaseError::PayloadChecksum { expected: payload_crc, actual });
    }
    check_histogram(histogram, shape)?;
    for k in 0..shape.blocks {
        if end_of(index, k) < start_of(index, k) || end_of(index, k) > data_len {
            return Err(TablebaseError::CorruptBlock { block: k, reason: "it ends out of order or bounds" });
        }
    }
    if shape.blocks > 0 && end_of(index, shape.blocks - 1) != data_len {
        return Err(TablebaseError::CorruptBlock {
            block: shape.blocks - 1,
            reason: "the last block does not end where the histogram starts",
        });
    }
    if shape.blocks == 0 && data_len != 0 {
        return Err(TablebaseError::BadLayout("a payload of no blocks holds bytes"));
    }
    Ok(())
}

/// Where block `k` starts, from the block `index`: where block `k - 1` ends, block 0 at 0.
pub(crate) fn start_of(index: &[u8], k: u64) -> u64 {
    if k == 0 {
        0
    } else {
        end_of(index, k - 1)
    }
}

/// Where block `k` ends, from its record in the block `index`.
pub(crate) fn end_of(index: &[u8], k: u64) -> u64 {
    let at = k as usize * RECORD_BYTES;
    let mut le = [0u8; 8];
    le.copy_from_slice(&index[at..at + 8]);
    u64::from_le_bytes(le)
}

/// Block `k`'s CRC-32, from its record in the block `index`.
pub(crate) fn crc_of(index: &[u8], k: u64) -> u32 {
    let at = k as usize * RECORD_BYTES + 8;
    let mut le = [0u8; 4];
    le.copy_from_slice(&index[at..at + 4]);
    u32::from_le_bytes(le)
}

/// A histogram's records: each value with how many entries hold it.
pub(crate) fn histogram_of(histogram: &[u8]) -> impl Iterator<Item = (u16, u64)> + '_ {
    histogram.chunks_exact(HISTOGRAM_RECORD_BYTES).map(|r| {
        let mut le = [0u8; 8];
        le.copy_from_slice(&r[2..10]);
        (u16::from_le_bytes([r[0], r[1]]), u64::from_le_bytes(le))
    })
}

/// Checks a histogram: values in increasing order and in range, counts that are not zero and
/// add up to the entries of `shape`.
///
/// # Errors
///
/// [`TablebaseError::BadLayout`] where it does not hold.
pub(crate) fn check_histogram(histogram: &[u8], shape: &Shape) -> Result<(), TablebaseError> {
    let mut total = 0u64;
    let mut previous = None;
    for (value, count) in histogram_of(histogram) {
        if previous.is_some_and(|p| p >= value) || count == 0 || (shape.width == 1 && value > 0xFF) {
            return Err(TablebaseError::BadLayout("the histogram's values are out of order or out of range"));
        }
        previous = Some(value);
        total = total.saturating_add(count);
    }
    if total != shape.total / shape.width as u64 {
        return Err(TablebaseError::BadLayout("the histogram does not count every entry once"));
    }
    Ok(())
}

/// Decodes block `k`'s stored bytes, already checked against their CRC-32, into `out`, which
/// it resizes to `len`, the block's decoded length.
///
/// # Errors
///
/// [`TablebaseError::CorruptBlock`] if they do not decode to exactly `len` bytes.
pub(crate) fn decode_block(
    codec: Codec,
    block: &[u8],
    k: u64,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<(), TablebaseError> {
    let corrupt = |reason| TablebaseError::CorruptBlock { block: k, reason };
    out.resize(len, 0);
    match codec {
        Codec::Lz4 => match lz4_flex::block::decompress_into(block, out) {
            Ok(n) if n == len => Ok(()),
            Ok(_) => Err(corrupt("it decodes to the wrong length")),
            Err(_) => Err(corrupt("it is not a valid LZ4 block, or decodes to more than its length")),
        },
        Codec::Zstd => zstd_frame::decode(block, out).map_err(corrupt),
    }
}

pub(crate) mod zstd_frame;

#[cfg(test)]
mod tests;
