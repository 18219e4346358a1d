//! Standard Algebraic Notation: lenient parsing, minimal printing.

use core::fmt;
use core::str::FromStr;

use tablero_core::Refusal;

use crate::refusal::role_name;
use crate::{Bitboard, Chess, File, Move, Rank, Role, Side, Square};

/// A move in SAN, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move: `Nf3`, `exd5`, `R1e2`, `e8=Q`.
    Normal {
        /// The moving piece.
        role: Role,
        /// Origin file given for disambiguation (or a pawn capture's file).
        file: Option<File>,
        /// Origin rank given for disambiguation.
        rank: Option<Rank>,
        /// Whether an `x` was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion role.
        promotion: Option<Role>,
    },
    /// `O-O` (short, h-side) or `O-O-O` (long, a-side).
    Castle {
        /// `true` for `O-O`.
        short: bool,
    },
}

/// The check or mate sign after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SanSuffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

/// Why SAN text could not be turned into a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// The text is not SAN.
    #[error("invalid SAN {text:?}: {reason}")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// No legal move matches; `refusal` names the rule.
    #[error("illegal move {text}: {refusal}")]
    Illegal {
        /// The move as written.
        text: String,
        /// The rule that forbids it.
        refusal: Box<Refusal>,
    },
    /// More than one legal move matches.
    #[error("ambiguous move {text}: it could be {candidates}")]
    Ambiguous {
        /// The text given.
        text: String,
        /// The matching moves in UCI notation, comma-separated.
        candidates: String,
    },
    /// A pawn reaches the last rank without a promotion piece.
    #[error("move {0} reaches the last rank: name the promotion piece, e.g. {0}=Q")]
    MissingPromotion(String),
}

impl SanError {
    /// The refusal with its stable code: `malformed_move`, `ambiguous_move`,
    /// `promotion_required` or the rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            SanError::Syntax { text, reason } => Refusal::MalformedMove {
                text: text.clone(),
                reason: (*reason).to_owned(),
            },
            SanError::Illegal { refusal, .. } => (**refusal).clone(),
            SanError::Ambiguous { text, candidates } => Refusal::AmbiguousMove {
                text: text.clone(),
                candidates: candidates.split(", ").map(str::to_owned).collect(),
            },
            SanError::MissingPromotion(_) => Refusal::PromotionRequired,
        }
    }
}

impl FromStr for San {
    type Err = SanError;

