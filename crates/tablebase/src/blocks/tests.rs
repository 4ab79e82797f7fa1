//! The block codec's tests.

use super::*;

/// Many batches of groups of blocks, and a short last block, decode to the array in order,
/// with the checksum and histogram of the whole array.
#[test]
fn groups_of_blocks_decode_in_order() {
    let n = 1_700_003u32;
    let entries: Vec<u8> = (0..n).map(|i| (i.wrapping_mul(2_654_435_761) >> 29) as u8).collect();
    let shape = Shape::new(n.into(), 1, 100, Codec::Lz4).unwrap();
    assert!(shape.blocks > BATCH_BLOCKS);
    let c = compress(&entries, &shape, false);
    assert_eq!(c.stored_crc, crc32fast::hash(&entries));
    let payload = c.payload();
    let blocks = Blocks::new(&payload, shape, c.histogram_records, payload_crc(&c, &payload)).unwrap();
    let mut all = Vec::new();
    blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
    assert!(all == entries);
    let mut counts = [0u64; 256];
    entries.iter().for_each(|&e| counts[usize::from(e)] += 1);
    let want: Vec<(u16, u64)> = (0..256).filter(|&v| counts[v] > 0).map(|v| (v as u16, counts[v])).collect();
    assert_eq!(blocks.histogram().collect::<Vec<_>>(), want);
}

#[test]
fn shapes_cover_the_array_exactly() {
    let shape = Shape::new(10_000, 2, 4096, Codec::Lz4).unwrap();
    assert_eq!((shape.total, shape.block_bytes, shape.blocks), (20_000, 8192, 3));
    assert_eq!([shape.len_of(0), shape.len_of(1), shape.len_of(2)], [8192, 8192, 3616]);
    assert_eq!(Shape::new(0, 1, 4096, Codec::Lz4).unwrap().blocks, 0);
    assert_eq!(Shape::new(4096, 1, 4096, Codec::Lz4).unwrap().blocks, 1);
    assert!(matches!(Shape::new(1, 2, 1 << 20, Codec::Lz4), Err(TablebaseError::BadLayout(_))));
    assert!(matches!(Shape::new(u64::MAX, 2, 4096, Codec::Lz4), Err(TablebaseError::BadLayout(_))));
}

/// The payload's checksum as the writer makes it: of the index, then the histogram.
fn payload_crc(c: &Whole, payload: &[u8]) -> u32 {
    let histogram = c.histogram_records as usize * HISTOGRAM_RECORD_BYTES;
    crc32fast::hash(&[&payload[..c.index.len()], &payload[payload.len() - histogram..]].concat())
}

#[test]
fn blocks_decode_to_what_was_compressed() {
    let entries: Vec<u8> = (0..20_000u32).map(|i| (i / 7 % 5) as u8).collect();
    let shape = Shape::new(10_000, 2, 4096, Codec::Lz4).unwrap();
    let c = compress(&entries, &shape, false);
    let payload = c.payload();
    let blocks = Blocks::new(&payload, shape, c.histogram_records, payload_crc(&c, &payload)).unwrap();
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
    let shape = Shape::new(10, 1, 4, Codec::Lz4).unwrap();
    let c = compress(&entries, &shape, true);
    let payload = c.payload();
    let blocks = Blocks::new(&payload, shape, c.histogram_records, payload_crc(&c, &payload)).unwrap();
    let stored = [1, 1, 2, 2, 7, 7, 7, 7, 0xFF, 0xFF];
    let mut all = Vec::new();
    blocks.for_each(crc32fast::hash(&stored), |b| all.extend_from_slice(b)).unwrap();
    assert_eq!(all, stored);
    assert_eq!(blocks.histogram().collect::<Vec<_>>(), [(1, 1), (2, 1), (7, 1), (0xFF, 7)]);
}

