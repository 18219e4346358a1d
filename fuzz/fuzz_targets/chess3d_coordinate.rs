//! Any UTF-8 text through the chess3d parser behind `tablero_chess3d::fuzz::coordinate_move`:
//! no panic, and whatever parses round-trips (see that function's checks).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tablero_chess3d::fuzz::coordinate_move(text);
    }
});
