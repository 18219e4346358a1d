//! A game's evaluator with its static evaluation answered by a network.

use tablero_core::Side;

use super::{Accumulator, Network, NetworkInput};
use crate::evaluator::{Evaluator, Score, Terminal};
use crate::level::LevelTable;

/// Wraps a game's hand-written evaluator `E`: with a network, positions are evaluated
/// by it (through the per-ply accumulators the search keeps); without one, by `E`, and
/// the search is exactly `E`'s. Everything else the search asks (move ordering, check,
/// exchange evaluation, null moves, rule draws) is `E`'s either way.
#[derive(Debug, Clone, Copy)]
pub struct NnueEvaluator<E> {
    hand: E,
    network: Option<&'static Network>,
}

impl<E> NnueEvaluator<E> {
    /// `hand`, with its static evaluation replaced by `network` when there is one.
    #[must_use]
    pub const fn new(hand: E, network: Option<&'static Network>) -> NnueEvaluator<E> {
        NnueEvaluator { hand, network }
    }

    /// The network in use, if any.
    #[must_use]
    pub const fn network(&self) -> Option<&'static Network> {
        self.network
    }

    /// The hand-written evaluator underneath.
    #[must_use]
    pub const fn hand(&self) -> &E {
        &self.hand
    }

    /// The network, if there is one and it reads `pos`.
    fn network_for<P: NetworkInput>(&self, pos: &P) -> Option<&'static Network> {
        self.network.filter(|_| pos.has_network_inputs())
    }
}

impl<P: NetworkInput, E: Evaluator<P>> Evaluator<P> for NnueEvaluator<E> {
    type Accumulator = Accumulator;

    fn evaluate(&self, pos: &P) -> Score {
        let mut acc = Accumulator::default();
        self.refresh(pos, &mut acc);
        self.evaluate_from(pos, &acc)
    }

    fn refresh(&self, pos: &P, acc: &mut Accumulator) {
        if let Some(network) = self.network_for(pos) {
            network.refresh(pos, acc);
        }
    }

    fn advance(
        &self,
        parent: &P,
        child: &P,
        parent_acc: &Accumulator,
        child_acc: &mut Accumulator,
    ) {
        if let Some(network) = self.network_for(child) {
            network.update(parent, child, parent_acc, child_acc);
        }
    }

    fn evaluate_from(&self, pos: &P, acc: &Accumulator) -> Score {
        match self.network_for(pos) {
            Some(network) if network.adds_to_hand() => {
                self.hand.evaluate(pos) + network.evaluate(pos, acc)
            }
            Some(network) => network.evaluate(pos, acc),
            None => self.hand.evaluate(pos),
        }
    }

    fn in_check(&self, pos: &P) -> bool {
        self.hand.in_check(pos)
    }

    fn must_resolve(&self, pos: &P) -> bool {
        self.hand.must_resolve(pos)
    }

    fn correction_key(&self, pos: &P) -> Option<u64> {
        self.hand.correction_key(pos)
    }

    fn is_noisy(&self, pos: &P, mv: P::Move) -> bool {
        self.hand.is_noisy(pos, mv)
    }

    fn noisy_moves_into(&self, pos: &P, moves: &mut P::MoveList) -> bool {
        self.hand.noisy_moves_into(pos, moves)
    }

    fn noisy_order(&self, pos: &P, mv: P::Move) -> Score {
        self.hand.noisy_order(pos, mv)
    }

    fn see_at_least(&self, pos: &P, mv: P::Move, threshold: Score) -> bool {
        self.hand.see_at_least(pos, mv, threshold)
    }

    fn history_slot(&self, pos: &P, mv: P::Move) -> usize {
        self.hand.history_slot(pos, mv)
    }

    const HISTORY_SLOTS: usize = E::HISTORY_SLOTS;

    fn continuation_slot(&self, pos: &P, mv: P::Move) -> usize {
        self.hand.continuation_slot(pos, mv)
    }

    const CONTINUATION_SLOTS: usize = E::CONTINUATION_SLOTS;

    fn capture_slot(&self, pos: &P, mv: P::Move) -> usize {
        self.hand.capture_slot(pos, mv)
    }

    const CAPTURE_SLOTS: usize = E::CAPTURE_SLOTS;

    fn is_irreversible(&self, pos: &P, mv: P::Move) -> bool {
        self.hand.is_irreversible(pos, mv)
    }

    fn null_move(&self, pos: &P) -> Option<P> {
        self.hand.null_move(pos)
    }

    fn terminal(&self, pos: &P, has_moves: bool) -> Option<Terminal> {
        self.hand.terminal(pos, has_moves)
    }

    fn is_rule_draw(&self, pos: &P) -> bool {
        self.hand.is_rule_draw(pos)
    }

    const LEVELS: &'static LevelTable = E::LEVELS;

    const JUDGES_CYCLES: bool = E::JUDGES_CYCLES;

    const SINGULAR_EXTENSIONS: bool = E::SINGULAR_EXTENSIONS;

    fn repetition_score(&self, cycle: &[P], searching: Side) -> Score {
        self.hand.repetition_score(cycle, searching)
    }
}
