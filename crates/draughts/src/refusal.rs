//! Why well-formed move text is not a legal move: the draughts rule that forbids it, as
//! a [`Refusal`]. Runs only on the refusal path, after the move generator said no; it
//! compares the text with the captures the rule set's choice rule excluded and then
//! walks the written path leg by leg.

use tablero_core::Refusal;

use crate::movegen::{free_captures, with_variant};
use crate::notation::is_subsequence;
use crate::{Draughts, KingRange, ManCaptures, Role, Side, SquareSet};

impl Draughts {
    /// Why the move written as `squares` (origin, landing squares…, destination;
    /// `capture`: written with `x`/`:`) is not legal here.
    ///
    /// For a legal move (or an empty list) the answer is [`Refusal::Unexplained`].
    #[must_use]
    pub fn explain_refusal(&self, squares: &[u8], capture: bool) -> Refusal {
        let unexplained = || Refusal::Unexplained {
            text: squares
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(if capture { "x" } else { "-" }),
        };
        let legal = self.legal_moves();
        if legal.is_empty() {
            return Refusal::GameOver;
        }
        let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
            return unexplained();
        };
        let Some(piece) = self.piece_at(from) else {
            return Refusal::NoPieceOnSquare {
                square: from.to_string(),
            };
        };
        if piece.side != self.turn() {
            return Refusal::NotYourPiece {
                square: from.to_string(),
            };
        }
        let landings = &squares[1..];
        let free = with_variant!(self.rule_set(), V => free_captures::<V>(self));
        let must_capture = !free.is_empty();
        // A capture the choice rule (majority, quality) excluded.
        let excluded = free.iter().filter(|m| {
            m.from() == from
                && m.to() == to
                && (landings.len() == 1 || is_subsequence(landings, &m.landings()))
        });
        if let Some(taken) = excluded.map(|m| m.capture_count()).max() {
            let required = legal.iter().map(|m| m.capture_count()).max().unwrap_or(0);
            return if taken < required {
                Refusal::MajorityCapture { required }
            } else {
                Refusal::CapturePriority
            };
        }
        // Stopped half-way through a capture: the text's landings begin a longer one.
        let stops_early = free.iter().any(|m| {
            let path = m.landings();
            m.from() == from
                && path.len() > landings.len()
                && (path[..landings.len()] == *landings
                    || (landings.len() == 1 && path.contains(&to)))
        });
        if stops_early {
            return Refusal::MustContinueCapture;
        }
        // Went on after the capture had to end (crowning).
        let goes_on = free.iter().any(|m| {
            let path = m.landings();
            m.from() == from
                && m.crowns()
                && path.len() < landings.len()
                && landings[..path.len()] == *path
        });
        if goes_on {
            return Refusal::CaptureEndsAtCrowning;
        }
        match self.explain_path(piece.role, squares, capture) {
            Some(refusal) => refusal,
            // Every leg is a fine jump, but the sequence is not a finished capture.
            None if must_capture && (capture || landings.len() > 1) => Refusal::MustContinueCapture,
            None if must_capture => Refusal::CaptureCompulsory,
            None => unexplained(),
        }
    }

    /// The movement rule a leg of the written path breaks, or `None` if every leg is a
    /// possible step or jump of this piece.
    fn explain_path(&self, role: Role, squares: &[u8], capture: bool) -> Option<Refusal> {
        let rules = self.rule_set().rules();
        let us = self.turn();
        let origin = squares[0];
        let name = match role {
            Role::Man => "man",
            Role::King => "king",
        };
        let forward = match us {
            Side::White => -1,
            Side::Black => 1,
        };
        let occupant = |n: u8| if n == origin { None } else { self.piece_at(n) };
        let multi = squares.len() > 2;
        let mut captured = SquareSet::EMPTY;
        for leg in squares.windows(2) {
            let (a, b) = (leg[0], leg[1]);
            let cannot = || Refusal::PieceCannotMoveSo {
                piece: name.to_owned(),
                from: a.to_string(),
                to: b.to_string(),
            };
            let (Some((c0, r0)), Some((c1, r1))) = (rules.square_coords(a), rules.square_coords(b))
            else {
                return Some(cannot());
            };
            let dc = i32::from(c1) - i32::from(c0);
            let dr = i32::from(r1) - i32::from(r0);
            if dc.abs() != dr.abs() || dc == 0 {
                return Some(cannot());
            }
            let distance = dc.abs();
            let backward = dr.signum() != forward;
            if occupant(b).is_some() {
                return Some(Refusal::SquareOccupied {
                    square: b.to_string(),
                });
            }
            let between: Vec<u8> = (1..distance)
                .filter_map(|k| {
                    let column = i32::from(c0) + k * dc.signum();
                    let row = i32::from(r0) + k * dr.signum();
                    rules.square_at(u8::try_from(column).ok()?, u8::try_from(row).ok()?)
                })
                .filter(|&n| occupant(n).is_some())
                .collect();
            let jump = capture || multi || !between.is_empty();
            if !jump {
                // A step.
                match role {
                    Role::Man if backward => return Some(Refusal::ManCannotMoveBackwards),
                    Role::Man if distance > 1 => return Some(cannot()),
                    Role::King if distance > 1 && rules.kings == KingRange::OneSquare => {
                        return Some(Refusal::KingMovesOneSquare);
                    }
                    _ => continue,
                }
            }
            let Some(&victim) = between.first() else {
                return Some(Refusal::NothingToCapture {
                    from: a.to_string(),
                    to: b.to_string(),
                });
            };
            if captured.contains(victim) {
                return Some(Refusal::CannotCaptureTwice {
                    square: victim.to_string(),
                });
            }
            let victim_piece = occupant(victim)?;
            if victim_piece.side == us {
                return Some(if between.len() == 1 && (capture || multi) {
                    Refusal::CannotJumpOwnPiece {
                        square: victim.to_string(),
                    }
                } else {
                    Refusal::PathBlocked {
                        square: victim.to_string(),
                    }
                });
            }
            if let Some(&second) = between.get(1) {
                return Some(if captured.contains(second) {
                    Refusal::CannotCaptureTwice {
                        square: second.to_string(),
                    }
                } else {
                    Refusal::PathBlocked {
                        square: second.to_string(),
                    }
                });
            }
            match role {
                Role::Man => {
                    if distance != 2 {
                        return Some(cannot());
                    }
                    if backward && rules.man_captures != ManCaptures::ForwardAndBackward {
                        return Some(Refusal::ManCannotCaptureBackwards);
                    }
                    if victim_piece.role == Role::King
                        && rules.man_captures == ManCaptures::ForwardMenOnly
                    {
                        return Some(Refusal::ManCannotCaptureKing);
                    }
                }
                Role::King => {
                    if distance != 2 && rules.kings == KingRange::OneSquare {
                        return Some(Refusal::KingMovesOneSquare);
                    }
                }
            }
            captured.insert(victim);
        }
        None
    }
}
