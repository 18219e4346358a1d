//! One evaluator per game.

pub(crate) mod chess;
pub(crate) mod chess3d;
pub(crate) mod draughts;
pub(crate) mod xiangqi;
