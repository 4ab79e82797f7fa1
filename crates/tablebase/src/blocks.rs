//! The [`Layout::Lz4Blocks`](crate::Layout::Lz4Blocks) payload: an index of
//! the blocks, then the blocks, each an LZ4 block (no frame) of
//! `block_entries` entries (the last one of the rest), then the histogram of
//! the entries' values.
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

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::TablebaseError;

/// The largest block, in decoded bytes, a reader accepts and a writer
/// writes: it bounds what one block can make a reader allocate.
pub const MAX_BLOCK_BYTES: u64 = 1 << 20;

/// Bytes of one block's record in the index: its end and its CRC-32.
pub(crate) const RECORD_BYTES: usize = 12;

/// Bytes of one record of the histogram: a value and how many entries hold it.
pub(crate) const HISTOGRAM_RECORD_BYTES: usize = 10;

/// The shape of a blocked entry array: how many bytes it decodes to and in
/// which blocks.
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
}

impl Shape {
    /// The shape of `entries` entries of `width` bytes in blocks of
    /// `block_entries` entries.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BadLayout`] when a block would exceed
    /// [`MAX_BLOCK_BYTES`] or the array's length overflows.
    pub fn new(entries: u64, width: u32, block_entries: u32) -> Result<Shape, TablebaseError> {
        let block_bytes = u64::from(block_entries) * u64::from(width);
        if block_bytes == 0 || block_bytes > MAX_BLOCK_BYTES {
            return Err(TablebaseError::BadLayout("a block is empty or larger than 1 MiB"));
        }
        let total = entries
            .checked_mul(u64::from(width))
            .ok_or(TablebaseError::BadLayout("the entry array's length overflows"))?;
        Ok(Shape { total, block_bytes, blocks: total.div_ceil(block_bytes), width: width as usize })
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

/// The unused value of an entry of `width` bytes: every bit set.
fn unused_of(width: usize) -> u16 {
    if width == 1 {
        0xFF
    } else {
        0xFFFF
    }
}

/// Fills the unused entries (every bit set) of one block's decoded bytes
/// with what compresses well: each takes the value of the used entry before
/// it in the block, and those before the block's first used entry take that
/// entry's value. A block with no used entry is left as it is. Only the
/// block itself is read, so that blocks are filled independently of each
/// other and of the order they are made in.
pub(crate) fn fill_unused(block: &mut [u8], width: usize) {
    let unused = unused_of(width);
    let read = |b: &[u8], i: usize| match width {
        1 => u16::from(b[i]),
        _ => u16::from_le_bytes([b[2 * i], b[2 * i + 1]]),
    };
    let n = block.len() / width;
    let Some(first) = (0..n).find(|&i| read(block, i) != unused) else { return };
    let mut last = read(block, first);
    for i in 0..n {
        let v = read(block, i);
        if v == unused {
            block[i * width..(i + 1) * width].copy_from_slice(&last.to_le_bytes()[..width]);
        } else {
            last = v;
        }
    }
}

/// A compressed payload and the histogram of the entries it holds.
pub(crate) struct Compressed {
    /// Index, blocks and histogram.
    pub payload: Vec<u8>,
    /// Bytes of the index.
    pub index_len: usize,
    /// Records of the histogram.
    pub histogram_records: u32,
    /// CRC-32 of the decoded (stored) blocks, the entries a reader decodes.
    pub stored_crc: u32,
}

/// Compresses an entry array of the given shape into a payload; with
/// `fill`, unused entries are stored filled ([`fill_unused`]).
#[cfg(test)]
pub(crate) fn compress(entries: &[u8], shape: &Shape, fill: bool) -> Compressed {
    debug_assert_eq!(entries.len() as u64, shape.total);
    let block_bytes = shape.block_bytes as usize;
    compress_blocks(shape, fill, &|k, block| {
        let at = k as usize * block_bytes;
        block.copy_from_slice(&entries[at..at + block.len()]);
    })
}

/// Blocks one task of [`compress_blocks`] compresses in a row.
const GROUP_BLOCKS: u64 = 64;

/// Compresses the entry array whose blocks `block_of` writes (block `k` into a buffer of that
/// block's length) into a payload; with `fill`, each block's unused entries are stored filled
/// ([`fill_unused`]). Groups of blocks are made and compressed in parallel, each block on its
/// own and put in order, so the bytes do not depend on the thread count; no more than a block
/// per thread is held decoded, so a caller can make the entries block by block.
pub(crate) fn compress_blocks(
    shape: &Shape,
    fill: bool,
    block_of: &(dyn Fn(u64, &mut [u8]) + Sync),
) -> Compressed {
    let width = shape.width;
    let counts: Vec<AtomicU64> = (0..1usize << (8 * width)).map(|_| AtomicU64::new(0)).collect();
    // Each group's blocks, their lengths and checksums, and the checksum of their stored entries.
    type Group = (Vec<u8>, Vec<(u64, u32)>, crc32fast::Hasher);
    let groups: Vec<Group> = (0..shape.blocks.div_ceil(GROUP_BLOCKS))
        .into_par_iter()
        .map(|g| {
            let mut local = vec![0u64; counts.len()];
            let (mut data, mut records, mut stored) = (Vec::new(), Vec::new(), crc32fast::Hasher::new());
            let mut buffer = vec![0u8; shape.block_bytes as usize];
            for k in g * GROUP_BLOCKS..((g + 1) * GROUP_BLOCKS).min(shape.blocks) {
                let block = &mut buffer[..shape.len_of(k)];
                block_of(k, block);
                for entry in block.chunks_exact(width) {
                    let v = if width == 1 {
                        usize::from(entry[0])
                    } else {
                        usize::from(u16::from_le_bytes([entry[0], entry[1]]))
                    };
                    local[v] += 1;
                }
                if fill {
                    fill_unused(block, width);
                }
                stored.update(block);
                let compressed = lz4_flex::block::compress(block);
                data.extend_from_slice(&compressed);
                records.push((compressed.len() as u64, crc32fast::hash(&compressed)));
            }
            for (count, &n) in counts.iter().zip(&local).filter(|(_, &n)| n > 0) {
                count.fetch_add(n, Ordering::Relaxed);
            }
            (data, records, stored)
        })
        .collect();
    let index_len = shape.blocks as usize * RECORD_BYTES;
    let data_len: usize = groups.iter().map(|g| g.0.len()).sum();
    let mut payload = Vec::with_capacity(index_len + data_len);
    let mut stored_crc = crc32fast::Hasher::new();
    let mut end = 0u64;
    for (_, records, stored) in &groups {
        for &(len, crc) in records {
            end += len;
            payload.extend_from_slice(&end.to_le_bytes());
            payload.extend_from_slice(&crc.to_le_bytes());
        }
        stored_crc.combine(stored);
    }
    for (data, _, _) in groups {
        payload.extend_from_slice(&data);
    }
    let mut histogram_records = 0;
    for (value, count) in counts.into_iter().map(AtomicU64::into_inner).enumerate().filter(|&(_, c)| c > 0) {
        payload.extend_from_slice(&(value as u16).to_le_bytes());
        payload.extend_from_slice(&count.to_le_bytes());
        histogram_records += 1;
    }
    Compressed { payload, index_len, histogram_records, stored_crc: stored_crc.finalize() }
}

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
        let mut crc = crc32fast::Hasher::new();
        crc.update(index);
        crc.update(histogram);
        let actual = crc.finalize();
        if actual != payload_crc {
            return Err(TablebaseError::PayloadChecksum { expected: payload_crc, actual });
        }
        let blocks = Blocks { shape, index, data, histogram };
        check_histogram(histogram, &shape)?;
        for k in 0..shape.blocks {
            if blocks.end(k) < blocks.start(k) || blocks.end(k) > data.len() as u64 {
                return Err(TablebaseError::CorruptBlock {
                    block: k,
                    reason: "it ends out of order or bounds",
                });
            }
        }
        if shape.blocks > 0 && blocks.end(shape.blocks - 1) != data.len() as u64 {
            return Err(TablebaseError::CorruptBlock {
                block: shape.blocks - 1,
                reason: "the last block does not end where the histogram starts",
            });
        }
        if shape.blocks == 0 && !data.is_empty() {
            return Err(TablebaseError::BadLayout("a payload of no blocks holds bytes"));
        }
        Ok(blocks)
    }

