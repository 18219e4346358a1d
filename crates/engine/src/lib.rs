#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod engine;
mod eval;
mod evaluator;
mod level;
mod limits;
pub mod nnue;
pub mod score;
mod search;
mod tt;

pub use engine::{Engine, Line, SearchInfo, SearchOptions, SearchResult};
pub use eval::chess::{ChessEvaluator, ChessTrace};
pub use eval::chess3d::Chess3dEvaluator;
pub use eval::draughts::DraughtsEvaluator;
pub use eval::trace::EvalTrace;
pub use eval::xiangqi::XiangqiEvaluator;
pub use evaluator::{Evaluator, Score, Terminal};
pub use level::{
    CHESS_LEVELS, CHESS3D_LEVELS, DRAUGHTS_LEVELS, Level, LevelError, LevelSettings, LevelTable,
    STANDARD_LEVELS,
};
pub use limits::{Clock, Limits};
pub use nnue::{Network, NetworkError, NnueEvaluator};
pub use score::{MATE, MATE_BOUND};
pub use search::{Features, MAX_PLY};
pub use tt::TranspositionTable;
