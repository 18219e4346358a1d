//! ICCS coordinate moves: `h2e2` (files `a`–`i` from red's left, ranks `0`–`9` from
//! red's side). Also accepted on input: `h2-e2` and uppercase files (`H2-E2`), as
//! some older programs write.

use core::fmt;
use core::str::FromStr;

use tablero_core::Refusal;

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
    #[error("ICCS move {mv}: {refusal}")]
    Illegal {
        /// The move.
        mv: IccsMove,
        /// The rule that forbids it.
        refusal: Box<Refusal>,
    },
}

impl IccsError {
    /// The refusal with its stable code: `malformed_move` or the rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            IccsError::Malformed { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: reason.clone(),
            },
            IccsError::Illegal { refusal, .. } => (**refusal).clone(),
        }
    }
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
    /// [`IccsError::Illegal`] naming the rule that forbids it (see
    /// [`Xiangqi::explain_refusal`]).
    pub fn to_move(self, pos: &Xiangqi) -> Result<Move, IccsError> {
        let m = Move::new(self.from, self.to);
        if pos.is_legal(m) {
            return Ok(m);
        }
        Err(IccsError::Illegal {
            mv: self,
            refusal: Box::new(pos.explain_refusal(self.from, self.to)),
        })
    }
}
