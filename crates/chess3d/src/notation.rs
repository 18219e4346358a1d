//! Move notation (§6): the coordinate form `0B5-0C5` and the original short form
//! `P-0-C4`, parsed into a context-free [`Chess3dMove`] and then resolved against a
//! position.

use core::fmt;
use core::str::FromStr;

use tablero_core::Refusal;

use crate::{Chess3d, Kind, Move, Square};

/// A move as written, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Chess3dMove {
    /// The exact coordinate form `<level><square>-<level><square>`, e.g. `0B5-0C5`.
    Coordinate {
        /// The source square.
        from: Square,
        /// The destination square.
        to: Square,
    },
    /// The short form `<letter>-<level>-<square>`, e.g. `P-0-C4`: a piece kind and a
    /// destination. Among the legal moves of that kind to that square, the one whose
    /// source comes first in scan order is meant.
    Short {
        /// The kind of the moving piece.
        kind: Kind,
        /// The destination square.
        to: Square,
    },
}

/// Which square of a move a notation error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MovePart {
    /// The source (first square of the coordinate form).
    Source,
    /// The destination (second square of the coordinate form, the square of the short
    /// form).
    Destination,
}

impl fmt::Display for MovePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MovePart::Source => "source",
            MovePart::Destination => "destination",
        })
    }
}

/// Why a move text was refused. Each message says which part is wrong: the form, the
/// piece letter, a level, a square, or that no such legal move exists.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Chess3dMoveError {
    /// Nothing at all.
    #[error("empty move")]
    Empty,
    /// Neither the coordinate form nor the short form.
    #[error(
        "move {text:?}: expected the coordinate form <level><square>-<level><square> (0B5-0C5) or the short form <letter>-<level>-<square> (P-0-C4)"
    )]
    Form {
        /// The text given.
        text: String,
    },
    /// The short form's piece letter is not one of `P A C T D R`.
    #[error("move {text:?}: piece letter {letter:?}: expected P, A, C, T, D or R")]
    PieceLetter {
        /// The text given.
        text: String,
        /// The letter part.
        letter: String,
    },
    /// A level is not `0`, `1` or `2`.
    #[error("move {text:?}: {part} level {level:?}: expected 0, 1 or 2")]
    Level {
        /// The text given.
        text: String,
        /// Which square's level.
        part: MovePart,
        /// The level part.
        level: String,
    },
    /// A square is not a row letter `A`–`H` and a column digit `1`–`8`.
    #[error(
        "move {text:?}: {part} square {square:?}: expected a row letter A-H and a column digit 1-8, like C4"
    )]
    Square {
        /// The text given.
        text: String,
        /// Which square.
        part: MovePart,
        /// The square part.
        square: String,
    },
    /// Well-formed, but no legal move of this position fits.
    #[error("no such legal move {text}: {refusal}")]
    NoSuchMove {
        /// The move as parsed (canonical spelling).
        text: String,
        /// The rule that forbids it.
        refusal: Box<Refusal>,
    },
}

impl Chess3dMoveError {
    /// The refusal with its stable code: `malformed_move` or the rule broken.
    #[must_use]
    pub fn refusal(&self) -> Refusal {
        match self {
            Chess3dMoveError::NoSuchMove { refusal, .. } => (**refusal).clone(),
            Chess3dMoveError::Empty => Refusal::MalformedMove {
                text: String::new(),
                reason: self.to_string(),
            },
            Chess3dMoveError::Form { text }
            | Chess3dMoveError::PieceLetter { text, .. }
            | Chess3dMoveError::Level { text, .. }
            | Chess3dMoveError::Square { text, .. } => Refusal::MalformedMove {
                text: text.clone(),
                reason: self.to_string(),
            },
        }
    }
}

impl FromStr for Chess3dMove {
    type Err = Chess3dMoveError;

