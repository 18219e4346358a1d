#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod fen;
mod game;
mod geometry;
mod hub;
mod movegen;
mod moves;
mod notation;
mod pdn;
mod position;
mod refusal;
mod rules;
mod setup;
mod square_set;
mod zobrist;

pub use fen::FenError;
pub use game::{DrawRules, EndingRule, Game, GameError};
pub use hub::{HubError, HubMove};
pub use moves::{Move, MoveList};
pub use notation::{PdnMove, PdnMoveError};
pub use pdn::{PdnError, PdnGame, PdnRead, draughts_result, read_pdn, write_pdn};
pub use position::{Draughts, PositionError};
pub use rules::{
    BoardSize, CaptureChoice, Crowning, KingRange, ManCaptures, Orientation, ParseRuleSetError,
    RuleSet, Rules,
};
pub use setup::{Piece, Role, Setup};
pub use square_set::SquareSet;
pub use tablero_core::{Outcome, Position, Reason, Refusal, Side, perft, perft_divide};
