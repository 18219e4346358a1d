//! A report as a graph: nodes with labels, colours and a place on a grid, and edges.
//! The same value is written as DOT (for Graphviz) and drawn as SVG by
//! [`crate::svg`].

use std::fmt::Write;

/// Which way Graphviz's `dot` lays out ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankDir {
    /// Top to bottom (matrices, trees).
    TopBottom,
    /// Left to right (lists).
    LeftRight,
}

/// How a node is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A rectangle: a list or matrix element.
    Box,
    /// A rectangle with rounded corners: a header or a tree node.
    Rounded,
    /// An ellipse: the head of a list or matrix.
    Ellipse,
}

/// A node of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The DOT node id, unique in the diagram.
    pub id: String,
    /// The label, one entry per line.
    pub label: Vec<String>,
    /// The outline.
    pub shape: Shape,
    /// Fill colour (`#rrggbb`).
    pub fill: &'static str,
    /// Text colour (`#rrggbb`).
    pub ink: &'static str,
    /// Where the built-in layout puts it: column and row of a grid, from 0 (a tree
    /// uses half columns).
    pub at: (f64, f64),
    /// Whether it is drawn: invisible nodes only keep a tree's children on their
    /// side in Graphviz's layout.
    pub visible: bool,
    /// Nodes with the same group are kept in one straight line by Graphviz.
    pub group: Option<String>,
}

impl Node {
    /// A visible node with black text on `fill`.
    #[must_use]
    pub fn new(id: impl Into<String>, label: Vec<String>, shape: Shape, at: (f64, f64)) -> Node {
        Node {
            id: id.into(),
            label,
            shape,
            fill: WHITE,
            ink: BLACK,
            at,
            visible: true,
            group: None,
        }
    }
}

/// An edge: a link from one node to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The id of the node it starts from.
    pub from: String,
    /// The id of the node it points to.
    pub to: String,
    /// A link both ways (a doubly linked list): arrow heads at both ends.
    pub both_ways: bool,
    /// Whether it is drawn (see [`Node::visible`]).
    pub visible: bool,
}

impl Edge {
    /// A visible one-way link.
    #[must_use]
    pub fn new(from: impl Into<String>, to: impl Into<String>) -> Edge {
        Edge {
            from: from.into(),
            to: to.into(),
            both_ways: false,
            visible: true,
        }
    }

    /// A visible link both ways.
    #[must_use]
    pub fn both(from: impl Into<String>, to: impl Into<String>) -> Edge {
        Edge {
            both_ways: true,
            ..Edge::new(from, to)
        }
    }
}

/// White fill.
pub const WHITE: &str = "#ffffff";
/// Black text, or a black piece's fill.
pub const BLACK: &str = "#202020";
/// Header nodes' fill.
pub const HEADER: &str = "#dde6f0";
/// The head node's fill.
pub const HEAD: &str = "#f3e3b5";
/// A red (xiangqi) piece's fill.
pub const RED: &str = "#c0392b";

/// A whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagram {
    /// The DOT graph id.
    pub name: String,
    /// The title, drawn above the graph.
    pub title: String,
    /// Facts stated under the title (counts, order, source).
    pub notes: Vec<String>,
    /// The direction of Graphviz's layout.
    pub rank_dir: RankDir,
    /// The nodes, in the order they are written.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
    /// Sets of node ids Graphviz puts on one rank (`{ rank=same; ... }`).
    pub same_rank: Vec<Vec<String>>,
}

/// `text` as a DOT quoted string (without the quotes).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

/// Label lines joined with DOT's centred line break.
fn label(lines: &[String]) -> String {
    let escaped: Vec<String> = lines.iter().map(|l| escape(l)).collect();
    format!("\"{}\"", escaped.join("\\n"))
}

impl Diagram {
    /// The visible nodes.
    pub fn visible_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.visible)
    }

    /// The visible edges.
    pub fn visible_edges(&self) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(|e| e.visible)
    }

    /// The node with id `id`.
    #[must_use]
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The diagram in Graphviz's DOT language, for `dot -Tsvg`.
    #[must_use]
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        let mut heading = vec![self.title.clone()];
        heading.extend(self.notes.iter().cloned());
        // Writing to a String cannot fail.
        let _ = writeln!(out, "digraph {} {{", quoted(&self.name));
        let _ = writeln!(
            out,
            "  graph [label={}, labelloc=t, fontname=\"Helvetica\", fontsize=14, rankdir={}, ordering=out, nodesep=0.35, ranksep=0.45];",
            label(&heading),
            match self.rank_dir {
                RankDir::TopBottom => "TB",
                RankDir::LeftRight => "LR",
            }
        );
        out.push_str("  node [fontname=\"Helvetica\", fontsize=11, style=filled, penwidth=1.2];\n");
        out.push_str("  edge [arrowsize=0.7];\n");
        for node in &self.nodes {
            let mut attributes = vec![format!("label={}", label(&node.label))];
            if node.visible {
                let (shape, style) = match node.shape {
                    Shape::Box => ("box", "filled"),
                    Shape::Rounded => ("box", "rounded,filled"),
                    Shape::Ellipse => ("ellipse", "filled"),
                };
                attributes.push(format!("shape={shape}"));
                attributes.push(format!("style=\"{style}\""));
                attributes.push(format!("fillcolor=\"{}\"", node.fill));
                attributes.push(format!("fontcolor=\"{}\"", node.ink));
            } else {
                attributes.push("style=invis".to_owned());
                attributes.push("width=0.3".to_owned());
            }
            if let Some(group) = &node.group {
                attributes.push(format!("group={}", quoted(group)));
            }
            let _ = writeln!(out, "  {} [{}];", quoted(&node.id), attributes.join(", "));
        }
        for edge in &self.edges {
            let mut attributes = Vec::new();
            if edge.both_ways {
                attributes.push("dir=both");
            }
            if !edge.visible {
                attributes.push("style=invis");
            }
            let list = if attributes.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attributes.join(", "))
            };
            let _ = writeln!(
                out,
                "  {} -> {}{list};",
                quoted(&edge.from),
                quoted(&edge.to)
            );
        }
        for rank in &self.same_rank {
            let ids: Vec<String> = rank.iter().map(|id| quoted(id)).collect();
            let _ = writeln!(out, "  {{ rank=same; {}; }}", ids.join("; "));
        }
        out.push_str("}\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_labels_are_escaped() {
        let diagram = Diagram {
            name: "a\"b".into(),
            title: "t\\".into(),
            notes: vec!["n".into()],
            rank_dir: RankDir::LeftRight,
            nodes: vec![Node::new(
                "x\"y",
                vec!["one".into(), "tw\"o".into()],
                Shape::Box,
                (0.0, 0.0),
            )],
            edges: vec![Edge::both("x\"y", "x\"y")],
            same_rank: vec![],
        };
        let dot = diagram.to_dot();
        assert!(dot.starts_with("digraph \"a\\\"b\" {\n"), "{dot}");
        assert!(dot.contains("label=\"t\\\\\\nn\""), "{dot}");
        assert!(
            dot.contains("\"x\\\"y\" [label=\"one\\ntw\\\"o\", shape=box"),
            "{dot}"
        );
        assert!(
            dot.contains("\"x\\\"y\" -> \"x\\\"y\" [dir=both];"),
            "{dot}"
        );
        assert!(dot.contains("rankdir=LR"));
    }
}
