//! Moves in the UCI protocol's long algebraic form: `e2e4`, `e7e8q`, `e1g1`.

use core::fmt;
use core::str::FromStr;

use tablero_core::Refusal;

use crate::{CastlingMode, Chess, Move, Role, Square};

/// A move as UCI writes it, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// From, to and an optional promotion role.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination (for castling: the king's destination, or the rook in Chess960).
        to: Square,
        /// Promotion role.
        promotion: Option<Role>,
    },
    /// `0000`, the null move.
    Null,
}

/// Why a UCI move was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UciMoveError {
    /// Not of the form `e2e4` / `e7e8q`.
    #[error("invalid UCI move {text:?}: {reason}")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Well-formed, but not a legal move here; `refusal` names the rule.
    #[error("illegal move {text}: {refusal}")]
    Illegal {
        /// The move as written.
        text: String,
        /// The rule that forbids it.
        refusal: Box<Refusal>,
    },
}

impl UciMoveError {
    /// The refusal with its stable code: `malformed_move` or the rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            UciMoveError::Syntax { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: (*reason).to_owned(),
            },
            UciMoveError::Illegal { refusal, .. } => (**refusal).clone(),
        }
    }
}

impl FromStr for UciMove {
    type Err = UciMoveError;

    fn from_str(text: &str) -> Result<UciMove, UciMoveError> {
        let bad = |reason| UciMoveError::Syntax {
            text: text.to_owned(),
            reason,
        };
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(bad("expected 4 or 5 characters like e2e4 or e7e8q"));
        }
        let from: Square = text[0..2]
            .parse()
            .map_err(|_| bad("the first two characters are not a square"))?;
        let to: Square = text[2..4]
            .parse()
            .map_err(|_| bad("characters 3 and 4 are not a square"))?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(char::from(c)) {
                Some(role @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                    if c.is_ascii_lowercase() =>
                {
                    Some(role)
                }
                _ => {
                    return Err(bad(
                        "the fifth character must be a promotion piece: q, r, b or n",
                    ));
                }
            },
        };
        Ok(UciMove::Normal {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(role) = promotion {
                    write!(f, "{}", role.char())?;
                }
                Ok(())
            }
            UciMove::Null => f.write_str("0000"),
        }
    }
}

impl UciMove {
    /// How `m` is written in UCI: castling as king to its destination in standard chess
    /// (`e1g1`) and as king takes rook in Chess960 (`e1h1`).
    #[must_use]
    pub fn from_move(m: Move, mode: CastlingMode) -> UciMove {
        let to = match mode {
            CastlingMode::Standard => m.king_destination(),
            CastlingMode::Chess960 => m.to(),
        };
        UciMove::Normal {
            from: m.from(),
            to,
            promotion: m.promotion_role(),
        }
    }

    /// The legal move of `pos` this text names. Castling is accepted both as king to
    /// destination (`e1g1`) and king takes rook (`e1h1`), in either mode, as long as it
    /// is not another legal move.
    ///
    /// # Errors
    ///
    /// [`UciMoveError::Illegal`] naming the rule if no legal move matches;
    /// [`UciMoveError::Syntax`] for the null move.
    pub fn to_move(self, pos: &Chess) -> Result<Move, UciMoveError> {
        let UciMove::Normal {
            from,
            to,
            promotion,
        } = self
        else {
            return Err(UciMoveError::Syntax {
                text: self.to_string(),
                reason: "the null move is not a move of the game",
            });
        };
        let moves = pos.legal_moves();
        let exact = moves.iter().find(|m| {
            !m.is_castle() && m.from() == from && m.to() == to && m.promotion_role() == promotion
        });
        let castle = || {
            moves.iter().find(|m| {
                m.is_castle()
                    && promotion.is_none()
                    && m.from() == from
                    && (m.to() == to || m.king_destination() == to)
            })
        };
        exact
            .or_else(castle)
            .copied()
            .ok_or_else(|| UciMoveError::Illegal {
                text: self.to_string(),
                refusal: Box::new(pos.explain_refusal(from, to, promotion)),
            })
    }
}

impl Chess {
    /// Parses and checks a UCI move.
    ///
    /// # Errors
    ///
    /// [`UciMoveError`]: malformed text or no such legal move.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciMoveError> {
        text.parse::<UciMove>()?.to_move(self)
    }

    /// `m` in UCI notation for this position's castling mode.
    #[must_use]
    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.castling_mode()).to_string()
    }
}
