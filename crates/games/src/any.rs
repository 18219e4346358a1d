use tablero_chess::{CastlingMode, Chess, FenError, Move, SanError, UciMove, UciMoveError};
use tablero_core::{divide_with, perft};

use crate::CATALOG;

/// Why a request by game id could not be served. Messages are one line and name the
/// bad value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    /// No game has this id.
    #[error("unknown game {0:?} (games: chess, xiangqi, draughts, chess3d)")]
    UnknownGame(String),
    /// The game is in the catalog but this build cannot play it yet.
    #[error("game {0:?} is not available in this build yet")]
    Unavailable(String),
    /// The game has no such variant.
    #[error("unknown variant {variant:?} of {game} (variants: {known})")]
    UnknownVariant {
        /// The game id.
        game: String,
        /// The variant asked for.
        variant: String,
        /// The game's variants, comma-separated.
        known: String,
    },
    /// The position text is malformed or illegal.
    #[error("bad position: {0}")]
    Position(String),
    /// A move is malformed or illegal.
    #[error("move {index} ({text:?}): {reason}")]
    Move {
        /// 1-based index among the moves given.
        index: usize,
        /// The move text.
        text: String,
        /// Why it was refused.
        reason: String,
    },
}

/// A position of any tablero game: the one enum the server, store and command line use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyGame {
    /// Chess or Chess960.
    Chess(Chess),
}

impl AnyGame {
    /// The position of `game` (`variant` or the default) from `position` text in the
    /// game's position format, or the start position.
    ///
    /// # Errors
    ///
    /// Unknown or unavailable game, unknown variant, or a bad position.
    pub fn new(
        game: &str,
        variant: Option<&str>,
        position: Option<&str>,
    ) -> Result<AnyGame, GamesError> {
        let info = CATALOG
            .iter()
            .find(|g| g.id == game)
            .ok_or_else(|| GamesError::UnknownGame(game.to_owned()))?;
        let variant = variant.unwrap_or(info.default_variant());
        if !info.variants.iter().any(|v| v.id == variant) {
            return Err(GamesError::UnknownVariant {
                game: game.to_owned(),
                variant: variant.to_owned(),
                known: info
                    .variants
                    .iter()
                    .map(|v| v.id)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        match (game, variant) {
            ("chess", variant) => {
                let mode = if variant == "chess960" {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                let pos = match position {
                    Some(fen) => Chess::from_fen(fen, mode)
                        .map_err(|e: FenError| GamesError::Position(e.to_string()))?,
                    None => Chess::from_setup(tablero_chess::Setup::standard(), mode)
                        .map_err(|e| GamesError::Position(e.to_string()))?,
                };
                Ok(AnyGame::Chess(pos))
            }
            _ => Err(GamesError::Unavailable(game.to_owned())),
        }
    }

    /// The game id.
    #[must_use]
    pub fn game_id(&self) -> &'static str {
        match self {
            AnyGame::Chess(_) => "chess",
        }
    }

    /// The position in the game's position format (FEN for chess).
    #[must_use]
    pub fn position_text(&self) -> String {
        match self {
            AnyGame::Chess(pos) => pos.fen(),
        }
    }

    /// Leaf nodes of the legal-move tree `depth` plies deep.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        match self {
            AnyGame::Chess(pos) => perft(pos, depth),
        }
    }

    /// Perft split by root move (move format of the interfaces page), calling
    /// `progress` after each root move with the number done and the total.
    pub fn perft_divide(
        &self,
        depth: u32,
        mut progress: impl FnMut(usize, usize),
    ) -> Vec<(String, u64)> {
        match self {
            AnyGame::Chess(pos) => {
                let total = pos.legal_moves().len();
                let mut done = 0;
                divide_with(pos, depth, |_| {
                    done += 1;
                    progress(done, total);
                })
                .into_iter()
                .map(|(m, n)| (pos.uci(m), n))
                .collect()
            }
        }
    }

    /// Every legal move, in the game's move format.
    #[must_use]
    pub fn legal_moves_text(&self) -> Vec<String> {
        match self {
            AnyGame::Chess(pos) => pos.legal_moves().iter().map(|&m| pos.uci(m)).collect(),
        }
    }

    /// Plays one move given in the game's move format or display notation.
    ///
    /// # Errors
    ///
    /// [`GamesError::Move`] (index 1) if the text is malformed or not legal; the
    /// position is unchanged then.
    pub fn play_text(&mut self, text: &str) -> Result<(), GamesError> {
        self.play_texts([text])
    }

    /// Plays moves in order; on the first bad one, stops with an error naming its
    /// 1-based index, and leaves the position as it was before the call.
    ///
    /// # Errors
    ///
    /// [`GamesError::Move`] for the first malformed or illegal move.
    pub fn play_texts<'a>(
        &mut self,
        texts: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), GamesError> {
        let mut next = self.clone();
        for (i, text) in texts.into_iter().enumerate() {
            let bad = |reason: String| GamesError::Move {
                index: i + 1,
                text: text.to_owned(),
                reason,
            };
            match &mut next {
                AnyGame::Chess(pos) => {
                    let m = chess_move(pos, text).map_err(bad)?;
                    pos.play_unchecked(m);
                }
            }
        }
        *self = next;
        Ok(())
    }
}

/// UCI when the text has UCI's shape, SAN otherwise.
fn chess_move(pos: &Chess, text: &str) -> Result<Move, String> {
    match text.parse::<UciMove>() {
        Ok(uci) => uci.to_move(pos).map_err(|e: UciMoveError| e.to_string()),
        Err(_) => pos.parse_san(text).map_err(|e: SanError| e.to_string()),
    }
}
