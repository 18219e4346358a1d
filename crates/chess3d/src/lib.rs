#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
pub mod fuzz;
mod game;
mod movegen;
mod moves;
mod notation;
mod piece;
mod position;
mod position_string;
mod refusal;
mod setup;
mod square;
mod zobrist;

pub use board::Board;
pub use game::{Game, GameError, QUIET_PLY_LIMIT, REPETITION_LIMIT};
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::{Chess3dMove, Chess3dMoveError, MovePart};
pub use piece::{Kind, Piece};
pub use position::{Chess3d, PositionError, Undo};
pub use position_string::{PositionString, PositionStringError, START_POSITION};
pub use setup::Setup;
pub use square::{LEVELS, ParseSquareError, Square};
pub use tablero_core::fresh_seed;
pub use tablero_core::{Outcome, Position, Reason, Refusal, Side, SplitMix64, perft, perft_divide};
