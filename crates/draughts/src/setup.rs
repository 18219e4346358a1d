//! What a PDN FEN describes, before the rules have looked at it.

use core::fmt;

use tablero_core::Side;

use crate::SquareSet;

/// A man or a king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Moves forward one square.
    Man,
    /// A crowned man.
    King,
}

/// A piece: its side and role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub side: Side,
    /// Man or king.
    pub role: Role,
}

impl fmt::Display for Piece {
    /// `w`, `W` (king), `b`, `B`: the letters of board diagrams.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match (self.side, self.role) {
            (Side::White, Role::Man) => 'w',
            (Side::White, Role::King) => 'W',
            (Side::Black, Role::Man) => 'b',
            (Side::Black, Role::King) => 'B',
        };
        write!(f, "{c}")
    }
}

/// A position as a PDN FEN writes it, not yet checked against a rule set: squares by
/// PDN number, indexed by [`Side::index`].
///
/// [`crate::Draughts::from_setup`] turns it into a playable position or explains why
/// not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The side to move.
    pub turn: Side,
    /// Each side's men.
    pub men: [SquareSet; 2],
    /// Each side's kings.
    pub kings: [SquareSet; 2],
}

impl Setup {
    /// An empty board with `turn` to move.
    #[must_use]
    pub const fn empty(turn: Side) -> Setup {
        Setup {
            turn,
            men: [SquareSet::EMPTY; 2],
            kings: [SquareSet::EMPTY; 2],
        }
    }

    /// All of `side`'s pieces.
    #[must_use]
    pub fn pieces(&self, side: Side) -> SquareSet {
        self.men[side.index()] | self.kings[side.index()]
    }

    /// The piece on square `n`, if any (the first found if the setup lists a square
    /// twice).
    #[must_use]
    pub fn piece_at(&self, n: u8) -> Option<Piece> {
        for side in Side::ALL {
            if self.men[side.index()].contains(n) {
                return Some(Piece {
                    side,
                    role: Role::Man,
                });
            }
            if self.kings[side.index()].contains(n) {
                return Some(Piece {
                    side,
                    role: Role::King,
                });
            }
        }
        None
    }
}
