use tablero_core::{Position, Side};

use crate::level::{LevelTable, STANDARD_LEVELS};

/// A score in centipawns (hundredths of a pawn or of the game's basic piece), from the
/// point of view of the side to move.
pub type Score = i32;

/// What one game teaches the generic search: how good a position looks and which
/// moves matter.
///
/// Implementations are stateless tables and weights, shared between search threads.
/// Everything the search needs to know about a game that the [`Position`] trait does
/// not say lives here, so the rules crates never depend on the engine.
pub trait Evaluator<P: Position>: Send + Sync {
    /// The static evaluation of `pos` for the side to move. Must stay well inside
    /// `±`[`crate::MATE_BOUND`].
    fn evaluate(&self, pos: &P) -> Score;

    /// What the evaluation carries from a position to the next along the search path
    /// (a network's accumulator, [`crate::nnue::Accumulator`]); `()` for evaluations
    /// that read each position afresh. The search keeps one per ply.
    type Accumulator: Default + Clone + Send;

    /// Sets `acc` up for `pos` from scratch (the search's root).
    fn refresh(&self, pos: &P, acc: &mut Self::Accumulator) {
        let _ = (pos, acc);
    }

    /// Sets `child_acc` for `child`, one move or a pass after `parent`, from
    /// `parent_acc`.
    fn advance(
        &self,
        parent: &P,
        child: &P,
        parent_acc: &Self::Accumulator,
        child_acc: &mut Self::Accumulator,
    ) {
        let _ = (parent, child, parent_acc, child_acc);
    }

    /// The static evaluation of `pos` given its accumulator; by default
    /// [`Evaluator::evaluate`].
    fn evaluate_from(&self, pos: &P, acc: &Self::Accumulator) -> Score {
        let _ = acc;
        self.evaluate(pos)
    }

    /// Whether the side to move is in check (always `false` in games without check).
    fn in_check(&self, pos: &P) -> bool;

    /// Whether the side to move may not "stand pat" in quiescence: it is in check, or
    /// must capture (draughts). Such positions search every legal move instead of only
    /// the noisy ones, and are extended by a ply.
    fn must_resolve(&self, pos: &P) -> bool {
        self.in_check(pos)
    }

    /// A key of the position's slow-changing structure (in chess, the pawns and the
    /// side to move), under which the search learns how far the static evaluation
    /// tends to be off; `None`, the default, leaves the evaluation uncorrected.
    fn correction_key(&self, pos: &P) -> Option<u64> {
        let _ = pos;
        None
    }

    /// Whether `mv` changes the material balance (captures, promotions): the moves
    /// quiescence search looks at.
    fn is_noisy(&self, pos: &P, mv: P::Move) -> bool;

    /// Fills `moves` for a quiescence node where the side to move may stand pat:
    /// every legal noisy move, and perhaps others. Returns `true` when the list holds
    /// only noisy moves (so an empty list does not mean the game is over), `false`
    /// when it holds every legal move, which the default lists. A game with a capture
    /// generator overrides this: quiescence nodes are most of a search.
    fn noisy_moves_into(&self, pos: &P, moves: &mut P::MoveList) -> bool {
        pos.legal_moves_into(moves);
        false
    }

    /// An ordering key for noisy moves, highest first (most valuable victim, then
    /// least valuable attacker). Only compared between noisy moves of one position.
    fn noisy_order(&self, pos: &P, mv: P::Move) -> Score;

    /// Whether `mv` wins at least `threshold` in the exchange it starts on its target
    /// square (static exchange evaluation). Quiescence skips captures that lose
    /// material and ordering puts them last. The default trusts every move.
    fn see_at_least(&self, pos: &P, mv: P::Move, threshold: Score) -> bool {
        let _ = (pos, mv, threshold);
        true
    }

    /// The slot of `mv` in the history table, below [`Evaluator::HISTORY_SLOTS`]
    /// (typically from-square × board size + to-square).
    fn history_slot(&self, pos: &P, mv: P::Move) -> usize;

    /// The size of the history table.
    const HISTORY_SLOTS: usize;

    /// The slot of `mv` in the continuation-history tables, below
    /// [`Evaluator::CONTINUATION_SLOTS`]: the moving piece and its target square, so
    /// that "this reply to that move" is learnt across positions.
    fn continuation_slot(&self, pos: &P, mv: P::Move) -> usize {
        let _ = (pos, mv);
        0
    }

    /// The number of continuation slots; the default 0 turns continuation history off
    /// (its table has this many squared entries).
    const CONTINUATION_SLOTS: usize = 0;

    /// The slot of noisy move `mv` in the capture-history table, below
    /// [`Evaluator::CAPTURE_SLOTS`]: the moving piece, its target square and what it
    /// takes, so that which captures pay off beyond their exchange is learnt across
    /// positions.
    fn capture_slot(&self, pos: &P, mv: P::Move) -> usize {
        let _ = (pos, mv);
        0
    }

    /// The size of the capture-history table; the default 0 turns it off.
    const CAPTURE_SLOTS: usize = 0;

    /// Whether playing `mv` makes every earlier position unrepeatable (a capture, a
    /// pawn or man move), so repetition checks can stop looking back there.
    fn is_irreversible(&self, pos: &P, mv: P::Move) -> bool;

    /// The position after the side to move passes, where null-move pruning is sound;
    /// `None` where it is not (in check, zugzwang-prone endings, draughts).
    fn null_move(&self, pos: &P) -> Option<P> {
        let _ = pos;
        None
    }

    /// The result for the side to move when the position itself ends the game, given
    /// whether it has a legal move. The default asks [`Position::outcome`] only when
    /// there is no legal move.
    fn terminal(&self, pos: &P, has_moves: bool) -> Option<Terminal> {
        if has_moves {
            return None;
        }
        pos.outcome().map(|outcome| match outcome.winner() {
            Some(side) if side == pos.turn() => Terminal::Win,
            Some(_) => Terminal::Loss,
            None => Terminal::Draw,
        })
    }

    /// Whether a rule of the game's history-free state ends the game in a draw here
    /// (e.g. chess's fifty-move counter). Checked before the moves are generated.
    fn is_rule_draw(&self, pos: &P) -> bool {
        let _ = pos;
        false
    }

    /// How levels 1–10 search and choose in this game (see [`crate::Level`]).
    const LEVELS: &'static LevelTable = &STANDARD_LEVELS;

    /// Whether repetitions are judged by what happened in the cycle (xiangqi's
    /// perpetual check and chase). Only then does the search keep the positions of its
    /// path and ask [`Evaluator::repetition_score`]; otherwise a repetition is a draw.
    const JUDGES_CYCLES: bool = false;

    /// Whether the search extends a singular hash move ([`crate::Features::singular`]):
    /// on for the games where matches showed a gain (docs/engine.md).
    const SINGULAR_EXTENSIONS: bool = false;

    /// The value of a repeated position for the side to move, given the cycle that
    /// led back to it: `cycle[0]` is the earlier occurrence, each next position
    /// follows from the one before by one move, and the last is the current position.
    /// Asked only when [`Evaluator::JUDGES_CYCLES`] is set; most games call a
    /// repetition a draw. `searching` is the side the search plays for (the root's
    /// side to move), so a game can weigh a ruling in that side's favour more
    /// cautiously than one against it.
    fn repetition_score(&self, cycle: &[P], searching: Side) -> Score {
        let _ = (cycle, searching);
        0
    }
}

/// The result a position decides by itself, from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody wins.
    Draw,
}
