use core::fmt;

use crate::{Role, Square};

/// A chess move, packed in 16 bits: from, to and a kind.
///
/// Castling is stored as the king's square to the castling rook's square, which is
/// unambiguous in Chess960 too; [`crate::UciMove`] writes it the way the position's
/// castling mode wants (`e1g1` or `e1h1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const NORMAL: u16 = 0;
const EN_PASSANT: u16 = 1;
const CASTLE: u16 = 2;
const PROMOTION: u16 = 4; // 4 + (role - 1): knight 4, bishop 5, rook 6, queen 7

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    /// A move of a piece from `from` to `to`, capturing what stands there.
    #[must_use]
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, NORMAL)
    }

    /// A pawn move to the last rank, becoming `role` (knight, bishop, rook or queen).
    #[must_use]
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, PROMOTION + role as u16 - 1)
    }

    /// An en passant capture; `to` is the empty square the pawn moves to.
    #[must_use]
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, EN_PASSANT)
    }

    /// Castling, as the king's square and the castling rook's square.
    #[must_use]
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, CASTLE)
    }

    /// The square the piece leaves (the king's square when castling).
    #[must_use]
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u32)
    }

    /// The destination; the castling rook's square when castling.
    #[must_use]
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as u32)
    }

    /// The promotion role, if this is a promotion.
    #[must_use]
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        let kind = self.0 >> 12;
        if kind >= PROMOTION {
            Some(Role::from_index((kind - PROMOTION + 1) as u8))
        } else {
            None
        }
    }

    /// Whether this is an en passant capture.
    #[must_use]
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == EN_PASSANT
    }

    /// Whether this is castling.
    #[must_use]
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == CASTLE
    }

    /// For castling, whether it is on the h-side (short, `O-O`).
    #[must_use]
    #[inline]
    pub const fn is_castle_short(self) -> bool {
        self.is_castle() && self.to().index() > self.from().index()
    }

    /// The square the king ends on when castling (g- or c-file), else `to`.
    #[must_use]
    #[inline]
    pub const fn king_destination(self) -> Square {
        if self.is_castle() {
            let back = self.from().index() & !7;
            Square::from_index(back + if self.is_castle_short() { 6 } else { 2 })
        } else {
            self.to()
        }
    }

    /// The packed 16-bit value (stable: usable as a compact key).
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        if self.is_castle() {
            f.write_str("(castle)")?;
        } else if self.is_en_passant() {
            f.write_str("(ep)")?;
        }
        Ok(())
    }
}

/// A buffer for the legal moves of a position (218 is the most any position has).
pub type MoveList = arrayvec::ArrayVec<Move, 256>;
