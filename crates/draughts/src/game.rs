//! A game: the start position, the moves, and the draw rules that need the history.
//!
//! The rules and their sources are in `docs/draughts-rules.md`. Draw rules end the
//! game; they never change the legal moves.

use tablero_core::{Outcome, Position, Reason, Side};

use crate::{Draughts, Move, PdnMoveError, RuleSet};

/// The special endings a federation limits in length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndingRule {
    /// None.
    None,
    /// FMJD international rules: three kings, two kings and a man, or a king
    /// and two men against a lone king are drawn after 16 more moves each; two kings, a
    /// king and a man, or a king against a lone king after 5 more moves each.
    Fmjd,
    /// Russian rules: three or more kings against a lone king are drawn after 15
    /// moves; when both sides have kings and the balance of pieces stays unchanged (no
    /// capture, no crowning), 4- and 5-piece endings are drawn after 30 moves and 6- and
    /// 7-piece endings after 60.
    Russian,
}

/// The draw rules a [`Game`] applies. Every count is in moves by each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DrawRules {
    /// Draw when the same position, with the same side to move, occurs this many
    /// times.
    pub repetitions: Option<u32>,
    /// Draw after this many moves by each player without a capture or a man's move
    /// (then only kings have moved).
    pub quiet_moves: Option<u32>,
    /// Limits on special endings.
    pub endings: EndingRule,
}

impl DrawRules {
    /// No draw rule at all: only a side without a legal move ends the game.
    pub const NONE: DrawRules = DrawRules {
        repetitions: None,
        quiet_moves: None,
        endings: EndingRule::None,
    };

    /// The defaults of `rule_set` (see `docs/draughts-rules.md` for the sources).
    #[must_use]
    pub const fn of(rule_set: RuleSet) -> DrawRules {
        let (quiet, endings) = match rule_set {
            RuleSet::English => (40, EndingRule::None),
            RuleSet::International => (25, EndingRule::Fmjd),
            RuleSet::Brazilian => (20, EndingRule::None),
            RuleSet::Russian => (15, EndingRule::Russian),
            RuleSet::Spanish | RuleSet::Italian => (40, EndingRule::None),
        };
        DrawRules {
            repetitions: Some(3),
            quiet_moves: Some(quiet),
            endings,
        }
    }
}

/// Why a move was not added to a [`Game`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {0}")]
    IllegalMove(String),
    /// The move text was refused.
    #[error(transparent)]
    Text(#[from] PdnMoveError),
    /// The game has already ended.
    #[error("the game is over: {0}")]
    Over(Outcome),
}

/// What the game remembers after each ply.
#[derive(Debug, Clone)]
struct Ply {
    position: Draughts,
    /// Plies since the last capture or man move.
    quiet: u32,
    /// The special ending in force and the ply it began at.
    ending: Option<(Ending, usize)>,
}

/// A special ending, with what must stay unchanged for its count to go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ending {
    /// Its limit in moves by each player.
    limit: u32,
    /// What identifies it: the FMJD category, or the Russian balance of pieces.
    key: u32,
}

