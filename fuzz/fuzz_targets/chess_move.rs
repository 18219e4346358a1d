//! Any UTF-8 text as a chess move, in SAN and in UCI form, alone and in a few fixed
//! positions: a context-free move that parses prints text that parses back to it, and
//! a move resolved in a position is legal there and its printed SAN/UCI resolves to it
//! again.

#![no_main]

use std::fmt::Debug;
use std::str::FromStr;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tablero_chess::{CastlingMode, Chess, Move, San, UciMove};

/// Standard chess positions the text is tried in.
const STANDARD: [&str; 5] = [
    // The start.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Kiwipete: castling both ways (e1g1 and e1h1 name the same move), pins, captures.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // An en passant capture is legal.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // Promotions with and without capture, black to move.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Four queens: moves that need file, rank or full-square disambiguation.
    "7k/8/8/8/Q1Q5/8/Q1Q5/4K3 w - - 0 1",
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

/// A context-free move that parses prints text that parses back to the same value.
fn round_trips<T>(text: &str)
where
    T: FromStr + ToString + PartialEq + Debug,
    T::Err: Debug,
{
    if let Ok(value) = text.parse::<T>() {
        let printed = value.to_string();
        let again = printed.parse::<T>();
        assert!(
            matches!(&again, Ok(v) if *v == value),
            "{text:?} printed {printed:?}, read back as {again:?}"
        );
    }
}

/// In every position, a move `resolve` finds is legal, and `print` writes text that
/// `resolve` turns into the same move.
fn resolves<E>(
    text: &str,
    resolve: impl Fn(&Chess, &str) -> Result<Move, E>,
    print: impl Fn(&Chess, Move) -> String,
) {
    for pos in POSITIONS.iter() {
        let Ok(m) = resolve(pos, text) else {
            continue;
        };
        assert!(
            pos.is_legal(m),
            "{text:?} gave an illegal move in {}",
            pos.fen()
        );
        let printed = print(pos, m);
        assert!(
            matches!(resolve(pos, &printed), Ok(again) if again == m),
            "{text:?} in {} printed {printed:?}, which does not resolve to it",
            pos.fen()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    round_trips::<San>(text);
    round_trips::<UciMove>(text);
    resolves(text, |pos, t| pos.parse_san(t), |pos, m| pos.san(m));
    resolves(text, |pos, t| pos.parse_uci(t), |pos, m| pos.uci(m));
});
