#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod any;
mod bench;
mod board_description;
mod catalog;
mod compose;
mod conversation;
mod engine;
mod protocol_engine;
mod record;
mod search_thread;
mod time_control;
mod ui_hints;

pub use any::{AnyPosition, GamesError, MoveError};
pub use bench::{BENCH_POSITIONS, BenchLine, bench};
pub use board_description::{
    BoardDescription, KeyEntry, NumberedSquare, Pattern, Place, PlacedPiece, River,
};
pub use catalog::{
    CATALOG, EngineProtocol, GameInfo, GameKind, ParseVariantError, UnknownGame, UnknownVariant,
    Variant, VariantInfo,
};
pub use compose::PiecePlacement;
pub use conversation::converse;
pub use engine::{
    AnyEngine, DRAW_ACCEPT_MARGIN, DRAW_LEVEL_AFTER_PLIES, DRAW_LEVEL_WINDOW, DrawDecision,
    Evaluation, SearchRequest, TextInfo, TextLine, TextResult, accepts_draw,
};
pub use protocol_engine::{Flow, ProtocolEngine};
pub use record::{AnyRecord, ImportedRecord, RULING_BUDGET, RecordError, RecordedMove};
pub use search_thread::{Hold, SearchMode, SearchThread};
/// Node budgets of the chess unwinnability analysis ([`AnyPosition::winnable_sides`]).
pub use tablero_chess::{
    DEFAULT_BUDGET as UNWINNABILITY_BUDGET, THOROUGH_BUDGET as THOROUGH_UNWINNABILITY_BUDGET,
};
pub use tablero_core::fresh_seed;
pub use tablero_core::{ParamValue, Refusal, Side};
pub use tablero_engine::score::mate_in_moves;
pub use tablero_engine::{Clock, Level, Limits};
pub use time_control::{TimeControl, TimeControlError};
pub use ui_hints::{BoardHints, MoveHint, PieceHint, Spot};
