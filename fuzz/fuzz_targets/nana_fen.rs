//! Nana's position string: any input is read or refused without a panic; a string read is
//! written back in canonical form, which reads back to the same setup and position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nana_shogi::fen::{parse_position, parse_setup, Fen};
use nana_shogi::Variant;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    if let Ok(setup) = parse_setup(input) {
        let written = Fen(setup.clone()).to_string();
        assert_eq!(parse_setup(&written).as_ref(), Ok(&setup), "{input:?} written as {written:?}");
    }
    for variant in Variant::ALL {
        match parse_position(input, variant) {
            Ok(pos) => {
                let written = pos.to_string();
                assert_eq!(parse_position(&written, variant), Ok(pos), "{input:?} written as {written:?}");
            }
            // The error's message echoes the input: it is built too.
            Err(e) => drop(e.to_string()),
        }
    }
});