    /// Checks every block's bytes against its CRC-32, in order: one
    /// sequential read of the blocks; nothing is decoded.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BlockChecksum`] for the first block whose bytes do
    /// not match their CRC-32.
    pub fn check_all(&self) -> Result<(), TablebaseError> {
        (0..self.shape.blocks).try_for_each(|k| self.checked(k).map(|_| ()))
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
        if k == 0 {
            0
        } else {
            self.end(k - 1)
        }
    }

    /// Where block `k` ends, from its record.
    fn end(&self, k: u64) -> u64 {
        let at = k as usize * RECORD_BYTES;
        let mut le = [0u8; 8];
        le.copy_from_slice(&self.index[at..at + 8]);
        u64::from_le_bytes(le)
    }

    /// Block `k`'s CRC-32, from its record.
    fn crc(&self, k: u64) -> u32 {
        let at = k as usize * RECORD_BYTES + 8;
        let mut le = [0u8; 4];
        le.copy_from_slice(&self.index[at..at + 4]);
        u32::from_le_bytes(le)
    }

    /// The shape of the entry array.
    pub fn shape(&self) -> &Shape {
        &self.shape
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
        decode_block(block, k, self.shape.len_of(k), out)
    }

    /// Checks and decodes every block in order ([`Blocks::decode`]),
    /// handing each to `f`; checks the CRC-32 of the decoded whole against
    /// `entries_crc`.
    ///
    /// # Errors
    ///
    /// The first block that does not match its CRC-32 or does not decode,
    /// or [`TablebaseError::EntriesChecksum`].
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
    block: &[u8],
    k: u64,
    len: usize,
    out: &mut Vec<u8>,
) -> Result<(), TablebaseError> {
    let corrupt = |reason| TablebaseError::CorruptBlock { block: k, reason };
    out.resize(len, 0);
    match lz4_flex::block::decompress_into(block, out) {
        Ok(n) if n == len => Ok(()),
        Ok(_) => Err(corrupt("it decodes to the wrong length")),
        Err(_) => Err(corrupt("it is not a valid LZ4 block, or decodes to more than its length")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many groups of blocks, and a short last block, decode to the array in order, with the
    /// checksum and histogram of the whole array.
    #[test]
    fn groups_of_blocks_decode_in_order() {
        let entries: Vec<u8> = (0..100_003u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 29) as u8).collect();
        let shape = Shape::new(100_003, 1, 100).unwrap();
        assert!(shape.blocks > 10 * GROUP_BLOCKS);
        let c = compress(&entries, &shape, false);
        assert_eq!(c.stored_crc, crc32fast::hash(&entries));
        let blocks =
            Blocks::new(&c.payload, shape, c.histogram_records, payload_crc(&c, &c.payload)).unwrap();
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
        assert!(all == entries);
        let mut counts = [0u64; 256];
        entries.iter().for_each(|&e| counts[usize::from(e)] += 1);
        let want: Vec<(u16, u64)> =
            (0..256).filter(|&v| counts[v] > 0).map(|v| (v as u16, counts[v])).collect();
        assert_eq!(blocks.histogram().collect::<Vec<_>>(), want);
    }

    #[test]
    fn shapes_cover_the_array_exactly() {
        let shape = Shape::new(10_000, 2, 4096).unwrap();
        assert_eq!((shape.total, shape.block_bytes, shape.blocks), (20_000, 8192, 3));
        assert_eq!([shape.len_of(0), shape.len_of(1), shape.len_of(2)], [8192, 8192, 3616]);
        assert_eq!(Shape::new(0, 1, 4096).unwrap().blocks, 0);
        assert_eq!(Shape::new(4096, 1, 4096).unwrap().blocks, 1);
        assert!(matches!(Shape::new(1, 2, 1 << 20), Err(TablebaseError::BadLayout(_))));
        assert!(matches!(Shape::new(u64::MAX, 2, 4096), Err(TablebaseError::BadLayout(_))));
    }

    /// The payload's checksum as the writer makes it: of the index, then the histogram.
    fn payload_crc(c: &Compressed, payload: &[u8]) -> u32 {
        let histogram = c.histogram_records as usize * HISTOGRAM_RECORD_BYTES;
        crc32fast::hash(&[&payload[..c.index_len], &payload[payload.len() - histogram..]].concat())
    }

    #[test]
    fn blocks_decode_to_what_was_compressed() {
        let entries: Vec<u8> = (0..20_000u32).map(|i| (i / 7 % 5) as u8).collect();
        let shape = Shape::new(10_000, 2, 4096).unwrap();
        let c = compress(&entries, &shape, false);
        let blocks =
            Blocks::new(&c.payload, shape, c.histogram_records, payload_crc(&c, &c.payload)).unwrap();
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
        assert_eq!(all, entries);
        assert_eq!(c.stored_crc, crc32fast::hash(&entries));
        assert!(matches!(
            blocks.for_each(crc32fast::hash(&entries) ^ 1, |_| {}),
            Err(TablebaseError::EntriesChecksum { .. })
        ));
        // The histogram of the 2-byte entries: each of 25 values (0..5 in each byte) counted.
        let mut expected = std::collections::BTreeMap::new();
        for e in entries.chunks(2) {
            *expected.entry(u16::from_le_bytes([e[0], e[1]])).or_insert(0u64) += 1;
        }
        assert_eq!(blocks.histogram().collect::<Vec<_>>(), expected.into_iter().collect::<Vec<_>>());
    }

    /// Unused entries take the value of the used entry before them in their block, those before
    /// the first used one that one's; a block of unused entries stays so; the histogram still
    /// counts the entries as given.
    #[test]
    fn unused_entries_are_filled_within_their_block() {
        let mut block = vec![0xFF, 0xFF, 3, 0xFF, 0xFF, 5, 0xFF];
        fill_unused(&mut block, 1);
        assert_eq!(block, [3, 3, 3, 3, 3, 5, 5]);
        let mut block = vec![0xFF; 6];
        fill_unused(&mut block, 1);
        assert_eq!(block, [0xFF; 6]);
        let mut wide = vec![0xFF, 0xFF, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0x00];
        fill_unused(&mut wide, 2);
        assert_eq!(wide, [0x02, 0x01, 0x02, 0x01, 0x02, 0x01, 0xFF, 0x00]);

        // Blocks of 4 entries: the second block starts with unused entries and takes its own
        // first used value, not the first block's last.
        let entries = [1, 0xFF, 2, 0xFF, 0xFF, 0xFF, 7, 0xFF, 0xFF, 0xFF];
        let shape = Shape::new(10, 1, 4).unwrap();
        let c = compress(&entries, &shape, true);
        let blocks =
            Blocks::new(&c.payload, shape, c.histogram_records, payload_crc(&c, &c.payload)).unwrap();
        let stored = [1, 1, 2, 2, 7, 7, 7, 7, 0xFF, 0xFF];
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&stored), |b| all.extend_from_slice(b)).unwrap();
        assert_eq!(all, stored);
        assert_eq!(blocks.histogram().collect::<Vec<_>>(), [(1, 1), (2, 1), (7, 1), (0xFF, 7)]);
    }

    #[test]
    fn an_index_or_histogram_out_of_order_or_bounds_is_refused() {
        let entries: Vec<u8> = (0..10_000u32).map(|i| (i / 100 % 3) as u8).collect();
        let shape = Shape::new(10_000, 1, 4096).unwrap();
        let c = compress(&entries, &shape, false);
        let n = c.histogram_records;
        assert_eq!(n, 3);
        let payload = c.payload.clone();
        let crc = |p: &[u8]| payload_crc(&c, p);
        Blocks::new(&payload, shape, n, crc(&payload)).unwrap();
        // The ends of blocks 0 and 1 swapped; the last one short of the histogram's start; one
        // byte more before the histogram.
        let mut swapped = payload.clone();
        let (one, two) = (payload[0..8].to_vec(), payload[12..20].to_vec());
        swapped[0..8].copy_from_slice(&two);
        swapped[12..20].copy_from_slice(&one);
        let mut short = payload.clone();
        short[24] -= 1;
        let mut long = payload.clone();
        long.insert(payload.len() - 30, 0);
        for bad in [swapped, short, long] {
            let result = Blocks::new(&bad, shape, n, crc(&bad));
            assert!(matches!(result, Err(TablebaseError::CorruptBlock { .. })), "{result:?}");
        }
        // A histogram that does not count the entries, or out of order.
        let last = payload.len() - 8;
        let mut miscounted = payload.clone();
        miscounted[last] ^= 1;
        let mut unordered = payload.clone();
        unordered[last - 2] = 0;
        for bad in [miscounted, unordered] {
            let result = Blocks::new(&bad, shape, n, crc(&bad));
            assert!(matches!(result, Err(TablebaseError::BadLayout(_))), "{result:?}");
        }
        // A block's byte changed: its own checksum, met when the block is read, not before; the
        // index or histogram changed: the payload's.
        let mut flipped = payload.clone();
        let block_0 = shape.blocks as usize * RECORD_BYTES;
        flipped[block_0 + 10] ^= 4;
        let damaged = Blocks::new(&flipped, shape, n, crc(&payload)).unwrap();
        let mut out = Vec::new();
        for _ in 0..2 {
            assert!(matches!(damaged.check_all(), Err(TablebaseError::BlockChecksum { block: 0, .. })));
            assert!(matches!(
                damaged.decode(0, &mut out),
                Err(TablebaseError::BlockChecksum { block: 0, .. })
            ));
            assert!(matches!(
                damaged.for_each(crc32fast::hash(&entries), |_| {}),
                Err(TablebaseError::BlockChecksum { block: 0, .. })
            ));
        }
        damaged.decode(1, &mut out).unwrap();
        assert_eq!(out, &entries[4096..8192]);
        Blocks::new(&payload, shape, n, crc(&payload)).unwrap().check_all().unwrap();
        assert!(matches!(
            Blocks::new(&payload, shape, n, crc(&payload) ^ 1),
            Err(TablebaseError::PayloadChecksum { .. })
        ));
        assert!(matches!(Blocks::new(&payload[..20], shape, n, 0), Err(TablebaseError::BadLayout(_))));
    }
}
