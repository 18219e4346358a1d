//! Raw bytes as a xiangqi PGN file: reading never panics, and every game read writes
//! a record (in WXF, ICCS and Chinese) that reads back to the same game and writes the
//! same text again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_xiangqi::pgn::{MoveFormat, read_pgn};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in read_pgn(text).into_iter().flatten() {
        for format in [MoveFormat::Wxf, MoveFormat::Iccs, MoveFormat::Chinese] {
            let written = game.to_pgn_string(format);
            let mut again = read_pgn(&written);
            assert_eq!(again.len(), 1, "{written}");
            let back = again
                .remove(0)
                .unwrap_or_else(|e| panic!("{text:?} wrote {written:?}, which fails: {e}"));
            assert_eq!(back.moves, game.moves, "{written}");
            assert_eq!(back.start, game.start, "{written}");
            assert_eq!(back.result, game.result, "{written}");
            assert_eq!(back.to_pgn_string(format), written, "writing is not stable");
        }
    }
});
