//! The perft suite (`tests/data/chess3d.perft`): the start position and positions
//! reached by play, cross-checked with an independent implementation of the rule book.

use tablero_chess3d::Chess3d;
use tablero_testkit::{check_perft_suite, parse_perft_suite};

/// Checks with more expected leaves than this run only with `--ignored`.
const NODE_BUDGET: u64 = 5_000_000;

fn run(max_nodes: u64) {
    let path = format!("{}/tests/data/chess3d.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases = parse_perft_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(cases.len() >= 9, "{path} has {} cases", cases.len());
    let (failures, checked) = check_perft_suite(
        &cases,
        |text| Chess3d::from_position_string(text).map_err(|e| e.to_string()),
        max_nodes,
    );
    assert!(failures.is_empty(), "{path}:\n{failures}");
    assert!(checked > 0, "{path}: no check within the node budget");
}

#[test]
fn chess3d_suite() {
    run(NODE_BUDGET);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn chess3d_suite_deep() {
    run(u64::MAX);
}
