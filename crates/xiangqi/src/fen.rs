//! Xiangqi FEN: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Ranks from black's back rank (9) down to red's (0), files `a`–`i`; red uppercase.
//! The third and fourth fields (chess's castling and en passant) are always `-`.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

use crate::{Piece, PositionError, Setup, Square, Xiangqi};

/// The starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a xiangqi FEN could not be read. Each message names the field and the bad text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// Too few or too many fields.
    #[error(
        "FEN has {0} fields; expected 2 to 6 (board, side, \"-\", \"-\", halfmoves, fullmoves)"
    )]
    FieldCount(usize),
    /// The piece placement is malformed.
    #[error("board field {value:?}: {reason}")]
    Board {
        /// The whole field.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// The side to move is not `w`/`r` (red) or `b` (black).
    #[error("side-to-move field {0:?}: expected \"w\" (red) or \"b\" (black)")]
    Turn(String),
    /// The third or fourth field is not `-`.
    #[error("field {index} {value:?}: expected \"-\" (xiangqi has no castling or en passant)")]
    Unused {
        /// 3 or 4.
        index: usize,
        /// The text found.
        value: String,
    },
    /// The halfmove clock is not a non-negative number.
    #[error("halfmove clock field {0:?}: expected a number of plies (0 or more)")]
    Halfmoves(String),
    /// The move number is not a non-negative number.
    #[error("fullmove number field {0:?}: expected a move number (1 or more)")]
    Fullmoves(String),
    /// The FEN is well-formed but the position breaks a rule.
    #[error("illegal position: {0}")]
    Position(#[from] PositionError),
}

/// A parsed FEN: a [`Setup`] that has not been checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fen(pub Setup);

impl Fen {
    /// The position this FEN describes.
    ///
    /// # Errors
    ///
    /// [`FenError::Position`] if the setup is not a legal position.
    pub fn into_position(self) -> Result<Xiangqi, FenError> {
        Ok(Xiangqi::from_setup(self.0)?)
    }
}

fn parse_board(field: &str) -> Result<[Option<Piece>; 90], FenError> {
    let err = |reason: String| FenError::Board {
        value: field.to_owned(),
        reason,
    };
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 10 {
        return Err(err(format!("{} ranks; expected 10", rows.len())));
    }
    let mut board = [None; 90];
    for (row_index, row) in rows.iter().enumerate() {
        let rank = 9 - row_index as u32;
        let mut file = 0u32;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(err(format!(
                        "rank {rank} ({row:?}): '0' is not a run of empty points"
                    )));
                }
                file += d;
            } else if let Some(piece) = Piece::from_fen_char(c) {
                if let Some(sq) = Square::from_coords(file, rank) {
                    board[sq.index()] = Some(piece);
                }
                file += 1;
            } else {
                return Err(err(format!("rank {rank} ({row:?}): unexpected {c:?}")));
            }
            if file > 9 {
                return Err(err(format!("rank {rank} ({row:?}) has more than 9 points")));
            }
        }
        if file < 9 {
            return Err(err(format!(
                "rank {rank} ({row:?}) has {file} points; expected 9"
            )));
        }
    }
    Ok(board)
}

impl FromStr for Fen {
    type Err = FenError;

    /// Reads a xiangqi FEN. The board and side fields are required; the two `-`
    /// fields and the counters may be left out (counters then default to 0 and 1).
    fn from_str(s: &str) -> Result<Fen, FenError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(2..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" | "r" | "W" | "R" => Side::White,
            "b" | "B" => Side::Black,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        for index in [2, 3] {
            if let Some(&value) = fields.get(index)
                && value != "-"
            {
                return Err(FenError::Unused {
                    index: index + 1,
                    value: value.to_owned(),
                });
            }
        }
        let halfmoves = match fields.get(4) {
            Some(h) => h
                .parse()
                .map_err(|_| FenError::Halfmoves((*h).to_owned()))?,
            None => 0,
        };
        let fullmoves = match fields.get(5) {
            Some(n) => n
                .parse::<u32>()
                .map_err(|_| FenError::Fullmoves((*n).to_owned()))?
                .max(1),
            None => 1,
        };
        Ok(Fen(Setup {
            board,
            turn,
            halfmoves,
            fullmoves,
        }))
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.0;
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                let piece = Square::from_coords(file, rank).and_then(|sq| setup.piece_at(sq));
                match piece {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.fen_char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} - - {} {}",
            setup.turn.char(),
            setup.halfmoves,
            setup.fullmoves
        )
    }
}

impl Xiangqi {
    /// Reads a position from a xiangqi FEN.
    ///
    /// # Errors
    ///
    /// [`FenError`] naming the malformed field, or the rule the position breaks.
    pub fn from_fen(fen: &str) -> Result<Xiangqi, FenError> {
        fen.parse::<Fen>()?.into_position()
    }

    /// The position's FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        Fen(self.to_setup()).to_string()
    }
}
