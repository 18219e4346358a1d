#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod outcome;
mod perft;
mod position;
mod refusal;
mod rng;
mod seed;
mod side;

pub use outcome::{Outcome, ParseReasonError, Reason};
pub use perft::{divide_with, perft, perft_divide};
pub use position::{PlayError, Position};
pub use refusal::{ParamValue, Refusal};
pub use rng::SplitMix64;
pub use seed::fresh_seed;
pub use side::{ParseSideError, Side};
