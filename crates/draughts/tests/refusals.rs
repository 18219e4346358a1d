//! Every refused draughts move names the rule that forbids it (issue #36): one case
//! per code on a hand-built position, and a property test over random playouts.

use proptest::prelude::*;
use tablero_draughts::{Draughts, RuleSet};
use tablero_testkit::random_playout;

/// The code, params and message of the refusal of `text` in `fen`.
fn refusal(rule_set: RuleSet, fen: &str, text: &str) -> (&'static str, String) {
    let pos = Draughts::from_fen(fen, rule_set).unwrap_or_else(|e| panic!("{fen}: {e}"));
    match pos.parse_move(text) {
        Ok(m) => panic!("{text} is legal in {fen}: {m:?}"),
        Err(e) => (e.refusal().code(), e.to_string()),
    }
}

#[test]
fn every_draughts_code_on_a_position() {
    let cases = [
        // The issue's cases: a step when a capture is compulsory, and the majority.
        (
            RuleSet::Spanish,
            "W:W22,30:B18",
            "30-26",
            "capture_compulsory",
        ),
        (
            RuleSet::International,
            "W:W28:B23,14,33",
            "28x39",
            "majority_capture",
        ),
        (
            RuleSet::Brazilian,
            "W:W22:B17,18,10",
            "22x13",
            "majority_capture",
        ),
        (
            RuleSet::Spanish,
            "W:WK22:B18,K19",
            "22x13",
            "capture_priority",
        ),
        (
            RuleSet::Spanish,
            "W:W22,24:B18,10,20",
            "22x13",
            "must_continue_capture",
        ),
        (
            RuleSet::International,
            "W:W28:B23,14,33",
            "28x19",
            "must_continue_capture",
        ),
        (
            RuleSet::English,
            "W:W10:B6,7",
            "10x3x10",
            "capture_ends_at_crowning",
        ),
        (
            RuleSet::English,
            "W:W22:B17,18,10",
            "22-26",
            "man_cannot_move_backwards",
        ),
        (
            RuleSet::English,
            "W:W22:B26",
            "22x31",
            "man_cannot_capture_backwards",
        ),
        (
            RuleSet::Italian,
            "W:W22:BK18",
            "22x13",
            "man_cannot_capture_king",
        ),
        (
            RuleSet::English,
            "W:WK22:B1",
            "22-15",
            "king_moves_one_square",
        ),
        (RuleSet::English, "W:W22:B26", "22x29", "nothing_to_capture"),
        (
            RuleSet::English,
            "W:W22,17:B1",
            "22x13",
            "cannot_jump_own_piece",
        ),
        (
            RuleSet::Brazilian,
            "W:W22:B17",
            "22x13x22",
            "cannot_capture_twice",
        ),
        (
            RuleSet::English,
            "W:W22:B17,18,10",
            "22-17",
            "square_occupied",
        ),
        (RuleSet::Russian, "W:WK29,22:B1", "29-15", "path_blocked"),
        (
            RuleSet::English,
            "W:W22:B1",
            "22-14",
            "piece_cannot_move_so",
        ),
        (
            RuleSet::English,
            "W:W22:B17,18,10",
            "21-17",
            "no_piece_on_square",
        ),
        (
            RuleSet::English,
            "W:W22:B17,18,10",
            "10-15",
            "not_your_piece",
        ),
        (RuleSet::English, "W:W:B1", "22-14", "game_over"),
        (RuleSet::English, "W:W22:B1", "22-", "malformed_move"),
        (
            RuleSet::English,
            "W:WK23:B10,17,18,25,26",
            "23x7",
            "ambiguous_move",
        ),
    ];
    for (rule_set, fen, text, code) in cases {
        let (got, message) = refusal(rule_set, fen, text);
        assert_eq!(got, code, "{rule_set:?} {fen} {text}: {message}");
    }
}

#[test]
fn the_issue_messages_name_the_rule() {
    assert_eq!(
        refusal(RuleSet::Spanish, "W:W22,30:B18", "30-26").1,
        "illegal move 30-26: a capture is compulsory: you must capture"
    );
    let pos = Draughts::from_fen("W:W28:B23,14,33", RuleSet::International).expect("fen");
    let refusal = pos.parse_move("28x39").expect_err("minority").refusal();
    assert_eq!(
        refusal.params(),
        vec![("required", tablero_core::ParamValue::Number(2))]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every from/to text of the side to move's pieces (as a step and as a capture)
    /// that is not a legal move gets a refusal naming a rule.
    #[test]
    fn every_refusal_names_a_rule(seed in any::<u64>(), plies in 0u32..80, rs in 0usize..6) {
        let rule_set = RuleSet::ALL[rs];
        let pos = random_playout(Draughts::new(rule_set), plies, seed);
        let last = rule_set.rules().board.squares();
        let mut checked = 0u32;
        for from in 1..=last {
            if pos.piece_at(from).is_none_or(|p| p.side != pos.turn()) {
                continue;
            }
            for to in 1..=last {
                for sep in ["-", "x"] {
                    let text = format!("{from}{sep}{to}");
                    if let Err(e) = pos.parse_move(&text) {
                        checked += 1;
                        let refusal = e.refusal();
                        prop_assert!(
                            refusal.is_explained(),
                            "{} {text}: {refusal}",
                            pos.fen()
                        );
                    }
                }
            }
        }
        // Every position with a move refuses most texts.
        prop_assert!(pos.legal_moves().is_empty() || checked > 0);
    }

    /// Every path written from a legal capture's squares that is not itself legal —
    /// cut short, run on past its end, or written as a step — is refused with a named
    /// rule.
    #[test]
    fn every_refused_capture_path_names_a_rule(seed in any::<u64>(), plies in 0u32..80, rs in 0usize..6) {
        let rule_set = RuleSet::ALL[rs];
        let pos = random_playout(Draughts::new(rule_set), plies, seed);
        let last = rule_set.rules().board.squares();
        for m in pos.legal_moves().iter() {
            let mut path = vec![m.from()];
            path.extend(m.landings());
            let mut texts = Vec::new();
            for cut in 2..path.len() {
                texts.push(join(&path[..cut], "x"));
            }
            for extra in 1..=last {
                let mut longer = path.clone();
                longer.push(extra);
                texts.push(join(&longer, "x"));
            }
            texts.push(join(&[m.from(), m.to()], "-"));
            for text in texts {
                if let Err(e) = pos.parse_move(&text) {
                    let refusal = e.refusal();
                    prop_assert!(refusal.is_explained(), "{} {text}: {refusal}", pos.fen());
                }
            }
        }
    }
}

/// Squares joined by `sep`.
fn join(squares: &[u8], sep: &str) -> String {
    squares
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}
