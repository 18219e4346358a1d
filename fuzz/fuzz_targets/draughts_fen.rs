//! Any UTF-8 text as a PDN FEN under every rule set. A FEN that parses must print a
//! FEN that parses back to the same position, whose moves all print and parse back.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_draughts::{Draughts, Position, RuleSet};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in RuleSet::ALL {
        let Ok(pos) = Draughts::from_fen(text, rules) else {
            continue;
        };
        let printed = pos.fen();
        assert_eq!(
            Draughts::from_fen(&printed, rules).as_ref(),
            Ok(&pos),
            "{text:?} -> {printed}"
        );
        assert_eq!(pos.key(), pos.compute_key());
        let moves = pos.legal_moves();
        assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        for &m in moves.iter() {
            let shown = pos.move_text(m);
            assert_eq!(pos.parse_move(&shown), Ok(m), "{printed}: {shown}");
            let mut child = pos.clone();
            child.play_unchecked(m);
            assert_eq!(child.key(), child.compute_key(), "{printed}: {shown}");
        }
        let _ = pos.outcome();
    }
});
