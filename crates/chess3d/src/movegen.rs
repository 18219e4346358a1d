//! Legal move generation (§4 of the rule book): a per-piece generator that lists moves
//! in scan order, and a set-wise counter for perft's last ply.
//!
//! Moves never depend on the rest of the board beyond their level, except for three
//! cross-level conditions: level moves need an empty destination on the next level,
//! and a pawn's diagonal step needs a pawn of its colour on the same row and column of
//! another level. There is no check, so every pseudo-legal move is legal; the only
//! position-wide rule is that a position where a side has no dama has no moves.

use tablero_core::Side;

use crate::bitboard::{
    Bits, DAMA_TARGETS, DIAGONALS, NEIGHBOURS, ROW_B, ROW_G, ROW_OR_COLUMN, caballo_rays,
    diagonal_attacks, north, north_east, north_west, orthogonal_attacks, south, south_east,
    south_west,
};
use crate::{Chess3d, Kind, LEVELS, Move, MoveList, Piece, Square, attacks};

/// What one piece can do: destinations on its own level, and whether it may move one
/// level down or up.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Targets {
    pub(crate) same_level: u64,
    pub(crate) down: bool,
    pub(crate) up: bool,
}

impl Chess3d {
    /// Whether the game goes on by the dama rule: both sides still have a dama.
    #[inline(always)]
    pub(crate) fn both_damas(&self) -> bool {
        self.board.has_dama(Side::White) && self.board.has_dama(Side::Black)
    }

    /// Pawns of `side` on `level` that have a pawn of their colour on the same row and
    /// column of another level.
    #[inline(always)]
    fn stacked_pawns(&self, side: Side, level: usize) -> u64 {
        let pawn = Piece {
            side,
            kind: Kind::Peon,
        };
        let p = [
            self.board.pieces(pawn, 0),
            self.board.pieces(pawn, 1),
            self.board.pieces(pawn, 2),
        ];
        let others = match level {
            0 => p[1] | p[2],
            1 => p[0] | p[2],
            _ => p[0] | p[1],
        };
        p[level] & others
    }

    /// The moves of the piece of the side to move on `from`, which is of `kind`.
    #[inline(always)]
    pub(crate) fn piece_targets(&self, from: Square, kind: Kind) -> Targets {
        let us = self.turn;
        let level = from.level();
        let b = from.bit();
        let index = from.bit_index() as usize;
        let board = &self.board;
        let own = board.side(us, level);
        let enemy = board.side(!us, level);
        let empty = !(own | enemy);
        let same_level = match kind {
            Kind::Peon => {
                let stacked = self.stacked_pawns(us, level) & b != 0;
                match us {
                    Side::White => {
                        let diagonal = if stacked && b & ROW_B == 0 {
                            (north_east(b) | north_west(b)) & empty
                        } else {
                            0
                        };
                        (north(b) & empty) | diagonal | ((south_east(b) | south_west(b)) & enemy)
                    }
                    Side::Black => {
                        let diagonal = if stacked && b & ROW_G == 0 {
                            (south_east(b) | south_west(b)) & empty
                        } else {
                            0
                        };
                        (south(b) & empty) | diagonal | ((north_east(b) | north_west(b)) & enemy)
                    }
                }
            }
            Kind::Alfil => orthogonal_attacks(index, !empty) & !own,
            Kind::Torre => diagonal_attacks(index, !empty) & !own,
            Kind::Rey => {
                (orthogonal_attacks(index, !empty) | diagonal_attacks(index, !empty)) & !own
            }
            Kind::Dama => DAMA_TARGETS[index] & !own,
            Kind::Caballo => attacks::caballo(index, !empty) & !own,
        };
        let own_kind = |k: Kind| board.pieces(Piece { side: us, kind: k }, level);
        let may_change_level = match kind {
            Kind::Peon | Kind::Caballo => false,
            Kind::Alfil => DIAGONALS[index] & own_kind(Kind::Alfil) != 0,
            Kind::Torre => ROW_OR_COLUMN[index] & own_kind(Kind::Torre) != 0,
            Kind::Dama => NEIGHBOURS[index] & own_kind(Kind::Rey) != 0,
            Kind::Rey => true,
        };
        Targets {
            same_level,
            down: may_change_level && level > 0 && board.occupied(level - 1) & b == 0,
            up: may_change_level && level + 1 < LEVELS && board.occupied(level + 1) & b == 0,
        }
    }

    /// Appends the moves of the piece on `from` in scan order of destination: level
    /// down, then its own level, then level up.
    #[inline(always)]
    fn push_piece_moves(&self, from: Square, kind: Kind, moves: &mut MoveList) {
        let t = self.piece_targets(from, kind);
        let level = from.level();
        if t.down
            && let Some(to) = from.down()
        {
            moves.push(Move::new(from, to));
        }
        for bit in Bits(t.same_level) {
            moves.push(Move::new(from, Square::from_level_bit(level, bit)));
        }
        if t.up
            && let Some(to) = from.up()
        {
            moves.push(Move::new(from, to));
        }
    }

