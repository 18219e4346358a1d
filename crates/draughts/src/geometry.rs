//! Square numbering and the bit layout of the boards.
//!
//! Both boards use the padded layout of draughts programs: the playable squares of a
//! row pair are followed by one unused "ghost" bit, so that the four diagonal steps are
//! the same four shifts everywhere (`row_squares` and `row_squares + 1`, up or down) and
//! a step off the left or right edge lands on a ghost bit, which the board mask drops.
//!
//! ```text
//! 8×8 (bit numbers)              10×10
//!    0   1   2   3                  0   1   2   3   4
//!  4   5   6   7   (8)           5   6   7   8   9  (10)
//!    9  10  11  12                 11  12  13  14  15
//! 13  14  15  16   (17) ...     16  17  18  19  20  (21) ...
//! ```
//!
//! The layout is the one of an a1-dark board. Italian and Spanish boards (a1 light) are
//! its mirror image, and the rules are symmetric, so they use the same layout with the
//! squares of each row numbered right to left: only the numbering differs.

use crate::{BoardSize, Orientation, Rules};

/// The four diagonal directions, as seen by White: up is towards square 1.
pub(crate) const UP_LEFT: usize = 0;
pub(crate) const UP_RIGHT: usize = 1;
pub(crate) const DOWN_LEFT: usize = 2;
pub(crate) const DOWN_RIGHT: usize = 3;

/// Bit of the square in `row` (0 = top) at `index` (0 = leftmost in the a1-dark
/// layout).
const fn bit(half: u32, row: u32, index: u32) -> u32 {
    row * half + index + row / 2
}

/// A board's bit layout together with one way of numbering its squares.
#[derive(Debug)]
pub(crate) struct Layout {
    /// Its index in [`LAYOUTS`] (stored in moves so they can print their squares).
    pub id: u8,
    /// Playable squares.
    pub squares: u8,
    /// Bits of the playable squares.
    pub mask: u64,
    /// Bits of the top row (White's crowning row) and the bottom row (Black's).
    pub crown: [u64; 2],
    /// `bit_of[n]`: the bit of square number `n` (index 0 unused).
    pub bit_of: [u8; 51],
    /// `number_of[b]`: the square number of bit `b`, 0 for ghost and unused bits.
    pub number_of: [u8; 64],
    /// `(column, row)` of each bit, 0-based from the top-left as White sees the board.
    pub coords: [(u8, u8); 64],
}

const fn layout(id: u8, size: BoardSize, orientation: Orientation) -> Layout {
    let half = size.row_squares() as u32;
    let rows = size.width() as u32;
    let mut bit_of = [0u8; 51];
    let mut number_of = [0u8; 64];
    let mut coords = [(0u8, 0u8); 64];
    let mut mask = 0u64;
    let mut crown = [0u64; 2];
    let mut row = 0;
    while row < rows {
        let mut index = 0;
        while index < half {
            let b = bit(half, row, index);
            // a1-dark: even rows start at the second column.
            let column = 2 * index + if row % 2 == 0 { 1 } else { 0 };
            let (number, column) = match orientation {
                Orientation::A1Dark => (row * half + index + 1, column),
                Orientation::A1Light => (row * half + (half - 1 - index) + 1, (rows - 1) - column),
            };
            bit_of[number as usize] = b as u8;
            number_of[b as usize] = number as u8;
            coords[b as usize] = (column as u8, row as u8);
            mask |= 1 << b;
            if row == 0 {
                crown[0] |= 1 << b;
            }
            if row == rows - 1 {
                crown[1] |= 1 << b;
            }
            index += 1;
        }
        row += 1;
    }
    Layout {
        id,
        squares: size.squares(),
        mask,
        crown,
        bit_of,
        number_of,
        coords,
    }
}

/// Every layout: 8×8 a1 dark, 8×8 a1 light, 10×10.
pub(crate) static LAYOUTS: [Layout; 3] = [
    layout(0, BoardSize::Eight, Orientation::A1Dark),
    layout(1, BoardSize::Eight, Orientation::A1Light),
    layout(2, BoardSize::Ten, Orientation::A1Dark),
];

