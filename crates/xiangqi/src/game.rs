//! A game: the start position, the moves played, the position history, and the rules
//! that need that history (repetition rulings, the 60-move rule), plus resignation
//! and agreed draws.

use tablero_core::{Outcome, Reason, Side};

use crate::repetition::{self, RepetitionRuling};
use crate::{IccsError, IccsMove, Move, Xiangqi, side_name};

/// Counted plies without a capture after which the game is drawn (60 moves each).
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// How many checks of each side count toward the move limit in one period without a
/// capture; further checks, and the replies to them, are not counted (AXF).
pub const COUNTED_CHECKS: u32 = 10;

/// How many times the same position must occur for a repetition ruling.
pub const REPETITION_COUNT: usize = 3;

/// Why a [`Game`] refused a move or an action. The game is unchanged in every case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The refused move.
        mv: Move,
        /// Why it is illegal.
        reason: String,
        /// The current position, unchanged.
        position: Box<Xiangqi>,
    },
    /// The text is not an ICCS move.
    #[error(transparent)]
    Notation(IccsError),
    /// A move was offered after the game ended.
    #[error("{mv} cannot be played: the game is over ({})", describe(*.outcome))]
    MoveAfterEnd {
        /// The refused move.
        mv: Move,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A resignation or draw agreement after the game ended.
    #[error("the game is already over ({})", describe(*.outcome))]
    Over {
        /// How the game ended.
        outcome: Outcome,
    },
}

/// "red wins by perpetual check", "draw by repetition": [`Outcome`]'s text with
/// xiangqi's side names.
fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!("{} wins by {reason}", side_name(winner)),
        Outcome::Draw { reason } => format!("draw by {reason}"),
    }
}

/// The state of the 60-move count after a ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct MoveLimit {
    /// Counted plies since the last capture.
    plies: u32,
    /// Checks given by each side since the last capture.
    checks: [u32; 2],
    /// The last ply was a check beyond its side's tenth, so the reply is not counted.
    excess_check: bool,
}

impl MoveLimit {
    /// The count after `side` played a move that captured and/or checked.
    fn after(self, side: Side, capture: bool, check: bool) -> MoveLimit {
        if capture {
            // A capture starts a new period: nothing before it counts, not even its
            // own check (the AXF text counts checks "within the limit", after it).
            return MoveLimit::default();
        }
        let excess = check && self.checks[side.index()] >= COUNTED_CHECKS;
        let mut checks = self.checks;
        if check {
            checks[side.index()] = checks[side.index()].saturating_add(1);
        }
        let counted = !(excess || self.excess_check);
        MoveLimit {
            plies: self.plies + u32::from(counted),
            checks,
            excess_check: excess,
        }
    }
}

/// One move of the game with everything needed to take it back exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ply {
    mv: Move,
    limit: MoveLimit,
    /// The result decided by this move (mate, repetition, move limit), if any.
    outcome: Option<Outcome>,
    /// Boxed: rare, and keeps the per-move record small.
    ruling: Option<Box<RepetitionRuling>>,
}

/// A xiangqi game from a start position: moves, position history and the rules that
/// depend on history.
///
/// The game ends, in this order of precedence, when a side resigns or a draw is
/// agreed; when the side to move has no legal move (checkmate or stalemate: it
/// loses); when a position occurs for the [`REPETITION_COUNT`]th time (the repetition
/// is ruled at once under the WXF/AXF rules, see [`crate::repetition`]); or after
/// [`MOVE_LIMIT_PLIES`] counted plies without a capture (draw; see
/// [`Game::plies_toward_move_limit`]). [`Game::undo`] restores everything exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i]` follows the `i`th move.
    positions: Vec<Xiangqi>,
    /// The repetition key of each position in `positions`.
    keys: Vec<u64>,
    plies: Vec<Ply>,
    start_limit: MoveLimit,
    start_outcome: Option<Outcome>,
    /// Resignation or agreed draw.
    external: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Xiangqi::new())
    }
}

impl Game {
    /// A game starting at `start`. The FEN's halfmove count (plies since the last
    /// capture) is taken as already counted toward the move limit; checks made
    /// before the start are unknown and taken as none.
    #[must_use]
    pub fn new(start: Xiangqi) -> Game {
        let start_limit = MoveLimit {
            plies: start.halfmoves(),
            ..MoveLimit::default()
        };
        let start_outcome = start.outcome().or_else(|| limit_outcome(start_limit));
        Game {
            keys: vec![start.key()],
            positions: vec![start],
            plies: Vec::new(),
            start_limit,
            start_outcome,
            external: None,
        }
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Xiangqi {
        self.positions
            .first()
            .expect("the start position is never removed")
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Xiangqi {
        self.positions
            .last()
            .expect("the start position is never removed")
    }

    /// Every position of the game, the start first and the current one last.
    #[must_use]
    pub fn positions(&self) -> &[Xiangqi] {
        &self.positions
    }

    /// The repetition key ([`Xiangqi::key`]) of every position, the start first.
    #[must_use]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// Plays `m`.
    ///
    /// # Errors
    ///
    /// [`GameError::MoveAfterEnd`] once the game is over; [`GameError::IllegalMove`]
    /// saying why `m` is illegal. The game is unchanged then.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::MoveAfterEnd { mv: m, outcome });
        }
        let pos = self.position();
        if !pos.is_legal(m) {
            let reason = match IccsMove::from(m).to_move(pos) {
                Err(IccsError::Illegal { refusal, .. }) => refusal.to_string(),
                _ => "not a legal move here".to_owned(),
            };
            return Err(GameError::IllegalMove {
                mv: m,
                reason,
                position: Box::new(pos.clone()),
            });
        }
        let capture = pos.is_capture(m);
        let mover = pos.turn();
        let mut next = pos.clone();
        next.play_unchecked(m);
        let limit = self.limit().after(mover, capture, next.is_check());
        let key = next.key();
        self.positions.push(next);
        self.keys.push(key);
        let ruling = self.repetition().map(|first| {
            let start = &self.positions[first];
            let cycle: Vec<Move> = self.plies[first..]
                .iter()
                .map(|p| p.mv)
                .chain([m])
                .collect();
            Box::new(repetition::rule(start, &cycle))
        });
        let outcome = self
            .position()
            .outcome()
            .or_else(|| ruling.as_ref().map(|r| r.outcome))
            .or_else(|| limit_outcome(limit));
        self.plies.push(Ply {
            mv: m,
            limit,
            outcome,
            ruling,
        });
        Ok(())
    }

