//! A game: the start position, the moves played with their undo records, and the draw
//! rules that need the history (§5).

use tablero_core::{Outcome, Reason};

use crate::{Chess3d, Move, Undo};

/// Plies without a capture or a pawn move after which the game is drawn (§5).
pub const QUIET_PLY_LIMIT: u32 = 100;

/// How many times the same position must arise for the repetition draw (§5).
pub const REPETITION_LIMIT: usize = 3;

/// Why a move was not added to a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {0}")]
    IllegalMove(Move),
    /// The game has already ended.
    #[error("the game is over: {0}")]
    Over(Outcome),
}

/// An Ajedrez 3D game from a start position.
///
/// Adds to the position's own rules (a missing dama, no legal move) the two draws of
/// §5 that end the *game* without changing any position's moves: 100 plies without a
/// capture or pawn move ([`Reason::MoveLimit`]) and the same placement and side to move
/// arising a third time, generator state not compared ([`Reason::Repetition`]). Keeps
/// an undo record per move, so [`Game::undo`] restores the position exactly,
/// generator state included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    start: Chess3d,
    position: Chess3d,
    history: Vec<Undo>,
    keys: Vec<u64>,
}

impl Game {
    /// A game starting at `start`.
    #[must_use]
    pub fn new(start: Chess3d) -> Game {
        Game {
            keys: vec![start.key()],
            position: start.clone(),
            start,
            history: Vec::new(),
        }
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Chess3d {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess3d {
        &self.position
    }

    /// The undo records of the moves played, oldest first (each knows its move, the
    /// capture and where a promoted pawn landed).
    #[must_use]
    pub fn history(&self) -> &[Undo] {
        &self.history
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(Undo::mv)
    }

    /// Plays `m`, returning its undo record.
    ///
    /// # Errors
    ///
    /// [`GameError`] if the game is over or `m` is illegal; nothing changes then.
    pub fn play(&mut self, m: Move) -> Result<Undo, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        if !self.position.is_legal(m) {
            return Err(GameError::IllegalMove(m));
        }
        let undo = self.position.play_with_undo(m);
        self.history.push(undo);
        self.keys.push(self.position.key());
        Ok(undo)
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        self.keys.pop();
        self.position.undo(undo);
        Some(undo.mv())
    }

    /// How many times the current placement and side to move have occurred in this
    /// game (1 the first time).
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let Some(&current) = self.keys.last() else {
            return 0;
        };
        self.keys.iter().filter(|&&k| k == current).count()
    }

    /// The result: what the position decides (a missing dama, no legal move), else the
    /// 100-ply draw, else the threefold-repetition draw; `None` while the game goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.position.outcome() {
            Some(outcome)
        } else if self.position.quiet_plies() >= QUIET_PLY_LIMIT {
            Some(Outcome::Draw {
                reason: Reason::MoveLimit,
            })
        } else if self.repetitions() >= REPETITION_LIMIT {
            Some(Outcome::Draw {
                reason: Reason::Repetition,
            })
        } else {
            None
        }
    }

    /// The timed-mode result when the game clock expires (§5): more pieces on the
    /// board wins, equal counts draw ([`Reason::PieceCount`]). The server calls this
    /// only for a game still in progress.
    #[must_use]
    pub fn timeout_outcome(&self) -> Outcome {
        self.position.timeout_outcome()
    }
}
