//! Forsyth–Edwards Notation, with X-FEN and Shredder-FEN castling fields for Chess960.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

use crate::{
    Bitboard, Board, CastlingMode, Chess, File, Piece, PositionError, Rank, Role, Setup, Square,
};

/// Why a FEN could not be read. Each message names the field and the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// Too few or too many space-separated fields.
    #[error(
        "FEN has {0} fields; expected 4 to 6 (board, side, castling, en passant, halfmoves, fullmoves)"
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
    /// The side to move is not `w` or `b`.
    #[error("side-to-move field {0:?}: expected \"w\" or \"b\"")]
    Turn(String),
    /// The castling field is malformed or names rooks that are not there.
    #[error("castling field {value:?}: {reason}")]
    Castling {
        /// The whole field.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// The en passant field is not `-` or a square.
    #[error("en passant field {0:?}: expected \"-\" or a square on rank 3 or 6")]
    EnPassant(String),
    /// The halfmove clock is not a non-negative number.
    #[error("halfmove clock field {0:?}: expected a number of plies (0 or more)")]
    Halfmoves(String),
    /// The fullmove number is not a non-negative number.
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
    /// [`FenError::Position`] if the setup is not a legal position for `mode`.
    pub fn into_position(self, mode: CastlingMode) -> Result<Chess, FenError> {
        Ok(Chess::from_setup(self.0, mode)?)
    }

    /// The FEN of `pos`, castling written as KQkq in standard chess and X-FEN in
    /// Chess960 (`KQkq` for the outermost rooks, a file letter otherwise).
    #[must_use]
    pub fn from_position(pos: &Chess) -> Fen {
        Fen(pos.to_setup())
    }
}

impl FromStr for Fen {
    type Err = FenError;

    fn from_str(text: &str) -> Result<Fen, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        let castling_rooks = parse_castling(fields[2], &board)?;
        let ep_square = match fields[3] {
            "-" => None,
            text => match text.parse::<Square>() {
                Ok(sq) if sq.rank() == Rank::THIRD || sq.rank() == Rank::SIXTH => Some(sq),
                _ => return Err(FenError::EnPassant(text.to_owned())),
            },
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(text) => {
                parse_number(text).ok_or_else(|| FenError::Halfmoves((*text).to_owned()))?
            }
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(text) => parse_number(text)
                .ok_or_else(|| FenError::Fullmoves((*text).to_owned()))?
                .max(1),
        };
        Ok(Fen(Setup {
            board,
            turn,
            castling_rooks,
            ep_square,
            halfmoves,
            fullmoves,
        }))
    }
}

fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_board(field: &str) -> Result<Board, FenError> {
    let bad = |reason: String| FenError::Board {
        value: field.to_owned(),
        reason,
    };
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(bad(format!(
            "{} ranks separated by '/'; expected 8",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank_no = 8 - i as u32;
        let mut file = 0u32;
        let mut previous_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(bad(format!(
                        "rank {rank_no}: '{c}' is not a count of 1 to 8 empty squares"
                    )));
                }
                if previous_digit {
                    return Err(bad(format!("rank {rank_no}: two digits in a row")));
                }
                previous_digit = true;
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                previous_digit = false;
                match (File::new(file), Rank::new(rank_no - 1)) {
                    (Some(f), Some(r)) => board.set(Square::from_coords(f, r), piece),
                    _ => return Err(bad(format!("rank {rank_no} describes more than 8 squares"))),
                }
                file += 1;
            } else {
                return Err(bad(format!("rank {rank_no}: unexpected character '{c}'")));
            }
            if file > 8 {
                return Err(bad(format!("rank {rank_no} describes more than 8 squares")));
            }
        }
        if file != 8 {
            return Err(bad(format!(
                "rank {rank_no} describes {file} squares; expected 8"
            )));
        }
    }
    Ok(board)
}

fn parse_castling(field: &str, board: &Board) -> Result<Bitboard, FenError> {
    let bad = |reason: String| FenError::Castling {
        value: field.to_owned(),
        reason,
    };
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut rooks = Bitboard::EMPTY;
    for c in field.chars() {
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        let back = if side == Side::White {
            Rank::FIRST
        } else {
            Rank::EIGHTH
        };
        let own_rooks = board.by_piece(Piece {
            side,
            role: Role::Rook,
        }) & Bitboard::rank(back);
        let rook = match c {
            'K' | 'Q' | 'k' | 'q' => {
                let Some(king) = board.king_of(side).filter(|k| k.rank() == back) else {
                    return Err(bad(format!(
                        "'{c}' but the {side} king is not on its back rank"
                    )));
                };
                let short = c.eq_ignore_ascii_case(&'k');
                let candidates = own_rooks.filter(|r| (r.file() > king.file()) == short);
                // X-FEN: K and Q name the outermost rook on that side of the king.
                let outermost = if short {
                    candidates.last()
                } else {
                    candidates.min()
                };
                outermost.ok_or_else(|| {
                    bad(format!(
                        "'{c}' but no {side} rook on the {} side of the king",
                        if short { "h" } else { "a" }
                    ))
                })?
            }
            _ => match File::from_char(c) {
                Some(file) => Square::from_coords(file, back),
                None => {
                    return Err(bad(format!(
                        "unexpected '{c}' (expected KQkq, file letters or '-')"
                    )));
                }
            },
        };
        if rooks.contains(rook) {
            return Err(bad(format!("'{c}' repeats a castling right")));
        }
        rooks = rooks.with(rook);
    }
    Ok(rooks)
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.0;
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match setup.board.piece_at(Square::from_index(rank * 8 + file)) {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.char())?;
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
        write!(f, " {} ", setup.turn.char())?;
        write_castling(f, setup)?;
        match setup.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
    }
}

fn write_castling(f: &mut fmt::Formatter<'_>, setup: &Setup) -> fmt::Result {
    let mut any = false;
    for side in Side::ALL {
        let back = if side == Side::White {
            Rank::FIRST
        } else {
            Rank::EIGHTH
        };
        let Some(king) = setup.board.king_of(side) else {
            continue;
        };
        let own_rooks = setup.board.by_piece(Piece {
            side,
            role: Role::Rook,
        }) & Bitboard::rank(back);
        let mut rights: Vec<Square> = (setup.castling_rooks & Bitboard::rank(back)).collect();
        rights.sort_by_key(|sq| core::cmp::Reverse(sq.file()));
        for rook in rights {
            let short = rook.file() > king.file();
            let wing = own_rooks.filter(|r| (r.file() > king.file()) == short);
            let outermost = if short { wing.last() } else { wing.min() };
            let c = if outermost == Some(rook) {
                if short { 'k' } else { 'q' }
            } else {
                rook.file().char()
            };
            let c = if side == Side::White {
                c.to_ascii_uppercase()
            } else {
                c
            };
            write!(f, "{c}")?;
            any = true;
        }
    }
    if !any {
        f.write_str("-")?;
    }
    Ok(())
}

impl Chess {
    /// Parses a FEN and checks the position.
    ///
    /// # Errors
    ///
    /// [`FenError`] naming the malformed field, or the rule the position breaks.
    pub fn from_fen(fen: &str, mode: CastlingMode) -> Result<Chess, FenError> {
        fen.parse::<Fen>()?.into_position(mode)
    }

    /// The FEN of this position.
    #[must_use]
    pub fn fen(&self) -> String {
        Fen::from_position(self).to_string()
    }
}

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