    /// Clears `moves` and lists every legal move, sorted by source then destination in
    /// scan order.
    pub(crate) fn generate(&self, moves: &mut MoveList) {
        moves.clear();
        if !self.both_damas() {
            return;
        }
        let us = self.turn;
        for level in 0..LEVELS {
            for bit in Bits(self.board.side(us, level)) {
                let from = Square::from_level_bit(level, bit);
                if let Some(kind) = self.board.kind_at(from) {
                    self.push_piece_moves(from, kind, moves);
                }
            }
        }
    }

    /// Whether `m` is a legal move here, checking only the moving piece.
    pub(crate) fn is_legal_move(&self, m: Move) -> bool {
        let from = m.from();
        let to = m.to();
        if !self.both_damas() || self.board.side_at(from) != Some(self.turn) {
            return false;
        }
        let Some(kind) = self.board.kind_at(from) else {
            return false;
        };
        let t = self.piece_targets(from, kind);
        if to.level() == from.level() {
            t.same_level & to.bit() != 0
        } else {
            (t.down && from.down() == Some(to)) || (t.up && from.up() == Some(to))
        }
    }

    /// The number of legal moves, counted without listing them: pawns and caballos
    /// set-wise (every direction maps sources to destinations one to one, so the
    /// popcounts of the per-direction target sets add up to the number of moves),
    /// sliders and damas piece by piece.
    pub(crate) fn count(&self) -> u64 {
        if !self.both_damas() {
            return 0;
        }
        let us = self.turn;
        let board = &self.board;
        let own_of = |kind: Kind, level: usize| board.pieces(Piece { side: us, kind }, level);
        let occupied = [board.occupied(0), board.occupied(1), board.occupied(2)];
        let all_pawns = [
            own_of(Kind::Peon, 0),
            own_of(Kind::Peon, 1),
            own_of(Kind::Peon, 2),
        ];
        let mut total = 0u32;
        for level in 0..LEVELS {
            let own = board.side(us, level);
            let enemy = board.side(!us, level);
            let empty = !occupied[level];
            let not_own = !own;

            // Pawns.
            let pawns = all_pawns[level];
            if pawns != 0 {
                let stacked = pawns & (all_pawns[(level + 1) % 3] | all_pawns[(level + 2) % 3]);
                let (step, diagonal, capture) = match us {
                    Side::White => {
                        let d = stacked & !ROW_B;
                        (
                            north(pawns) & empty,
                            (north_east(d) & empty).count_ones()
                                + (north_west(d) & empty).count_ones(),
                            (south_east(pawns) & enemy).count_ones()
                                + (south_west(pawns) & enemy).count_ones(),
                        )
                    }
                    Side::Black => {
                        let d = stacked & !ROW_G;
                        (
                            south(pawns) & empty,
                            (south_east(d) & empty).count_ones()
                                + (south_west(d) & empty).count_ones(),
                            (north_east(pawns) & enemy).count_ones()
                                + (north_west(pawns) & enemy).count_ones(),
                        )
                    }
                };
                total += step.count_ones() + diagonal + capture;
            }

            // Sliders, piece by piece: alfil orthogonal, torre diagonal, rey both.
            let alfiles = own_of(Kind::Alfil, level);
            let torres = own_of(Kind::Torre, level);
            let reyes = own_of(Kind::Rey, level);
            let occupied_here = occupied[level];
            for bit in Bits(alfiles) {
                total += (orthogonal_attacks(bit as usize, occupied_here) & not_own).count_ones();
            }
            for bit in Bits(torres) {
                total += (diagonal_attacks(bit as usize, occupied_here) & not_own).count_ones();
            }
            for bit in Bits(reyes) {
                let sq = bit as usize;
                let attacks =
                    orthogonal_attacks(sq, occupied_here) | diagonal_attacks(sq, occupied_here);
                total += (attacks & not_own).count_ones();
            }

            let caballos = own_of(Kind::Caballo, level);
            if caballos != 0 {
                for ray in caballo_rays(caballos, empty) {
                    total += (ray & not_own).count_ones();
                }
            }

            // Damas: usually one, so a table lookup each beats sixteen shifted sets.
            let damas = own_of(Kind::Dama, level);
            for bit in Bits(damas) {
                total += (DAMA_TARGETS[bit as usize] & not_own).count_ones();
            }

            // Level moves: the pieces allowed to change level, times the free squares
            // above and below.
            let mut climbers = reyes;
            for bit in Bits(damas) {
                if NEIGHBOURS[bit as usize] & reyes != 0 {
                    climbers |= 1 << bit;
                }
            }
            if alfiles.count_ones() > 1 {
                for bit in Bits(alfiles) {
                    if DIAGONALS[bit as usize] & alfiles != 0 {
                        climbers |= 1 << bit;
                    }
                }
            }
            if torres.count_ones() > 1 {
                for bit in Bits(torres) {
                    if ROW_OR_COLUMN[bit as usize] & torres != 0 {
                        climbers |= 1 << bit;
                    }
                }
            }
            if level > 0 {
                total += (climbers & !occupied[level - 1]).count_ones();
            }
            if level + 1 < LEVELS {
                total += (climbers & !occupied[level + 1]).count_ones();
            }
        }
        u64::from(total)
    }
}
