//! The board as move generation sees it: a padded mailbox of piece slots and the
//! slots' cells.
//!
//! * `cells`: 12 rows of 10 cells (ElephantEye's idea on a smaller board). Cell =
//!   `(row + 1) * 10 + (file + 1)`, row 0 being black's back rank (rank 9). Row -1,
//!   row 10 and column 0 (which also serves as the column right of file i, one row
//!   down) are padding holding [`OFF`], so sliders stop at the edge without a bounds
//!   test. Horses and elephants test their leg or eye first, so no step reaches
//!   beyond the padding: every cell read lies in 0..=120.
//! * A cell holds 0 or a piece's *slot*: 16–31 red, 32–47 black (the side tag is bit 4
//!   or bit 5). Within a side, slots are fixed per role ([`slot_range`]), so "every
//!   chariot of red" is two array reads. [`OFF`] = 48 has both tags set, so the test
//!   "not my piece" (`cell & own == 0`) rejects it for free.
//! * `squares[slot & 31]` is the slot's cell, 0 once captured.
//!
//! The whole mailbox is 160 bytes, which keeps the position small for copy-make.

use tablero_core::Side;

use crate::{Bitboard, Piece, Role, Square};

/// The content of every cell off the board.
pub(crate) const OFF: u8 = 48;
/// Steps between cells (two's-complement bytes): towards black's side (up), red's
/// side (down), file a (left), file i (right).
pub(crate) const UP: u8 = 0xF6; // -10
pub(crate) const DOWN: u8 = 10;
pub(crate) const LEFT: u8 = 0xFF; // -1
pub(crate) const RIGHT: u8 = 1;
pub(crate) const ORTHOGONAL: [u8; 4] = [UP, DOWN, LEFT, RIGHT];
pub(crate) const DIAGONAL: [u8; 4] = [0xF5, 0xF7, 9, 11];
/// The first cell of red's half (rows 5 to 9; ranks 4 to 0).
pub(crate) const RED_HALF: u8 = 60;

/// Slot offsets within a side.
pub(crate) const GENERAL: u8 = 0;
pub(crate) const ADVISORS: u8 = 1;
pub(crate) const ELEPHANTS: u8 = 3;
pub(crate) const HORSES: u8 = 5;
pub(crate) const CHARIOTS: u8 = 7;
pub(crate) const CANNONS: u8 = 9;
pub(crate) const SOLDIERS: u8 = 11;

/// The side tag of `side`'s slots (and the bit that marks them in a cell).
#[inline]
pub(crate) const fn tag(side: Side) -> u8 {
    match side {
        Side::White => 16,
        Side::Black => 32,
    }
}

/// The slots (without the side tag) of `role`.
pub(crate) const fn slot_range(role: Role) -> core::ops::Range<u8> {
    match role {
        Role::General => GENERAL..ADVISORS,
        Role::Advisor => ADVISORS..ELEPHANTS,
        Role::Elephant => ELEPHANTS..HORSES,
        Role::Horse => HORSES..CHARIOTS,
        Role::Chariot => CHARIOTS..CANNONS,
        Role::Cannon => CANNONS..SOLDIERS,
        Role::Soldier => SOLDIERS..16,
    }
}

/// `step` applied to `cell` (steps are two's-complement bytes).
#[inline(always)]
pub(crate) const fn step(cell: u8, step: u8) -> u8 {
    cell.wrapping_add(step)
}

/// The cell of `sq`.
#[inline]
pub(crate) const fn cell_of(sq: Square) -> u8 {
    ((10 - sq.rank()) * 10 + sq.file() + 1) as u8
}

const fn square_table() -> [u8; 128] {
    let mut t = [0; 128];
    let mut i = 0;
    while i < 90 {
        t[cell_of(Square::from_index_unchecked(i)) as usize] = i as u8;
        i += 1;
    }
    t
}

static SQUARE_OF: [u8; 128] = square_table();

const fn line_table() -> [u8; 128] {
    let mut t = [0xFF; 128];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index_unchecked(i);
        t[cell_of(sq) as usize] = (sq.rank() << 4 | sq.file()) as u8;
        i += 1;
    }
    t
}

/// For each on-board cell, `rank << 4 | file`: two cells share a rank when the high
/// nibbles agree and a file when the low ones do.
pub(crate) static LINE_OF: [u8; 128] = line_table();

