//! One evaluator per game.

pub(crate) mod chess;
pub(crate) mod chess3d;
mod chess3d_weights;
mod chess_weights;
pub(crate) mod draughts;
mod draughts_weights;
pub(crate) mod trace;
pub(crate) mod xiangqi;
mod xiangqi_weights;
