//! The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.

use core::fmt;
use core::str::FromStr;

use tablero_core::{Outcome, Side};

/// A PGN result: who won, if anyone, without the reason (PGN does not record it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished, abandoned or unknown.
    #[default]
    Unknown,
}

/// The text is not a PGN result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("result {0:?}: expected 1-0, 0-1, 1/2-1/2 or *")]
pub struct ParseGameResultError(pub String);

impl GameResult {
    /// The PGN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The winner: `Some(Some(side))`, `Some(None)` for a draw, `None` if unknown.
    #[must_use]
    pub const fn winner(self) -> Option<Option<Side>> {
        match self {
            GameResult::WhiteWins => Some(Some(Side::White)),
            GameResult::BlackWins => Some(Some(Side::Black)),
            GameResult::Draw => Some(None),
            GameResult::Unknown => None,
        }
    }
}

impl From<Outcome> for GameResult {
    fn from(outcome: Outcome) -> GameResult {
        match outcome.winner() {
            Some(Side::White) => GameResult::WhiteWins,
            Some(Side::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }
}

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    /// Reads the four PGN tokens, and `½-½` for a draw.
    fn from_str(text: &str) -> Result<GameResult, ParseGameResultError> {
        match text.trim() {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "\u{bd}-\u{bd}" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(ParseGameResultError(text.to_owned())),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
