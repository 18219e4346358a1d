//! One evaluator per game.

pub(crate) mod chess;
pub(crate) mod chess3d;
mod chess_weights;
pub(crate) mod draughts;
mod draughts_weights;
mod pair;
pub(crate) mod trace;
pub(crate) mod xiangqi;
mod xiangqi_weights;
