//! The player tree: the players' names in a binary search tree, inserted in
//! registration order, with its height, leaves and branch nodes.

use std::cmp::Ordering;

use crate::PlayerLine;
use crate::diagram::{Diagram, Edge, HEAD, Node, RankDir, Shape};

#[derive(Debug, Clone, PartialEq, Eq)]
struct TreeNode {
    name: String,
    /// Registration number (from 1).
    number: usize,
    /// Level of the node (the root is 1).
    depth: usize,
    left: Option<usize>,
    right: Option<usize>,
}

/// A binary search tree of names. Names compare by Unicode code points (so `Zoe`
/// sorts before `ana`); a name already in the tree is not inserted again.
///
/// ```
/// use tablero_reports::PlayerTree;
///
/// let tree = PlayerTree::from_names(["m", "f", "t", "a"]);
/// assert_eq!((tree.height(), tree.leaves(), tree.branches()), (3, 2, 2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlayerTree {
    nodes: Vec<TreeNode>,
}

impl PlayerTree {
    /// An empty tree.
    #[must_use]
    pub fn new() -> PlayerTree {
        PlayerTree::default()
    }

    /// The tree of `names` inserted in order.
    #[must_use]
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> PlayerTree {
        let mut tree = PlayerTree::new();
        for name in names {
            tree.insert(name);
        }
        tree
    }

    /// Inserts `name`; returns false if it was already there.
    pub fn insert(&mut self, name: &str) -> bool {
        let index = self.nodes.len();
        let mut node = TreeNode {
            name: name.to_owned(),
            number: index + 1,
            depth: 1,
            left: None,
            right: None,
        };
        if self.nodes.is_empty() {
            self.nodes.push(node);
            return true;
        }
        let mut at = 0;
        loop {
            node.depth += 1;
            let current = &self.nodes[at];
            let next = match name.cmp(current.name.as_str()) {
                Ordering::Equal => return false,
                Ordering::Less => current.left,
                Ordering::Greater => current.right,
            };
            match next {
                Some(child) => at = child,
                None => {
                    let slot = if name < self.nodes[at].name.as_str() {
                        &mut self.nodes[at].left
                    } else {
                        &mut self.nodes[at].right
                    };
                    *slot = Some(index);
                    self.nodes.push(node);
                    return true;
                }
            }
        }
    }

    /// How many names it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of levels: 0 for an empty tree, 1 for a root alone.
    #[must_use]
    pub fn height(&self) -> usize {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }

    /// Nodes without children.
    #[must_use]
    pub fn leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.left.is_none() && n.right.is_none())
            .count()
    }

    /// Nodes with at least one child (the root included when it has one).
    #[must_use]
    pub fn branches(&self) -> usize {
        self.len() - self.leaves()
    }

    /// The names in sorted order (an in-order walk).
    #[must_use]
    pub fn in_order(&self) -> Vec<&str> {
        self.in_order_indices()
            .into_iter()
            .map(|i| self.nodes[i].name.as_str())
            .collect()
    }

    fn in_order_indices(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = Vec::new();
        let mut at = if self.nodes.is_empty() { None } else { Some(0) };
        while at.is_some() || !stack.is_empty() {
            while let Some(i) = at {
                stack.push(i);
                at = self.nodes[i].left;
            }
            if let Some(i) = stack.pop() {
                out.push(i);
                at = self.nodes[i].right;
            }
        }
        out
    }
}

/// The id of the tree node of registration number `number` (from 1).
#[must_use]
pub fn tree_node_id(number: usize) -> String {
    format!("p{number}")
}

/// The player tree of `players` (in registration order) with its height, leaves
/// and branch nodes stated under the title.
#[must_use]
pub fn player_tree(players: &[PlayerLine]) -> Diagram {
    let tree = PlayerTree::from_names(players.iter().map(|p| p.name.as_str()));
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for (x, &i) in tree.in_order_indices().iter().enumerate() {
        let n = &tree.nodes[i];
        let mut node = Node::new(
            tree_node_id(n.number),
            vec![n.name.clone(), format!("#{}", n.number)],
            Shape::Rounded,
            (x as f64, (n.depth - 1) as f64),
        );
        if n.depth == 1 {
            node.fill = HEAD;
        }
        nodes.push(node);
    }
    // Children in node order (the DOT asks for `ordering=out`), with an invisible
    // stand-in for a missing child and an invisible middle one below the parent:
    // Graphviz centres a parent over its children, so without the middle one a lone
    // child ends up straight below, and without the stand-in on either side.
    for n in &tree.nodes {
        let id = tree_node_id(n.number);
        if n.left.is_none() && n.right.is_none() {
            continue;
        }
        for (side, child) in [("l", n.left), ("m", None), ("r", n.right)] {
            match child {
                Some(c) => edges.push(Edge::new(id.clone(), tree_node_id(tree.nodes[c].number))),
                None => {
                    let stand_in = format!("{id}_{side}");
                    let mut node = Node::new(
                        stand_in.clone(),
                        vec![String::new()],
                        Shape::Box,
                        (0.0, 0.0),
                    );
                    node.visible = false;
                    nodes.push(node);
                    let mut edge = Edge::new(id.clone(), stand_in);
                    edge.visible = false;
                    edges.push(edge);
                }
            }
        }
    }
    let mut notes = vec![format!(
        "{} players inserted by name in registration order",
        tree.len()
    )];
    notes.push(format!(
        "height {} (one node = 1), leaves {}, branch nodes {}",
        tree.height(),
        tree.leaves(),
        tree.branches()
    ));
    if tree.is_empty() {
        let mut empty = Node::new(
            "empty",
            vec!["empty tree".to_owned()],
            Shape::Ellipse,
            (0.0, 0.0),
        );
        empty.fill = HEAD;
        nodes.push(empty);
    }
    Diagram {
        name: "players".to_owned(),
        title: "Players as a binary search tree".to_owned(),
        notes,
        rank_dir: RankDir::TopBottom,
        nodes,
        edges,
        same_rank: Vec::new(),
    }
}
