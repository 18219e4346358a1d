//! What can go wrong reading PGN, and where.

use core::fmt;
use std::io;

use crate::{FenError, SanError};

/// A game that could not be read: which game, where in its movetext, and why.
///
/// Displays as `game 3, ply 17 (24...Nf3): illegal move Nf3: ...`. After such an
/// error the [`Reader`](super::Reader) goes on with the next game (except after an
/// I/O error, which ends the stream).
#[derive(Debug)]
pub struct PgnError {
    /// The game's number in the input, from 1 (games with errors count).
    pub game: u64,
    /// The ply (half-move, from 1 at the game's start, counted along the line the
    /// error is in) of the move at fault, or the number of plies read so far for
    /// errors between moves. `None` in the tag section.
    pub ply: Option<u32>,
    /// The move at fault with its number, as in `24...Nf3`, if a move is at fault.
    pub at_move: Option<String>,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// Why a game could not be read. Each message names the offending text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A tag pair is not `[Name "value"]`.
    #[error("tag {name:?}: {reason}")]
    BadTag {
        /// The tag name (as far as it could be read).
        name: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The `FEN` tag is not a legal position.
    #[error("FEN tag {fen:?}: {error}")]
    BadFen {
        /// The tag's value.
        fen: String,
        /// Why it was rejected.
        error: FenError,
    },
    /// The `Variant` tag names a variant other than standard chess and Chess960.
    #[error("Variant tag {0:?}: only standard chess and Chess960 are supported")]
    UnknownVariant(String),
    /// A move is malformed, illegal or ambiguous.
    #[error(transparent)]
    Move(#[from] SanError),
    /// `$n` with n over 255, `$` without digits, or an unknown glyph.
    #[error("annotation {0:?}: expected $0 to $255 or a glyph such as !? or +-")]
    BadNag(String),
    /// A character that has no place in movetext (`}`, `]`, `"`).
    #[error("unexpected {0:?} in the movetext")]
    Unexpected(char),
    /// A `{` comment still open at the end of the input.
    #[error("comment opened with '{{' is not closed before the end of the input")]
    UnterminatedComment,
    /// A `)` with no open variation.
    #[error("')' without a matching '('")]
    UnmatchedParenthesis,
    /// Variations still open when the game ended.
    #[error("{0} variation(s) opened with '(' not closed before the end of the game")]
    UnclosedVariation(usize),
    /// A `(` before any move of its line: a variation replaces the move before it.
    #[error("'(' before any move: a variation must follow the move it replaces")]
    VariationWithoutMove,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`](super::MAX_VARIATION_DEPTH).
    #[error("variations nested more than {limit} deep")]
    VariationTooDeep {
        /// The limit.
        limit: usize,
    },
    /// A comment, tag or move longer than the reader keeps.
    #[error("{what} starting {start:?} is longer than {limit} bytes")]
    TokenTooLong {
        /// `comment`, `tag name`, `tag value` or `move`.
        what: &'static str,
        /// Its first characters.
        start: String,
        /// The limit.
        limit: usize,
    },
    /// More tags than [`MAX_TAGS`](super::MAX_TAGS).
    #[error("more than {limit} tags")]
    TooManyTags {
        /// The limit.
        limit: usize,
    },
    /// The game would take more than [`MAX_GAME_SIZE`](super::MAX_GAME_SIZE) bytes.
    #[error("game larger than {limit} bytes")]
    GameTooLarge {
        /// The limit.
        limit: usize,
    },
    /// Reading the input failed; the reader stops.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
}

impl PgnError {
    /// Whether this is an I/O error (after which the reader yields nothing more).
    #[must_use]
    pub fn is_io(&self) -> bool {
        matches!(self.kind, PgnErrorKind::Io(_))
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        match (self.ply, &self.at_move) {
            (Some(ply), Some(at)) => write!(f, ", ply {ply} ({at})")?,
            (Some(ply), None) => write!(f, ", after ply {ply}")?,
            (None, _) => {}
        }
        write!(f, ": {}", self.kind)
    }
}

// The message already includes the kind's (and so any I/O error's) text.
impl std::error::Error for PgnError {}
