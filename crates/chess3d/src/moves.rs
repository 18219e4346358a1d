//! Moves: a source and a destination square.

use core::fmt;

use crate::Square;

/// A move: from one square to another, packed in 16 bits.
///
/// Level moves go to the same row and column one level up or down. A promotion is not
/// part of the move: where the pawn lands (or what it becomes) is drawn from the
/// position's generator when the move is played, so the same `Move` may end
/// differently in positions with different generator states.
///
/// Displays in the coordinate form of the rule book (`0B5-0C5`); the short form needs
/// the position ([`crate::Chess3d::short`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`.
    #[must_use]
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(((from.index() as u16) << 8) | to.index() as u16)
    }

    /// The square the piece leaves.
    #[must_use]
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_valid_index((self.0 >> 8) as u8)
    }

    /// The square the piece arrives on (before any promotion lift).
    #[must_use]
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_valid_index((self.0 & 0xFF) as u8)
    }

    /// Whether the move changes level.
    #[must_use]
    #[inline]
    pub const fn is_level_move(self) -> bool {
        self.from().level() != self.to().level()
    }

    /// The packed value, `from.index() << 8 | to.index()`: ordering by it is scan order
    /// of the source, then of the destination.
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal moves any position can have. Every move is a distinct (source,
/// destination) pair. On a level holding `n` pieces of the side to move, same-level
/// moves go from one of those `n` squares to one of the other `64 - n`, and each piece
/// has at most two level moves: at most `n * (64 - n) + 2n = n * (66 - n) <= 33 * 33`
/// per level, whatever the position string put on the board.
pub const MAX_MOVES: usize = 3 * 33 * 33;

/// A buffer for the legal moves of a position (see [`MAX_MOVES`]).
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;
