//! Every refused chess move names the rule that forbids it (issue #36): one case per
//! code on a concrete position, and a property test over random playouts.

use proptest::prelude::*;
use tablero_chess::{CastlingMode, Chess, Square};
use tablero_testkit::random_playout;

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The code and message of the refusal of `text` (UCI, else SAN) in `fen`.
fn refusal(fen: &str, text: &str) -> (&'static str, String) {
    let p = pos(fen);
    let result = match text.parse::<tablero_chess::UciMove>() {
        Ok(uci) => uci.to_move(&p).map_err(|e| (e.refusal(), e.to_string())),
        Err(_) => p.parse_san(text).map_err(|e| (e.refusal(), e.to_string())),
    };
    match result {
        Ok(m) => panic!("{text} is legal in {fen}: {m:?}"),
        Err((r, message)) => (r.code(), message),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn every_chess_code_on_a_position() {
    let cases = [
        (START, "e2e5", "piece_cannot_move_so"),
        (START, "e3e4", "no_piece_on_square"),
        (START, "e7e5", "not_your_piece"),
        (START, "g1e2", "own_piece_on_square"),
        (START, "f1c4", "path_blocked"),
        (START, "Qh5", "path_blocked"),
        (START, "Nf4", "no_such_piece"),
        (START, "e2e4q", "invalid_promotion"),
        // The king walks into an attack.
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "e1e2",
            "leaves_king_in_check",
        ),
        // In check, a move elsewhere.
        ("4k3/8/8/8/8/8/P7/4K2r w - - 0 1", "a2a3", "king_in_check"),
        // The knight on e2 is pinned by the rook on e8.
        ("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2c3", "pinned_piece"),
        (
            "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1",
            "e1g1",
            "castling_rights_lost",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1",
            "e1g1",
            "castling_path_blocked",
        ),
        (
            "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1",
            "O-O-O",
            "castling_path_blocked",
        ),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "ok"),
        (
            "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1",
            "e1g1",
            "castling_through_check",
        ),
        (
            "4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1",
            "O-O",
            "castling_out_of_check",
        ),
        (
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "a7a8",
            "promotion_required",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "e2d3",
            "pawn_captures_only_diagonally",
        ),
        // Fool's mate: white is mated.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "e2e4",
            "game_over",
        ),
        (START, "e9", "malformed_move"),
        ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", "ambiguous_move"),
    ];
    for (fen, text, code) in cases {
        if code == "ok" {
            continue;
        }
        let (got, message) = refusal(fen, text);
        assert_eq!(got, code, "{fen} {text}: {message}");
    }
}

#[test]
fn the_issue_messages_name_the_rule() {
    let (_, through) = refusal("4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1", "e1g1");
    assert_eq!(
        through,
        "illegal move e1g1: castling would move the king through or into check on f1"
    );
    let (_, pinned) = refusal("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3");
    assert_eq!(
        pinned,
        "illegal move Nc3: the piece on e2 is pinned: moving it would expose your king"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every from/to pair (and every promotion of a pawn reaching the last rank) that
    /// is not a legal move is refused with a named rule.
    #[test]
    fn every_refusal_names_a_rule(seed in any::<u64>(), plies in 0u32..120, c960 in any::<bool>()) {
        let start = if c960 {
            Chess::chess960((seed % 960) as u32).expect("0..960")
        } else {
            Chess::new()
        };
        let pos = random_playout(start, plies, seed);
        for from in Square::all() {
            for to in Square::all() {
                for promo in ["", "q", "n"] {
                    let text = format!("{from}{to}{promo}");
                    let Ok(uci) = text.parse::<tablero_chess::UciMove>() else { continue };
                    if let Err(e) = uci.to_move(&pos) {
                        let refusal = e.refusal();
                        prop_assert!(refusal.is_explained(), "{} {text}: {refusal}", pos.fen());
                    }
                }
            }
        }
    }
}
