//! Position strings (§8 of the rule book):
//! `<level 0>|<level 1>|<level 2> <side> <quiet plies> <move number> <rng>`.

use core::fmt;
use core::str::FromStr;

use tablero_core::Side;

use crate::{Board, Chess3d, LEVELS, Piece, Setup, Square};

/// The position string of the start position (§3) with generator state 0.
pub const START_POSITION: &str = "tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT|3dr3/3pp3/8/8/8/8/3PP3/3DR3|tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT b 0 1 0000000000000000";

/// Why a position string could not be read. Every message names the field and quotes
/// the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionStringError {
    /// Nothing at all.
    #[error("empty position string")]
    Empty,
    /// Fields not separated by exactly one space (leading, trailing or double spaces).
    #[error("position string {0:?}: fields must be separated by single spaces")]
    Spacing(String),
    /// Not five fields.
    #[error(
        "position string has {0} fields; expected 5 (levels, side, quiet plies, move number, rng)"
    )]
    FieldCount(usize),
    /// The placement field does not have three levels separated by `|`.
    #[error("levels field {value:?}: {count} levels separated by '|'; expected 3")]
    LevelCount {
        /// The whole field.
        value: String,
        /// How many `|`-separated parts it has.
        count: usize,
    },
    /// One level's placement is malformed.
    #[error("level {level} field {value:?}: {reason}")]
    Level {
        /// The level, 0..3.
        level: usize,
        /// The level's text.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// The side to move is not `w` or `b`.
    #[error("side field {0:?}: expected \"w\" or \"b\"")]
    Side(String),
    /// The quiet-ply count is not a number of 0 or more.
    #[error("quiet plies field {0:?}: expected a number of plies (0 or more)")]
    QuietPlies(String),
    /// The move number is not a number of 1 or more.
    #[error("move number field {0:?}: expected a move number (1 or more)")]
    MoveNumber(String),
    /// The generator state is not exactly 16 lowercase hexadecimal digits.
    #[error("rng field {0:?}: expected exactly 16 lowercase hex digits")]
    Rng(String),
}

/// A parsed position string: a [`Setup`] with `FromStr` and `Display`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PositionString(pub Setup);

impl FromStr for PositionString {
    type Err = PositionStringError;

    fn from_str(text: &str) -> Result<PositionString, PositionStringError> {
        if text.is_empty() {
            return Err(PositionStringError::Empty);
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.iter().any(|f| f.is_empty()) {
            return Err(PositionStringError::Spacing(text.to_owned()));
        }
        let [levels, side, quiet, number, rng] = fields[..] else {
            return Err(PositionStringError::FieldCount(fields.len()));
        };
        let board = parse_levels(levels)?;
        let turn = match side {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(PositionStringError::Side(other.to_owned())),
        };
        let quiet_plies =
            parse_number(quiet).ok_or_else(|| PositionStringError::QuietPlies(quiet.to_owned()))?;
        let move_number = parse_number(number)
            .filter(|&n| n >= 1)
            .ok_or_else(|| PositionStringError::MoveNumber(number.to_owned()))?;
        let rng = parse_rng(rng).ok_or_else(|| PositionStringError::Rng(rng.to_owned()))?;
        Ok(PositionString(Setup {
            board,
            turn,
            quiet_plies,
            move_number,
            rng,
        }))
    }
}

fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_rng(text: &str) -> Option<u64> {
    let ok = text.len() == 16 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if ok {
        u64::from_str_radix(text, 16).ok()
    } else {
        None
    }
}

fn parse_levels(field: &str) -> Result<Board, PositionStringError> {
    let levels: Vec<&str> = field.split('|').collect();
    if levels.len() != LEVELS {
        return Err(PositionStringError::LevelCount {
            value: field.to_owned(),
            count: levels.len(),
        });
    }
    let mut board = Board::empty();
    for (level, text) in levels.into_iter().enumerate() {
        parse_level(&mut board, level, text).map_err(|reason| PositionStringError::Level {
            level,
            value: text.to_owned(),
            reason,
        })?;
    }
    Ok(board)
}

fn parse_level(board: &mut Board, level: usize, text: &str) -> Result<(), String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("{} rows separated by '/'; expected 8", rows.len()));
    }
    for (i, row_text) in rows.into_iter().enumerate() {
        let row = 7 - i as u8;
        let name = char::from(b'A' + row);
        let mut column = 0u32;
        let mut previous_digit = false;
        for c in row_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(format!(
                        "row {name}: '{c}' is not a count of 1 to 8 empty squares"
                    ));
                }
                if previous_digit {
                    return Err(format!("row {name}: two digits in a row"));
                }
                previous_digit = true;
                column += d;
            } else if let Some(piece) = Piece::from_char(c) {
                previous_digit = false;
                if column >= 8 {
                    return Err(format!("row {name} describes more than 8 squares"));
                }
                let sq = Square::new(level as u8, row, column as u8)
                    .ok_or_else(|| format!("row {name} describes more than 8 squares"))?;
                board.set(sq, Some(piece));
                column += 1;
            } else {
                return Err(format!("row {name}: unexpected character {c:?}"));
            }
            if column > 8 {
                return Err(format!("row {name} describes more than 8 squares"));
            }
        }
        if column != 8 {
            return Err(format!("row {name} describes {column} squares; expected 8"));
        }
    }
    Ok(())
}

impl fmt::Display for PositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.0;
        for level in 0..LEVELS as u8 {
            if level > 0 {
                f.write_str("|")?;
            }
            for row in (0..8).rev() {
                let mut empty = 0;
                for column in 0..8 {
                    let piece =
                        Square::new(level, row, column).and_then(|sq| setup.board.piece_at(sq));
                    match piece {
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
                if row > 0 {
                    f.write_str("/")?;
                }
            }
        }
        write!(
            f,
            " {} {} {} {:016x}",
            setup.turn.char(),
            setup.quiet_plies,
            setup.move_number,
            setup.rng
        )
    }
}

impl Chess3d {
    /// Reads a position string (§8).
    ///
    /// # Errors
    ///
    /// [`PositionStringError`] naming the malformed field and its text.
    pub fn from_position_string(text: &str) -> Result<Chess3d, PositionStringError> {
        let PositionString(setup) = text.parse()?;
        Ok(Chess3d::from_setup(setup).expect("the parser rejects move number 0"))
    }

    /// The position string (§8) of this position.
    #[must_use]
    pub fn position_string(&self) -> String {
        PositionString(self.to_setup()).to_string()
    }
}

impl FromStr for Chess3d {
    type Err = PositionStringError;

    fn from_str(text: &str) -> Result<Chess3d, PositionStringError> {
        Chess3d::from_position_string(text)
    }
}

impl fmt::Display for Chess3d {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&PositionString(self.to_setup()), f)
    }
}
