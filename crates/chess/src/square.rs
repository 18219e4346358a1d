use core::fmt;
use core::str::FromStr;

/// A file of the board, `a` to `h` (0 to 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank of the board, `1` to `8` (0 to 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    /// Files `a` to `h`.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];
    /// File `a`.
    pub const A: File = File(0);
    /// File `c`, the king's destination when castling long.
    pub const C: File = File(2);
    /// File `d`, the rook's destination when castling long.
    pub const D: File = File(3);
    /// File `e`, the king's file in standard chess.
    pub const E: File = File(4);
    /// File `f`, the rook's destination when castling short.
    pub const F: File = File(5);
    /// File `g`, the king's destination when castling short.
    pub const G: File = File(6);
    /// File `h`.
    pub const H: File = File(7);

    /// The file with index `i` (0 = a), if `i < 8`.
    #[must_use]
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 { Some(File(i as u8)) } else { None }
    }
    /// 0 for `a` … 7 for `h`.
    #[must_use]
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }
    /// `'a'`…`'h'`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    /// Parses `'a'`…`'h'` (also uppercase, as Shredder-FEN uses).
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            'A'..='H' => Some(File(c as u8 - b'A')),
            _ => None,
        }
    }
}

impl Rank {
    /// Ranks `1` to `8`.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];
    /// Rank 1.
    pub const FIRST: Rank = Rank(0);
    /// Rank 3.
    pub const THIRD: Rank = Rank(2);
    /// Rank 4.
    pub const FOURTH: Rank = Rank(3);
    /// Rank 5.
    pub const FIFTH: Rank = Rank(4);
    /// Rank 6.
    pub const SIXTH: Rank = Rank(5);
    /// Rank 8.
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with index `i` (0 = rank 1), if `i < 8`.
    #[must_use]
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 { Some(Rank(i as u8)) } else { None }
    }
    /// 0 for rank 1 … 7 for rank 8.
    #[must_use]
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }
    /// `'1'`…`'8'`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    /// Parses `'1'`…`'8'`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
}

/// A square, `a1` = 0 … `h8` = 63 (little-endian rank-file mapping).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// `a1`.
    pub const A1: Square = Square(0);
    /// `e1`.
    pub const E1: Square = Square(4);
    /// `h1`.
    pub const H1: Square = Square(7);
    /// `a8`.
    pub const A8: Square = Square(56);
    /// `e8`.
    pub const E8: Square = Square(60);
    /// `h8`.
    pub const H8: Square = Square(63);

    /// The square with index `i`, if `i < 64`.
    #[must_use]
    #[inline]
    pub const fn new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }

    /// The square with index `i & 63`: for indices already known to be in range.
    #[must_use]
    #[inline]
    pub(crate) const fn from_index(i: u32) -> Square {
        Square((i & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[must_use]
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// 0 (`a1`) … 63 (`h8`).
    #[must_use]
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// Index for arrays.
    #[must_use]
    #[inline]
    pub(crate) const fn usize(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[must_use]
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank.
    #[must_use]
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from the other side (rank mirrored).
    #[must_use]
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away, if that stays on the board (no wrap check).
    #[must_use]
    #[inline]
    pub(crate) const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if 0 <= i && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Whether the square is light (a1 is dark).
    #[must_use]
    pub const fn is_light(self) -> bool {
        (self.file().0 + self.rank().0) % 2 == 1
    }

    /// Chebyshev distance (king steps).
    #[must_use]
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file().0 as i32 - other.file().0 as i32).unsigned_abs();
        let dr = (self.rank().0 as i32 - other.rank().0 as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(|i| Square(i as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text was not a square name like `e4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?} (expected a file a-h and a rank 1-8, like \"e4\")")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f @ 'a'..='h'), Some(r), None) => {
                match (File::from_char(f), Rank::from_char(r)) {
                    (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                    _ => Err(ParseSquareError(s.to_owned())),
                }
            }
            _ => Err(ParseSquareError(s.to_owned())),
        }
    }
}
