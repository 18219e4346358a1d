//! Draughts evaluation (being written).

/// Draughts evaluation for every rule set.
#[derive(Debug, Clone, Copy, Default)]
pub struct DraughtsEvaluator;
