#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod command;
mod options;
mod session;

pub use command::{Command, CommandError, Go, Start};
pub use options::{LEVEL_ELO, level_for_elo};
pub use session::{Flow, Session, info_lines, run};
