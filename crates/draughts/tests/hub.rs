//! Hub text against pydraughts: positions pydraughts' `HubEngine` would send, with the
//! legal moves it would accept as Hub moves (`tests/data/hub_pydraughts.tsv`).

use tablero_draughts::{Draughts, HubMove, RuleSet};

#[test]
fn legal_hub_moves_agree_with_pydraughts() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hub_pydraughts.tsv");
    let text = std::fs::read_to_string(path).expect("the fixture exists");
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [rule_set, position, moves] = fields[..] else {
            panic!("line {}: three fields expected", number + 1);
        };
        let rule_set: RuleSet = rule_set.parse().expect("a rule set");
        let pos = Draughts::from_hub_position(position, rule_set)
            .unwrap_or_else(|e| panic!("line {}: {e}", number + 1));
        assert_eq!(pos.hub_position(), position, "line {}", number + 1);
        let mut ours: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| HubMove::from_move(&pos, m).to_string())
            .collect();
        ours.sort();
        let mut theirs: Vec<String> = moves.split(' ').map(str::to_owned).collect();
        theirs.sort();
        // pydraughts lists each capture path; tablero each (from, to, captured set).
        theirs.dedup();
        assert_eq!(ours, theirs, "line {}: {rule_set} {position}", number + 1);
        for text in &theirs {
            let m = text.parse::<HubMove>().and_then(|h| h.to_move(&pos));
            assert!(m.is_ok(), "line {}: {text}: {m:?}", number + 1);
        }
        checked += 1;
    }
    assert!(checked >= 100, "{checked} positions checked");
}
