//! Squares of the three 8×8 levels and their names (`0B5`).

use core::fmt;
use core::str::FromStr;

/// The number of levels (`0`, `1`, `2`).
pub const LEVELS: usize = 3;

/// One square of the board: a level `0..3`, a row `0..8` (`A`…`H`, from White's side
/// up) and a column `0..8` (`1`…`8`, left to right).
///
/// The index `level * 64 + row * 8 + column` is the rule book's **scan order** (level
/// 0, 1, 2; row A…H; column 1…8), so comparing squares compares scan positions.
/// Displayed as `<level><row letter><column digit>`, e.g. `0B5`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a square name such as `0B5` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    /// The level is not `0`, `1` or `2`.
    #[error("level {0:?}: expected 0, 1 or 2")]
    Level(String),
    /// The row letter and column digit are not a square such as `C4`.
    #[error("square {0:?}: expected a row letter A-H and a column digit 1-8, like C4")]
    Square(String),
}

impl Square {
    /// The square on `level` (0..3), `row` (0..8, A = 0) and `column` (0..8, `1` = 0).
    #[must_use]
    #[inline]
    pub const fn new(level: u8, row: u8, column: u8) -> Option<Square> {
        if level < 3 && row < 8 && column < 8 {
            Some(Square(level * 64 + row * 8 + column))
        } else {
            None
        }
    }

    /// The square with scan index `index` (0..192).
    #[must_use]
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 192 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of bit `bit` (0..64) of a level bitboard on `level`. Both must be in
    /// range; the callers take them from bitboards and level loops.
    #[inline]
    pub(crate) const fn from_level_bit(level: usize, bit: u32) -> Square {
        Square((level as u32 * 64 + bit) as u8)
    }

    /// The square of an index known to be below 192 (taken from another `Square`).
    #[inline(always)]
    pub(crate) const fn from_valid_index(index: u8) -> Square {
        Square(index)
    }

    /// The scan index, `level * 64 + row * 8 + column` (0..192).
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The level, 0..3.
    #[must_use]
    #[inline]
    pub const fn level(self) -> usize {
        (self.0 >> 6) as usize
    }

    /// The row, 0..8 (0 is row `A`).
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 >> 3) & 7
    }

    /// The column, 0..8 (0 is column `1`).
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// The bit index within its level's bitboard, `row * 8 + column`.
    #[must_use]
    #[inline]
    pub const fn bit_index(self) -> u32 {
        (self.0 & 63) as u32
    }

    /// The one-bit bitboard of this square within its level.
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << (self.0 & 63)
    }

    /// The same row and column one level up, if there is one.
    #[must_use]
    #[inline]
    pub const fn up(self) -> Option<Square> {
        Square::from_index(self.0 as usize + 64)
    }

    /// The same row and column one level down, if there is one.
    #[must_use]
    #[inline]
    pub const fn down(self) -> Option<Square> {
        if self.0 >= 64 {
            Some(Square(self.0 - 64))
        } else {
            None
        }
    }

    /// The row letter, `A`…`H`.
    #[must_use]
    pub const fn row_char(self) -> char {
        (b'A' + self.row()) as char
    }

    /// The column digit, `1`…`8`.
    #[must_use]
    pub const fn column_char(self) -> char {
        (b'1' + self.column()) as char
    }

    /// Every square in scan order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..192u8).map(Square)
    }

    /// Parses a level digit (`0`, `1`, `2`).
    pub(crate) fn parse_level(c: char) -> Option<u8> {
        match c {
            '0'..='2' => Some(c as u8 - b'0'),
            _ => None,
        }
    }

    /// Parses a row letter (either case) and a column digit into (row, column).
    pub(crate) fn parse_row_column(row: char, column: char) -> Option<(u8, u8)> {
        let row = row.to_ascii_uppercase();
        match (row, column) {
            ('A'..='H', '1'..='8') => Some((row as u8 - b'A', column as u8 - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}",
            self.level(),
            self.row_char(),
            self.column_char()
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `<level><row><column>` such as `0B5` (letters in either case).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let mut chars = text.chars();
        let level = chars.next();
        let rest: String = chars.collect();
        let level = level
            .and_then(Square::parse_level)
            .ok_or_else(|| ParseSquareError::Level(text.chars().take(1).collect()))?;
        let mut rc = rest.chars();
        match (rc.next(), rc.next(), rc.next()) {
            (Some(r), Some(c), None) => Square::parse_row_column(r, c)
                .and_then(|(r, c)| Square::new(level, r, c))
                .ok_or(ParseSquareError::Square(rest)),
            _ => Err(ParseSquareError::Square(rest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_scan_order() {
        let sq: Square = "0b5".parse().expect("valid");
        assert_eq!(sq, Square::new(0, 1, 4).expect("in range"));
        assert_eq!(sq.to_string(), "0B5");
        assert_eq!("2H8".parse::<Square>().map(Square::index), Ok(191));
        assert!(matches!(
            "3A1".parse::<Square>(),
            Err(ParseSquareError::Level(_))
        ));
        assert!(matches!(
            "0I1".parse::<Square>(),
            Err(ParseSquareError::Square(_))
        ));
        assert!(matches!(
            "0A9".parse::<Square>(),
            Err(ParseSquareError::Square(_))
        ));
        assert!(matches!(
            "0A".parse::<Square>(),
            Err(ParseSquareError::Square(_))
        ));
        assert!(matches!(
            "".parse::<Square>(),
            Err(ParseSquareError::Level(_))
        ));
        assert!(matches!(
            "é".parse::<Square>(),
            Err(ParseSquareError::Level(_))
        ));
        let all: Vec<Square> = Square::all().collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all[64].up().map(Square::index), Some(128));
        assert_eq!(all[64].down().map(Square::index), Some(0));
        assert_eq!(all[0].down(), None);
        assert_eq!(all[191].up(), None);
    }
}
