#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod fen;
mod game;
mod magics;
mod movegen;
mod moves;
pub mod pgn;
mod position;
mod refusal;
mod role;
mod san;
mod setup;
mod square;
mod uci;
mod unwinnable;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use fen::{Fen, FenError, START_FEN};
pub use game::{Game, GameError};
pub use moves::{Move, MoveList};
pub use position::{Chess, PositionError};
pub use role::{Piece, Role};
pub use san::{San, SanError, SanSuffix};
pub use setup::{CastlingMode, Setup, chess960_back_rank};
pub use square::{File, ParseSquareError, Rank, Square};
pub use tablero_core::perft;
pub use tablero_core::{Outcome, Position, Reason, Refusal, Side};
pub use uci::{UciMove, UciMoveError};
pub use unwinnable::{Analysis, DEFAULT_BUDGET, THOROUGH_BUDGET, Verdict};
