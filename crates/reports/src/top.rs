//! The top ten: the ten players with the most games won (ties: fewer losses, then
//! name) as a singly linked list.

use crate::PlayerLine;
use crate::diagram::{Diagram, Edge, HEAD, Node, RankDir, Shape};
use crate::linear::snake;

/// Elements per line in the built-in drawing.
const PER_LINE: usize = 6;

/// How many players the list holds at most.
pub const TOP: usize = 10;

/// The players in standing order: most won first, then fewest lost, then name (by
/// Unicode code points).
#[must_use]
pub fn standings(players: &[PlayerLine]) -> Vec<&PlayerLine> {
    let mut sorted: Vec<&PlayerLine> = players.iter().collect();
    sorted.sort_by(|a, b| {
        b.won
            .cmp(&a.won)
            .then(a.lost.cmp(&b.lost))
            .then_with(|| a.name.cmp(&b.name))
    });
    sorted
}

/// The id of the list node of place `place` (from 1).
#[must_use]
pub fn place_id(place: usize) -> String {
    format!("top{place}")
}

/// The top ten of `players` as a linked list.
#[must_use]
pub fn top_ten(players: &[PlayerLine]) -> Diagram {
    let top: Vec<&PlayerLine> = standings(players).into_iter().take(TOP).collect();
    let mut head = Node::new(
        "head",
        vec!["top 10".to_owned()],
        Shape::Ellipse,
        snake(0, PER_LINE),
    );
    head.fill = HEAD;
    let mut nodes = vec![head];
    let mut edges = Vec::new();
    let mut previous = "head".to_owned();
    for (i, p) in top.iter().enumerate() {
        let id = place_id(i + 1);
        nodes.push(Node::new(
            id.clone(),
            vec![
                format!("{}. {}", i + 1, p.name),
                format!("won {}, lost {}", p.won, p.lost),
            ],
            Shape::Box,
            snake(i + 1, PER_LINE),
        ));
        edges.push(Edge::new(previous, id.clone()));
        previous = id;
    }
    Diagram {
        name: "top10".to_owned(),
        title: "Top 10 players by games won".to_owned(),
        notes: vec![format!(
            "{} of {} players; ties: fewer losses first, then name",
            top.len(),
            players.len()
        )],
        rank_dir: RankDir::LeftRight,
        nodes,
        edges,
        same_rank: Vec::new(),
    }
}
