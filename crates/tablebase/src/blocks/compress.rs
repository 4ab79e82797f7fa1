//! The writer's side of the compressed layouts ([`Lz4Blocks`](crate::Layout::Lz4Blocks),
//! [`ZstdBlocks`](crate::Layout::ZstdBlocks)): an entry array compressed into a payload (index,
//! blocks, histogram), its unused entries filled where they are don't-care.

use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use zstd::zstd_safe::CParameter;

use super::{Codec, Shape, RECORD_BYTES};
use crate::WIN_AS_ONE;

/// The zstd level of [`Codec::Zstd`]'s blocks of `block_bytes` bytes: 9 for blocks of more
/// than 8 KiB (Nana's, 32 KiB, every win as one value, each King pair's unused entries last:
/// level 14 makes them 7 % smaller in about three times the time to compress, which a solve's
/// write pays; level 6 leaves the current rules' file at the edge of 2,000,000 bytes), and 6
/// for smaller ones (Dobutsu's, 4 KiB, 63,325 blocks a table: level 15 would make them 2.1 %
/// smaller in 6.5 times the time). The level is not part of the format: a reader decodes any.
/// `docs/PERFORMANCE.md` gives the measurements.
pub(crate) fn zstd_level(block_bytes: u64) -> i32 {
    if block_bytes > 8192 {
        9
    } else {
        6
    }
}

/// One block's compressor: LZ4's needs no state; zstd's context is made once per group of
/// blocks, its tables being large at high levels.
pub(super) enum Compressor {
    Lz4,
    Zstd(zstd::bulk::Compressor<'static>),
}

impl Compressor {
    pub(super) fn new(codec: Codec, block_bytes: u64) -> Compressor {
        match codec {
            Codec::Lz4 => Compressor::Lz4,
            Codec::Zstd => {
                let level = zstd_level(block_bytes);
                let mut zstd = zstd::bulk::Compressor::new(level).expect("a zstd context");
                // One segment, its content size written (the reader checks it), no checksum
                // (the block index has the block's CRC-32), no dictionary id.
                for parameter in [
                    CParameter::ContentSizeFlag(true),
                    CParameter::ChecksumFlag(false),
                    CParameter::DictIdFlag(false),
                ] {
                    zstd.set_parameter(parameter).expect("a zstd parameter");
                }
                Compressor::Zstd(zstd)
            }
        }
    }

