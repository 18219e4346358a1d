//! Piece kinds and their Spanish letters.

use core::fmt;

use tablero_core::Side;

/// The six kinds of piece, with the letters of the original notation.
///
/// Names are the Spanish ones on purpose: an alfil slides straight and a torre slides
/// diagonally, so "bishop" and "rook" would mislead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Peón `P` (pawn): steps forward, captures diagonally backward, lifts a level on
    /// promotion.
    Peon = 0,
    /// Alfil `A`: slides orthogonally.
    Alfil = 1,
    /// Caballo `C`: L-moves, long leg first, cannot jump.
    Caballo = 2,
    /// Torre `T`: slides diagonally.
    Torre = 3,
    /// Dama `D`: one or two squares in any direction, jumping; losing it loses the game.
    Dama = 4,
    /// Rey `R`: slides like a chess queen; no check, no special role.
    Rey = 5,
}

impl Kind {
    /// Every kind, in letter-table order (`P A C T D R`).
    pub const ALL: [Kind; 6] = [
        Kind::Peon,
        Kind::Alfil,
        Kind::Caballo,
        Kind::Torre,
        Kind::Dama,
        Kind::Rey,
    ];

    /// The kinds a level-2 promotion draws from, in the order `next() % 3` indexes.
    pub const PROMOTION_DRAW: [Kind; 3] = [Kind::Alfil, Kind::Caballo, Kind::Torre];

    /// An index into per-kind arrays, 0..6.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase letter: `P`, `A`, `C`, `T`, `D` or `R`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Kind::Peon => 'P',
            Kind::Alfil => 'A',
            Kind::Caballo => 'C',
            Kind::Torre => 'T',
            Kind::Dama => 'D',
            Kind::Rey => 'R',
        }
    }

    /// The kind of a letter, in either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'P' => Some(Kind::Peon),
            'A' => Some(Kind::Alfil),
            'C' => Some(Kind::Caballo),
            'T' => Some(Kind::Torre),
            'D' => Some(Kind::Dama),
            'R' => Some(Kind::Rey),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A piece: its side and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// White (uppercase letters) or Black (lowercase).
    pub side: Side,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// The letter of the position string: uppercase for White, lowercase for Black.
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.kind.char();
        match self.side {
            Side::White => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a position-string letter (`PACTDR` White, `pactdr` Black).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        if c.is_ascii_lowercase() || c.is_ascii_uppercase() {
            match Kind::from_char(c) {
                Some(kind) => Some(Piece { side, kind }),
                None => None,
            }
        } else {
            None
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
