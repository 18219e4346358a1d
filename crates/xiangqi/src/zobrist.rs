//! Zobrist keys, generated at compile time from a fixed SplitMix64 seed so that keys
//! are the same in every build.

use tablero_core::{Side, SplitMix64};

use crate::{Piece, Square};

struct Keys {
    pieces: [[u64; 90]; 14],
    black_to_move: u64,
}

const fn generate() -> Keys {
    let mut rng = SplitMix64::new(0x71A4_6C10_C4E5_55A5);
    let mut keys = Keys {
        pieces: [[0; 90]; 14],
        black_to_move: 0,
    };
    let mut piece = 0;
    while piece < 14 {
        let mut sq = 0;
        while sq < 90 {
            keys.pieces[piece][sq] = rng.next();
            sq += 1;
        }
        piece += 1;
    }
    keys.black_to_move = rng.next();
    keys
}

static KEYS: Keys = generate();

/// The key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// Mixed in when `side` is to move (black only).
#[inline]
pub(crate) fn turn(side: Side) -> u64 {
    match side {
        Side::White => 0,
        Side::Black => KEYS.black_to_move,
    }
}
