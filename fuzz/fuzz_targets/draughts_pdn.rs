//! Any text as a PDN file: reading never panics, and every game read writes PDN that
//! reads back to a game with the same moves.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_draughts::{RuleSet, read_pdn, write_pdn};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = read_pdn(&text, RuleSet::English);
    let written = write_pdn(&read.games);
    let again = read_pdn(&written, RuleSet::English);
    assert!(again.errors.is_empty(), "{written}: {:?}", again.errors);
    assert_eq!(again.games.len(), read.games.len());
    for (a, b) in read.games.iter().zip(&again.games) {
        assert_eq!(a.moves, b.moves, "{written}");
    }
});
