//! Moves and move lists.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;

use arrayvec::ArrayVec;

use crate::SquareSet;
use crate::geometry::{LAYOUTS, Layout};

/// The most pieces one move can capture (a side has at most 20 pieces).
pub(crate) const MAX_JUMPS: usize = 20;

const CROWNS: u8 = 1;
const LAYOUT_SHIFT: u8 = 4;

/// A whole move: a step, or a complete capture sequence.
///
/// Two moves are equal when they go from the same square to the same square, capture
/// the same set of pieces and crown alike, whatever the order of the captures: that is
/// how draughts counts moves. The move keeps one of its paths (the landing squares) for
/// notation. 32 bytes, `Copy`.
#[derive(Clone, Copy)]
pub struct Move {
    /// Captured pieces, in the board's bit layout.
    captured: u64,
    /// Origin and destination bits.
    from: u8,
    to: u8,
    /// Number of landing squares in `path` (0 for a step).
    jumps: u8,
    /// `CROWNS`, and the layout id above `LAYOUT_SHIFT`.
    flags: u8,
    /// Landing squares of a capture, in order; the last one is `to`.
    path: [u8; MAX_JUMPS],
}

impl Move {
    pub(crate) const fn step(from: u32, to: u32, crowns: bool, layout: &Layout) -> Move {
        Move {
            captured: 0,
            from: from as u8,
            to: to as u8,
            jumps: 0,
            flags: (layout.id << LAYOUT_SHIFT) | if crowns { CROWNS } else { 0 },
            path: [0; MAX_JUMPS],
        }
    }

    /// A capture; `path` holds the landing squares (bits), at least one.
    pub(crate) fn capture(
        from: u32,
        path: &[u8],
        captured: u64,
        crowns: bool,
        layout: &Layout,
    ) -> Move {
        let mut m = Move {
            captured,
            from: from as u8,
            to: path.last().copied().unwrap_or(from as u8),
            jumps: 0,
            flags: (layout.id << LAYOUT_SHIFT) | if crowns { CROWNS } else { 0 },
            path: [0; MAX_JUMPS],
        };
        let n = path.len().min(MAX_JUMPS);
        m.path[..n].copy_from_slice(&path[..n]);
        m.jumps = n as u8;
        m
    }

    fn layout(self) -> &'static Layout {
        &LAYOUTS[usize::from(self.flags >> LAYOUT_SHIFT) % LAYOUTS.len()]
    }

    pub(crate) const fn origin_bit(self) -> u32 {
        self.from as u32
    }

    pub(crate) const fn target_bit(self) -> u32 {
        self.to as u32
    }

    pub(crate) const fn captured_bits(self) -> u64 {
        self.captured
    }

    pub(crate) fn path_bits(&self) -> &[u8] {
        &self.path[..usize::from(self.jumps)]
    }

    /// The origin square (PDN number).
    #[must_use]
    pub fn from(self) -> u8 {
        self.layout().number_of[usize::from(self.from) % 64]
    }

    /// The destination square (PDN number). A king that captures all the way round
    /// may end where it started.
    #[must_use]
    pub fn to(self) -> u8 {
        self.layout().number_of[usize::from(self.to) % 64]
    }

    /// Whether the move captures.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// The captured pieces' squares.
    #[must_use]
    pub fn captured(self) -> SquareSet {
        let layout = self.layout();
        let mut bits = self.captured;
        let mut set = SquareSet::EMPTY;
        while bits != 0 {
            set.insert(layout.number_of[bits.trailing_zeros() as usize % 64]);
            bits &= bits - 1;
        }
        set
    }

    /// How many pieces the move captures.
    #[must_use]
    pub const fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }

    /// Whether the moving man becomes a king.
    #[must_use]
    pub const fn crowns(self) -> bool {
        self.flags & CROWNS != 0
    }

    /// The squares the piece stops on, in order, ending with [`Move::to`]: one square
    /// for a step, every landing square for a capture.
    #[must_use]
    pub fn landings(self) -> Vec<u8> {
        if self.jumps == 0 {
            vec![self.to()]
        } else {
            let layout = self.layout();
            self.path_bits()
                .iter()
                .map(|&b| layout.number_of[usize::from(b) % 64])
                .collect()
        }
    }

    /// The move with every square written out: `11-15`, `15x24x31`.
    #[must_use]
    pub fn full_text(self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        let mut text = self.from().to_string();
        for n in self.landings() {
            text.push_str(sep);
            text.push_str(&n.to_string());
        }
        text
    }

    /// The move as `from`, `to` and the captured squares (for comparisons with other
    /// programs that list moves that way).
    #[must_use]
    pub fn key(self) -> (u8, u8, SquareSet) {
        (self.from(), self.to(), self.captured())
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.captured == other.captured
            && self.flags == other.flags
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captured, self.flags).hash(state);
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.full_text())
    }
}

/// Moves held in place, spilling to the heap only past this many.
const INLINE: usize = 128;

/// The legal moves of a position: a fixed-capacity buffer that perft and search reuse
/// ply after ply. A quiet position has at most 196 moves and almost all have far fewer
/// than 128, the inline capacity; the rare larger list moves to the heap, so nothing
/// is ever dropped.
#[derive(Debug, Clone, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, INLINE>,
    spilled: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.inline.clear();
        self.spilled.clear();
    }

    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if self.spilled.is_empty() {
            if let Err(full) = self.inline.try_push(m) {
                self.spilled.reserve(2 * INLINE);
                self.spilled.extend(self.inline.drain(..));
                self.spilled.push(full.element());
            }
        } else {
            self.spilled.push(m);
        }
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        if self.spilled.is_empty() {
            &self.inline
        } else {
            &self.spilled
        }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_spills_without_losing_moves() {
        let layout = &LAYOUTS[2];
        let mut list = MoveList::new();
        for i in 0..300u32 {
            list.push(Move::step(i % 54, (i + 1) % 54, false, layout));
        }
        assert_eq!(list.len(), 300);
        assert_eq!(list[299].origin_bit(), 299 % 54);
        list.clear();
        assert!(list.is_empty());
        list.push(Move::step(0, 5, false, layout));
        assert_eq!(list.len(), 1);
        assert_eq!(core::mem::size_of::<Move>(), 32);
    }
}
