//! The labelling scripts that turn self-play positions into training data
//! (`scripts/label-with-stockfish`, `scripts/label-with-fairy-stockfish`, both through
//! `scripts/uci_labels.py`): they keep the input's order, write the first player's
//! expectation whoever is to move, and skip a line that is not a position by naming it.
//!
//! `scripts/test` installs Stockfish, Fairy-Stockfish and python-chess (into
//! `target/pyenv`); without them a test says it was skipped, except under CI.

use std::path::Path;
use std::process::Command;

mod reference;

use reference::{python_with, root};

/// Runs `script` on `lines`; returns the labelled `(FEN, p)` pairs and the messages.
fn label(
    python: &Path,
    script: &str,
    lines: &[String],
    extra: &[&str],
) -> (Vec<(String, f64)>, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (input, output) = (dir.path().join("in.txt"), dir.path().join("out.txt"));
    std::fs::write(&input, lines.join("\n") + "\n").expect("a temporary file");
    let run = Command::new(python)
        .arg(root().join("scripts").join(script))
        .args([&input, &output])
        .args(extra)
        .output()
        .expect("python runs");
    let messages = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{script}: {messages}");
    let text = std::fs::read_to_string(&output).expect("the labelled file");
    let labelled = text
        .lines()
        .map(|line| {
            let (fen, p) = line.split_once(';').expect("FEN;p");
            (fen.to_owned(), p.parse().expect("a number"))
        })
        .collect();
    (labelled, messages)
}

/// The input lines: `fens` with results after them, `not_a_position` third.
fn input(fens: [&str; 3], not_a_position: &str) -> Vec<String> {
    let mut lines: Vec<String> = fens.iter().map(|fen| format!("{fen};1")).collect();
    lines.insert(2, format!("{not_a_position};0.5"));
    lines
}

/// Three positions, the second and third a queen's or chariot's worth better for the
/// first player with either side to move, and a line that is no position.
fn check(labelled: &[(String, f64)], messages: &str, fens: [&str; 3]) {
    let got: Vec<&str> = labelled.iter().map(|(fen, _)| fen.as_str()).collect();
    assert_eq!(got, fens, "the input's order, the bad line left out");
    assert!((0.35..0.75).contains(&labelled[0].1), "{labelled:?}");
    assert!(labelled[1].1 > 0.9 && labelled[2].1 > 0.9, "{labelled:?}");
    assert!(
        messages.contains("line 3") && messages.contains("skipped"),
        "{messages}"
    );
}

#[test]
fn stockfish_labels_chess_positions_for_white() {
    let Some(python) = python_with("chess", "/usr/games/stockfish") else {
        return;
    };
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    ];
    let lines = input(fens, "rnbqkbnr/pppppppp/8/8 w");
    for model in ["elo", "wdl"] {
        let (labelled, messages) =
            label(&python, "label-with-stockfish", &lines, &["6", "2", model]);
        check(&labelled, &messages, fens);
    }
}

#[test]
fn fairy_stockfish_labels_xiangqi_positions_for_red() {
    let Some(python) = python_with("sys", "/usr/games/fairy-stockfish") else {
        return;
    };
    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    ];
    let lines = input(fens, "rnbakabnr/9/9 w");
    let (labelled, messages) = label(&python, "label-with-fairy-stockfish", &lines, &["6", "2"]);
    check(&labelled, &messages, fens);
}
