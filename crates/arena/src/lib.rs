#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod engine_process;
mod hub_client;
mod match_runner;
mod sprt;
mod uci_client;

pub use hub_client::{HubEngine, HubError};
pub use match_runner::{
    ArenaError, DEFAULT_MAX_PLIES, DEFAULT_SEED, EloEstimate, GameReport, MatchConfig, MatchScore,
    PlayerSpec, Score, run_match,
};
pub use sprt::{GamePairs, Pentanomial, Sprt, SprtError, Verdict};
pub use uci_client::{HANDSHAKE_TIMEOUT, UciClock, UciEngine, UciError};
