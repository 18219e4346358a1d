//! What a piece attacks on its own level, for code outside the rules (the engine's
//! evaluation): level bitboards are `u64`s, bit `row * 8 + column` (row A = 0,
//! column 1 = 0), as [`Board::side`](crate::Board::side) and
//! [`Board::pieces`](crate::Board::pieces) give them. Move generation uses the same
//! tables, so the two can never disagree.
//!
//! ```
//! use tablero_chess3d::attacks;
//!
//! // A caballo on D4 (bit 27) with its long legs free reaches eight squares.
//! assert_eq!(attacks::caballo(27, 0).count_ones(), 8);
//! // A dama in the corner: three neighbours and three squares two steps away.
//! assert_eq!(attacks::dama(0).count_ones(), 6);
//! ```

use tablero_core::Side;

use crate::bitboard::{
    CABALLO_MOVES, DAMA_TARGETS, DIAGONALS, NEIGHBOURS, ROW_OR_COLUMN, diagonal_attacks,
    north_east, north_west, orthogonal_attacks, south_east, south_west,
};

/// The squares an orthogonal slider (the alfil; the rey too) on bit `sq` attacks
/// given the level's `occupied` squares: each ray up to and including its first
/// occupied square.
#[inline(always)]
#[must_use]
pub fn orthogonal(sq: usize, occupied: u64) -> u64 {
    orthogonal_attacks(sq, occupied)
}

/// The squares a diagonal slider (the torre; the rey too) on bit `sq` attacks.
#[inline(always)]
#[must_use]
pub fn diagonal(sq: usize, occupied: u64) -> u64 {
    diagonal_attacks(sq, occupied)
}

/// The squares a caballo on bit `sq` attacks: the knight's targets whose long leg
/// (the two squares along the long side) is free of `occupied`.
#[inline(always)]
#[must_use]
pub fn caballo(sq: usize, occupied: u64) -> u64 {
    let (moves, n) = &CABALLO_MOVES[sq];
    moves[..*n]
        .iter()
        .filter(|m| m.legs & occupied == 0)
        .fold(0, |acc, m| acc | m.to)
}

/// The dama's targets from bit `sq`: one or two steps in each of the eight
/// directions, jumping over whatever stands between.
#[inline(always)]
#[must_use]
pub fn dama(sq: usize) -> u64 {
    DAMA_TARGETS[sq]
}

/// The eight neighbours of bit `sq` (a dama beside its own rey may change level).
#[inline(always)]
#[must_use]
pub fn neighbours(sq: usize) -> u64 {
    NEIGHBOURS[sq]
}

/// Both whole diagonals through bit `sq`, the square itself excluded (an alfil
/// may change level with a partner alfil there).
#[inline(always)]
#[must_use]
pub fn diagonals(sq: usize) -> u64 {
    DIAGONALS[sq]
}

/// The whole row and column through bit `sq`, the square itself excluded (a torre
/// may change level with a partner torre there).
#[inline(always)]
#[must_use]
pub fn row_and_column(sq: usize) -> u64 {
    ROW_OR_COLUMN[sq]
}

/// The squares the peones of `side` in `peones` may capture on: one step diagonally
/// backward (rule book: a peón moves forward and captures backward).
#[inline(always)]
#[must_use]
pub const fn peon_captures(side: Side, peones: u64) -> u64 {
    match side {
        Side::White => south_east(peones) | south_west(peones),
        Side::Black => north_east(peones) | north_west(peones),
    }
}
