//! The [`Layout::Lz4Blocks`](crate::Layout::Lz4Blocks) payload: an index of
//! the blocks, then the blocks, each an LZ4 block (no frame) of
//! `block_entries` entries (the last one of the rest).
//!
//! ```text
//! | index: blocks × (end u64, CRC-32 u32) | block 0 | block 1 | ... |
//! ```
//!
//! A block's end counts from the first block's first byte; a block starts
//! where the one before it ends (block 0 at 0). Ends never decrease, and the
//! last one is the length of the blocks together. Each record's CRC-32 is
//! that of its block's stored (compressed) bytes.

use rayon::prelude::*;

use crate::TablebaseError;

/// The largest block, in decoded bytes, a reader accepts and a writer
/// writes: it bounds what one block can make a reader allocate.
pub const MAX_BLOCK_BYTES: u64 = 1 << 20;

/// Bytes of one block's record in the index: its end and its CRC-32.
pub(crate) const RECORD_BYTES: usize = 12;

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
        Ok(Shape { total, block_bytes, blocks: total.div_ceil(block_bytes) })
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

/// Blocks one task of [`compress_from`] compresses in a row.
const GROUP_BLOCKS: u64 = 64;

/// A blocked payload as it is written: its block index, then its blocks in groups, one after
/// another; and the CRC-32 of the entry array the blocks decode to.
pub(crate) struct Compressed {
    pub index: Vec<u8>,
    pub groups: Vec<Vec<u8>>,
    pub entries_crc: u32,
}

impl Compressed {
    /// The payload's length: the index and the blocks.
    pub fn len(&self) -> u64 {
        (self.index.len() + self.groups.iter().map(Vec::len).sum::<usize>()) as u64
    }
}

/// Compresses the entry array of the given shape that `fill` produces, a block at a time:
/// `fill(first, out)` writes the array's bytes from `first` on into `out`, a block's worth.
/// Groups of blocks are compressed in parallel, each block on its own, so the bytes do not
/// depend on the thread count; no more of the array than a block per thread is held at once.
pub(crate) fn compress_from(shape: &Shape, fill: &(dyn Fn(u64, &mut [u8]) + Sync)) -> Compressed {
    let groups = shape.blocks.div_ceil(GROUP_BLOCKS);
    // Each group's blocks, their lengths and checksums, and the checksum of what they decode to.
    type Group = (Vec<u8>, Vec<(u64, u32)>, crc32fast::Hasher);
    let done: Vec<Group> = (0..groups)
        .into_par_iter()
        .map(|g| {
            let mut data = Vec::new();
            let mut records = Vec::new();
            let mut entries = crc32fast::Hasher::new();
            let mut block = vec![0u8; shape.block_bytes as usize];
            for k in g * GROUP_BLOCKS..((g + 1) * GROUP_BLOCKS).min(shape.blocks) {
                let block = &mut block[..shape.len_of(k)];
                fill(k * shape.block_bytes, block);
                entries.update(block);
                let compressed = lz4_flex::block::compress(block);
                data.extend_from_slice(&compressed);
                records.push((compressed.len() as u64, crc32fast::hash(&compressed)));
            }
            (data, records, entries)
        })
        .collect();
    let mut index = Vec::with_capacity(shape.blocks as usize * RECORD_BYTES);
    let mut entries_crc = crc32fast::Hasher::new();
    let mut end = 0u64;
    let mut data = Vec::with_capacity(done.len());
    for (group, records, crc) in done {
        for (len, block_crc) in records {
            end += len;
            index.extend_from_slice(&end.to_le_bytes());
            index.extend_from_slice(&block_crc.to_le_bytes());
        }
        entries_crc.combine(&crc);
        data.push(group);
    }
    Compressed { index, groups: data, entries_crc: entries_crc.finalize() }
}

/// A blocked payload whose index has been checked: every block's bytes lie
/// in order inside the payload and match their CRC-32.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks<'a> {
    shape: Shape,
    index: &'a [u8],
    data: &'a [u8],
}

