//! Portable Game Notation: the chess save/load format.
//!
//! Reading streams: [`Reader`] takes any [`std::io::Read`] and yields one
//! [`PgnGame`] (or one [`PgnError`]) at a time, in constant memory, resolving every
//! move against its position as it goes. Tags, comments, NAGs and variations are
//! kept; `FEN`/`SetUp` and `Variant "Chess960"` set the start position. A broken game
//! yields an error naming the game, the ply and the move, and reading goes on with
//! the next game.
//!
//! Writing ([`PgnGame::write`], [`PgnGame::to_pgn_string`], `Display`) prints the
//! Seven Tag Roster first, `FEN`/`SetUp`/`Variant` as the start position needs, and
//! movetext wrapped at [`LINE_WIDTH`] columns. Reading what was written gives the
//! same game back.
//!
//! ```
//! use tablero_chess::pgn::{self, GameResult, Nag};
//!
//! let text = r#"[Event "Casual"]
//! [White "Anderssen"]
//!
//! 1. e4 e5 2. Nf3 {the main line} (2. f4 $1 exf4) 2... Nc6 1-0
//!
//! [Event "Broken"]
//!
//! 1. e4 e5 2. Ke3 *
//! "#;
//! let games = pgn::read_str(text);
//! let game = games[0].as_ref().map_err(|e| e.to_string())?;
//! assert_eq!(game.tag("White"), Some("Anderssen"));
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.moves[2].comments_after, ["the main line"]);
//! assert_eq!(game.moves[2].variations[0][0].nags, [Nag(1)]);
//! assert_eq!(game.result, GameResult::WhiteWins);
//!
//! let error = games[1].as_ref().err().ok_or("game 2 is broken")?;
//! assert!(error.to_string().starts_with("game 2, ply 3 (2.Ke3): illegal move"));
//!
//! let written = game.to_pgn_string();
//! assert!(written.starts_with("[Event \"Casual\"]\n[Site \"?\"]\n"));
//! assert!(written.ends_with("1. e4 e5 2. Nf3 {the main line} (2. f4 $1 exf4) 2... Nc6 1-0\n"));
//! assert_eq!(pgn::read_str(&written)[0].as_ref().ok(), Some(game));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod game;
mod lexer;
mod nag;
mod reader;
mod result;
mod tags;
mod writer;

pub use error::{PgnError, PgnErrorKind};
pub use game::{Node, PgnGame};
pub use nag::Nag;
pub use reader::{Reader, read_str};
pub use result::{GameResult, ParseGameResultError};
pub use tags::SEVEN_TAG_ROSTER;
pub use writer::LINE_WIDTH;

/// The longest comment or tag value the reader keeps, in bytes (4 MiB). A longer one
/// is an error for its game; the reader skips over it and goes on.
pub const MAX_TEXT_LEN: usize = 4 << 20;

/// The longest move, move number, tag name or other word the reader takes, in bytes.
pub const MAX_SYMBOL_LEN: usize = 255;

/// The most tags one game may have.
pub const MAX_TAGS: usize = 1024;

/// The most memory one game's record may take, in bytes (64 MiB, counting each move
/// as the size of a [`Node`] and each tag and comment as its text).
pub const MAX_GAME_SIZE: usize = 64 << 20;

/// How deep variations may nest.
pub const MAX_VARIATION_DEPTH: usize = 128;
