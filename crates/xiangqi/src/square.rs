//! The 90 points of the board and their ICCS names (`a0` … `i9`).

use core::fmt;
use core::str::FromStr;

/// A point of the board: file `a`–`i` (0–8) from red's left, rank `0`–`9` from red's
/// back rank, as ICCS numbers them. The index is `rank * 9 + file`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// The text was not an ICCS square (`a0` … `i9`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("square {0:?}: expected a file a-i and a rank 0-9, e.g. \"h2\"")]
pub struct ParseSquareError(pub String);

impl Square {
    /// Number of points.
    pub const COUNT: usize = 90;

    /// The square with index `i` (`rank * 9 + file`), if `i < 90`.
    #[must_use]
    #[inline]
    pub const fn new(i: u32) -> Option<Square> {
        if i < 90 { Some(Square(i as u8)) } else { None }
    }

    /// The square at `file` (0–8) and `rank` (0–9), if both are on the board.
    #[must_use]
    #[inline]
    pub const fn from_coords(file: u32, rank: u32) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// `from_coords` with signed coordinates (for walking off the board).
    #[must_use]
    #[inline]
    pub const fn offset(self, dfile: i32, drank: i32) -> Option<Square> {
        let f = self.file() as i32 + dfile;
        let r = self.rank() as i32 + drank;
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Caller guarantees `i < 90`.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u32) -> Square {
        debug_assert!(i < 90);
        Square(i as u8)
    }

    /// `rank * 9 + file`.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (`a`) to 8 (`i`), from red's left.
    #[must_use]
    #[inline]
    pub const fn file(self) -> u32 {
        self.0 as u32 % 9
    }

    /// 0 (red's back rank) to 9 (black's back rank).
    #[must_use]
    #[inline]
    pub const fn rank(self) -> u32 {
        self.0 as u32 / 9
    }

    /// Every square, `a0` first, row by row from red's side.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    /// Parses `a0` … `i9`; uppercase file letters are accepted too.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_owned());
        let &[file, rank] = s.as_bytes() else {
            return Err(err());
        };
        let file = match file.to_ascii_lowercase() {
            f @ b'a'..=b'i' => f - b'a',
            _ => return Err(err()),
        };
        let rank = match rank {
            r @ b'0'..=b'9' => r - b'0',
            _ => return Err(err()),
        };
        Square::from_coords(u32::from(file), u32::from(rank)).ok_or_else(err)
    }
}