impl<'a> Blocks<'a> {
    /// Reads the index of `payload` and checks it against its CRC-32
    /// `index_crc`, then every block: it ends where it may (ends never
    /// decrease, and the last one ends the payload) and its bytes match its
    /// CRC-32. One sequential read of the payload; nothing is decoded.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BadLayout`] if the payload cannot hold its index,
    /// [`TablebaseError::PayloadChecksum`] if the index does not match its
    /// CRC-32, [`TablebaseError::CorruptBlock`] for the first block that
    /// ends out of order or out of bounds, [`TablebaseError::BlockChecksum`]
    /// for the first block whose bytes do not match its CRC-32.
    pub fn new(payload: &'a [u8], shape: Shape, index_crc: u32) -> Result<Blocks<'a>, TablebaseError> {
        let index_len = shape
            .index_len()
            .filter(|&len| len <= payload.len() as u64)
            .ok_or(TablebaseError::BadLayout("the payload is too short for its block index"))?;
        let (index, data) = payload.split_at(index_len as usize);
        let actual = crc32fast::hash(index);
        if actual != index_crc {
            return Err(TablebaseError::PayloadChecksum { expected: index_crc, actual });
        }
        let blocks = Blocks { shape, index, data };
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
                reason: "the last block does not end the payload",
            });
        }
        if shape.blocks == 0 && !data.is_empty() {
            return Err(TablebaseError::BadLayout("a payload of no blocks holds bytes"));
        }
        for k in 0..shape.blocks {
            let actual = crc32fast::hash(&data[blocks.start(k) as usize..blocks.end(k) as usize]);
            let expected = blocks.crc(k);
            if actual != expected {
                return Err(TablebaseError::BlockChecksum { block: k, expected, actual });
            }
        }
        Ok(blocks)
    }

    /// The blocks of a payload that [`Blocks::new`] has accepted before (a
    /// validated table's), without checking them again.
    pub fn checked_before(payload: &'a [u8], shape: Shape) -> Blocks<'a> {
        let (index, data) = payload.split_at(shape.blocks as usize * RECORD_BYTES);
        Blocks { shape, index, data }
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

    /// Decodes block `k` into `out`, which it resizes to the block's length.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::CorruptBlock`] if the block does not decode to
    /// exactly its length.
    pub fn decode(&self, k: u64, out: &mut Vec<u8>) -> Result<(), TablebaseError> {
        let corrupt = |reason| TablebaseError::CorruptBlock { block: k, reason };
        // The index was checked in `new`: the offsets are in order and in bounds.
        let block = &self.data[self.start(k) as usize..self.end(k) as usize];
        let len = self.shape.len_of(k);
        out.resize(len, 0);
        match lz4_flex::block::decompress_into(block, out) {
            Ok(n) if n == len => Ok(()),
            Ok(_) => Err(corrupt("it decodes to the wrong length")),
            Err(_) => Err(corrupt("it is not a valid LZ4 block, or decodes to more than its length")),
        }
    }

    /// Decodes every block in order, handing each to `f`; checks the CRC-32
    /// of the decoded whole against `entries_crc`.
    ///
    /// # Errors
    ///
    /// The first block that does not decode, or
    /// [`TablebaseError::EntriesChecksum`].
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The payload of an entry array, in one piece; its entries' checksum is theirs.
    fn compress(entries: &[u8], shape: &Shape) -> Vec<u8> {
        let copy = |first: u64, out: &mut [u8]| out.copy_from_slice(&entries[first as usize..][..out.len()]);
        let compressed = compress_from(shape, &copy);
        assert_eq!(compressed.entries_crc, crc32fast::hash(entries));
        let len = compressed.len();
        let mut payload = compressed.index;
        compressed.groups.iter().for_each(|g| payload.extend_from_slice(g));
        assert_eq!(payload.len() as u64, len);
        payload
    }

    /// Many groups of blocks, and a short last block, decode to the array in order.
    #[test]
    fn groups_of_blocks_decode_in_order() {
        let entries: Vec<u8> = (0..100_003u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 29) as u8).collect();
        let shape = Shape::new(100_003, 1, 100).unwrap();
        assert!(shape.blocks > 10 * GROUP_BLOCKS);
        let payload = compress(&entries, &shape);
        let index_len = shape.index_len().unwrap() as usize;
        let blocks = Blocks::new(&payload, shape, crc32fast::hash(&payload[..index_len])).unwrap();
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
        assert!(all == entries);
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

    #[test]
    fn blocks_decode_to_what_was_compressed() {
        let entries: Vec<u8> = (0..20_000u32).map(|i| (i / 7 % 5) as u8).collect();
        let shape = Shape::new(10_000, 2, 4096).unwrap();
        let payload = compress(&entries, &shape);
        let blocks = Blocks::new(&payload, shape, crc32fast::hash(&payload[..36])).unwrap();
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
        assert_eq!(all, entries);
        assert!(matches!(
            blocks.for_each(crc32fast::hash(&entries) ^ 1, |_| {}),
            Err(TablebaseError::EntriesChecksum { .. })
        ));
    }

    #[test]
    fn an_index_out_of_order_or_bounds_is_refused() {
        let entries: Vec<u8> = (0..10_000u32).map(|i| (i / 100 % 3) as u8).collect();
        let shape = Shape::new(10_000, 1, 4096).unwrap();
        let payload = compress(&entries, &shape);
        let index_crc = |p: &[u8]| crc32fast::hash(&p[..36]);
        Blocks::new(&payload, shape, index_crc(&payload)).unwrap();
        // The ends of blocks 0 and 1 swapped; the last one short of the payload's end; one byte
        // more after it.
        let mut swapped = payload.clone();
        let (one, two) = (payload[0..8].to_vec(), payload[12..20].to_vec());
        swapped[0..8].copy_from_slice(&two);
        swapped[12..20].copy_from_slice(&one);
        let mut short = payload.clone();
        short[24] -= 1;
        let mut long = payload.clone();
        long.push(0);
        for bad in [swapped, short, long] {
            let result = Blocks::new(&bad, shape, index_crc(&bad));
            assert!(matches!(result, Err(TablebaseError::CorruptBlock { .. })), "{result:?}");
        }
        // A block's byte changed: its own checksum; the index changed: the index's.
        let mut flipped = payload.clone();
        flipped[40] ^= 4;
        assert!(matches!(
            Blocks::new(&flipped, shape, index_crc(&payload)),
            Err(TablebaseError::BlockChecksum { block: 0, .. })
        ));
        assert!(matches!(
            Blocks::new(&payload, shape, index_crc(&payload) ^ 1),
            Err(TablebaseError::PayloadChecksum { .. })
        ));
        assert!(matches!(Blocks::new(&payload[..20], shape, 0), Err(TablebaseError::BadLayout(_))));
    }
}
