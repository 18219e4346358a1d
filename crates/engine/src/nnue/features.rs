//! What a network sees of a position: one input per (side, piece kind, square),
//! numbered from each side's point of view.

use tablero_chess::{Chess, Role as ChessRole, Square as ChessSquare};
use tablero_core::{Position, Side};
use tablero_draughts::{Draughts, Role, RuleSet};
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
    /// The most pieces a position of the game holds (both sides): what a network's
    /// output buckets divide ([`crate::nnue::Network::output_bucket`]).
    const MAX_PIECES: usize;

    /// The pieces on the board, both sides'.
    fn piece_count(&self) -> usize;

    /// Calls `visit` with both views' inputs of every piece on the board.
    fn active_features(&self, visit: &mut dyn FnMut([usize; 2]));

    /// Calls `visit(added, inputs)` for each piece that is in `child` but not here
    /// (`added`) or here but not in `child`.
    fn changed_features(&self, child: &Self, visit: &mut dyn FnMut(bool, [usize; 2]));

    /// Whether the position turned left to right is worth the same (chess: when no
    /// side may castle any more); a trainer then learns from both images.
    fn is_mirror_symmetric(&self) -> bool;

    /// Whether a network of this game reads this position at all. Draughts networks
    /// are for International draughts only (the other rule sets play other games
    /// on other boards), so positions of other rule sets keep the hand evaluation.
    fn has_network_inputs(&self) -> bool {
        true
    }
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
    const MAX_PIECES: usize = 32;

    fn piece_count(&self) -> usize {
        self.board().occupied().count() as usize
    }

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
    const MAX_PIECES: usize = 32;

    fn piece_count(&self) -> usize {
        self.occupied().count() as usize
    }

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

/// International draughts: men then kings on the 50 squares, own pieces first. The
/// board turned half round maps square n to 51 − n, so Black's view of its own man on
/// 50 is White's view of a man on 1.
fn draughts_inputs(side: Side, king: bool, square: u8) -> [usize; 2] {
    let kind = usize::from(king) * 50;
    let square = usize::from(square);
    [
        side.index() * 100 + kind + square - 1,
        side.other().index() * 100 + kind + 50 - square,
    ]
}

impl NetworkInput for Draughts {
    const GAME: &'static str = "draughts";
    const FEATURES: usize = 200;
    const MAX_PIECES: usize = 40;

    fn piece_count(&self) -> usize {
        Side::ALL
            .iter()
            .map(|&side| self.men(side).len() + self.kings(side).len())
            .sum()
    }

    fn active_features(&self, visit: &mut dyn FnMut([usize; 2])) {
        if !self.has_network_inputs() {
            return;
        }
        for side in Side::ALL {
            for square in self.men(side).iter() {
                visit(draughts_inputs(side, false, square));
            }
            for square in self.kings(side).iter() {
                visit(draughts_inputs(side, true, square));
            }
        }
    }

    fn changed_features(&self, child: &Draughts, visit: &mut dyn FnMut(bool, [usize; 2])) {
        if !self.has_network_inputs() {
            return;
        }
        self.piece_changes(child, |piece, square, added| {
            visit(
                added,
                draughts_inputs(piece.side, piece.role == Role::King, square),
            );
        });
    }

    /// Turned left to right, the dark squares of a 10×10 board fall on light ones.
    fn is_mirror_symmetric(&self) -> bool {
        false
    }

    fn has_network_inputs(&self) -> bool {
        self.rule_set() == RuleSet::International
    }
}