    /// Reads either form, letters in either case. A text starting with a digit is read
    /// as the coordinate form, one starting with a letter as the short form.
    fn from_str(text: &str) -> Result<Chess3dMove, Chess3dMoveError> {
        match text.chars().next() {
            None => Err(Chess3dMoveError::Empty),
            Some(c) if c.is_ascii_digit() => parse_coordinate(text),
            Some(c) if c.is_ascii_alphabetic() => parse_short(text),
            Some(_) => Err(Chess3dMoveError::Form {
                text: text.to_owned(),
            }),
        }
    }
}

/// Reads `<level><row><column>`; `part` names it in errors.
fn parse_square(text: &str, part: MovePart, whole: &str) -> Result<Square, Chess3dMoveError> {
    let mut chars = text.chars();
    let level_char = chars.next();
    let level =
        level_char
            .and_then(Square::parse_level)
            .ok_or_else(|| Chess3dMoveError::Level {
                text: whole.to_owned(),
                part,
                level: level_char.map(String::from).unwrap_or_default(),
            })?;
    let rest = chars.as_str();
    parse_row_column(level, rest, part, whole)
}

fn parse_row_column(
    level: u8,
    text: &str,
    part: MovePart,
    whole: &str,
) -> Result<Square, Chess3dMoveError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(r), Some(c), None) => Square::parse_row_column(r, c),
        _ => None,
    }
    .and_then(|(row, column)| Square::new(level, row, column))
    .ok_or_else(|| Chess3dMoveError::Square {
        text: whole.to_owned(),
        part,
        square: text.to_owned(),
    })
}

fn parse_coordinate(text: &str) -> Result<Chess3dMove, Chess3dMoveError> {
    let Some((from, to)) = text.split_once('-') else {
        return Err(Chess3dMoveError::Form {
            text: text.to_owned(),
        });
    };
    let from = parse_square(from, MovePart::Source, text)?;
    let to = parse_square(to, MovePart::Destination, text)?;
    Ok(Chess3dMove::Coordinate { from, to })
}

fn parse_short(text: &str) -> Result<Chess3dMove, Chess3dMoveError> {
    let parts: Vec<&str> = text.split('-').collect();
    let [letter, level, square] = parts[..] else {
        return Err(Chess3dMoveError::Form {
            text: text.to_owned(),
        });
    };
    let mut letters = letter.chars();
    let kind = match (letters.next(), letters.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Kind::from_char(c),
        _ => None,
    }
    .ok_or_else(|| Chess3dMoveError::PieceLetter {
        text: text.to_owned(),
        letter: letter.to_owned(),
    })?;
    let mut levels = level.chars();
    let level = match (levels.next(), levels.next()) {
        (Some(c), None) => Square::parse_level(c),
        _ => None,
    }
    .ok_or_else(|| Chess3dMoveError::Level {
        text: text.to_owned(),
        part: MovePart::Destination,
        level: level.to_owned(),
    })?;
    let to = parse_row_column(level, square, MovePart::Destination, text)?;
    Ok(Chess3dMove::Short { kind, to })
}

impl fmt::Display for Chess3dMove {
    /// Uppercase letters: `0B5-0C5` or `P-0-C4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chess3dMove::Coordinate { from, to } => write!(f, "{from}-{to}"),
            Chess3dMove::Short { kind, to } => write!(
                f,
                "{}-{}-{}{}",
                kind.char(),
                to.level(),
                to.row_char(),
                to.column_char()
            ),
        }
    }
}

impl Chess3dMove {
    /// Reads the coordinate form only (`0B5-0C5`, letters in either case).
    ///
    /// # Errors
    ///
    /// [`Chess3dMoveError`] naming the malformed part.
    pub fn parse_coordinate(text: &str) -> Result<Chess3dMove, Chess3dMoveError> {
        if text.is_empty() {
            return Err(Chess3dMoveError::Empty);
        }
        parse_coordinate(text)
    }

