//! Why a well-formed move is not legal: the xiangqi rule that forbids it, as a
//! [`Refusal`]. Runs only on the refusal path, after the move generator said no.

use tablero_core::Refusal;

use crate::{Move, Piece, Role, Side, Square, Xiangqi};

/// Whether `sq` lies in `side`'s palace.
const fn in_palace(side: Side, sq: Square) -> bool {
    let rank = sq.rank();
    let ranks_ok = match side {
        Side::White => rank <= 2,
        Side::Black => rank >= 7,
    };
    ranks_ok && sq.file() >= 3 && sq.file() <= 5
}

/// Whether `sq` lies on `side`'s own half (before the river).
const fn own_half(side: Side, sq: Square) -> bool {
    match side {
        Side::White => sq.rank() <= 4,
        Side::Black => sq.rank() >= 5,
    }
}

/// The points strictly between `from` and `to` on one file or rank, nearest first.
fn between(from: Square, to: Square) -> Vec<Square> {
    let df = (to.file() as i32 - from.file() as i32).signum();
    let dr = (to.rank() as i32 - from.rank() as i32).signum();
    let mut points = Vec::new();
    let mut sq = from;
    while let Some(next) = sq.offset(df, dr) {
        if next == to {
            break;
        }
        points.push(next);
        sq = next;
    }
    points
}

impl Xiangqi {
    /// Why the move from `from` to `to` is not legal here: the rule it breaks.
    /// For a legal move the answer is [`Refusal::Unexplained`].
    #[must_use]
    pub fn explain_refusal(&self, from: Square, to: Square) -> Refusal {
        let us = self.turn();
        if self.legal_moves().is_empty() {
            return Refusal::GameOver;
        }
        let Some(piece) = self.piece_at(from) else {
            return Refusal::NoPieceOnSquare {
                square: from.to_string(),
            };
        };
        if piece.side != us {
            return Refusal::NotYourPiece {
                square: from.to_string(),
            };
        }
        if self.piece_at(to).is_some_and(|p| p.side == us) {
            return Refusal::OwnPieceOnSquare {
                square: to.to_string(),
            };
        }
        if let Some(refusal) = self.explain_geometry(piece, from, to) {
            return refusal;
        }
        // The piece may go there; its general's safety forbids it.
        if self.generals_face_after(from, to) {
            return Refusal::FlyingGeneral;
        }
        if piece.role == Role::General {
            return Refusal::LeavesKingInCheck;
        }
        if self.is_check() {
            return Refusal::KingInCheck;
        }
        if !self.is_legal(Move::new(from, to)) {
            return Refusal::PinnedPiece {
                square: from.to_string(),
            };
        }
        Refusal::Unexplained {
            text: format!("{from}{to}"),
        }
    }

    /// Whether the two generals face each other on an open file after moving the
    /// piece on `from` to `to`.
    fn generals_face_after(&self, from: Square, to: Square) -> bool {
        let mut board = *self.board();
        board[to.index()] = board[from.index()];
        board[from.index()] = None;
        let general = |side| {
            Square::all().find(|&sq| board[sq.index()] == Some(Piece::new(side, Role::General)))
        };
        let (Some(red), Some(black)) = (general(Side::White), general(Side::Black)) else {
            return false;
        };
        red.file() == black.file()
            && between(red, black)
                .iter()
                .all(|sq| board[sq.index()].is_none())
    }

    /// The movement rule of `piece` that forbids `from`→`to`, or `None` if it allows
    /// it (ignoring the general's safety).
    fn explain_geometry(&self, piece: Piece, from: Square, to: Square) -> Option<Refusal> {
        let side = piece.side;
        let df = to.file() as i32 - from.file() as i32;
        let dr = to.rank() as i32 - from.rank() as i32;
        let (adf, adr) = (df.abs(), dr.abs());
        let cannot = || {
            Some(Refusal::PieceCannotMoveSo {
                piece: piece.role.name().to_owned(),
                from: from.to_string(),
                to: to.to_string(),
            })
        };
        let occupied = |sq: Square| self.piece_at(sq).is_some();
        match piece.role {
            Role::General | Role::Advisor => {
                let step = if piece.role == Role::General {
                    adf + adr == 1
                } else {
                    adf == 1 && adr == 1
                };
                if !step {
                    return cannot();
                }
                if !in_palace(side, to) {
                    return Some(Refusal::LeavesPalace {
                        piece: piece.role.name().to_owned(),
                    });
                }
                None
            }
            Role::Elephant => {
                if adf != 2 || adr != 2 {
                    return cannot();
                }
                if !own_half(side, to) {
                    return Some(Refusal::ElephantCannotCrossRiver);
                }
                let eye = from.offset(df / 2, dr / 2)?;
                occupied(eye).then(|| Refusal::ElephantEyeBlocked {
                    square: eye.to_string(),
                })
            }
            Role::Horse => {
                let leg = match (adf, adr) {
                    (1, 2) => from.offset(0, dr / 2)?,
                    (2, 1) => from.offset(df / 2, 0)?,
                    _ => return cannot(),
                };
                occupied(leg).then(|| Refusal::HorseLegBlocked {
                    square: leg.to_string(),
                })
            }
            Role::Chariot | Role::Cannon => {
                if df != 0 && dr != 0 {
                    return cannot();
                }
                let blockers: Vec<Square> = between(from, to)
                    .into_iter()
                    .filter(|&sq| occupied(sq))
                    .collect();
                let captures = occupied(to);
                if piece.role == Role::Cannon && captures {
                    let screens = u32::try_from(blockers.len()).unwrap_or(u32::MAX);
                    return (screens != 1).then_some(Refusal::CannonNeedsScreen { screens });
                }
                blockers.first().map(|sq| Refusal::PathBlocked {
                    square: sq.to_string(),
                })
            }
            Role::Soldier => {
                let forward = match side {
                    Side::White => 1,
                    Side::Black => -1,
                };
                if dr * forward < 0 {
                    return Some(Refusal::SoldierCannotRetreat);
                }
                match (adf, dr * forward) {
                    (0, 1) => None,
                    (1, 0) if own_half(side, from) => Some(Refusal::SoldierCannotMoveSideways),
                    (1, 0) => None,
                    _ => cannot(),
                }
            }
        }
    }
}