#[test]
fn an_index_or_histogram_out_of_order_or_bounds_is_refused() {
    let entries: Vec<u8> = (0..10_000u32).map(|i| (i / 100 % 3) as u8).collect();
    let shape = Shape::new(10_000, 1, 4096, Codec::Lz4).unwrap();
    let c = compress(&entries, &shape, false);
    let n = c.histogram_records;
    assert_eq!(n, 3);
    let payload = c.payload();
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
        assert!(matches!(damaged.decode(0, &mut out), Err(TablebaseError::BlockChecksum { block: 0, .. })));
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

/// A zstd frame of `blocks` (block type, declared size, content), one segment of `size` bytes
/// as the descriptor `descriptor` (single segment, 1-byte content size) says.
fn zstd_frame(descriptor: u8, size: u8, blocks: &[(u32, u32, &[u8])]) -> Vec<u8> {
    let mut frame = vec![0x28, 0xB5, 0x2F, 0xFD, descriptor, size];
    for (i, &(kind, len, content)) in blocks.iter().enumerate() {
        let last = u32::from(i + 1 == blocks.len());
        frame.extend_from_slice(&(len << 3 | kind << 1 | last).to_le_bytes()[..3]);
        frame.extend_from_slice(content);
    }
    frame
}

/// Hand-made zstd frames: what this layout allows decodes; a frame that decodes to more or
/// less than it states, states another length, has bytes after it, is not one segment or has a
/// checksum or dictionary is an error, and one that would decode to far more stops early.
#[test]
fn zstd_frames_decode_to_exactly_their_length_or_are_refused() {
    const RAW: u32 = 0;
    const RLE: u32 = 1;
    // The reader's decoder, through the block's checks.
    let decode = |frame: &[u8], len: usize| {
        let mut out = Vec::new();
        decode_block(Codec::Zstd, frame, 3, len, &mut out).map(|()| out)
    };
    let refused = |frame: &[u8], len: usize| match decode(frame, len) {
        Err(TablebaseError::CorruptBlock { block: 3, reason }) => reason,
        other => panic!("{frame:?}: {other:?}"),
    };
    // Every decoder the crate has: the same bytes, or an error, for each frame.
    let agree = |frame: &[u8], len: usize| {
        let results: Vec<_> = zstd_frame::Decoder::ALL
            .iter()
            .map(|&d| {
                let mut out = vec![0; len];
                zstd_frame::decode_with(d, frame, &mut out).map(|()| out).ok()
            })
            .collect();
        assert!(results.windows(2).all(|w| w[0] == w[1]), "{frame:?}: {results:?}");
    };
    let refused = |frame: &[u8], len: usize| {
        agree(frame, len);
        refused(frame, len)
    };
    // 4 raw bytes then 6 of an RLE block: 10 bytes.
    let good = zstd_frame(0x20, 10, &[(RAW, 4, &[1, 2, 3, 4]), (RLE, 6, &[9])]);
    assert_eq!(decode(&good, 10).unwrap(), [1, 2, 3, 4, 9, 9, 9, 9, 9, 9]);
    agree(&good, 10);
    // A skippable frame after the frame is bytes after it.
    let skippable = [&[0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0][..]].concat();
    refused(&[&good[..], &skippable].concat(), 10);
    // So is a second frame, even of nothing.
    refused(&[&good[..], &zstd_frame(0x20, 0, &[(RAW, 0, &[])])].concat(), 10);
    refused(&good, 9);
    refused(&good, 11);
    refused(&[&good[..], &[0]].concat(), 10);
    refused(&good[..good.len() - 1], 10);
    // The frame states 10 bytes but holds 11, or 9.
    refused(&zstd_frame(0x20, 10, &[(RAW, 4, &[1, 2, 3, 4]), (RLE, 7, &[9])]), 10);
    refused(&zstd_frame(0x20, 10, &[(RAW, 4, &[1, 2, 3, 4]), (RLE, 5, &[9])]), 10);
    // Not one segment (a window descriptor instead), a checksum, a dictionary, the reserved bit.
    for descriptor in [0x00, 0x24, 0x21, 0x28] {
        assert!(refused(&zstd_frame(descriptor, 10, &[(RLE, 10, &[9])]), 10).contains("segment"));
    }
    // 2000 RLE blocks of 100,000 bytes each, in a frame that states 10: refused after a block.
    let huge: Vec<(u32, u32, &[u8])> = (0..2000).map(|_| (RLE, 100_000, &[7u8][..])).collect();
    refused(&zstd_frame(0x20, 10, &huge), 10);
    refused(&[0x28, 0xB5, 0x2F], 10);
    refused(&[0x28, 0xB5, 0x2F, 0xFD, 0x20], 10);
}

/// Every decoder decodes every block the writer makes to the entries it was made of, and each
/// block is the bytes its entries make compressed alone, with a context of its own: how the
/// writer groups blocks on its threads does not change them.
#[test]
fn every_zstd_decoder_decodes_the_writers_blocks() {
    let entries: Vec<u8> = (0..300_007u32)
        .map(|i| if i % 5 == 0 { (i.wrapping_mul(2_654_435_761) >> 27) as u8 } else { (i / 61 % 9) as u8 })
        .collect();
    for block_entries in [4096, 32_768] {
        let shape = Shape::new(entries.len() as u64, 1, block_entries, Codec::Zstd).unwrap();
        let c = compress(&entries, &shape, false);
        let payload = c.payload();
        let data = &payload[c.index.len()..];
        let mut start = 0;
        for (k, record) in c.index.chunks_exact(RECORD_BYTES).enumerate() {
            let end = u64::from_le_bytes(record[..8].try_into().unwrap()) as usize;
            let at = k * block_entries as usize;
            let expected = &entries[at..(at + block_entries as usize).min(entries.len())];
            for &decoder in zstd_frame::Decoder::ALL {
                let mut out = vec![0; expected.len()];
                zstd_frame::decode_with(decoder, &data[start..end], &mut out).unwrap();
                assert!(out == expected, "block {k} of {block_entries}, {decoder:?}");
            }
            let mut alone = Vec::new();
            compress::Compressor::new(Codec::Zstd, shape.block_bytes).compress(expected, &mut alone);
            assert!(alone == data[start..end], "block {k} of {block_entries}");
            start = end;
        }
    }
}

/// Layout 3 round-trips as layout 2 does, and its stored blocks are smaller on runs.
#[test]
fn zstd_blocks_decode_to_what_was_compressed() {
    let entries: Vec<u8> = (0..100_003u32).map(|i| (i / 97 % 7) as u8).collect();
    for codec in [Codec::Lz4, Codec::Zstd] {
        let shape = Shape::new(100_003, 1, 1000, codec).unwrap();
        let c = compress(&entries, &shape, false);
        let payload = c.payload();
        let blocks = Blocks::new(&payload, shape, c.histogram_records, payload_crc(&c, &payload)).unwrap();
        let mut all = Vec::new();
        blocks.for_each(crc32fast::hash(&entries), |b| all.extend_from_slice(b)).unwrap();
        assert!(all == entries, "{codec:?}");
    }
}
