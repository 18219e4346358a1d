//! ICCS coordinate moves: `h2e2` (files `a`–`i` from red's left, ranks `0`–`9` from
//! red's side). Also accepted on input: `h2-e2` and uppercase files (`H2-E2`), as
//! some older programs write.

use core::fmt;
use core::str::FromStr;

use crate::{Move, ParseSquareError, Square, Xiangqi};

/// An ICCS move as text says it, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IccsMove {
    /// The point the piece leaves.
    pub from: Square,
    /// The point it goes to.
    pub to: Square,
}

/// Why an ICCS move could not be read or played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IccsError {
    /// Not of the form `h2e2`.
    #[error("ICCS move {text:?}: {reason}")]
    Malformed {
        /// The text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// Well-formed but not a legal move in the position.
    #[error("ICCS move {mv}: {reason}")]
    Illegal {
        /// The move.
        mv: IccsMove,
        /// Why it cannot be played.
        reason: String,
    },
}

impl FromStr for IccsMove {
    type Err = IccsError;
    fn from_str(s: &str) -> Result<IccsMove, IccsError> {
        let malformed = |reason: String| IccsError::Malformed {
            text: s.to_owned(),
            reason,
        };
        if !s.is_ascii() {
            return Err(malformed("expected ASCII, e.g. \"h2e2\"".to_owned()));
        }
        let (from, to) = match s.len() {
            4 => (&s[..2], &s[2..]),
            5 if s.as_bytes()[2] == b'-' => (&s[..2], &s[3..]),
            _ => {
                return Err(malformed(
                    "expected two points, file a-i and rank 0-9 each, e.g. \"h2e2\"".to_owned(),
                ));
            }
        };
        let square = |t: &str| t.parse::<Square>().map_err(|ParseSquareError(t)| t);
        let from = square(from).map_err(|t| malformed(format!("bad from-point {t:?}")))?;
        let to = square(to).map_err(|t| malformed(format!("bad to-point {t:?}")))?;
        if from == to {
            return Err(malformed("from- and to-point are the same".to_owned()));
        }
        Ok(IccsMove { from, to })
    }
}

impl fmt::Display for IccsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl From<Move> for IccsMove {
    fn from(m: Move) -> IccsMove {
        IccsMove {
            from: m.from(),
            to: m.to(),
        }
    }
}

impl IccsMove {
    /// The legal move this names in `pos`.
    ///
    /// # Errors
    ///
    /// [`IccsError::Illegal`] saying why: no piece there, the opponent's piece, a
    /// move the piece cannot make, or one that leaves the general attacked.
    pub fn to_move(self, pos: &Xiangqi) -> Result<Move, IccsError> {
        let m = Move::new(self.from, self.to);
        if pos.is_legal(m) {
            return Ok(m);
        }
        let illegal = |reason: String| IccsError::Illegal { mv: self, reason };
        match pos.piece_at(self.from) {
            None => Err(illegal(format!("no piece on {}", self.from))),
            Some(p) if p.side != pos.turn() => Err(illegal(format!(
                "the {} on {} is {}'s, but it is {}'s turn",
                p.role.name(),
                self.from,
                crate::side_name(p.side),
                crate::side_name(pos.turn())
            ))),
            Some(p) if pos.piece_at(self.to).is_some_and(|q| q.side == p.side) => {
                Err(illegal(format!(
                    "{} is occupied by {}'s own piece",
                    self.to,
                    crate::side_name(p.side)
                )))
            }
            Some(p) if pos.pseudo_legal(m) => Err(illegal(format!(
                "the {} cannot move to {}: it would leave the general attacked",
                p.role.name(),
                self.to
            ))),
            Some(p) => Err(illegal(format!(
                "a {} on {} cannot move to {}",
                p.role.name(),
                self.from,
                self.to
            ))),
        }
    }
}
