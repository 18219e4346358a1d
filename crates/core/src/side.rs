use core::fmt;
use core::ops::Not;
use core::str::FromStr;

/// One of the two sides of a two-player game.
///
/// Every tablero game has two sides. `White` is the side whose pieces are written in
/// uppercase in the game's position format (xiangqi's red, chess3d's white); `Black` is
/// the other. Which side moves first is a rule of each game, not of this type. The
/// names a game shows to people (`red`, `white`, ...) come from the game catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The uppercase side (chess white, xiangqi red, draughts white, chess3d white).
    White,
    /// The lowercase side.
    Black,
}

impl Side {
    /// Both sides, `White` first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// The opponent.
    #[must_use]
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for `White`, 1 for `Black`: an index into per-side arrays.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'w'` or `'b'`, as in FEN's side-to-move field.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// Parses `'w'` or `'b'`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Side> {
        match c {
            'w' => Some(Side::White),
            'b' => Some(Side::Black),
            _ => None,
        }
    }

    /// `white` or `black`: the stable id used when a game has no names of its own.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// Picks `white` or `black` by side.
    #[must_use]
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Side::White => white,
            Side::Black => black,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.other()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The text was not a side id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown side {0:?} (expected \"white\" or \"black\")")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;
    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        match s {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            _ => Err(ParseSideError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_and_parse() {
        assert_eq!(!Side::White, Side::Black);
        assert_eq!(Side::Black.other(), Side::White);
        assert_eq!("white".parse::<Side>(), Ok(Side::White));
        assert_eq!(Side::from_char('b'), Some(Side::Black));
        assert!("red".parse::<Side>().is_err());
        assert_eq!(Side::Black.index(), 1);
    }
}
