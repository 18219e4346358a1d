//! The built-in SVG renderer: draws a [`Diagram`] on the grid its report chose,
//! without Graphviz. Like Graphviz's SVG, each node is a `<g class="node">` and each
//! edge a `<g class="edge">`, both with a `<title>` naming them.

use std::collections::HashMap;
use std::fmt::Write;

use crate::diagram::{Diagram, Node, Shape};

const FONT_SIZE: f64 = 12.0;
const LINE_HEIGHT: f64 = 15.0;
const MARGIN: f64 = 20.0;
const GAP_X: f64 = 34.0;
const GAP_Y: f64 = 38.0;

/// Where a node is drawn: centre, half width and height, outline.
#[derive(Debug, Clone, Copy)]
struct Placed {
    x: f64,
    y: f64,
    half: (f64, f64),
    shape: Shape,
}

/// The width of `text` in pixels at the font size used, roughly: wide (CJK)
/// characters count double.
fn text_width(text: &str) -> f64 {
    text.chars()
        .map(|c| if u32::from(c) >= 0x2E80 { 2.0 } else { 1.0 })
        .sum::<f64>()
        * FONT_SIZE
        * 0.6
}

fn size(node: &Node) -> (f64, f64) {
    let widest = node.label.iter().map(|l| text_width(l)).fold(0.0, f64::max);
    let lines = node.label.len().max(1) as f64;
    let pad = if node.shape == Shape::Ellipse {
        32.0
    } else {
        18.0
    };
    ((widest + pad).max(44.0), lines * LINE_HEIGHT + 12.0)
}

/// XML text with `&`, `<`, `>` and quotes escaped.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Where a line from the centre of a node of `shape` and half-size `half` towards
/// `direction` leaves its outline, relative to the centre.
fn boundary(shape: Shape, half: (f64, f64), direction: (f64, f64)) -> (f64, f64) {
    let (dx, dy) = direction;
    let t = match shape {
        Shape::Ellipse => 1.0 / ((dx / half.0).powi(2) + (dy / half.1).powi(2)).sqrt(),
        Shape::Box | Shape::Rounded => {
            let tx = if dx == 0.0 {
                f64::INFINITY
            } else {
                half.0 / dx.abs()
            };
            let ty = if dy == 0.0 {
                f64::INFINITY
            } else {
                half.1 / dy.abs()
            };
            tx.min(ty)
        }
    };
    (dx * t, dy * t)
}

