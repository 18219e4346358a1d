#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod board;
pub mod diagram;
mod error;
mod graphviz;
mod linear;
mod sparse;
pub mod svg;
mod top;
mod tree;

use std::str::FromStr;

pub use board::{BoardLevel, Occupied, board_level, level_count};
pub use diagram::{Diagram, Edge, Node, RankDir, Shape};
pub use error::ReportError;
pub use graphviz::{graphviz_available, graphviz_render};
pub use linear::{Order, element_id, linearisation};
pub use sparse::{cell_id, column_id, row_id, sparse_matrix};
pub use top::{TOP, place_id, standings, top_ten};
pub use tree::{PlayerTree, player_tree, tree_node_id};

/// A player as the player reports need them: name and total counts. Reports take
/// players in registration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerLine {
    /// The name.
    pub name: String,
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
}

/// The four reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// A board (or chess3d level) as an orthogonal sparse matrix.
    Board,
    /// A board's occupied squares as a linked list.
    Linear,
    /// The players as a binary search tree.
    Players,
    /// The ten players with the most wins as a linked list.
    Top10,
}

impl ReportKind {
    /// Every report.
    pub const ALL: [ReportKind; 4] = [
        ReportKind::Board,
        ReportKind::Linear,
        ReportKind::Players,
        ReportKind::Top10,
    ];

    /// The id: `board`, `linear`, `players`, `top10`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            ReportKind::Board => "board",
            ReportKind::Linear => "linear",
            ReportKind::Players => "players",
            ReportKind::Top10 => "top10",
        }
    }
}

impl FromStr for ReportKind {
    type Err = ReportError;

    fn from_str(text: &str) -> Result<ReportKind, ReportError> {
        ReportKind::ALL
            .into_iter()
            .find(|k| k.id() == text)
            .ok_or_else(|| ReportError::Kind(text.to_owned()))
    }
}

/// The position of `game` (`variant` or the default) after `moves` (move format or
/// display notation) from `start` (the game's position format; `None`: the start
/// position): what the board reports draw.
///
/// # Errors
///
/// [`ReportError::Position`] naming an unknown game or variant, a bad position, or
/// the first bad move by its number.
pub fn replay<'a>(
    game: &str,
    variant: Option<&str>,
    start: Option<&str>,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<tablero_games::AnyPosition, ReportError> {
    let mut position = tablero_games::AnyPosition::new(game, variant, start)
        .map_err(|e| ReportError::Position(e.to_string()))?;
    position
        .play_texts(moves)
        .map_err(|e| ReportError::Position(e.to_string()))?;
    Ok(position)
}

impl Diagram {
    /// The diagram drawn as SVG by the built-in renderer (no Graphviz needed).
    #[must_use]
    pub fn to_svg(&self) -> String {
        svg::render(self)
    }
}
