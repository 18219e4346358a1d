//! Why a well-formed move is not legal: the rule of `specs/chess3d.md` §4 that forbids
//! it, as a [`Refusal`]. Runs only on the refusal path, after the generator said no.

use tablero_core::Refusal;

use crate::{Chess3d, Kind, Side, Square};

/// The English name of a kind (the Spanish piece names of the rule book).
pub(crate) const fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Peon => "peon",
        Kind::Alfil => "alfil",
        Kind::Caballo => "caballo",
        Kind::Torre => "torre",
        Kind::Dama => "dama",
        Kind::Rey => "rey",
    }
}

impl Chess3d {
    /// Why the move from `from` to `to` is not legal here: the rule it breaks.
    /// For a legal move the answer is [`Refusal::Unexplained`].
    #[must_use]
    pub fn explain_refusal(&self, from: Square, to: Square) -> Refusal {
        let board = self.board();
        let us = self.turn();
        let unexplained = || Refusal::Unexplained {
            text: format!("{from}-{to}"),
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
        if board.side_at(to) == Some(us) {
            return Refusal::OwnPieceOnSquare {
                square: to.to_string(),
            };
        }
        let cannot = || Refusal::PieceCannotMoveSo {
            piece: kind_name(piece.kind).to_owned(),
            from: from.to_string(),
            to: to.to_string(),
        };
        if from.level() != to.level() {
            let level_move = from.level().abs_diff(to.level()) == 1
                && from.row() == to.row()
                && from.column() == to.column();
            if !level_move {
                return cannot();
            }
            if board.piece_at(to).is_some() {
                return Refusal::LevelMoveNeverCaptures {
                    square: to.to_string(),
                };
            }
            return match piece.kind {
                Kind::Peon | Kind::Caballo => Refusal::NoLevelMove {
                    piece: kind_name(piece.kind).to_owned(),
                },
                Kind::Alfil => Refusal::AlfilLevelMoveNeedsPartner,
                Kind::Torre => Refusal::TorreLevelMoveNeedsPartner,
                Kind::Dama => Refusal::DamaLevelMoveNeedsKing,
                Kind::Rey => unexplained(),
            };
        }
        let dr = i32::from(to.row()) - i32::from(from.row());
        let dc = i32::from(to.column()) - i32::from(from.column());
        let at = |r: i32, c: i32| {
            let row = u8::try_from(i32::from(from.row()) + r).ok()?;
            let column = u8::try_from(i32::from(from.column()) + c).ok()?;
            Square::new(u8::try_from(from.level()).ok()?, row, column)
        };
        let blocked = |sq: Option<Square>| {
            sq.filter(|&sq| board.piece_at(sq).is_some())
                .map(|sq| Refusal::PathBlocked {
                    square: sq.to_string(),
                })
        };
        // The first occupied square strictly between, for a slide.
        let slide = |orthogonal: bool, diagonal: bool| {
            let straight = (dr == 0) != (dc == 0);
            let slanted = dr != 0 && dr.abs() == dc.abs();
            if !((orthogonal && straight) || (diagonal && slanted)) {
                return Some(cannot());
            }
            let steps = dr.abs().max(dc.abs());
            (1..steps).find_map(|k| blocked(at(k * dr.signum(), k * dc.signum())))
        };
        let refusal = match piece.kind {
            Kind::Alfil => slide(true, false),
            Kind::Torre => slide(false, true),
            Kind::Rey => slide(true, true),
            Kind::Dama => {
                let ok = (dr.abs() <= 2 && dc.abs() <= 2)
                    && (dr == 0 || dc == 0 || dr.abs() == dc.abs());
                (!ok).then(cannot)
            }
            Kind::Caballo => match (dr.abs(), dc.abs()) {
                (2, 1) => blocked(at(dr.signum(), 0)).or_else(|| blocked(at(dr, 0))),
                (1, 2) => blocked(at(0, dc.signum())).or_else(|| blocked(at(0, dc))),
                _ => Some(cannot()),
            },
            Kind::Peon => {
                let forward = match us {
                    Side::White => 1,
                    Side::Black => -1,
                };
                let occupied = board.piece_at(to).is_some();
                match (dr * forward, dc.abs()) {
                    (1, 0) if !occupied => None,
                    (-1, 1) if occupied => None,
                    (1, 0) if occupied => Some(Refusal::PawnCapturesBackwardOnly),
                    (1, 1) if occupied => Some(Refusal::PawnCapturesBackwardOnly),
                    (1, 1) => Some(Refusal::PawnDiagonalStepNotAllowed),
                    _ => Some(cannot()),
                }
            }
        };
        refusal.unwrap_or_else(unexplained)
    }
}
