//! Any UTF-8 text as an ICCS move, alone and in a few fixed positions. A move that
//! parses must print as ICCS that parses back to the same move; a move that resolves
//! in a position must be legal there, and one that does not must leave it unchanged.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tablero_xiangqi::{IccsMove, Xiangqi};

const FENS: [&str; 4] = [
    // The start.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    // Black to move after the central cannon.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    // Red in check from a cannon; soldiers across the river.
    "3k5/4a4/4c4/9/2P6/9/9/9/4A4/4K4 w - - 0 1",
    // Generals on one file with a single screen between.
    "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",
];

static POSITIONS: LazyLock<Vec<Xiangqi>> = LazyLock::new(|| {
    FENS.iter()
        .map(|fen| Xiangqi::from_fen(fen).expect("fixed fuzz position"))
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(iccs) = text.parse::<IccsMove>() else {
        return;
    };
    assert_eq!(iccs.to_string().parse::<IccsMove>(), Ok(iccs), "{text:?}");
    for pos in POSITIONS.iter() {
        match iccs.to_move(pos) {
            Ok(m) => {
                assert!(pos.is_legal(m), "{text:?} resolved to an illegal move");
                assert_eq!(m.to_string(), iccs.to_string());
            }
            Err(_) => assert!(
                !pos.legal_moves()
                    .iter()
                    .any(|m| m.to_string() == iccs.to_string())
            ),
        }
    }
});
