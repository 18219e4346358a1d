//! Any UTF-8 text as a WXF move and as a Chinese move, alone and in a few fixed
//! positions. A WXF move that parses prints WXF that parses back to the same value; a
//! move that resolves in a position is legal there and its canonical WXF and Chinese
//! resolve to it again.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tablero_xiangqi::{Wxf, Xiangqi};

const FENS: [&str; 5] = [
    // The start.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    // Black to move after the central cannon.
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    // Tandem chariots and cannons on one file.
    "3akab2/9/4b4/9/9/4R4/4C4/4R4/4C4/3AKAB2 w - - 0 1",
    // Three red soldiers on one file and two on another, across the river.
    "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
    // Five black soldiers on one file.
    "3k5/9/9/9/9/5p3/5p3/5p3/5p3/4K1p2 b - - 0 1",
];

static POSITIONS: LazyLock<Vec<Xiangqi>> = LazyLock::new(|| {
    FENS.iter()
        .filter_map(|fen| Xiangqi::from_fen(fen).ok())
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(wxf) = text.parse::<Wxf>() {
        let printed = wxf.to_string();
        assert_eq!(
            printed.parse::<Wxf>().map(|w| w.to_string()),
            Ok(printed.clone()),
            "{text:?}"
        );
    }
    for pos in POSITIONS.iter() {
        for parsed in [pos.parse_wxf(text).ok(), pos.parse_chinese(text).ok()] {
            let Some(m) = parsed else { continue };
            assert!(pos.is_legal(m), "{text:?} resolved to an illegal move");
            assert_eq!(pos.parse_wxf(&pos.wxf(m)), Ok(m), "{text:?}");
            assert_eq!(pos.parse_chinese(&pos.chinese(m)), Ok(m), "{text:?}");
        }
    }
});