/// The square of an on-board `cell`.
#[inline]
pub(crate) fn square_of(cell: u8) -> Square {
    Square::from_index_unchecked(u32::from(SQUARE_OF[(cell & 127) as usize]))
}

const fn palace_table() -> [bool; 128] {
    let mut t = [false; 128];
    let mut i = 0;
    while i < 90 {
        let sq = Square::from_index_unchecked(i);
        let (file, rank) = (sq.file(), sq.rank());
        t[cell_of(sq) as usize] = file >= 3 && file <= 5 && (rank <= 2 || rank >= 7);
        i += 1;
    }
    t
}

/// Whether a cell is a palace point (either palace: a general or advisor cannot
/// reach the other one).
pub(crate) static IN_PALACE: [bool; 128] = palace_table();

const fn horse_leg_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let moves: [(i32, i32); 8] = [
        (-2, -1),
        (-2, 1),
        (2, -1),
        (2, 1),
        (-1, -2),
        (1, -2),
        (-1, 2),
        (1, 2),
    ];
    let mut i = 0;
    while i < 8 {
        let (dr, df) = moves[i];
        let leg = if dr == 2 || dr == -2 {
            dr / 2 * 10
        } else {
            df / 2
        };
        t[((dr * 10 + df) as u8) as usize] = leg as u8;
        i += 1;
    }
    t
}

/// Indexed by `target - horse` (as `u8`): the step from the horse to its leg, 0 if the
/// difference is no horse move. Tells in one load whether a horse can reach the
/// general and which point blocks it. With rows 10 cells apart a difference has a
/// second reading 10 files away (8 = one row down and two files left, or eight files
/// right), but not for a target on files d to f, where the generals stay.
pub(crate) static HORSE_LEG: [u8; 256] = horse_leg_table();

/// The placement in mailbox form (see the module documentation).
#[derive(Clone)]
pub(crate) struct Mailbox {
    /// Cells 121 to 127 are unused; the power of two spares bounds checks.
    pub(crate) cells: [u8; 128],
    squares: [u8; 32],
}

impl Mailbox {
    /// The mailbox of `board`, whose piece counts are within the rules' limits.
    pub(crate) fn new(board: &[Option<Piece>; 90]) -> Mailbox {
        let mut mailbox = Mailbox {
            cells: [OFF; 128],
            squares: [0; 32],
        };
        for sq in Square::all() {
            mailbox.cells[cell_of(sq) as usize] = 0;
        }
        for sq in Square::all() {
            let Some(piece) = board[sq.index()] else {
                continue;
            };
            let cell = cell_of(sq);
            let slot = slot_range(piece.role)
                .map(|i| tag(piece.side) + i)
                .find(|&i| mailbox.square(i) == 0)
                .expect("validated piece counts fit the slots");
            mailbox.squares[(slot & 31) as usize] = cell;
            mailbox.cells[cell as usize] = slot;
        }
        mailbox
    }

    /// The content of `cell`: 0, a slot, or [`OFF`].
    #[inline(always)]
    pub(crate) fn at(&self, cell: u8) -> u8 {
        self.cells[(cell & 127) as usize]
    }

    /// The cell of `slot`, 0 if captured.
    #[inline(always)]
    pub(crate) fn square(&self, slot: u8) -> u8 {
        self.squares[(slot & 31) as usize]
    }

    /// Moves the piece on `from` to `to`, removing what stood there.
    #[inline(always)]
    pub(crate) fn play(&mut self, from: u8, to: u8) {
        let piece = self.at(from);
        let captured = self.at(to);
        self.cells[(to & 127) as usize] = piece;
        self.cells[(from & 127) as usize] = 0;
        if captured != 0 {
            self.squares[(captured & 31) as usize] = 0;
        }
        self.squares[(piece & 31) as usize] = to;
    }

    /// Every occupied point.
    pub(crate) fn occupied(&self) -> Bitboard {
        let mut occupied = Bitboard::EMPTY;
        for cell in self.squares {
            if cell != 0 {
                occupied.insert(square_of(cell));
            }
        }
        occupied
    }

    /// The points of `side`'s pieces of the slots in `slots`.
    pub(crate) fn points(&self, side: Side, slots: core::ops::Range<u8>) -> Bitboard {
        let mut points = Bitboard::EMPTY;
        for slot in slots {
            let cell = self.square(tag(side) + slot);
            if cell != 0 {
                points.insert(square_of(cell));
            }
        }
        points
    }
}
