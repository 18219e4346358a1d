//! The linearisation report: the occupied squares of a board (or chess3d level) as
//! a singly linked list, in row-major order (rows from the top, each left to right:
//! the order of a FEN) or column-major order (columns from the left, each top to
//! bottom).

use std::str::FromStr;

use crate::ReportError;
use crate::board::BoardLevel;
use crate::diagram::{Diagram, Edge, HEAD, Node, RankDir, Shape};
use crate::sparse::piece_colours;

/// The order of a linearisation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Row by row from the top, each left to right.
    #[default]
    RowMajor,
    /// Column by column from the left, each top to bottom.
    ColumnMajor,
}

impl Order {
    /// The id: `row` or `column`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Order::RowMajor => "row",
            Order::ColumnMajor => "column",
        }
    }
}

impl FromStr for Order {
    type Err = ReportError;

    /// `row` (or `row-major`) and `column` (or `column-major`).
    fn from_str(text: &str) -> Result<Order, ReportError> {
        match text {
            "row" | "row-major" => Ok(Order::RowMajor),
            "column" | "column-major" => Ok(Order::ColumnMajor),
            _ => Err(ReportError::Order(text.to_owned())),
        }
    }
}

/// Elements per line in the built-in drawing (the list snakes down the page).
const PER_LINE: usize = 8;

/// The grid place of list element `i` (0 is the head), snaking: even lines left to
/// right, odd lines right to left, so each link is short.
pub(crate) fn snake(i: usize, per_line: usize) -> (f64, f64) {
    let line = i / per_line;
    let offset = i % per_line;
    let column = if line.is_multiple_of(2) {
        offset
    } else {
        per_line - 1 - offset
    };
    (column as f64, line as f64)
}

/// The id of the list node at position `i` (from 1).
#[must_use]
pub fn element_id(i: usize) -> String {
    format!("n{i}")
}

/// The head node's id.
pub(crate) const HEAD_ID: &str = "head";

/// The occupied squares as a singly linked list in `order`.
#[must_use]
pub fn linearisation(board: &BoardLevel, order: Order) -> Diagram {
    let mut squares: Vec<_> = board.occupied.iter().collect();
    match order {
        Order::RowMajor => squares.sort_by_key(|o| (o.row, o.column)),
        Order::ColumnMajor => squares.sort_by_key(|o| (o.column, o.row)),
    }
    let order_name = match order {
        Order::RowMajor => "row-major",
        Order::ColumnMajor => "column-major",
    };
    let mut head = Node::new(
        HEAD_ID,
        vec![board.caption.clone(), order_name.to_owned()],
        Shape::Ellipse,
        snake(0, PER_LINE),
    );
    head.fill = HEAD;
    let mut nodes = vec![head];
    let mut edges = Vec::new();
    let mut previous = HEAD_ID.to_owned();
    for (i, o) in squares.iter().enumerate() {
        let id = element_id(i + 1);
        let mut node = Node::new(
            id.clone(),
            vec![format!("{} {}", o.colour, o.piece), o.square.clone()],
            Shape::Box,
            snake(i + 1, PER_LINE),
        );
        (node.fill, node.ink) = piece_colours(o.colour);
        nodes.push(node);
        edges.push(Edge::new(previous, id.clone()));
        previous = id;
    }
    let sequence: Vec<&str> = squares.iter().map(|o| o.square.as_str()).collect();
    Diagram {
        name: "linear".to_owned(),
        title: format!("Linearisation in {order_name} order"),
        notes: vec![
            format!("{}: {} occupied squares", board.caption, squares.len()),
            sequence.join(" "),
        ],
        rank_dir: RankDir::LeftRight,
        nodes,
        edges,
        same_rank: Vec::new(),
    }
}
