//! A game: the start position, the moves played, and the rules that need the history
//! (repetitions).

use tablero_core::{Outcome, Reason};

use crate::{Chess, Move};

/// Why a move was not added to a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {0}")]
    IllegalMove(String),
    /// The game has already ended.
    #[error("the game is over: {0}")]
    Over(Outcome),
}

/// A chess game from a start position, with its moves and Zobrist history.
///
/// Knows the rules that depend on more than the current position: fivefold repetition
/// ends the game by itself, threefold repetition and the 50-move rule may be claimed
/// (FIDE 9.2, 9.3, 9.6).
#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    position: Chess,
    moves: Vec<Move>,
    keys: Vec<u64>,
    /// Whether the current position is dead by [`Chess::is_dead_position_analysed`]
    /// (kept here so that it is found once per move, not on every look).
    dead: bool,
}

impl Game {
    /// A game starting at `start`.
    #[must_use]
    pub fn new(start: Chess) -> Game {
        let keys = vec![start.key()];
        Game {
            dead: start.is_dead_position_analysed(),
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys,
        }
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `m`.
    ///
    /// # Errors
    ///
    /// [`GameError`] if the game is over or `m` is illegal; nothing changes then.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        if !self.position.is_legal(m) {
            return Err(GameError::IllegalMove(self.position.uci(m)));
        }
        self.position.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.position.key());
        self.dead = self.position.is_dead_position_analysed();
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.keys.pop();
        let mut pos = self.start.clone();
        for &played in &self.moves {
            pos.play_unchecked(played);
        }
        self.dead = pos.is_dead_position_analysed();
        self.position = pos;
        Some(m)
    }

    /// How many times the current position has occurred (1 the first time). Positions
    /// are equal when placement, side to move, castling rights and en passant rights
    /// are (FIDE 9.2.3); only positions since the last capture or pawn move can match.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        Self::count_repetitions(&self.keys, self.position.halfmoves())
    }

    fn count_repetitions(keys: &[u64], halfmoves: u32) -> usize {
        let Some(&current) = keys.last() else {
            return 0;
        };
        keys.iter()
            .rev()
            .take(halfmoves as usize + 1)
            .step_by(2)
            .filter(|&&k| k == current)
            .count()
    }

    /// The result: what the position decides (with a dead position also found by a
    /// short search when few units are left), or fivefold repetition.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.position.outcome() {
            return Some(outcome);
        }
        if self.dead {
            return Some(Outcome::Draw {
                reason: Reason::DeadPosition,
            });
        }
        (self.repetitions() >= 5).then_some(Outcome::Draw {
            reason: Reason::FivefoldRepetition,
        })
    }

    /// A draw the player to move may claim now: threefold repetition or 50 moves.
    #[must_use]
    pub fn claimable_draw(&self) -> Option<Reason> {
        if self.outcome().is_some() {
            None
        } else if self.repetitions() >= 3 {
            Some(Reason::ThreefoldRepetition)
        } else if self.position.halfmoves() >= 100 {
            Some(Reason::FiftyMoves)
        } else {
            None
        }
    }

    /// A draw the player to move may claim by announcing the legal move `m` (FIDE 9.2.1.1
    /// and 9.3.1): the position after it repeats for the third time, or it completes 50
    /// moves without capture or pawn move.
    #[must_use]
    pub fn claimable_draw_with(&self, m: Move) -> Option<Reason> {
        if let Some(reason) = self.claimable_draw() {
            return Some(reason);
        }
        if !self.position.is_legal(m) {
            return None;
        }
        let mut after = self.position.clone();
        after.play_unchecked(m);
        let mut keys = self.keys.clone();
        keys.push(after.key());
        if Self::count_repetitions(&keys, after.halfmoves()) >= 3 {
            Some(Reason::ThreefoldRepetition)
        } else if after.halfmoves() >= 100 {
            Some(Reason::FiftyMoves)
        } else {
            None
        }
    }
}
