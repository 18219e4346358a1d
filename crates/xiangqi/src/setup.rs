//! A position as written, before the rules check it.

use tablero_core::Side;

use crate::{Piece, Role, Square};

/// A placement, side to move and counters as a FEN gives them, not yet checked
/// against the rules. [`crate::Xiangqi::from_setup`] turns it into a playable
/// position or explains why not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each point, indexed by [`Square::index`].
    pub board: [Option<Piece>; 90],
    /// Side to move (red is `White`).
    pub turn: Side,
    /// Plies since the last capture, as the FEN's halfmove field gives it.
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after black's move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

impl Setup {
    /// The starting position.
    #[must_use]
    pub fn start() -> Setup {
        let mut board = [None; 90];
        let back = [
            Role::Chariot,
            Role::Horse,
            Role::Elephant,
            Role::Advisor,
            Role::General,
            Role::Advisor,
            Role::Elephant,
            Role::Horse,
            Role::Chariot,
        ];
        for side in Side::ALL {
            let rank = |r: u32| if side == Side::White { r } else { 9 - r };
            let mut put = |file: u32, r: u32, role: Role| {
                if let Some(sq) = Square::from_coords(file, rank(r)) {
                    board[sq.index()] = Some(Piece::new(side, role));
                }
            };
            for (file, role) in (0..).zip(back) {
                put(file, 0, role);
            }
            put(1, 2, Role::Cannon);
            put(7, 2, Role::Cannon);
            for file in [0, 2, 4, 6, 8] {
                put(file, 3, Role::Soldier);
            }
        }
        Setup {
            board,
            turn: Side::White,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// A board with no pieces, red to move, move 1.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            turn: Side::White,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
}
