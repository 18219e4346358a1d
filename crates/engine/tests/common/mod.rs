//! Helpers shared by the per-game engine tests.

use std::sync::atomic::AtomicBool;

use tablero_core::{Position, SplitMix64};
use tablero_engine::{Engine, Evaluator, Level, Limits};

/// Searches `start` at level `n` in a new game with no limit but the level's own,
/// checks that the chosen move is legal, and returns the nodes searched.
pub(crate) fn nodes_at_level<P, E>(
    engine: &Engine<E>,
    start: &P,
    n: u8,
    rng: &mut SplitMix64,
) -> u64
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P>,
{
    let level = Level::new(n).expect("1 to 10");
    engine.new_game();
    let stop = AtomicBool::new(false);
    let result = engine.search_level(start, &[], level, &Limits::default(), &stop, rng, |_| {});
    assert!(start.is_legal(result.best.expect("a move")), "level {n}");
    result.nodes
}