impl Rules {
    /// The layout and numbering of this rule set's board.
    pub(crate) const fn layout(&self) -> &'static Layout {
        match (self.board, self.orientation) {
            (BoardSize::Eight, Orientation::A1Dark) => &LAYOUTS[0],
            (BoardSize::Eight, Orientation::A1Light) => &LAYOUTS[1],
            (BoardSize::Ten, _) => &LAYOUTS[2],
        }
    }

    /// `(column, row)` of square `n` (PDN number, from 1), 0-based from the top-left
    /// corner as White sees the board: the one mapping the terminal board, the web
    /// hints, the reports and algebraic square names all use. `None` off the board.
    ///
    /// ```
    /// use tablero_draughts::RuleSet;
    ///
    /// assert_eq!(RuleSet::English.rules().square_coords(1), Some((1, 0)));
    /// assert_eq!(RuleSet::Italian.rules().square_coords(1), Some((0, 0)));
    /// assert_eq!(RuleSet::International.rules().square_coords(51), None);
    /// ```
    #[must_use]
    pub const fn square_coords(&self, n: u8) -> Option<(u8, u8)> {
        let layout = self.layout();
        if n == 0 || n > layout.squares {
            return None;
        }
        Some(layout.coords[layout.bit_of[n as usize] as usize])
    }

    /// The number of the square at `(column, row)` (as in
    /// [`square_coords`](Self::square_coords)); `None` for a light square or one off
    /// the board.
    #[must_use]
    pub fn square_at(&self, column: u8, row: u8) -> Option<u8> {
        (1..=self.layout().squares).find(|&n| self.square_coords(n) == Some((column, row)))
    }
}

/// One diagonal step of every bit of `bb` in direction `dir`; steps off the board are
/// dropped. `half` is the number of playable squares in a row.
#[inline(always)]
pub(crate) const fn step(bb: u64, dir: usize, half: u32, mask: u64) -> u64 {
    (match dir {
        UP_LEFT => bb >> (half + 1),
        UP_RIGHT => bb >> half,
        DOWN_LEFT => bb << half,
        _ => bb << (half + 1),
    }) & mask
}

/// The mask of a board size's playable squares (the same for both orientations).
pub(crate) const fn board_mask(size: BoardSize) -> u64 {
    match size {
        BoardSize::Eight => LAYOUTS[0].mask,
        BoardSize::Ten => LAYOUTS[2].mask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours(layout: &Layout, half: u32, n: u8) -> Vec<u8> {
        let b = 1u64 << layout.bit_of[n as usize];
        let mut out: Vec<u8> = (0..4)
            .map(|d| step(b, d, half, layout.mask))
            .filter(|&s| s != 0)
            .map(|s| layout.number_of[s.trailing_zeros() as usize])
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn spec_squares_and_neighbours() {
        let english = &LAYOUTS[0];
        // 1 = b8, 4 = h8, 29 = a1, 32 = g1.
        assert_eq!(english.coords[english.bit_of[1] as usize], (1, 0));
        assert_eq!(english.coords[english.bit_of[4] as usize], (7, 0));
        assert_eq!(english.coords[english.bit_of[29] as usize], (0, 7));
        assert_eq!(english.coords[english.bit_of[32] as usize], (6, 7));
        assert_eq!(neighbours(english, 4, 1), vec![5, 6]);
        assert_eq!(neighbours(english, 4, 5), vec![1, 9]);
        assert_eq!(neighbours(english, 4, 4), vec![8]);
        assert_eq!(neighbours(english, 4, 12), vec![8, 16]);
        assert_eq!(neighbours(english, 4, 15), vec![10, 11, 18, 19]);
        assert_eq!(english.mask.count_ones(), 32);

        let italian = &LAYOUTS[1];
        // 1 = a8, 4 = g8, 29 = b1, 32 = h1.
        assert_eq!(italian.coords[italian.bit_of[1] as usize], (0, 0));
        assert_eq!(italian.coords[italian.bit_of[4] as usize], (6, 0));
        assert_eq!(italian.coords[italian.bit_of[29] as usize], (1, 7));
        assert_eq!(italian.coords[italian.bit_of[32] as usize], (7, 7));
        assert_eq!(neighbours(italian, 4, 1), vec![5]);
        assert_eq!(neighbours(italian, 4, 4), vec![7, 8]);
        assert_eq!(neighbours(italian, 4, 5), vec![1, 2, 9, 10]);

        let ten = &LAYOUTS[2];
        // 1 = b10, 5 = j10, 46 = a1, 50 = i1.
        assert_eq!(ten.coords[ten.bit_of[1] as usize], (1, 0));
        assert_eq!(ten.coords[ten.bit_of[5] as usize], (9, 0));
        assert_eq!(ten.coords[ten.bit_of[46] as usize], (0, 9));
        assert_eq!(ten.coords[ten.bit_of[50] as usize], (8, 9));
        assert_eq!(neighbours(ten, 5, 1), vec![6, 7]);
        assert_eq!(neighbours(ten, 5, 6), vec![1, 11]);
        assert_eq!(neighbours(ten, 5, 15), vec![10, 20]);
        assert_eq!(neighbours(ten, 5, 28), vec![22, 23, 32, 33]);
        assert_eq!(ten.mask.count_ones(), 50);
        assert_eq!(ten.crown[0].count_ones(), 5);
    }
}
