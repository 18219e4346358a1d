//! Any UTF-8 text as a PDN move in fixed positions of every rule set: no panic, and
//! a move that resolves prints text that resolves to it again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_draughts::{Draughts, RuleSet};

const POSITIONS: &[(RuleSet, &str)] = &[
    (
        RuleSet::English,
        "B:W18,19,21,23,24,26,29,30,31,32:B1,2,3,4,6,7,9,10,11,12",
    ),
    (
        RuleSet::International,
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    ),
    (RuleSet::Russian, "W:WK10,23,27:B14,15,18,19,24"),
    (RuleSet::Spanish, "W:WK30,22:B26,19,18,11,10"),
    (RuleSet::Italian, "W:W21,22,K27:BK18,19,12"),
    (RuleSet::Brazilian, "W:WK31:B27,18,20,12"),
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for &(rules, fen) in POSITIONS {
        let Ok(pos) = Draughts::from_fen(fen, rules) else {
            continue;
        };
        if let Ok(m) = pos.parse_move(text) {
            assert!(pos.legal_moves().contains(&m));
            let shown = pos.move_text(m);
            assert_eq!(pos.parse_move(&shown), Ok(m), "{fen}: {text:?} -> {shown}");
        }
    }
});
