#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod attacks;
mod bitboard;
mod chinese;
mod fen;
mod iccs;
mod moves;
pub mod pgn;
mod position;
mod role;
mod setup;
mod square;
mod wxf;
mod zobrist;

pub use bitboard::Bitboard;
pub use chinese::{ChineseError, ChineseMove, ChineseOrigin, Ordinal, simplified_char};
pub use fen::{Fen, FenError, START_FEN};
pub use iccs::{IccsError, IccsMove};
pub use moves::{Move, MoveList};
pub use position::{PositionError, Xiangqi, side_name};
pub use role::{Piece, Role};
pub use setup::Setup;
pub use square::{ParseSquareError, Square};
pub use tablero_core::{Outcome, Position, Reason, Side};
pub use tablero_core::{perft, perft_divide};
pub use wxf::{Direction, Place, Wxf, WxfError, WxfOrigin};
