//! Ajedrez 3D evaluation (being written).

/// Ajedrez 3D evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chess3dEvaluator;
