//! Zobrist keys, generated at compile time from a fixed SplitMix64 seed so that keys
//! are the same in every build (saved keys and test expectations stay valid).

use tablero_core::{Side, SplitMix64};

use crate::{Bitboard, File, Piece, Square};

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black_to_move: u64,
}

const fn generate() -> Keys {
    let mut rng = SplitMix64::new(0x7AB1_E500_C4E5_5000);
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        castling: [0; 64],
        en_passant: [0; 8],
        black_to_move: 0,
    };
    let mut side = 0;
    while side < 2 {
        let mut role = 0;
        while role < 6 {
            let mut sq = 0;
            while sq < 64 {
                keys.pieces[side][role][sq] = rng.next();
                sq += 1;
            }
            role += 1;
        }
        side += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        keys.castling[sq] = rng.next();
        sq += 1;
    }
    let mut file = 0;
    while file < 8 {
        keys.en_passant[file] = rng.next();
        file += 1;
    }
    keys.black_to_move = rng.next();
    keys
}

static KEYS: Keys = generate();

#[inline]
pub(crate) fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.side.index()][p.role.index()][sq.usize()]
}

/// The key of the castling rights held by the rooks on `rooks`.
#[inline]
pub(crate) fn castling(rooks: Bitboard) -> u64 {
    rooks.fold(0, |key, sq| key ^ KEYS.castling[sq.usize()])
}

#[inline]
pub(crate) fn en_passant(file: File) -> u64 {
    KEYS.en_passant[file.index() as usize]
}

#[inline]
pub(crate) fn turn(side: Side) -> u64 {
    match side {
        Side::White => 0,
        Side::Black => KEYS.black_to_move,
    }
}
