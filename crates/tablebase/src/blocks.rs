//! The [`Layout::Lz4Blocks`](crate::Layout::Lz4Blocks) payload: an index of
//! block offsets, then the blocks, each an LZ4 block (no frame) of
//! `block_entries` entries (the last one of the rest).
//!
//! ```text
//! | offsets: (blocks + 1) × u64 | block 0 | block 1 | ... |
//! ```
//!
//! Offsets count from the first block's first byte: the first is 0, they
//! never decrease, and the last is the length of the blocks together.

use crate::TablebaseError;

/// The largest block, in decoded bytes, a reader accepts and a writer
/// writes: it bounds what one block can make a reader allocate.
pub const MAX_BLOCK_BYTES: u64 = 1 << 20;

/// Bytes of one offset in the index.
const OFFSET_BYTES: usize = 8;

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

    /// Bytes of the offset index, or `None` if that overflows.
    fn index_len(&self) -> Option<u64> {
        self.blocks.checked_add(1)?.checked_mul(OFFSET_BYTES as u64)
    }
}

/// Compresses an entry array of the given shape into a payload.
pub(crate) fn compress(entries: &[u8], shape: &Shape) -> Vec<u8> {
    debug_assert_eq!(entries.len() as u64, shape.total);
    let mut offsets = Vec::with_capacity(shape.blocks as usize + 1);
    let mut data = Vec::new();
    offsets.push(0u64);
    for block in entries.chunks(shape.block_bytes as usize) {
        data.extend_from_slice(&lz4_flex::block::compress(block));
        offsets.push(data.len() as u64);
    }
    let mut payload = Vec::with_capacity(offsets.len() * OFFSET_BYTES + data.len());
    for offset in offsets {
        payload.extend_from_slice(&offset.to_le_bytes());
    }
    payload.extend_from_slice(&data);
    payload
}

/// A blocked payload whose index has been checked: every block's bytes lie
/// in order inside the payload.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks<'a> {
    shape: Shape,
    index: &'a [u8],
    data: &'a [u8],
}

impl<'a> Blocks<'a> {
    /// Reads the index of `payload` and checks it: the first offset is 0,
    /// none decreases, and the last ends the payload.
    ///
    /// # Errors
    ///
    /// [`TablebaseError::BadLayout`] if the payload cannot hold its index,
    /// [`TablebaseError::CorruptBlock`] for the first block whose offsets
    /// are wrong.
    pub fn new(payload: &'a [u8], shape: Shape) -> Result<Blocks<'a>, TablebaseError> {
        let index_len = shape
            .index_len()
            .filter(|&len| len <= payload.len() as u64)
            .ok_or(TablebaseError::BadLayout("the payload is too short for its block index"))?;
        let (index, data) = payload.split_at(index_len as usize);
        let blocks = Blocks { shape, index, data };
        if blocks.offset(0) != 0 {
            return Err(TablebaseError::CorruptBlock { block: 0, reason: "it does not start the blocks" });
        }
        for k in 0..shape.blocks {
            if blocks.offset(k + 1) < blocks.offset(k) {
                return Err(TablebaseError::CorruptBlock { block: k, reason: "it ends before it starts" });
            }
        }
        if blocks.offset(shape.blocks) != data.len() as u64 {
            return Err(TablebaseError::CorruptBlock {
                block: shape.blocks.saturating_sub(1),
                reason: "the last block does not end the payload",
            });
        }
        Ok(blocks)
    }

    /// The blocks of a payload whose index [`Blocks::new`] has accepted
    /// before (a validated table's), without checking the index again.
    pub fn checked_before(payload: &'a [u8], shape: Shape) -> Blocks<'a> {
        let index_len = (shape.blocks as usize + 1) * OFFSET_BYTES;
        let (index, data) = payload.split_at(index_len);
        Blocks { shape, index, data }
    }

    /// Offset `k` of the index (`k` at most the number of blocks).
    fn offset(&self, k: u64) -> u64 {
        let at = k as usize * OFFSET_BYTES;
        let mut le = [0u8; OFFSET_BYTES];
        le.copy_from_slice(&self.index[at..at + OFFSET_BYTES]);
        u64::from_le_bytes(le)
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
        let block = &self.data[self.offset(k) as usize..self.offset(k + 1) as usize];
        let len = self.shape.len_of(k);
        out.resize(len, 0);
        match lz4_flex::block::decompress_into(block, out) {
            Ok(n) if n == len => Ok(()),
            Ok(_) => Err(corrupt("it decodes to the wrong length")),
            Err(_) => Err(corrupt("it is not a valid LZ4 block, or decodes to more than its length")),
        }
    }

    /// Decodes every block in order, handing each to `f`; checks the CRC-32
    /// of the whole against `entries_crc`.
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
        let blocks = Blocks::new(&payload, shape).unwrap();
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
        let entries = vec![3u8; 10_000];
        let shape = Shape::new(10_000, 1, 4096).unwrap();
        let payload = compress(&entries, &shape);
        // Offsets 1 and 2 swapped; the first offset not 0; the last short of the end.
        let mut swapped = payload.clone();
        let (one, two) = (payload[8..16].to_vec(), payload[16..24].to_vec());
        swapped[8..16].copy_from_slice(&two);
        swapped[16..24].copy_from_slice(&one);
        let mut first = payload.clone();
        first[0] = 1;
        let mut long = payload.clone();
        long.push(0);
        for bad in [swapped, first, long] {
            assert!(matches!(Blocks::new(&bad, shape), Err(TablebaseError::CorruptBlock { .. })));
        }
        assert!(matches!(Blocks::new(&payload[..20], shape), Err(TablebaseError::BadLayout(_))));
    }
}
