//! Moves.

use core::fmt;

use crate::Square;

/// A xiangqi move: a piece goes from one point to another, capturing what stands
/// there. Context-free; [`Display`](fmt::Display) writes it in ICCS (`h2e2`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    #[must_use]
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The point the piece leaves.
    #[must_use]
    #[inline]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The point the piece goes to.
    #[must_use]
    #[inline]
    pub const fn to(self) -> Square {
        self.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A buffer of moves without heap allocation. No xiangqi position has more than about
/// 120 legal moves; the capacity leaves room.
pub type MoveList = arrayvec::ArrayVec<Move, 192>;
