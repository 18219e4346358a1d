//! The board report: the occupied squares of a board (or chess3d level) as an
//! orthogonal sparse matrix.
//!
//! A head node leads to a list of column headers and a list of row headers, one for
//! each column and row that holds a piece, in board order. Each row header leads to
//! the row's pieces from left to right, each column header to the column's pieces
//! from top to bottom; every link goes both ways, so each piece node has up to four
//! neighbours (left, right, up, down).

use std::collections::BTreeSet;

use crate::board::BoardLevel;
use crate::diagram::{BLACK, Diagram, Edge, HEAD, HEADER, Node, RED, RankDir, Shape, WHITE};

/// The fill and text colours of a piece of `colour`.
pub(crate) fn piece_colours(colour: &str) -> (&'static str, &'static str) {
    match colour {
        "black" => (BLACK, WHITE),
        "red" => (RED, WHITE),
        _ => (WHITE, BLACK),
    }
}

/// The id of the node of the piece on row `row`, column `column`.
#[must_use]
pub fn cell_id(row: usize, column: usize) -> String {
    format!("cell_r{row}_c{column}")
}

/// The id of the header of row `row`.
#[must_use]
pub fn row_id(row: usize) -> String {
    format!("row_{row}")
}

/// The id of the header of column `column`.
#[must_use]
pub fn column_id(column: usize) -> String {
    format!("col_{column}")
}

/// The head node's id.
pub(crate) const HEAD_ID: &str = "matrix";

/// The board as an orthogonal sparse matrix.
#[must_use]
pub fn sparse_matrix(board: &BoardLevel) -> Diagram {
    let rows: BTreeSet<usize> = board.occupied.iter().map(|o| o.row).collect();
    let columns: BTreeSet<usize> = board.occupied.iter().map(|o| o.column).collect();
    let row_place = |r: usize| rows.iter().position(|&x| x == r).unwrap_or(0) as f64 + 1.0;
    let column_place = |c: usize| columns.iter().position(|&x| x == c).unwrap_or(0) as f64 + 1.0;
    let label = |labels: &[String], i: usize, what: &str| {
        format!("{what} {}", labels.get(i).map_or("?", String::as_str))
    };
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut head = Node::new(
        HEAD_ID,
        vec![board.caption.clone()],
        Shape::Ellipse,
        (0.0, 0.0),
    );
    head.fill = HEAD;
    head.group = Some("rows".to_owned());
    nodes.push(head);
    let mut top_rank = vec![HEAD_ID.to_owned()];
    let mut previous = HEAD_ID.to_owned();
    for &c in &columns {
        let mut node = Node::new(
            column_id(c),
            vec![label(&board.columns, c, "column")],
            Shape::Rounded,
            (column_place(c), 0.0),
        );
        node.fill = HEADER;
        node.group = Some(format!("c{c}"));
        nodes.push(node);
        edges.push(Edge::both(previous, column_id(c)));
        previous = column_id(c);
        top_rank.push(column_id(c));
    }
    let mut same_rank = vec![top_rank];
    let mut previous_row = HEAD_ID.to_owned();
    for &r in &rows {
        let mut header = Node::new(
            row_id(r),
            vec![label(&board.rows, r, "row")],
            Shape::Rounded,
            (0.0, row_place(r)),
        );
        header.fill = HEADER;
        header.group = Some("rows".to_owned());
        nodes.push(header);
        edges.push(Edge::both(previous_row, row_id(r)));
        previous_row = row_id(r);
        let mut rank = vec![row_id(r)];
        let mut previous = row_id(r);
        for o in board.occupied.iter().filter(|o| o.row == r) {
            let id = cell_id(o.row, o.column);
            let mut node = Node::new(
                id.clone(),
                vec![o.piece.to_owned(), o.colour.to_owned(), o.square.clone()],
                Shape::Box,
                (column_place(o.column), row_place(r)),
            );
            (node.fill, node.ink) = piece_colours(o.colour);
            node.group = Some(format!("c{}", o.column));
            nodes.push(node);
            edges.push(Edge::both(previous, id.clone()));
            previous = id.clone();
            rank.push(id);
        }
        same_rank.push(rank);
    }
    for &c in &columns {
        let mut previous = column_id(c);
        let mut in_column: Vec<_> = board.occupied.iter().filter(|o| o.column == c).collect();
        in_column.sort_by_key(|o| o.row);
        for o in in_column {
            let id = cell_id(o.row, o.column);
            edges.push(Edge::both(previous, id.clone()));
            previous = id;
        }
    }
    Diagram {
        name: "board".to_owned(),
        title: "Board as an orthogonal sparse matrix".to_owned(),
        notes: vec![format!(
            "{}: {} occupied squares in {} rows and {} columns",
            board.caption,
            board.occupied.len(),
            rows.len(),
            columns.len()
        )],
        rank_dir: RankDir::TopBottom,
        nodes,
        edges,
        same_rank,
    }
}
