#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod any;
mod arena;
mod bench;
mod board_text;
mod catalog;
mod conversation;
mod engine;
mod engine_process;
mod hub_client;
mod record;
mod search_thread;
mod uci_client;
mod ui_hints;

pub use any::{AnyGame, GamesError, MoveError};
pub use arena::{
    ArenaError, DEFAULT_MAX_PLIES, DEFAULT_SEED, EloEstimate, GameReport, MatchConfig, MatchScore,
    PlayerSpec, Score, TimeControl, run_match,
};
pub use bench::{BENCH_POSITIONS, BenchLine, bench};
pub use board_text::{BoardStyle, Colours, board_text};
pub use catalog::{CATALOG, GameInfo, VariantInfo};
pub use conversation::converse;
pub use engine::{AnyEngine, SearchRequest, TextInfo, TextLine, TextResult};
pub use hub_client::{HubEngine, HubError};
pub use record::{AnyRecord, ImportedRecord, RecordError, RecordedMove};
pub use search_thread::{Hold, SearchMode, SearchThread};
pub use tablero_core::fresh_seed;
pub use tablero_core::{ParamValue, Refusal};
pub use tablero_engine::{Clock, Level, Limits};
pub use uci_client::{HANDSHAKE_TIMEOUT, UciClock, UciEngine, UciError};
pub use ui_hints::{BoardHints, MoveHint, PieceHint, Spot};
