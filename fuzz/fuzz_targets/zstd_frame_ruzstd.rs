//! A layout-3 block's zstd frame decoded by `ruzstd`, the decoder of the WebAssembly module
//! (native readers decode with the C library, which `tablebase_bytes` fuzzes): the first two
//! bytes are the block's length, the rest the frame. It either fails with an error or fills
//! exactly the block's length; it never panics, and never allocates more than about twice the
//! length.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((len, frame)) = data.split_first_chunk::<2>() else { return };
    let len = usize::from(u16::from_le_bytes(*len));
    if let Ok(out) = nana_tablebase::decode_zstd_frame_ruzstd(frame, len) {
        assert_eq!(out.len(), len);
    }
});
