//! The contents of a position string before it becomes a [`crate::Chess3d`].

use tablero_core::Side;

use crate::{Board, Kind, Piece, Square};

/// A position as a position string describes it: placement, side to move, counters
/// and generator state. [`crate::Chess3d::from_setup`] makes it playable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Piece placement on the three levels.
    pub board: Board,
    /// Side to move.
    pub turn: Side,
    /// Plies since the last capture or pawn move (the 100-ply rule).
    pub quiet_plies: u32,
    /// The move number: starts at 1 and increases after White's move (Black moves
    /// first). Must be at least 1.
    pub move_number: u32,
    /// The state of the position's SplitMix64 generator (promotions draw from it).
    pub rng: u64,
}

impl Setup {
    /// The start position of the rule book (§3) with generator state `seed`.
    #[must_use]
    pub fn start(seed: u64) -> Setup {
        Setup {
            board: start_board(),
            turn: Side::Black,
            quiet_plies: 0,
            move_number: 1,
            rng: seed,
        }
    }
}

fn start_board() -> Board {
    use Kind::{Alfil, Caballo, Dama, Peon, Rey, Torre};
    let mut board = Board::empty();
    let mut put = |level: u8, row: u8, column: u8, side: Side, kind: Kind| {
        if let Some(sq) = Square::new(level, row, column) {
            board.set(sq, Some(Piece { side, kind }));
        }
    };
    let back = [
        Some(Torre),
        Some(Caballo),
        Some(Alfil),
        None,
        None,
        Some(Alfil),
        Some(Caballo),
        Some(Torre),
    ];
    for level in [0, 2] {
        for (column, kind) in (0..8).zip(back) {
            if let Some(kind) = kind {
                put(level, 0, column, Side::White, kind);
                put(level, 7, column, Side::Black, kind);
            }
        }
        for column in [0, 1, 2, 5, 6, 7] {
            put(level, 1, column, Side::White, Peon);
            put(level, 6, column, Side::Black, Peon);
        }
    }
    put(1, 0, 3, Side::White, Dama);
    put(1, 0, 4, Side::White, Rey);
    put(1, 1, 3, Side::White, Peon);
    put(1, 1, 4, Side::White, Peon);
    put(1, 6, 3, Side::Black, Peon);
    put(1, 6, 4, Side::Black, Peon);
    put(1, 7, 3, Side::Black, Dama);
    put(1, 7, 4, Side::Black, Rey);
    board
}
