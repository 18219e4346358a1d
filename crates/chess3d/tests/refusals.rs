//! Every refused chess3d move names the rule of `specs/chess3d.md` that forbids it
//! (issue #36): one case per code, and a property test over random playouts.

mod common;

use proptest::prelude::*;
use tablero_chess3d::{Chess3d, Side, Square};
use tablero_testkit::random_playout;

use common::{place, with_damas};

/// The code and message of the refusal of `text` in `pos`.
fn refusal(pos: &Chess3d, text: &str) -> (&'static str, String) {
    match pos.parse_move(text) {
        Ok(m) => panic!("{text} is legal: {m:?}"),
        Err(e) => (e.refusal().code(), e.to_string()),
    }
}

#[test]
fn every_chess3d_code_on_a_position() {
    let w = Side::White;
    let cases: Vec<(Chess3d, &str, &str)> = vec![
        (
            with_damas(w, &[("0D4", 'A')]),
            "0D4-0E5",
            "piece_cannot_move_so",
        ),
        (
            with_damas(w, &[("0D4", 'A'), ("0D5", 'p')]),
            "0D4-0D7",
            "path_blocked",
        ),
        (
            with_damas(w, &[("0D4", 'C'), ("0E4", 'p')]),
            "0D4-0F5",
            "path_blocked",
        ),
        (
            with_damas(w, &[("0D4", 'A')]),
            "0C3-0C4",
            "no_piece_on_square",
        ),
        (with_damas(w, &[("0D4", 'A')]), "2H8-2G8", "not_your_piece"),
        (
            with_damas(w, &[("0D4", 'A'), ("0D5", 'P')]),
            "0D4-0D5",
            "own_piece_on_square",
        ),
        (
            with_damas(w, &[("0D4", 'R'), ("1D4", 'p')]),
            "0D4-1D4",
            "level_move_never_captures",
        ),
        (with_damas(w, &[("0D4", 'C')]), "0D4-1D4", "no_level_move"),
        (
            with_damas(w, &[("0D4", 'A')]),
            "0D4-1D4",
            "alfil_level_move_needs_partner",
        ),
        (
            with_damas(w, &[("0D4", 'T')]),
            "0D4-1D4",
            "torre_level_move_needs_partner",
        ),
        (
            with_damas(w, &[("0D4", 'A')]),
            "2A1-1A1",
            "dama_level_move_needs_king",
        ),
        (
            with_damas(w, &[("0C4", 'P'), ("0D4", 'p')]),
            "0C4-0D4",
            "pawn_captures_backward_only",
        ),
        (
            with_damas(w, &[("0C4", 'P')]),
            "0C4-0D5",
            "pawn_diagonal_step_not_allowed",
        ),
        (
            place(w, 0, &[("2H8", 'd'), ("0A1", 'R')]),
            "0A1-0A2",
            "game_over",
        ),
        (with_damas(w, &[("0D4", 'A')]), "C-0-F1", "no_such_piece"),
        (with_damas(w, &[("0D4", 'A')]), "Z-0-C4", "malformed_move"),
    ];
    for (pos, text, code) in cases {
        let (got, message) = refusal(&pos, text);
        assert_eq!(got, code, "{text}: {message}");
    }
}

#[test]
fn the_messages_name_the_rule() {
    let pos = with_damas(Side::White, &[("0D4", 'A')]);
    assert_eq!(
        refusal(&pos, "2A1-1A1").1,
        "no such legal move 2A1-1A1: the dama changes level only when its king stands next to it"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every move of a piece of the side to move to any square that is not legal is
    /// refused with a named rule.
    #[test]
    fn every_refusal_names_a_rule(seed in any::<u64>(), plies in 0u32..120) {
        let pos = random_playout(Chess3d::start(seed), plies, seed);
        for from in Square::all() {
            if pos.board().side_at(from) != Some(pos.turn()) {
                continue;
            }
            for to in Square::all() {
                let text = format!("{from}-{to}");
                if let Err(e) = pos.parse_move(&text) {
                    let refusal = e.refusal();
                    prop_assert!(refusal.is_explained(), "{} {text}: {refusal}", pos.position_string());
                }
            }
        }
    }
}