/// The diagram as a standalone SVG document.
#[must_use]
pub fn render(diagram: &Diagram) -> String {
    let nodes: Vec<&Node> = diagram.visible_nodes().collect();
    let sizes: Vec<(f64, f64)> = nodes.iter().map(|n| size(n)).collect();
    let cell_w = sizes.iter().map(|s| s.0).fold(60.0, f64::max);
    let cell_h = sizes.iter().map(|s| s.1).fold(30.0, f64::max);
    let (pitch_x, pitch_y) = (cell_w + GAP_X, cell_h + GAP_Y);
    let columns = nodes.iter().map(|n| n.at.0).fold(0.0, f64::max) + 1.0;
    let rows = nodes.iter().map(|n| n.at.1).fold(0.0, f64::max) + 1.0;
    let heading: Vec<&str> = std::iter::once(diagram.title.as_str())
        .chain(diagram.notes.iter().map(String::as_str))
        .collect();
    let top = MARGIN + heading.len() as f64 * 18.0 + 10.0;
    let heading_w = heading
        .iter()
        .map(|l| text_width(l) * 1.1)
        .fold(0.0, f64::max);
    let width = (2.0 * MARGIN + columns * pitch_x).max(heading_w + 2.0 * MARGIN);
    let height = top + rows * pitch_y + MARGIN;
    let centre = |node: &Node| {
        (
            MARGIN + node.at.0 * pitch_x + pitch_x / 2.0,
            top + node.at.1 * pitch_y + pitch_y / 2.0,
        )
    };
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"{FONT_SIZE}\">"
    );
    let _ = writeln!(out, "<title>{}</title>", xml(&diagram.title));
    out.push_str(
        "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#202020\"/></marker></defs>\n",
    );
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{width:.0}\" height=\"{height:.0}\" fill=\"#ffffff\"/>"
    );
    for (i, line) in heading.iter().enumerate() {
        let (size, weight) = if i == 0 { (15, "bold") } else { (12, "normal") };
        let _ = writeln!(
            out,
            "<text class=\"heading\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"{size}\" font-weight=\"{weight}\">{}</text>",
            width / 2.0,
            MARGIN + 14.0 + i as f64 * 18.0,
            xml(line)
        );
    }
    let placed: HashMap<&str, Placed> = nodes
        .iter()
        .zip(&sizes)
        .map(|(n, s)| {
            let (x, y) = centre(n);
            let half = (s.0 / 2.0, s.1 / 2.0);
            (
                n.id.as_str(),
                Placed {
                    x,
                    y,
                    half,
                    shape: n.shape,
                },
            )
        })
        .collect();
    for edge in diagram.visible_edges() {
        let (Some(a), Some(b)) = (placed.get(edge.from.as_str()), placed.get(edge.to.as_str()))
        else {
            continue;
        };
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0.0 && dy == 0.0 {
            continue;
        }
        let start = boundary(a.shape, a.half, (dx, dy));
        let end = boundary(b.shape, b.half, (-dx, -dy));
        let _ = writeln!(
            out,
            "<g class=\"edge\"><title>{}&#45;&gt;{}</title><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#202020\" stroke-width=\"1.2\" marker-end=\"url(#arrow)\"{}/></g>",
            xml(&edge.from),
            xml(&edge.to),
            a.x + start.0,
            a.y + start.1,
            b.x + end.0,
            b.y + end.1,
            if edge.both_ways {
                " marker-start=\"url(#arrow)\""
            } else {
                ""
            }
        );
    }
    for (node, (w, h)) in nodes.iter().zip(&sizes) {
        let (x, y) = centre(node);
        let _ = write!(out, "<g class=\"node\"><title>{}</title>", xml(&node.id));
        let stroke = "stroke=\"#202020\" stroke-width=\"1.2\"";
        match node.shape {
            Shape::Ellipse => {
                let _ = write!(
                    out,
                    "<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"{}\" {stroke}/>",
                    w / 2.0,
                    h / 2.0,
                    node.fill
                );
            }
            Shape::Box | Shape::Rounded => {
                let radius = if node.shape == Shape::Rounded { 6 } else { 0 };
                let _ = write!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"{radius}\" fill=\"{}\" {stroke}/>",
                    x - w / 2.0,
                    y - h / 2.0,
                    node.fill
                );
            }
        }
        let first = y - (node.label.len() as f64 - 1.0) * LINE_HEIGHT / 2.0 + FONT_SIZE * 0.35;
        for (i, line) in node.label.iter().enumerate() {
            let _ = write!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                first + i as f64 * LINE_HEIGHT,
                node.ink,
                xml(line)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{Edge, RankDir};

    #[test]
    fn nodes_edges_and_text_are_drawn_and_escaped() {
        let mut hidden = Node::new("h", vec!["hidden".into()], Shape::Box, (2.0, 0.0));
        hidden.visible = false;
        let diagram = Diagram {
            name: "t".into(),
            title: "A & B".into(),
            notes: vec!["<note>".into()],
            rank_dir: RankDir::LeftRight,
            nodes: vec![
                Node::new("a", vec!["x<y".into()], Shape::Ellipse, (0.0, 0.0)),
                Node::new(
                    "b",
                    vec!["1".into(), "2".into()],
                    Shape::Rounded,
                    (1.0, 0.0),
                ),
                hidden,
            ],
            edges: vec![
                Edge::new("a", "b"),
                Edge::both("b", "a"),
                Edge::new("b", "h"),
            ],
            same_rank: vec![],
        };
        let svg = render(&diagram);
        assert_eq!(svg.matches("class=\"node\"").count(), 2);
        assert_eq!(svg.matches("class=\"edge\"").count(), 2);
        assert_eq!(svg.matches("marker-start").count(), 1);
        assert!(
            svg.contains("A &amp; B") && svg.contains("&lt;note&gt;") && svg.contains("x&lt;y")
        );
        assert!(!svg.contains("hidden"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn lines_stop_at_the_outline() {
        assert_eq!(boundary(Shape::Box, (10.0, 5.0), (100.0, 0.0)), (10.0, 0.0));
        assert_eq!(boundary(Shape::Box, (10.0, 5.0), (0.0, -3.0)), (0.0, -5.0));
        let (x, y) = boundary(Shape::Ellipse, (10.0, 5.0), (1.0, 0.0));
        assert!((x - 10.0).abs() < 1e-9 && y == 0.0);
    }
}
