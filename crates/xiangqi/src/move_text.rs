//! A move in whichever notation the text is written: ICCS, WXF or Chinese.

use crate::{ChineseError, IccsError, IccsMove, Move, WxfError, Xiangqi};

/// Why a move in any notation could not be read or played: the error of the notation
/// the text looks like.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// ICCS-shaped text (`h2e2`) that is not legal here.
    #[error(transparent)]
    Iccs(#[from] IccsError),
    /// Text read as WXF (`C2.5`).
    #[error(transparent)]
    Wxf(#[from] WxfError),
    /// Text starting with a Chinese character (`炮二平五`).
    #[error(transparent)]
    Chinese(#[from] ChineseError),
}

impl MoveTextError {
    /// The refusal with its stable code: `malformed_move`, `ambiguous_move` or the
    /// rule broken.
    #[must_use]
    pub fn refusal(&self) -> tablero_core::Refusal {
        match self {
            MoveTextError::Iccs(e) => e.refusal(),
            MoveTextError::Wxf(e) => e.refusal(),
            MoveTextError::Chinese(e) => e.refusal(),
        }
    }
}

impl Xiangqi {
    /// Reads a move in ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) or Chinese (`炮二平五`),
    /// whichever the text is, and resolves it here.
    ///
    /// # Errors
    ///
    /// [`MoveTextError`]: ICCS's error for ICCS-shaped text, Chinese's for text that
    /// starts with a Chinese character, WXF's otherwise.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        if let Ok(iccs) = text.parse::<IccsMove>() {
            return Ok(iccs.to_move(self)?);
        }
        if text.chars().next().is_some_and(|c| c >= '\u{4E00}') {
            return Ok(self.parse_chinese(text)?);
        }
        Ok(self.parse_wxf(text)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_names_the_same_move() {
        let pos = Xiangqi::new();
        let central_cannon = pos.parse_move("h2e2");
        assert!(central_cannon.is_ok());
        for text in ["H2-E2", "C2.5", "c2=5", "炮二平五", "砲二平五"] {
            assert_eq!(pos.parse_move(text), central_cannon, "{text}");
        }
        assert!(matches!(
            pos.parse_move("h2h8"),
            Err(MoveTextError::Iccs(_))
        ));
        assert!(matches!(pos.parse_move("Q8+7"), Err(MoveTextError::Wxf(_))));
        assert!(matches!(
            pos.parse_move("炮二平"),
            Err(MoveTextError::Chinese(_))
        ));
    }
}