    /// Reads an ICCS move (`h2e2`) and plays it, returning the move.
    ///
    /// # Errors
    ///
    /// [`GameError::Notation`] if `text` is not ICCS; otherwise as [`Game::play`].
    pub fn play_iccs(&mut self, text: &str) -> Result<Move, GameError> {
        let iccs: IccsMove = text.parse().map_err(GameError::Notation)?;
        let m = Move::new(iccs.from, iccs.to);
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move, returning it; `None` at the start. Also withdraws a
    /// resignation or draw agreement (it was made after that move).
    pub fn undo(&mut self) -> Option<Move> {
        let ply = self.plies.pop()?;
        self.positions.pop();
        self.keys.pop();
        self.external = None;
        Some(ply.mv)
    }

    /// The result, or `None` while the game goes on: a resignation or agreed draw,
    /// else checkmate or stalemate, else a repetition ruling, else the move limit.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.external.or_else(|| match self.plies.last() {
            Some(ply) => ply.outcome,
            None => self.start_outcome,
        })
    }

    /// The ruling on the repetition that ended the game, with its explanation.
    #[must_use]
    pub fn repetition_ruling(&self) -> Option<&RepetitionRuling> {
        self.plies.last().and_then(|p| p.ruling.as_deref())
    }

    /// Counted plies since the last capture; the game is drawn when this reaches
    /// [`MOVE_LIMIT_PLIES`]. A check beyond its side's [`COUNTED_CHECKS`]th in the
    /// period, and the reply to it, are not counted.
    #[must_use]
    pub fn plies_toward_move_limit(&self) -> u32 {
        self.limit().plies
    }

    /// Checks `side` has given since the last capture (or the start).
    #[must_use]
    pub fn checks_since_capture(&self, side: Side) -> u32 {
        self.limit().checks[side.index()]
    }

    /// How many times the current position (placement and side to move) has
    /// occurred since the last capture, counting itself.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let Some(current) = self.positions.last() else {
            return 0;
        };
        self.earlier_same_positions(current).count() + 1
    }

    /// `side` resigns: the other side wins.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] if the game has already ended.
    pub fn resign(&mut self, side: Side) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: side.other(),
            reason: Reason::Resignation,
        })
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    ///
    /// [`GameError::Over`] if the game has already ended.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.end(Outcome::Draw {
            reason: Reason::Agreement,
        })
    }

    fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over { outcome });
        }
        self.external = Some(outcome);
        Ok(())
    }

    fn limit(&self) -> MoveLimit {
        self.plies.last().map_or(self.start_limit, |p| p.limit)
    }

    /// Indexes into `positions` of the earlier occurrences of `current`, most recent
    /// first. Only positions since the last capture can be equal (a capture cannot
    /// be undone), and only every other one has the same side to move.
    fn earlier_same_positions<'a>(
        &'a self,
        current: &'a Xiangqi,
    ) -> impl Iterator<Item = usize> + 'a {
        let last = self.positions.len() - 1;
        let reach = (current.halfmoves() as usize).min(last);
        (2..=reach)
            .step_by(2)
            .map(move |back| last - back)
            .filter(move |&i| {
                let earlier = &self.positions[i];
                // Keys first (fast), then the board, so a key collision cannot fake a
                // repetition.
                self.keys[i] == current.key()
                    && earlier.turn() == current.turn()
                    && earlier.board() == current.board()
            })
    }

    /// If the current position has just occurred for the third time, the index of
    /// its first occurrence.
    fn repetition(&self) -> Option<usize> {
        let current = self.positions.last()?;
        // Most recent first: the (count - 1)th earlier occurrence is the first one; the
        // game ends at the count, so there is never one more.
        self.earlier_same_positions(current)
            .nth(REPETITION_COUNT - 2)
    }
}

fn limit_outcome(limit: MoveLimit) -> Option<Outcome> {
    (limit.plies >= MOVE_LIMIT_PLIES).then_some(Outcome::Draw {
        reason: Reason::MoveLimit,
    })
}
