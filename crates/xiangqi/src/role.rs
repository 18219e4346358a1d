//! Piece kinds and pieces.

use core::fmt;

use tablero_core::Side;

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Role {
    /// 帥/將: moves one point orthogonally inside the palace.
    General = 0,
    /// 仕/士: moves one point diagonally inside the palace.
    Advisor = 1,
    /// 相/象: moves two points diagonally, blocked at the eye, never across the river.
    Elephant = 2,
    /// 傌/馬: one point orthogonally then one diagonally, blocked at the leg.
    Horse = 3,
    /// 俥/車: any distance orthogonally.
    Chariot = 4,
    /// 炮/砲: moves like a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// 兵/卒: one point forward; also sideways once across the river.
    Soldier = 6,
}

impl Role {
    /// Every role, general first.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// 0 … 6, an index into per-role arrays.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The most pieces of this role one side can have.
    #[must_use]
    pub const fn max_count(self) -> u32 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The lowercase FEN letter: `k a b n r c p`.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// The WXF letter: `K A E H R C P`.
    #[must_use]
    pub const fn wxf_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// Reads a piece letter in any case: the FEN letters `k a b n r c p` and the WXF
    /// alternatives `e` (elephant) and `h` (horse).
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'k' => Role::General,
            'a' => Role::Advisor,
            'b' | 'e' => Role::Elephant,
            'n' | 'h' => Role::Horse,
            'r' => Role::Chariot,
            'c' => Role::Cannon,
            'p' => Role::Soldier,
            _ => return None,
        })
    }

    /// The English name, e.g. `"chariot"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "general",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Chariot => "chariot",
            Role::Cannon => "cannon",
            Role::Soldier => "soldier",
        }
    }
}

/// A piece: a side and a role. Red is [`Side::White`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Red (`White`) or black.
    pub side: Side,
    /// What kind of piece.
    pub role: Role,
}

impl Piece {
    /// A piece of `side` and `role`.
    #[must_use]
    #[inline]
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    /// 0 … 13: red's roles, then black's.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.side.index() * 7 + self.role.index()
    }

    /// The FEN letter: uppercase for red.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self.side {
            Side::White => self.role.fen_char().to_ascii_uppercase(),
            Side::Black => self.role.fen_char(),
        }
    }

    /// Reads a FEN letter (uppercase red, lowercase black; `e`/`h` accepted).
    #[must_use]
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                side: if c.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                },
                role,
            }),
            None => None,
        }
    }

    /// The traditional Chinese character: red 帥仕相俥傌炮兵, black 將士象車馬砲卒.
    #[must_use]
    pub const fn traditional_char(self) -> char {
        match (self.side, self.role) {
            (Side::White, Role::General) => '帥',
            (Side::White, Role::Advisor) => '仕',
            (Side::White, Role::Elephant) => '相',
            (Side::White, Role::Horse) => '傌',
            (Side::White, Role::Chariot) => '俥',
            (Side::White, Role::Cannon) => '炮',
            (Side::White, Role::Soldier) => '兵',
            (Side::Black, Role::General) => '將',
            (Side::Black, Role::Advisor) => '士',
            (Side::Black, Role::Elephant) => '象',
            (Side::Black, Role::Horse) => '馬',
            (Side::Black, Role::Chariot) => '車',
            (Side::Black, Role::Cannon) => '砲',
            (Side::Black, Role::Soldier) => '卒',
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}
