//! Why a well-formed move is not legal: the rule that forbids it, as a [`Refusal`].
//!
//! Runs only on the refusal path (after the legal move generator said no), so it may be
//! slow and plain: it replays the rules one by one for the one move in question.

use tablero_core::Refusal;

use crate::attacks::{between, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::{Bitboard, Chess, File, Move, Rank, Role, Side, Square};

/// The English name of a role, as used in refusal parameters.
#[must_use]
pub(crate) const fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The square of `squares` nearest to `from`.
fn nearest(squares: Bitboard, from: Square) -> Option<Square> {
    squares.into_iter().min_by_key(|&sq| from.distance(sq))
}

impl Chess {
    /// Why moving from `from` to `to` (promoting to `promotion`) is not legal here.
    ///
    /// Castling is recognised as the king moving two files to the c or g file, or onto
    /// its own rook. If the move is in fact legal, the answer is
    /// [`Refusal::Unexplained`] (callers ask only about refused moves).
    #[must_use]
    pub fn explain_refusal(&self, from: Square, to: Square, promotion: Option<Role>) -> Refusal {
        let board = self.board();
        let us = self.turn();
        let text = || {
            let mut s = format!("{from}{to}");
            if let Some(role) = promotion {
                s.push(role.char());
            }
            s
        };
        if self.legal_moves().is_empty() {
            return Refusal::GameOver;
        }
        let Some(piece) = board.piece_at(from) else {
            return Refusal::NoPieceOnSquare {
                square: from.to_string(),
            };
        };
        if piece.side != us {
            return Refusal::NotYourPiece {
                square: from.to_string(),
            };
        }
        if piece.role == Role::King
            && let Some(rook) = self.castling_rook_for(from, to)
        {
            if promotion.is_some() {
                return Refusal::InvalidPromotion;
            }
            return self.explain_castling(from, rook);
        }
        if from == to {
            return Refusal::PieceCannotMoveSo {
                piece: role_name(piece.role).to_owned(),
                from: from.to_string(),
                to: to.to_string(),
            };
        }
        if board.side_at(to) == Some(us) {
            return Refusal::OwnPieceOnSquare {
                square: to.to_string(),
            };
        }
        let last_rank = match us {
            Side::White => Rank::EIGHTH,
            Side::Black => Rank::FIRST,
        };
        let promotes = piece.role == Role::Pawn && to.rank() == last_rank;
        if promotion.is_some() && !promotes {
            return Refusal::InvalidPromotion;
        }
        if let Some(refusal) = self.explain_geometry(piece.role, from, to) {
            return refusal;
        }
        if promotes && promotion.is_none() {
            return Refusal::PromotionRequired;
        }
        // The piece can go there: the king's safety forbids it.
        if piece.role == Role::King {
            return Refusal::LeavesKingInCheck;
        }
        if self.is_check() {
            return Refusal::KingInCheck;
        }
        if self.pinned(self.king_of(us)).contains(from) {
            return Refusal::PinnedPiece {
                square: from.to_string(),
            };
        }
        if piece.role == Role::Pawn && from.file() != to.file() {
            // En passant that would uncover the king along the rank.
            return Refusal::LeavesKingInCheck;
        }
        Refusal::Unexplained { text: text() }
    }

    /// Why castling with the king on `king` and the rook on `rook` is refused.
    #[must_use]
    pub fn explain_castling(&self, king: Square, rook: Square) -> Refusal {
        let board = self.board();
        if !self.castling_rooks().contains(rook) {
            return Refusal::CastlingRightsLost;
        }
        if self.is_check() {
            return Refusal::CastlingOutOfCheck;
        }
        let back = king.rank();
        let short = rook.file() > king.file();
        let king_to = Square::from_coords(if short { File::G } else { File::C }, back);
        let rook_to = Square::from_coords(if short { File::F } else { File::D }, back);
        let movers = Bitboard::from_square(king) | Bitboard::from_square(rook);
        let must_be_empty = (between(king, rook) | between(king, king_to) | between(rook, rook_to))
            .with(king_to)
            .with(rook_to)
            & !movers;
        if let Some(sq) = nearest(board.occupied() & must_be_empty, king) {
            return Refusal::CastlingPathBlocked {
                square: sq.to_string(),
            };
        }
        let them = !self.turn();
        let without_king = board.occupied().without(king);
        let mut path: Vec<Square> = between(king, king_to).with(king_to).into_iter().collect();
        path.sort_by_key(|&sq| king.distance(sq));
        let after = (board.occupied() & !movers).with(king_to).with(rook_to);
        for sq in path {
            let occupied = if sq == king_to { after } else { without_king };
            if board.is_attacked(sq, them, occupied) {
                return Refusal::CastlingThroughCheck {
                    square: sq.to_string(),
                };
            }
        }
        Refusal::Unexplained {
            text: format!("{king}{rook}"),
        }
    }

    /// The rook a king move from `from` to `to` castles with, if it reads as castling:
    /// onto an own rook on the back rank, or two or more files to the c or g file.
    fn castling_rook_for(&self, from: Square, to: Square) -> Option<Square> {
        let board = self.board();
        let us = self.turn();
        let back = match us {
            Side::White => Rank::FIRST,
            Side::Black => Rank::EIGHTH,
        };
        if from.rank() != back || to.rank() != back {
            return None;
        }
        if board
            .piece_at(to)
            .is_some_and(|p| p.side == us && p.role == Role::Rook)
        {
            return Some(to);
        }
        let files = from.file().index().abs_diff(to.file().index());
        if files < 2 || !(to.file() == File::C || to.file() == File::G) {
            return None;
        }
        let short = to.file() > from.file();
        let on_side = |sq: Square| (sq.file() > from.file()) == short;
        // The rook with the right, else the outermost own rook on that side.
        let rights = self.castling_rooks() & Bitboard::rank(back);
        if let Some(rook) = rights.into_iter().find(|&sq| on_side(sq)) {
            return Some(rook);
        }
        let rooks = board.by_role(Role::Rook) & board.by_side(us) & Bitboard::rank(back);
        let outer = Square::from_coords(if short { File::H } else { File::A }, back);
        Some(
            rooks
                .into_iter()
                .filter(|&sq| on_side(sq))
                .max_by_key(|&sq| from.distance(sq))
                .unwrap_or(outer),
        )
    }

    /// The geometric reason a `role` cannot go from `from` to `to`, ignoring the
    /// king's safety; `None` when it can.
    fn explain_geometry(&self, role: Role, from: Square, to: Square) -> Option<Refusal> {
        let board = self.board();
        let occupied = board.occupied();
        let cannot = || {
            Some(Refusal::PieceCannotMoveSo {
                piece: role_name(role).to_owned(),
                from: from.to_string(),
                to: to.to_string(),
            })
        };
        let blocked = |squares: Bitboard| {
            nearest(squares, from).map(|sq| Refusal::PathBlocked {
                square: sq.to_string(),
            })
        };
        match role {
            Role::Pawn => {
                let (forward, start): (i32, Rank) = match self.turn() {
                    Side::White => (1, Rank::new(1)?),
                    Side::Black => (-1, Rank::new(6)?),
                };
                let dr = to.rank().index() as i32 - from.rank().index() as i32;
                let df = to.file().index() as i32 - from.file().index() as i32;
                if df == 0 && dr == forward {
                    return blocked(Bitboard::from_square(to) & occupied);
                }
                if df == 0 && dr == 2 * forward && from.rank() == start {
                    return blocked((between(from, to).with(to)) & occupied);
                }
                if df.abs() == 1 && dr == forward {
                    let ep = self.ep_square() == Some(to);
                    if !occupied.contains(to) && !ep {
                        return Some(Refusal::PawnCapturesOnlyDiagonally {
                            square: to.to_string(),
                        });
                    }
                    return None;
                }
                cannot()
            }
            Role::Knight => {
                if knight_attacks(from).contains(to) {
                    None
                } else {
                    cannot()
                }
            }
            Role::King => {
                if king_attacks(from).contains(to) {
                    None
                } else {
                    cannot()
                }
            }
            Role::Bishop | Role::Rook | Role::Queen => {
                let reach = match role {
                    Role::Bishop => bishop_attacks(from, Bitboard::EMPTY),
                    Role::Rook => rook_attacks(from, Bitboard::EMPTY),
                    _ => {
                        bishop_attacks(from, Bitboard::EMPTY) | rook_attacks(from, Bitboard::EMPTY)
                    }
                };
                if !reach.contains(to) {
                    return cannot();
                }
                blocked(between(from, to) & occupied)
            }
        }
    }

    /// Why `m` (a move value, e.g. from a saved game) is not legal here.
    #[must_use]
    pub fn explain_move(&self, m: Move) -> Refusal {
        if m.is_castle() {
            return self.explain_castling(m.from(), m.to());
        }
        self.explain_refusal(m.from(), m.to(), m.promotion_role())
    }
}