/// A draughts game from a start position: its moves, and the draw rules that depend
/// on the history (repetitions, move limits, special endings).
#[derive(Debug, Clone)]
pub struct Game {
    rules: DrawRules,
    plies: Vec<Ply>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` under the draw rules of its rule set.
    #[must_use]
    pub fn new(start: Draughts) -> Game {
        let rules = DrawRules::of(start.rule_set());
        Game::with_draw_rules(start, rules)
    }

    /// A game from `start` under `rules`.
    #[must_use]
    pub fn with_draw_rules(start: Draughts, rules: DrawRules) -> Game {
        let ending = ending_of(&start, rules.endings).map(|e| (e, 0));
        Game {
            rules,
            plies: vec![Ply {
                position: start,
                quiet: 0,
                ending,
            }],
            moves: Vec::new(),
        }
    }

    /// The draw rules in force.
    #[must_use]
    pub const fn draw_rules(&self) -> &DrawRules {
        &self.rules
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Draughts {
        &self.plies[0].position
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Draughts {
        &self.last().position
    }

    fn last(&self) -> &Ply {
        self.plies
            .last()
            .expect("a game always has its start position")
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first.
    pub fn positions(&self) -> impl Iterator<Item = &Draughts> {
        self.plies.iter().map(|p| &p.position)
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
        let before = self.position();
        if !before.is_legal(m) {
            return Err(GameError::IllegalMove(m.full_text()));
        }
        let resets = m.is_capture() || before.moves_man(m);
        let mut position = before.clone();
        position.play_unchecked(m);
        let last = self.last();
        let quiet = if resets { 0 } else { last.quiet + 1 };
        let ply = self.plies.len();
        let ending = match ending_of(&position, self.rules.endings) {
            None => None,
            Some(e) => match last.ending {
                Some((old, since)) if old == e => Some((e, since)),
                _ => Some((e, ply)),
            },
        };
        self.plies.push(Ply {
            position,
            quiet,
            ending,
        });
        self.moves.push(m);
        Ok(())
    }

    /// Parses move text (see [`Draughts::parse_move`]) and plays it.
    ///
    /// # Errors
    ///
    /// [`GameError`]: bad text, an illegal or ambiguous move, or the game is over.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.plies.pop();
        Some(m)
    }

    /// Moves by each player (rounded down) since the last capture or man move.
    #[must_use]
    pub fn quiet_moves(&self) -> u32 {
        self.last().quiet / 2
    }

    /// How many times the current position has occurred (1 the first time). Only
    /// positions since the last capture or man move can repeat it.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let last = self.last();
        let key = last.position.key();
        self.plies
            .iter()
            .rev()
            .take(last.quiet as usize + 1)
            .step_by(2)
            .filter(|p| p.position.key() == key && p.position == last.position)
            .count()
    }

    /// The result: a side without a legal move loses; otherwise the draw rules.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let last = self.last();
        if let Some(outcome) = last.position.outcome() {
            return Some(outcome);
        }
        let draw = |reason| Some(Outcome::Draw { reason });
        if let Some(n) = self.rules.repetitions
            && self.repetitions() >= n as usize
        {
            return draw(Reason::Repetition);
        }
        if let Some(n) = self.rules.quiet_moves
            && last.quiet >= 2 * n
        {
            return draw(Reason::MoveLimit);
        }
        if let Some((ending, since)) = last.ending
            && self.plies.len() - 1 - since >= 2 * ending.limit as usize
        {
            return draw(Reason::EndgameRule);
        }
        None
    }
}

/// The special ending `pos` is in under `rule`, if any.
fn ending_of(pos: &Draughts, rule: EndingRule) -> Option<Ending> {
    let (wm, wk) = pos.piece_counts(Side::White);
    let (bm, bk) = pos.piece_counts(Side::Black);
    let lone_king = |men: u32, kings: u32| men == 0 && kings == 1;
    match rule {
        EndingRule::None => None,
        EndingRule::Fmjd => {
            let (men, kings) = if lone_king(bm, bk) {
                (wm, wk)
            } else if lone_king(wm, wk) {
                (bm, bk)
            } else {
                return None;
            };
            match (kings, men) {
                (3, 0) | (2, 1) | (1, 2) => Some(Ending { limit: 16, key: 16 }),
                (2, 0) | (1, 1) | (1, 0) => Some(Ending { limit: 5, key: 5 }),
                _ => None,
            }
        }
        EndingRule::Russian => {
            let balance = (wm << 24) | (wk << 16) | (bm << 8) | bk;
            if (lone_king(bm, bk) && wm == 0 && wk >= 3)
                || (lone_king(wm, wk) && bm == 0 && bk >= 3)
            {
                return Some(Ending {
                    limit: 15,
                    key: balance,
                });
            }
            if wk == 0 || bk == 0 {
                return None;
            }
            match wm + wk + bm + bk {
                4 | 5 => Some(Ending {
                    limit: 30,
                    key: balance,
                }),
                6 | 7 => Some(Ending {
                    limit: 60,
                    key: balance,
                }),
                _ => None,
            }
        }
    }
}