    /// Reads the short form only (`P-0-C4`, letters in either case).
    ///
    /// # Errors
    ///
    /// [`Chess3dMoveError`] naming the malformed part.
    pub fn parse_short(text: &str) -> Result<Chess3dMove, Chess3dMoveError> {
        if text.is_empty() {
            return Err(Chess3dMoveError::Empty);
        }
        parse_short(text)
    }

    /// The coordinate form of `m`.
    #[must_use]
    pub const fn coordinate(m: Move) -> Chess3dMove {
        Chess3dMove::Coordinate {
            from: m.from(),
            to: m.to(),
        }
    }

    /// The short form of `m` in `pos`, or `None` if no piece stands on its source.
    ///
    /// The short form names only the kind and the destination, so when another legal
    /// move of the same kind to the same square starts earlier in scan order, the short
    /// form reads back as that move (the rule book's tie rule).
    #[must_use]
    pub fn short(pos: &Chess3d, m: Move) -> Option<Chess3dMove> {
        let kind = pos.board().kind_at(m.from())?;
        Some(Chess3dMove::Short { kind, to: m.to() })
    }

    /// The legal move of `pos` this text means.
    ///
    /// # Errors
    ///
    /// [`Chess3dMoveError::NoSuchMove`] saying why no legal move fits.
    pub fn to_move(self, pos: &Chess3d) -> Result<Move, Chess3dMoveError> {
        let no_such = |refusal: Refusal| Chess3dMoveError::NoSuchMove {
            text: self.to_string(),
            refusal: Box::new(refusal),
        };
        match self {
            Chess3dMove::Coordinate { from, to } => {
                let m = Move::new(from, to);
                if pos.is_legal(m) {
                    return Ok(m);
                }
                Err(no_such(pos.explain_refusal(from, to)))
            }
            Chess3dMove::Short { kind, to } => pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.to() == to && pos.board().kind_at(m.from()) == Some(kind))
                .ok_or_else(|| no_such(self.explain_short(pos, kind, to))),
        }
    }
}

impl Chess3dMove {
    /// Why no `kind` of the side to move can go to `to`: the rule forbidding the move
    /// of the first such piece that could otherwise go there, else that none can.
    fn explain_short(self, pos: &Chess3d, kind: Kind, to: Square) -> Refusal {
        if pos.legal_moves().is_empty() {
            return Refusal::GameOver;
        }
        let side = pos.turn();
        for from in Square::all() {
            let ours = pos
                .board()
                .piece_at(from)
                .is_some_and(|p| p.side == side && p.kind == kind);
            if !ours {
                continue;
            }
            let refusal = pos.explain_refusal(from, to);
            if !matches!(refusal, Refusal::PieceCannotMoveSo { .. }) {
                return refusal;
            }
        }
        Refusal::NoSuchPiece {
            piece: crate::refusal::kind_name(kind).to_owned(),
            mv: self.to_string(),
        }
    }
}

impl Chess3d {
    /// Reads a move in either notation (case-insensitive) and resolves it here.
    ///
    /// # Errors
    ///
    /// [`Chess3dMoveError`] saying which part is malformed, or that no legal move fits.
    pub fn parse_move(&self, text: &str) -> Result<Move, Chess3dMoveError> {
        text.parse::<Chess3dMove>()?.to_move(self)
    }

    /// `m` in coordinate form, e.g. `0B5-0C5` (the move format of saved games and
    /// move lists).
    #[must_use]
    pub fn coordinate(&self, m: Move) -> String {
        m.to_string()
    }

    /// `m` in the short form, e.g. `P-0-C4` (the display notation); a move that does
    /// not start on a piece is written in coordinate form. See [`Chess3dMove::short`]
    /// for ties.
    #[must_use]
    pub fn short(&self, m: Move) -> String {
        match Chess3dMove::short(self, m) {
            Some(short) => short.to_string(),
            None => m.to_string(),
        }
    }
}