    fn from_str(text: &str) -> Result<San, SanError> {
        let bad = |reason| SanError::Syntax {
            text: text.to_owned(),
            reason,
        };
        let mut s = text.trim();
        // Annotations, check signs and "e.p." carry no information for the move itself.
        s = s.trim_end_matches(['!', '?', '+', '#']);
        for ep in ["e.p.", "ep"] {
            if let Some(rest) = s.strip_suffix(ep) {
                s = rest.trim_end();
            }
        }
        s = s.trim_end_matches(['!', '?', '+', '#']);
        match s {
            "O-O" | "0-0" | "o-o" => return Ok(San::Castle { short: true }),
            "O-O-O" | "0-0-0" | "o-o-o" => return Ok(San::Castle { short: false }),
            "" => return Err(bad("empty move")),
            _ => {}
        }
        if !s.is_ascii() {
            return Err(bad("unexpected non-ASCII character"));
        }
        let mut bytes = s.as_bytes();
        let mut role = Role::Pawn;
        if let Some((&first, rest)) = bytes.split_first()
            && first.is_ascii_uppercase()
        {
            role = Role::from_char(char::from(first))
                .ok_or_else(|| bad("unknown piece letter (use K, Q, R, B, N)"))?;
            bytes = rest;
        }
        let mut promotion = None;
        if let Some((&last, rest)) = bytes.split_last()
            && last.is_ascii_alphabetic()
            && rest
                .last()
                .is_some_and(|c| c.is_ascii_digit() || *c == b'=')
        {
            promotion = match Role::from_char(char::from(last)) {
                Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => Some(r),
                _ => return Err(bad("promotion piece must be Q, R, B or N")),
            };
            bytes = rest.strip_suffix(b"=").unwrap_or(rest);
        } else if bytes.last() == Some(&b'=') {
            return Err(bad("'=' without a promotion piece"));
        }
        if bytes.len() < 2 {
            return Err(bad("no destination square"));
        }
        let (prefix, square) = bytes.split_at(bytes.len() - 2);
        let to = core::str::from_utf8(square)
            .ok()
            .and_then(|t| t.parse::<Square>().ok())
            .ok_or_else(|| bad("does not end with a destination square like e4"))?;
        let mut prefix = prefix;
        let mut capture = false;
        if let Some((&sep, rest)) = prefix.split_last()
            && matches!(sep, b'x' | b':' | b'-')
        {
            capture = sep != b'-';
            prefix = rest;
        }
        let (mut file, mut rank) = (None, None);
        match prefix {
            [] => {}
            [f @ b'a'..=b'h'] => file = File::from_char(char::from(*f)),
            [r @ b'1'..=b'8'] => rank = Rank::from_char(char::from(*r)),
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                file = File::from_char(char::from(*f));
                rank = Rank::from_char(char::from(*r));
            }
            _ => return Err(bad("unexpected characters before the destination")),
        }
        if role != Role::Pawn && promotion.is_some() {
            return Err(bad("only pawns promote"));
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl San {
    /// The legal move of `pos` this SAN names. The capture sign is not required to
    /// match (lenient input), but the piece, destination, disambiguation and promotion
    /// must name exactly one legal move.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] naming the rule, [`SanError::Ambiguous`] or
    /// [`SanError::MissingPromotion`].
    pub fn to_move(self, pos: &Chess) -> Result<Move, SanError> {
        let moves = pos.legal_moves();
        let board = pos.board();
        let mut found: Option<Move> = None;
        let mut candidates: Vec<Move> = Vec::new();
        let mut missing_promotion = false;
        for &m in &moves {
            let matches = match self {
                San::Castle { short } => m.is_castle() && m.is_castle_short() == short,
                San::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                    ..
                } => {
                    let same_piece_and_square = !m.is_castle()
                        && board.role_at(m.from()) == Some(role)
                        && m.to() == to
                        && file.is_none_or(|f| f == m.from().file())
                        && rank.is_none_or(|r| r == m.from().rank());
                    if same_piece_and_square && promotion.is_none() && m.promotion_role().is_some()
                    {
                        missing_promotion = true;
                    }
                    same_piece_and_square && m.promotion_role() == promotion
                }
            };
            if matches {
                candidates.push(m);
                found = Some(m);
            }
        }
        match (found, candidates.len()) {
            (Some(m), 1) => Ok(m),
            (Some(_), _) => Err(SanError::Ambiguous {
                text: self.to_string(),
                candidates: candidates
                    .iter()
                    .map(|&m| pos.uci(m))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
            (None, _) if missing_promotion => Err(SanError::MissingPromotion(self.to_string())),
            (None, _) => Err(SanError::Illegal {
                text: self.to_string(),
                refusal: Box::new(self.explain(pos)),
            }),
        }
    }

    /// Why no legal move of `pos` matches: the rule that forbids the move of the
    /// candidate piece (the first that could otherwise go there), else that none can.
    fn explain(self, pos: &Chess) -> Refusal {
        let board = pos.board();
        let us = pos.turn();
        match self {
            San::Castle { short } => {
                let king = pos.king_of(us);
                let back = match us {
                    Side::White => Rank::FIRST,
                    Side::Black => Rank::EIGHTH,
                };
                let rook = (pos.castling_rooks() & Bitboard::rank(back))
                    .into_iter()
                    .find(|sq| (sq.file() > king.file()) == short);
                match rook {
                    Some(rook) if king.rank() == back => pos.explain_castling(king, rook),
                    _ if pos.legal_moves().is_empty() => Refusal::GameOver,
                    _ => Refusal::CastlingRightsLost,
                }
            }
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let pieces = (board.by_role(role) & board.by_side(us))
                    .into_iter()
                    .filter(|sq| file.is_none_or(|f| f == sq.file()))
                    .filter(|sq| rank.is_none_or(|r| r == sq.rank()));
                for from in pieces {
                    let refusal = pos.explain_refusal(from, to, promotion);
                    let geometric = matches!(
                        refusal,
                        Refusal::PieceCannotMoveSo { .. }
                            | Refusal::CastlingRightsLost
                            | Refusal::OwnPieceOnSquare { .. }
                    );
                    if !geometric {
                        return refusal;
                    }
                }
                if pos.legal_moves().is_empty() {
                    return Refusal::GameOver;
                }
                if board.side_at(to) == Some(us) {
                    return Refusal::OwnPieceOnSquare {
                        square: to.to_string(),
                    };
                }
                Refusal::NoSuchPiece {
                    piece: role_name(role).to_owned(),
                    mv: self.to_string(),
                }
            }
        }
    }

    /// The SAN of the legal move `m` in `pos`, with the least disambiguation needed
    /// (file, then rank, then both). No check sign: see [`Chess::san`].
    #[must_use]
    pub fn from_move(pos: &Chess, m: Move) -> San {
        if m.is_castle() {
            return San::Castle {
                short: m.is_castle_short(),
            };
        }
        let board = pos.board();
        let role = board.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(m.from().file());
            }
        } else {
            let rivals: Vec<Square> = pos
                .legal_moves()
                .iter()
                .filter(|o| {
                    !o.is_castle()
                        && o.to() == m.to()
                        && o.from() != m.from()
                        && board.role_at(o.from()) == Some(role)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|r| r.file() != m.from().file()) {
                    file = Some(m.from().file());
                } else if rivals.iter().all(|r| r.rank() != m.from().rank()) {
                    rank = Some(m.from().rank());
                } else {
                    file = Some(m.from().file());
                    rank = Some(m.from().rank());
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to: m.to(),
            promotion: m.promotion_role(),
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle { short: true } => f.write_str("O-O"),
            San::Castle { short: false } => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(role) = promotion {
                    write!(f, "={}", role.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SanSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanSuffix::Check => "+",
            SanSuffix::Checkmate => "#",
        })
    }
}

impl Chess {
    /// Parses and checks a SAN move.
    ///
    /// # Errors
    ///
    /// [`SanError`]: malformed, illegal, ambiguous, or a promotion without its piece.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        text.parse::<San>()?.to_move(self)
    }

    /// The check or mate sign `m` earns.
    #[must_use]
    pub fn suffix_after(&self, m: Move) -> Option<SanSuffix> {
        let mut after = self.clone();
        after.play_unchecked(m);
        if !after.is_check() {
            None
        } else if after.count_moves() == 0 {
            Some(SanSuffix::Checkmate)
        } else {
            Some(SanSuffix::Check)
        }
    }

    /// The full SAN of the legal move `m`, with `+` or `#`.
    #[must_use]
    pub fn san(&self, m: Move) -> String {
        let san = San::from_move(self, m);
        match self.suffix_after(m) {
            Some(suffix) => format!("{san}{suffix}"),
            None => san.to_string(),
        }
    }
}
