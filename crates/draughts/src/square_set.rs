//! Sets of squares named by their PDN numbers.

use core::fmt;
use core::ops::{BitAnd, BitOr, BitOrAssign, Not};

/// A set of squares by PDN number (1 to 50): bit `n` stands for square `n`.
///
/// This is the public, numbering-based view of a set of squares (what a FEN lists,
/// which pieces a move captures); the move generator works on its own bit layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SquareSet(u64);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The largest square number any board has.
    pub const MAX_SQUARE: u8 = 50;

    /// The set with bit `n` for each square `n`; bits 0 and above 50 are dropped.
    #[must_use]
    pub const fn from_bits(bits: u64) -> SquareSet {
        SquareSet(bits & (((1u64 << 51) - 1) & !1))
    }

    /// The bits (bit `n` for square `n`).
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Squares `first..=last`, clamped to 1..=50.
    #[must_use]
    pub fn range(first: u8, last: u8) -> SquareSet {
        (first.max(1)..=last.min(SquareSet::MAX_SQUARE)).collect()
    }

    /// Whether square `n` is in the set.
    #[must_use]
    pub const fn contains(self, n: u8) -> bool {
        n < 64 && self.0 & (1 << n) != 0
    }

    /// Adds square `n` (1..=50); returns whether it was new. Other numbers are ignored
    /// and return `false`.
    pub fn insert(&mut self, n: u8) -> bool {
        if n == 0 || n > SquareSet::MAX_SQUARE {
            return false;
        }
        let new = !self.contains(n);
        self.0 |= 1 << n;
        new
    }

    /// Removes square `n`.
    pub fn remove(&mut self, n: u8) {
        if n < 64 {
            self.0 &= !(1 << n);
        }
    }

    /// The number of squares.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        core::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let n = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(n)
            }
        })
    }
}

impl FromIterator<u8> for SquareSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for n in iter {
            set.insert(n);
        }
        set
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for SquareSet {
    fn bitor_assign(&mut self, rhs: SquareSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    fn not(self) -> SquareSet {
        SquareSet::from_bits(!self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for SquareSet {
    /// The squares separated by commas: `1,2,17`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let mut s = SquareSet::range(3, 5);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 4, 5]);
        assert!(s.insert(50));
        assert!(!s.insert(50));
        assert!(!s.insert(0));
        assert!(!s.insert(51));
        s.remove(4);
        assert_eq!(s.to_string(), "3,5,50");
        assert_eq!(s.len(), 3);
        assert!(!s.contains(200));
        assert_eq!((!SquareSet::EMPTY).len(), 50);
    }
}
