//! Xiangqi evaluation (being written).

/// Xiangqi evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct XiangqiEvaluator;
