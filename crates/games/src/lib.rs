#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod any;
mod catalog;

pub use any::{AnyGame, GamesError};
pub use catalog::{CATALOG, GameInfo, VariantInfo};
