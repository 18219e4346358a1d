//! Any UTF-8 text as a xiangqi FEN. A FEN that parses to a legal position must print a
//! FEN that parses back to the same position; there every legal move's ICCS reads back
//! to it, counting agrees with listing, and each child position has a correct Zobrist
//! key and FEN round trip.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_xiangqi::{Fen, Xiangqi};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(fen) = text.parse::<Fen>() else {
        return;
    };
    let Ok(pos) = fen.into_position() else {
        return;
    };
    check_position(&pos, text);
    let _ = pos.outcome();
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{text:?}");
    for &m in &moves {
        let iccs = m.to_string();
        let parsed = iccs
            .parse::<tablero_xiangqi::IccsMove>()
            .and_then(|i| i.to_move(&pos));
        assert_eq!(parsed, Ok(m), "{text:?}: ICCS {iccs}");
        let mut child = pos.clone();
        child.play_unchecked(m);
        check_position(&child, &format!("{text:?} after {iccs}"));
        let _ = child.outcome();
    }
});

/// The position's key is its recomputed key, and its FEN reads back to it.
fn check_position(pos: &Xiangqi, context: &str) {
    assert_eq!(pos.key(), pos.compute_key(), "{context}: stale Zobrist key");
    let printed = pos.fen();
    let again = Xiangqi::from_fen(&printed)
        .unwrap_or_else(|e| panic!("{context}: printed {printed:?}, which fails: {e}"));
    assert_eq!(&again, pos, "{context}: printed {printed:?}");
    assert_eq!(again.fen(), printed, "{context}: printing is not stable");
}
