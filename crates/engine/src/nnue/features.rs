//! What a network sees of a position: one input per (side, piece kind, square),
//! numbered from each side's point of view.

use tablero_chess::{Chess, Role as ChessRole, Square as ChessSquare};
use tablero_core::{Position, Side};
use tablero_xiangqi::{
    Piece as XiangqiPiece, Role as XiangqiRole, Square as XiangqiSquare, Xiangqi,
};

/// A position a network can read.
///
/// Each piece is one input per view: `[white_view, black_view]`. A view numbers the
/// viewer's own pieces first and sees the board from its own side, so one set of
/// weights serves both sides.
pub trait NetworkInput: Position {
    /// The game's name in network files (`"chess"`, `"xiangqi"`).
    const GAME: &'static str;
    /// Inputs per view.
    const FEATURES: usize;

    /// Calls `visit` with both views' inputs of every piece on the board.
    fn active_features(&self, visit: &mut dyn FnMut([usize; 2]));

    /// Calls `visit(added, inputs)` for each piece that is in `child` but not here
    /// (`added`) or here but not in `child`.
    fn changed_features(&self, child: &Self, visit: &mut dyn FnMut(bool, [usize; 2]));

    /// Whether the position turned left to right is worth the same (chess: when no
    /// side may castle any more); a trainer then learns from both images.
    fn is_mirror_symmetric(&self) -> bool;
}

/// Own pieces first, then the opponent's; Black sees the board upside down.
fn chess_inputs(side: Side, role: ChessRole, sq: ChessSquare) -> [usize; 2] {
    let (square, role) = (sq.index() as usize, role.index());
    [
        side.index() * 384 + role * 64 + square,
        side.other().index() * 384 + role * 64 + (square ^ 56),
    ]
}

impl NetworkInput for Chess {
    const GAME: &'static str = "chess";
    const FEATURES: usize = 768;

    fn active_features(&self, visit: &mut dyn FnMut([usize; 2])) {
        let board = self.board();
        for side in Side::ALL {
            for role in ChessRole::ALL {
                for sq in board.by_side(side) & board.by_role(role) {
                    visit(chess_inputs(side, role, sq));
                }
            }
        }
    }

    fn changed_features(&self, child: &Chess, visit: &mut dyn FnMut(bool, [usize; 2])) {
        let (before, after) = (self.board(), child.board());
        for side in Side::ALL {
            for role in ChessRole::ALL {
                let old = before.by_side(side) & before.by_role(role);
                let new = after.by_side(side) & after.by_role(role);
                for sq in old & !new {
                    visit(false, chess_inputs(side, role, sq));
                }
                for sq in new & !old {
                    visit(true, chess_inputs(side, role, sq));
                }
            }
        }
    }

    fn is_mirror_symmetric(&self) -> bool {
        self.castling_rooks().is_empty()
    }
}

/// As for chess, on 90 points; Black sees the board with its own side at the bottom.
fn xiangqi_inputs(piece: XiangqiPiece, sq: XiangqiSquare) -> [usize; 2] {
    let role = piece.role.index();
    let point = sq.index();
    let turned = (9 - sq.rank() as usize) * 9 + sq.file() as usize;
    [
        piece.side.index() * 630 + role * 90 + point,
        piece.side.other().index() * 630 + role * 90 + turned,
    ]
}

impl NetworkInput for Xiangqi {
    const GAME: &'static str = "xiangqi";
    const FEATURES: usize = 1260;

    fn active_features(&self, visit: &mut dyn FnMut([usize; 2])) {
        for side in Side::ALL {
            for role in XiangqiRole::ALL {
                let piece = XiangqiPiece::new(side, role);
                for sq in self.by_piece(piece) {
                    visit(xiangqi_inputs(piece, sq));
                }
            }
        }
    }

    fn changed_features(&self, child: &Xiangqi, visit: &mut dyn FnMut(bool, [usize; 2])) {
        for side in Side::ALL {
            for role in XiangqiRole::ALL {
                let piece = XiangqiPiece::new(side, role);
                let (old, new) = (self.by_piece(piece), child.by_piece(piece));
                for sq in old & !new {
                    visit(false, xiangqi_inputs(piece, sq));
                }
                for sq in new & !old {
                    visit(true, xiangqi_inputs(piece, sq));
                }
            }
        }
    }

    fn is_mirror_symmetric(&self) -> bool {
        true
    }
}
