#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod command;
mod params;
mod session;

pub use command::{Command, CommandError, LevelSpec, Line, Mode, Pair, quote};
pub use params::{VARIANTS, variant_name, variant_rule_set};
pub use session::{Flow, MOVE_OVERHEAD, Session, info_line, run};
