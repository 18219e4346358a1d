//! The placement of all three levels: one bitboard per kind and level, one per side
//! and level.

use tablero_core::Side;

use crate::bitboard::Bits;
use crate::{Kind, LEVELS, Piece, Square};

/// Where every piece stands: for each of the three levels a bitboard (`u64`, bit
/// `row * 8 + column`) per kind and per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    kinds: [[u64; LEVELS]; 6],
    sides: [[u64; LEVELS]; 2],
}

impl Board {
    /// No pieces at all.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            kinds: [[0; LEVELS]; 6],
            sides: [[0; LEVELS]; 2],
        }
    }

    /// The squares of `level` holding a piece of `kind` (either side).
    ///
    /// # Panics
    ///
    /// If `level` is not below [`LEVELS`].
    #[must_use]
    #[inline(always)]
    pub const fn kind(&self, kind: Kind, level: usize) -> u64 {
        self.kinds[kind as usize][level]
    }

    /// The squares of `level` holding a piece of `side`.
    ///
    /// # Panics
    ///
    /// If `level` is not below [`LEVELS`].
    #[must_use]
    #[inline(always)]
    pub const fn side(&self, side: Side, level: usize) -> u64 {
        self.sides[side as usize][level]
    }

    /// The squares of `level` holding `piece`.
    ///
    /// # Panics
    ///
    /// If `level` is not below [`LEVELS`].
    #[must_use]
    #[inline(always)]
    pub const fn pieces(&self, piece: Piece, level: usize) -> u64 {
        self.kinds[piece.kind as usize][level] & self.sides[piece.side as usize][level]
    }

    /// The occupied squares of `level`.
    ///
    /// # Panics
    ///
    /// If `level` is not below [`LEVELS`].
    #[must_use]
    #[inline(always)]
    pub const fn occupied(&self, level: usize) -> u64 {
        self.sides[0][level] | self.sides[1][level]
    }

    /// The piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let side = self.side_at(sq)?;
        let kind = self.kind_at(sq)?;
        Some(Piece { side, kind })
    }

    /// The side of the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub fn side_at(&self, sq: Square) -> Option<Side> {
        let (level, bit) = (sq.level(), sq.bit());
        if self.sides[0][level] & bit != 0 {
            Some(Side::White)
        } else if self.sides[1][level] & bit != 0 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The kind of the piece on `sq`, if any.
    #[must_use]
    #[inline]
    pub fn kind_at(&self, sq: Square) -> Option<Kind> {
        let (level, bit) = (sq.level(), sq.bit());
        Kind::ALL
            .into_iter()
            .find(|&k| self.kinds[k as usize][level] & bit != 0)
    }

    /// Puts `piece` on the empty square `sq` (callers check emptiness).
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let (level, bit) = (sq.level(), sq.bit());
        self.kinds[piece.kind as usize][level] |= bit;
        self.sides[piece.side as usize][level] |= bit;
    }

    /// Removes `piece`, which stands on `sq`.
    #[inline(always)]
    pub(crate) fn take(&mut self, sq: Square, piece: Piece) {
        let (level, bit) = (sq.level(), sq.bit());
        self.kinds[piece.kind as usize][level] &= !bit;
        self.sides[piece.side as usize][level] &= !bit;
    }

    /// Sets or clears `sq`, replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.piece_at(sq) {
            self.take(sq, old);
        }
        if let Some(piece) = piece {
            self.put(sq, piece);
        }
    }

    /// Every piece with its square, in scan order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..LEVELS).flat_map(move |level| {
            Bits(self.occupied(level)).filter_map(move |bit| {
                let sq = Square::from_level_bit(level, bit);
                self.piece_at(sq).map(|p| (sq, p))
            })
        })
    }

    /// How many pieces `side` has on the board (all levels, all kinds).
    #[must_use]
    pub const fn count(&self, side: Side) -> u32 {
        let s = &self.sides[side as usize];
        s[0].count_ones() + s[1].count_ones() + s[2].count_ones()
    }

    /// Whether `side` has a dama anywhere.
    #[must_use]
    #[inline(always)]
    pub const fn has_dama(&self, side: Side) -> bool {
        let d = &self.kinds[Kind::Dama as usize];
        let s = &self.sides[side as usize];
        (d[0] & s[0]) | (d[1] & s[1]) | (d[2] & s[2]) != 0
    }
}
