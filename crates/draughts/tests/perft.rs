//! Perft suites, one per rule set: the start position (with published figures where
//! there are any) and positions with kings and long captures. The counts were
//! cross-checked with pydraughts and with the slow reference generator (see the
//! headers of `tests/data/*.perft`); the reference check also runs here.

mod common;

use tablero_draughts::{Draughts, Position, RuleSet};
use tablero_testkit::{PerftCase, check_perft_suite, parse_perft_suite};

use common::reference_moves;

/// Checks with more expected leaves than this run only with `--ignored`.
const NODE_BUDGET: u64 = 1_000_000;

fn suite(rule_set: RuleSet) -> Vec<PerftCase> {
    let path = format!(
        "{}/tests/data/{}.perft",
        env!("CARGO_MANIFEST_DIR"),
        rule_set.id()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let cases = parse_perft_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        cases.len() >= 16,
        "{path}: the start and at least 15 positions"
    );
    cases
}

fn run(rule_set: RuleSet, max_nodes: u64) {
    let cases = suite(rule_set);
    let (failures, checked) = check_perft_suite(
        &cases,
        |fen| Draughts::from_fen(fen, rule_set).map_err(|e| e.to_string()),
        max_nodes,
    );
    assert!(failures.is_empty(), "{rule_set}:\n{failures}");
    assert!(checked > 0, "{rule_set}: no check within the node budget");
}

/// Perft by the slow reference generator (moves played by the fast one).
fn reference_perft(pos: &Draughts, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let keys = reference_moves(pos);
    if depth == 1 {
        return keys.len() as u64;
    }
    let legal = pos.legal_moves();
    keys.iter()
        .map(|key| {
            let m = legal
                .iter()
                .find(|m| (m.from(), m.to(), m.captured(), m.crowns()) == *key)
                .unwrap_or_else(|| panic!("reference move {key:?} not generated at {pos:?}"));
            let mut child = pos.clone();
            child.play_unchecked(*m);
            reference_perft(&child, depth - 1)
        })
        .sum()
}

fn reference_check(rule_set: RuleSet) {
    for case in suite(rule_set) {
        let pos = Draughts::from_fen(&case.position, rule_set).expect("suite FEN");
        for &(depth, nodes) in case.checks.iter().filter(|&&(_, n)| n <= 20_000) {
            assert_eq!(
                reference_perft(&pos, depth),
                nodes,
                "{rule_set} {} perft {depth}",
                case.id
            );
        }
    }
}

macro_rules! suites {
    ($($rule:ident: $fast:ident, $deep:ident, $reference:ident;)*) => {$(
        #[test]
        fn $fast() {
            run(RuleSet::$rule, NODE_BUDGET);
        }

        #[test]
        #[ignore = "deep: run with cargo test --release -- --ignored"]
        fn $deep() {
            run(RuleSet::$rule, u64::MAX);
        }

        #[test]
        fn $reference() {
            reference_check(RuleSet::$rule);
        }
    )*};
}

suites! {
    English: english_suite, english_suite_deep, english_suite_matches_reference;
    International: international_suite, international_suite_deep, international_suite_matches_reference;
    Brazilian: brazilian_suite, brazilian_suite_deep, brazilian_suite_matches_reference;
    Russian: russian_suite, russian_suite_deep, russian_suite_matches_reference;
    Spanish: spanish_suite, spanish_suite_deep, spanish_suite_matches_reference;
    Italian: italian_suite, italian_suite_deep, italian_suite_matches_reference;
}
