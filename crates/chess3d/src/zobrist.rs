//! Zobrist keys: one random number per (side, kind, square) and one for the side to
//! move, drawn at compile time from a fixed SplitMix64 seed.

use tablero_core::{Side, SplitMix64};

use crate::{Kind, Piece, Square};

const SEED: u64 = 0x3D_C4E5_5A17_0000;

static TABLE: [u64; 2 * 6 * 192] = {
    let mut rng = SplitMix64::new(SEED);
    let mut table = [0; 2 * 6 * 192];
    let mut i = 0;
    while i < table.len() {
        table[i] = rng.next();
        i += 1;
    }
    table
};

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub(crate) fn piece(piece: Piece, sq: Square) -> u64 {
    piece_parts(piece.side, piece.kind, sq)
}

/// The key of a piece of `side` and `kind` on `sq`.
#[inline(always)]
pub(crate) fn piece_parts(side: Side, kind: Kind, sq: Square) -> u64 {
    TABLE[(side as usize * 6 + kind as usize) * 192 + sq.index()]
}

/// Folded in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = SplitMix64::new(!SEED).next();

/// A key for the generator state, mixed into [`tablero_core::Position::zobrist`]
/// (not into the repetition key): SplitMix64's output function of the state.
#[inline]
pub(crate) const fn rng(state: u64) -> u64 {
    SplitMix64::new(state.rotate_left(17) ^ SEED).next()
}
