//! Any UTF-8 text as a FEN, in both castling modes. A FEN that parses to a legal
//! position must print a FEN that parses back to the same position; and in that
//! position every legal move must survive SAN and UCI round trips and lead to a
//! position that is itself consistent (Zobrist key, move count, FEN round trip).

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_chess::{CastlingMode, Chess, Fen, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(fen) = text.parse::<Fen>() else {
        return;
    };
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let Ok(pos) = fen.clone().into_position(mode) else {
            continue;
        };
        assert_eq!(
            Chess::from_fen(text, mode).as_ref(),
            Ok(&pos),
            "Chess::from_fen disagrees with Fen::into_position"
        );
        check_position(&pos, mode, text);
        let _ = pos.outcome();
        let moves = pos.legal_moves();
        assert_eq!(
            pos.count_legal_moves(),
            moves.len() as u64,
            "{text:?} ({mode:?})"
        );
        for &m in &moves {
            let san = pos.san(m);
            assert_eq!(pos.parse_san(&san), Ok(m), "{text:?} ({mode:?}): SAN {san}");
            let uci = pos.uci(m);
            assert_eq!(pos.parse_uci(&uci), Ok(m), "{text:?} ({mode:?}): UCI {uci}");
            let mut child = pos.clone();
            child.play_unchecked(m);
            check_position(&child, mode, &format!("{text:?} ({mode:?}) after {uci}"));
            let _ = child.outcome();
        }
    }
});

/// The position's key is its recomputed key, and its FEN reads back to it.
fn check_position(pos: &Chess, mode: CastlingMode, context: &str) {
    assert_eq!(
        pos.zobrist(),
        pos.compute_key(),
        "{context}: stale Zobrist key"
    );
    let printed = pos.fen();
    let again = Chess::from_fen(&printed, mode)
        .unwrap_or_else(|e| panic!("{context}: printed {printed:?}, which fails: {e}"));
    assert_eq!(&again, pos, "{context}: printed {printed:?}");
    assert_eq!(again.fen(), printed, "{context}: printing is not stable");
}
