//! Every refused xiangqi move names the rule that forbids it (issue #36): one case per
//! code on a concrete position, and a property test over random playouts.

use proptest::prelude::*;
use tablero_testkit::random_playout;
use tablero_xiangqi::{Square, Xiangqi};

/// The code and message of the refusal of `text` (ICCS, WXF or Chinese) in `fen`.
fn refusal(fen: &str, text: &str) -> (&'static str, String) {
    let p = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    match p.parse_move(text) {
        Ok(m) => panic!("{text} is legal in {fen}: {m:?}"),
        Err(e) => (e.refusal().code(), e.to_string()),
    }
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn every_xiangqi_code_on_a_position() {
    let cases = [
        (START, "h0h3", "piece_cannot_move_so"),
        (START, "e5e6", "no_piece_on_square"),
        (START, "a6a5", "not_your_piece"),
        (START, "a0b0", "own_piece_on_square"),
        (START, "a0a5", "path_blocked"),
        (START, "b0d1", "horse_leg_blocked"),
        (START, "h2h7", "cannon_needs_screen"),
        (START, "a3a2", "soldier_cannot_retreat"),
        (START, "a3b3", "soldier_cannot_move_sideways"),
        (START, "H2+4", "horse_leg_blocked"),
        (START, "Q8+7", "malformed_move"),
        // Black's numerals in Chinese notation while red is to move.
        (START, "炮8平5", "not_your_turn"),
        (
            "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1",
            "c4e6",
            "elephant_cannot_cross_river",
        ),
        (
            "3k5/9/9/9/9/2B6/3P5/9/9/4K4 w - - 0 1",
            "c4e2",
            "elephant_eye_blocked",
        ),
        ("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0c0", "leaves_palace"),
        (
            "5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1",
            "d0c1",
            "leaves_palace",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "d0e0",
            "flying_general",
        ),
        (
            "3k1r3/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "e0f0",
            "leaves_king_in_check",
        ),
        (
            "3k5/9/9/9/9/4r4/P8/9/9/4K4 w - - 0 1",
            "a3a4",
            "king_in_check",
        ),
        (
            "3k5/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
            "e1d1",
            "pinned_piece",
        ),
        ("5k3/3rr4/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0d1", "game_over"),
        (
            "4k4/9/2c6/9/2c6/9/9/R8/9/R2K5 w - - 0 1",
            "R9+1",
            "ambiguous_move",
        ),
        (
            "4k4/9/2c6/9/2c6/9/9/R8/9/R2K5 w - - 0 1",
            "H2+3",
            "no_such_piece",
        ),
    ];
    for (fen, text, code) in cases {
        let (got, message) = refusal(fen, text);
        assert_eq!(got, code, "{fen} {text}: {message}");
    }
}

#[test]
fn the_messages_name_the_rule() {
    assert_eq!(
        refusal(START, "b0d1").1,
        "ICCS move b0d1: the horse's leg on c0 is blocked"
    );
    assert_eq!(
        refusal("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0").1,
        "ICCS move d0e0: the generals would face each other on an open file"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every from/to pair that is not a legal move is refused with a named rule.
    #[test]
    fn every_refusal_names_a_rule(seed in any::<u64>(), plies in 0u32..120) {
        let pos = random_playout(Xiangqi::new(), plies, seed);
        for from in Square::all() {
            for to in Square::all() {
                if from == to {
                    continue;
                }
                let text = format!("{from}{to}");
                if let Err(e) = pos.parse_move(&text) {
                    let refusal = e.refusal();
                    prop_assert!(refusal.is_explained(), "{} {text}: {refusal}", pos.fen());
                }
            }
        }
    }
}
