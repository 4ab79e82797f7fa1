//! A block of [`Layout::ZstdBlocks`](crate::Layout::ZstdBlocks): one zstd frame, decoded with
//! the zstd C library where the crate has it (the `files` feature, native builds), else with
//! the pure-Rust `ruzstd` (WebAssembly). Both decode every frame the writer makes to the same
//! bytes (the tests decode with both); the C library does so about five times faster.
//!
//! The frame's header is read here before a decoder sees the frame: a single segment (its
//! window is its content, so at most the block's length), its content size written and equal
//! to the block's length, no checksum (the block index holds a CRC-32 of the stored bytes) and
//! no dictionary. What a hostile frame can then make a reader do is bounded by the block's
//! length: the decoder holds at most about twice that, and stops as soon as the frame decodes
//! to more.

use std::cell::RefCell;
use std::io::Read;

use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

/// A decoder of zstd frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decoder {
    /// The pure-Rust `ruzstd`: where the crate has no C library (and for the tests and the
    /// fuzz target, [`crate::decode_zstd_frame_ruzstd`]).
    Rust,
    /// The zstd C library.
    #[cfg(feature = "files")]
    C,
}

impl Decoder {
    /// The decoder the reader uses: the C library where the crate has it.
    #[cfg(feature = "files")]
    pub(crate) const DEFAULT: Decoder = Decoder::C;
    #[cfg(not(feature = "files"))]
    pub(crate) const DEFAULT: Decoder = Decoder::Rust;

    /// Every decoder the crate has.
    #[cfg(test)]
    pub(crate) const ALL: &'static [Decoder] = &[
        Decoder::Rust,
        #[cfg(feature = "files")]
        Decoder::C,
    ];
}

/// A zstd frame's magic number, little-endian.
const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// The frame header descriptor's single-segment flag.
const SINGLE_SEGMENT: u8 = 0x20;

/// The descriptor's reserved bit, content-checksum flag and dictionary-id flag: all clear.
const RESERVED_CHECKSUM_DICTIONARY: u8 = 0x0F;

thread_local! {
    /// A thread's decoders, kept so that their buffers are allocated once.
    static DECODER: RefCell<FrameDecoder> = RefCell::new(FrameDecoder::new());
    #[cfg(feature = "files")]
    static C_DECODER: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

/// The content size that a frame's header states, where the header is one this layout allows:
/// a single segment, no checksum, no dictionary.
fn content_size(frame: &[u8]) -> Result<u64, &'static str> {
    const SHORT: &str = "its zstd frame header is cut short";
    let rest = frame.strip_prefix(&MAGIC).ok_or("it is not a zstd frame")?;
    let (&descriptor, rest) = rest.split_first().ok_or(SHORT)?;
    if descriptor & SINGLE_SEGMENT == 0 || descriptor & RESERVED_CHECKSUM_DICTIONARY != 0 {
        return Err("its zstd frame is not one segment without checksum or dictionary");
    }
    let bytes = match descriptor >> 6 {
        0 => 1,
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let mut le = [0u8; 8];
    le[..bytes].copy_from_slice(rest.get(..bytes).ok_or(SHORT)?);
    let size = u64::from_le_bytes(le);
    // A 2-byte field counts from 256 (the zstd format, `Frame_Content_Size`).
    Ok(if bytes == 2 { size + 256 } else { size })
}

/// Decodes one frame, all of `frame`, into `out`, which it must fill exactly, with the
/// reader's decoder ([`Decoder::DEFAULT`]).
///
/// # Errors
///
/// Why it does not: a frame header this layout does not allow or that states another length,
/// a frame the decoder refuses, a frame that decodes to another length, or bytes after the
/// frame.
pub(super) fn decode(frame: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
    decode_with(Decoder::DEFAULT, frame, out)
}

/// Decodes one frame as [`decode`] does, with `decoder`.
pub(crate) fn decode_with(decoder: Decoder, frame: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
    if content_size(frame)? != out.len() as u64 {
        return Err("its zstd frame states another length than the block's");
    }
    match decoder {
        Decoder::Rust => decode_rust(frame, out),
        #[cfg(feature = "files")]
        Decoder::C => decode_c(frame, out),
    }
}

/// Decodes a frame whose header was checked with the zstd C library: into exactly `out`,
/// which it cannot overrun, after the library has found that the frame ends where `frame`
/// does (it would also decode a second frame, or skip a skippable one, after the first).
#[cfg(feature = "files")]
fn decode_c(frame: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
    match zstd::zstd_safe::find_frame_compressed_size(frame) {
        Ok(len) if len == frame.len() => {}
        Ok(_) => return Err("bytes follow its zstd frame"),
        Err(_) => return Err("it is not a valid zstd frame"),
    }
    C_DECODER.with(|decoder| {
        let mut decoder = decoder.borrow_mut();
        if decoder.is_none() {
            *decoder = Some(zstd::bulk::Decompressor::new().map_err(|_| "no zstd decoder could be made")?);
        }
        let decoder = decoder.as_mut().expect("made above");
        match decoder.decompress_to_buffer(frame, out) {
            Ok(len) if len == out.len() => Ok(()),
            Ok(_) => Err("it decodes to the wrong length"),
            Err(_) => Err("it is not a valid zstd frame, or decodes to more than its length"),
        }
    })
}

/// Decodes a frame whose header was checked with `ruzstd`.
fn decode_rust(frame: &[u8], out: &mut [u8]) -> Result<(), &'static str> {
    DECODER.with(|decoder| {
        let mut decoder = decoder.borrow_mut();
        let mut source = frame;
        decoder.reset(&mut source).map_err(|_| "its zstd frame header is not valid")?;
        let mut written = 0;
        loop {
            let finished = decoder
                .decode_blocks(&mut source, BlockDecodingStrategy::UptoBytes(out.len().max(1)))
                .map_err(|_| "it is not a valid zstd frame")?;
            // Until the frame is finished, the decoder keeps the last `out.len()` bytes (its
            // window) back: more than that decoded shows here, and stops the decoding.
            if written + decoder.can_collect() > out.len() {
                return Err("it decodes to more than its length");
            }
            written += decoder.read(&mut out[written..]).map_err(|_| "it is not a valid zstd frame")?;
            if finished {
                break;
            }
        }
        if written != out.len() {
            return Err("it decodes to the wrong length");
        }
        if !source.is_empty() {
            return Err("bytes follow its zstd frame");
        }
        Ok(())
    })
}
