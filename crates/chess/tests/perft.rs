//! Perft suites: published counts for standard positions plus positions chosen for
//! tricky rules, standard and Chess960, cross-checked with Stockfish and python-chess.

use tablero_chess::{CastlingMode, Chess};
use tablero_testkit::{check_perft_suite, parse_perft_suite};

/// Checks with more expected leaves than this run only with `--ignored`.
const NODE_BUDGET: u64 = 5_000_000;

fn run(file: &str, mode: CastlingMode, max_nodes: u64) {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases = parse_perft_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(!cases.is_empty(), "{path} has no cases");
    let (failures, checked) = check_perft_suite(
        &cases,
        |fen| Chess::from_fen(fen, mode).map_err(|e| e.to_string()),
        max_nodes,
    );
    assert!(failures.is_empty(), "{path}:\n{failures}");
    assert!(checked > 0, "{path}: no check within the node budget");
}

#[test]
fn standard_suite() {
    run("standard.perft", CastlingMode::Standard, NODE_BUDGET);
}

#[test]
fn chess960_suite() {
    run("chess960.perft", CastlingMode::Chess960, NODE_BUDGET);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn standard_suite_deep() {
    run("standard.perft", CastlingMode::Standard, u64::MAX);
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn chess960_suite_deep() {
    run("chess960.perft", CastlingMode::Chess960, u64::MAX);
}