    /// `block` compressed, appended to `data`; returns its length.
    pub(super) fn compress(&mut self, block: &[u8], data: &mut Vec<u8>) -> usize {
        let compressed = match self {
            Compressor::Lz4 => lz4_flex::block::compress(block),
            // Compressing into memory cannot fail but for a lack of memory.
            Compressor::Zstd(zstd) => zstd.compress(block).expect("a zstd frame"),
        };
        data.extend_from_slice(&compressed);
        compressed.len()
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

/// Stores every won entry of one block (a [`DtmPlies`](crate::Encoding::DtmPlies) value: even,
/// neither a draw nor unused) as [`WIN_AS_ONE`], for
/// [`DtmPliesWinsAsOne`](crate::Encoding::DtmPliesWinsAsOne).
pub(crate) fn fold_wins(block: &mut [u8], width: usize) {
    let unused = unused_of(width);
    for entry in block.chunks_exact_mut(width) {
        let v = if width == 1 { u16::from(entry[0]) } else { u16::from_le_bytes([entry[0], entry[1]]) };
        if v.is_multiple_of(2) && v != 0 && v != unused {
            entry.copy_from_slice(&WIN_AS_ONE.to_le_bytes()[..width]);
        }
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

/// What a compressed payload holds besides its blocks: the index, the histogram of the
/// entries, and the blocks' length. The blocks went to a sink as they were made.
pub(crate) struct Compressed {
    pub index: Vec<u8>,
    pub histogram: Vec<u8>,
    /// Bytes of the blocks together.
    pub data_len: u64,
    /// Records of the histogram.
    pub histogram_records: u32,
    /// CRC-32 of the decoded (stored) blocks, the entries a reader decodes.
    pub stored_crc: u32,
}

impl Compressed {
    /// The payload's length: index, blocks and histogram.
    pub fn payload_len(&self) -> u64 {
        self.index.len() as u64 + self.data_len + self.histogram.len() as u64
    }
}

/// A payload compressed whole, in memory: the tests' view.
#[cfg(test)]
pub(crate) struct Whole {
    pub index: Vec<u8>,
    pub histogram_records: u32,
    pub stored_crc: u32,
    payload: Vec<u8>,
}

#[cfg(test)]
impl Whole {
    pub fn payload(&self) -> Vec<u8> {
        self.payload.clone()
    }
}

/// Compresses an entry array of the given shape into a payload; with
/// `fill`, unused entries are stored filled ([`fill_unused`]).
#[cfg(test)]
pub(crate) fn compress(entries: &[u8], shape: &Shape, fill: bool) -> Whole {
    compress_folding(entries, shape, fill, false)
}

/// [`compress`], with `fold` every win stored as one value ([`fold_wins`]).
#[cfg(test)]
pub(crate) fn compress_folding(entries: &[u8], shape: &Shape, fill: bool, fold: bool) -> Whole {
    debug_assert_eq!(entries.len() as u64, shape.total);
    let block_bytes = shape.block_bytes as usize;
    let mut data = Vec::new();
    let block_of = |k: u64, block: &mut [u8]| {
        let at = k as usize * block_bytes;
        block.copy_from_slice(&entries[at..at + block.len()]);
    };
    let c = compress_blocks::<()>(shape, fill, fold, &block_of, &mut |group| {
        data.extend_from_slice(group);
        Ok(())
    })
    .unwrap();
    assert_eq!(c.data_len, data.len() as u64);
    let payload = [&c.index[..], &data, &c.histogram].concat();
    Whole { index: c.index, histogram_records: c.histogram_records, stored_crc: c.stored_crc, payload }
}

/// The most blocks one task of [`compress_blocks`] compresses in a row, with one context.
const GROUP_BLOCKS: u64 = 64;

/// The most decoded bytes of a group of blocks: small enough that a table of few large blocks
/// (Nana's 568 blocks of 32 KiB, 8 a group) is cut into many more groups than there are threads,
/// so that no thread is left with the last long group alone.
const GROUP_BYTES: u64 = 256 << 10;

/// Blocks compressed in parallel before they go to the sink.
pub(crate) const BATCH_BLOCKS: u64 = 4096;

/// Blocks of `block_bytes` bytes one task compresses in a row: [`GROUP_BLOCKS`], or fewer to
/// keep a group within [`GROUP_BYTES`], at least one. The bytes do not depend on it: each block
/// is compressed on its own.
fn group_blocks(block_bytes: u64) -> u64 {
    (GROUP_BYTES / block_bytes).clamp(1, GROUP_BLOCKS)
}

/// Compresses the entry array whose blocks `block_of` writes (block `k` into a buffer of that
/// block's length) into a payload; the histogram counts the entries as given; with `fold`, each
/// block's wins are then stored as one value ([`fold_wins`]), and with `fill` its unused entries
/// filled ([`fill_unused`]). Groups of blocks are made and compressed in parallel (the `parallel`
/// feature), a batch of groups at a time, each block on its own, and handed to `sink` in
/// order, so the bytes do not depend on the thread count. No more than a block per thread is
/// held decoded, so a caller can make the entries block by block, and no more than a batch of
/// groups compressed: the sink writes them out. The first error of the sink stops the work.
pub(crate) fn compress_blocks<E>(
    shape: &Shape,
    fill: bool,
    fold: bool,
    block_of: &(dyn Fn(u64, &mut [u8]) + Sync),
    sink: &mut dyn FnMut(&[u8]) -> Result<(), E>,
) -> Result<Compressed, E> {
    let width = shape.width;
    let counts: Vec<AtomicU64> = (0..1usize << (8 * width)).map(|_| AtomicU64::new(0)).collect();
    // A group's blocks, their lengths and checksums, and the checksum of their stored entries.
    type Group = (Vec<u8>, Vec<(u64, u32)>, crc32fast::Hasher);
    let group_blocks = group_blocks(shape.block_bytes);
    let group = |g: u64| -> Group {
        let mut local = vec![0u64; counts.len()];
        let (mut data, mut records, mut stored) = (Vec::new(), Vec::new(), crc32fast::Hasher::new());
        let mut buffer = vec![0u8; shape.block_bytes as usize];
        let mut compressor = Compressor::new(shape.codec, shape.block_bytes);
        for k in g * group_blocks..((g + 1) * group_blocks).min(shape.blocks) {
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
            if fold {
                fold_wins(block, width);
            }
            if fill {
                fill_unused(block, width);
            }
            stored.update(block);
            let start = data.len();
            let len = compressor.compress(block, &mut data);
            records.push((len as u64, crc32fast::hash(&data[start..])));
        }
        for (count, &n) in counts.iter().zip(&local).filter(|(_, &n)| n > 0) {
            count.fetch_add(n, Ordering::Relaxed);
        }
        (data, records, stored)
    };
    let mut index = Vec::with_capacity(shape.blocks as usize * RECORD_BYTES);
    let mut stored_crc = crc32fast::Hasher::new();
    let mut end = 0u64;
    let groups = shape.blocks.div_ceil(group_blocks);
    let batch_groups = BATCH_BLOCKS / group_blocks;
    for first in (0..groups).step_by(batch_groups as usize) {
        let numbers = first..(first + batch_groups).min(groups);
        // On rayon's threads; one group after another without them (WebAssembly).
        #[cfg(feature = "parallel")]
        let numbers = numbers.into_par_iter();
        let batch: Vec<Group> = numbers.map(group).collect();
        for (data, records, stored) in batch {
            for (len, crc) in records {
                end += len;
                index.extend_from_slice(&end.to_le_bytes());
                index.extend_from_slice(&crc.to_le_bytes());
            }
            stored_crc.combine(&stored);
            sink(&data)?;
        }
    }
    let (mut histogram, mut histogram_records) = (Vec::new(), 0);
    for (value, count) in counts.into_iter().map(AtomicU64::into_inner).enumerate().filter(|&(_, c)| c > 0) {
        histogram.extend_from_slice(&(value as u16).to_le_bytes());
        histogram.extend_from_slice(&count.to_le_bytes());
        histogram_records += 1;
    }
    Ok(Compressed { index, histogram, data_len: end, histogram_records, stored_crc: stored_crc.finalize() })
}
