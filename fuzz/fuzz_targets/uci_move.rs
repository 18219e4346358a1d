//! Any UTF-8 text as a UCI move, alone and in a few fixed positions. A move that
//! parses must print as UCI that parses back to the same move.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tablero_chess::{CastlingMode, Chess, UciMove};

/// Standard chess positions the text is tried in.
const STANDARD: [&str; 4] = [
    // The start.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways (e1g1 and e1h1 name the same move).
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // An en passant capture is legal.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Promotions with and without capture, black to move.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];

/// Chess960 positions the text is tried in.
const CHESS960: [&str; 2] = [
    // King on g1 beside the h1 rook: castling is g1h1 (king takes rook) in UCI.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // The rook stands on the king's castling square: f1g1 swaps them.
    "r4kr1/8/8/8/8/8/8/R4KR1 w GAga - 0 1",
];

static POSITIONS: LazyLock<Vec<Chess>> = LazyLock::new(|| {
    let standard = STANDARD.map(|fen| (fen, CastlingMode::Standard));
    let chess960 = CHESS960.map(|fen| (fen, CastlingMode::Chess960));
    standard
        .into_iter()
        .chain(chess960)
        .map(|(fen, mode)| Chess::from_fen(fen, mode).expect("fixed fuzz position"))
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(uci) = text.parse::<UciMove>() {
        let printed = uci.to_string();
        assert_eq!(
            printed.parse::<UciMove>().as_ref(),
            Ok(&uci),
            "{text:?} printed {printed:?}"
        );
    }
    for pos in POSITIONS.iter() {
        let Ok(m) = pos.parse_uci(text) else {
            continue;
        };
        assert!(
            pos.is_legal(m),
            "{text:?} gave an illegal move in {}",
            pos.fen()
        );
        let printed = pos.uci(m);
        assert_eq!(
            pos.parse_uci(&printed).as_ref(),
            Ok(&m),
            "{text:?} in {} printed {printed:?}",
            pos.fen()
        );
    }
});
