//! Dobutsu's positions in Fairy-Stockfish's FEN and in USI's SFEN: any input is read or refused
//! without a panic; a position read is written back in both forms, each reading back to it.
#![no_main]

use dobutsu_shogi::{fen, usi};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    for read in [fen::parse_position, usi::parse_position] {
        match read(input) {
            Ok(pos) => {
                let written = pos.to_string();
                assert_eq!(fen::parse_position(&written), Ok(pos), "{input:?} written as {written:?}");
                let written = usi::format_position(&pos);
                assert_eq!(usi::parse_position(&written), Ok(pos), "{input:?} written as {written:?}");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
