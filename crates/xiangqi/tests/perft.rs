//! The perft suite: the start position's published figures and positions chosen to
//! exercise every rule, counted by Fairy-Stockfish and confirmed by an independent
//! Python generator (`tests/reference_movegen.py`).

use tablero_testkit::{check_perft_suite, parse_perft_suite};
use tablero_xiangqi::Xiangqi;

/// Checks with more expected leaves than this run only with `--ignored`.
const NODE_BUDGET: u64 = 5_000_000;

fn run(max_nodes: u64) {
    let path = format!("{}/tests/data/xiangqi.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases = parse_perft_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(cases.len() >= 21, "{path} has only {} cases", cases.len());
    let (failures, checked) = check_perft_suite(
        &cases,
        |fen| Xiangqi::from_fen(fen).map_err(|e| e.to_string()),
        max_nodes,
    );
    assert!(failures.is_empty(), "{path}:\n{failures}");
    assert!(checked > 0, "{path}: no check within the node budget");
}

#[test]
fn suite() {
    run(NODE_BUDGET);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn suite_deep() {
    run(u64::MAX);
}
