#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod attacks;
mod bitboard;
mod chinese;
mod fen;
mod game;
mod iccs;
mod mailbox;
mod move_text;
mod movegen;
mod moves;
pub mod pgn;
mod position;
mod refusal;
pub mod repetition;
mod role;
mod setup;
mod square;
mod wxf;
mod zobrist;

pub use bitboard::Bitboard;
pub use chinese::{ChineseError, ChineseMove, ChineseOrigin, Ordinal, simplified_char};
pub use fen::{Fen, FenError, START_FEN};
pub use game::{COUNTED_CHECKS, Game, GameError, MOVE_LIMIT_PLIES, REPETITION_COUNT};
pub use iccs::{IccsError, IccsMove};
pub use move_text::MoveTextError;
pub use moves::{Move, MoveList};
pub use position::{PositionError, Xiangqi, side_name};
pub use repetition::{MoveKind, RepetitionRule, RepetitionRuling};
pub use role::{Piece, Role};
pub use setup::Setup;
pub use square::{ParseSquareError, Square};
pub use tablero_core::{Outcome, Position, Reason, Refusal, Side};
pub use tablero_core::{perft, perft_divide};
pub use wxf::{Direction, Place, Wxf, WxfError, WxfOrigin};
