//! Any UTF-8 text as a Hub move and as a Hub position string in every rule set. A
//! position that parses must print back to itself; a move that resolves must be
//! legal and print as Hub text that resolves to the same move.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tablero_draughts::{Draughts, HubMove, Position, RuleSet};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rule_set in RuleSet::ALL {
        if let Ok(pos) = Draughts::from_hub_position(text, rule_set) {
            let printed = pos.hub_position();
            assert_eq!(
                Draughts::from_hub_position(&printed, rule_set).as_ref(),
                Ok(&pos),
                "{text:?} printed {printed:?}"
            );
        }
        let pos = Draughts::new(rule_set);
        let Ok(hub) = text.parse::<HubMove>() else {
            continue;
        };
        let Ok(m) = hub.to_move(&pos) else {
            continue;
        };
        assert!(
            pos.is_legal(m),
            "{text:?} gave an illegal move in {rule_set}"
        );
        let printed = HubMove::from_move(&pos, m).to_string();
        let back = printed.parse::<HubMove>().map(|h| h.to_move(&pos));
        assert_eq!(
            back,
            Ok(Ok(m)),
            "{text:?} in {rule_set} printed {printed:?}"
        );
    }
});
