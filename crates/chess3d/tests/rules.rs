//! The rule book (§3–§5) case by case: every example of the text, each piece's moves
//! and level moves from hand-built positions, promotions with known generator states,
//! the end of the game and the draw rules.

mod common;

use common::{place, sorted, squares, targets, with_damas};
use tablero_chess3d::{
    Chess3d, Game, GameError, Kind, Move, Outcome, Position, Reason, START_POSITION, Setup, Side,
    Square, perft,
};

fn sq(name: &str) -> Square {
    name.parse().expect("test square")
}

fn mv(from: &str, to: &str) -> Move {
    Move::new(sq(from), sq(to))
}

// ---------------------------------------------------------------------------------
// §3 start position
// ---------------------------------------------------------------------------------

#[test]
fn start_position_matches_the_rule_book() {
    let pos = Chess3d::start(0);
    assert_eq!(pos.position_string(), START_POSITION);
    assert_eq!(pos.turn(), Side::Black, "Black moves first");
    for side in Side::ALL {
        let count = |kind: Kind| {
            pos.board()
                .iter()
                .filter(|(_, p)| p.side == side && p.kind == kind)
                .count()
        };
        assert_eq!(count(Kind::Peon), 14);
        assert_eq!(count(Kind::Alfil), 4);
        assert_eq!(count(Kind::Caballo), 4);
        assert_eq!(count(Kind::Torre), 4);
        assert_eq!(count(Kind::Dama), 1);
        assert_eq!(count(Kind::Rey), 1);
    }
    assert_eq!(pos.board().piece_at(sq("1A4")).map(|p| p.char()), Some('D'));
    assert_eq!(pos.board().piece_at(sq("1A5")).map(|p| p.char()), Some('R'));
    assert_eq!(pos.board().piece_at(sq("1H4")).map(|p| p.char()), Some('d'));
    assert_eq!(pos.board().piece_at(sq("1H5")).map(|p| p.char()), Some('r'));
    assert_eq!(pos.board().piece_at(sq("2A1")).map(|p| p.char()), Some('T'));
    assert_eq!(pos.board().piece_at(sq("0H3")).map(|p| p.char()), Some('a'));
    assert_eq!(perft(&pos, 1), 43);
    assert_eq!(pos.outcome(), None);
    // The seed is the generator state, and only that differs between seeds.
    let other = Chess3d::start(0x0123_4567_89ab_cdef);
    assert_eq!(other.rng().state(), 0x0123_4567_89ab_cdef);
    assert_eq!(other.key(), pos.key());
    assert!(other.position_string().ends_with(" b 0 1 0123456789abcdef"));
    assert_ne!(Chess3d::random_start().rng(), Chess3d::random_start().rng());
}

#[test]
fn start_moves_of_black() {
    let pos = Chess3d::start(0);
    // Pawns on the start row step only; torres on a shared row have level moves.
    assert_eq!(targets(&pos, "0G1"), ["0F1"]);
    assert_eq!(targets(&pos, "0H1"), ["1H1"]);
    assert_eq!(targets(&pos, "2H8"), ["1H8"]);
    // Alfil H3 slides right to H4 and H5; its partner H6 is not on its diagonal.
    assert_eq!(targets(&pos, "0H3"), ["0H4", "0H5"]);
    // The caballo's long legs are blocked by the pawns and the alfil.
    assert!(targets(&pos, "0H2").is_empty());
    // The dama jumps over its own pawn and king, and has the king next to it.
    assert_eq!(
        sorted(targets(&pos, "1H4")),
        squares(&[
            "0H4", "1F2", "1F4", "1F6", "1G3", "1H2", "1H3", "1H6", "2H4"
        ])
    );
}

// ---------------------------------------------------------------------------------
// §4 pawns: every example of the text
// ---------------------------------------------------------------------------------

#[test]
fn pawn_steps_from_the_rule_book() {
    // "white pawn B5 may step to C5; black pawn G5 to F5."
    let white = with_damas(Side::White, &[("0B5", 'P')]);
    assert_eq!(targets(&white, "0B5"), ["0C5"]);
    let black = with_damas(Side::Black, &[("0G5", 'p')]);
    assert_eq!(targets(&black, "0G5"), ["0F5"]);
    // No double step, no step onto any piece, no forward capture.
    let blocked = with_damas(Side::White, &[("0B5", 'P'), ("0C5", 'p'), ("0C4", 'p')]);
    assert!(targets(&blocked, "0B5").is_empty());
}

#[test]
fn pawn_captures_backward_from_the_rule_book() {
    // "White pawn D3 may capture on C2": backward for White is towards row A.
    let pos = with_damas(Side::White, &[("0D3", 'P'), ("0C2", 'c'), ("0E4", 't')]);
    assert_eq!(sorted(targets(&pos, "0D3")), squares(&["0C2", "0E3"]));
    // "black pawn E7 on F8": backward for Black is towards row H.
    let pos = with_damas(Side::Black, &[("0E7", 'p'), ("0F8", 'A'), ("0D8", 'T')]);
    assert_eq!(sorted(targets(&pos, "0E7")), squares(&["0D7", "0F8"]));
    // Never onto an own piece.
    let pos = with_damas(Side::White, &[("0D3", 'P'), ("0C2", 'C'), ("0C4", 'p')]);
    assert_eq!(sorted(targets(&pos, "0D3")), squares(&["0C4", "0E3"]));
}

#[test]
fn pawn_diagonal_steps_from_the_rule_book() {
    // "On level 0, white pawn D6 may diagonal-step to E5 ... when a same-coloured pawn
    // stands on the same square on another level."
    let pos = with_damas(Side::White, &[("0D6", 'P'), ("1D6", 'P')]);
    assert_eq!(
        sorted(targets(&pos, "0D6")),
        squares(&["0E5", "0E6", "0E7"])
    );
    // "... and black pawn E7 to D8" (the stacked pawn may be on any other level).
    let pos = with_damas(Side::Black, &[("0E7", 'p'), ("2E7", 'p')]);
    assert_eq!(
        sorted(targets(&pos, "0E7")),
        squares(&["0D6", "0D7", "0D8"])
    );
    // "neither may capture there".
    let pos = with_damas(Side::White, &[("0D6", 'P'), ("1D6", 'P'), ("0E5", 'c')]);
    assert_eq!(sorted(targets(&pos, "0D6")), squares(&["0E6", "0E7"]));
    let pos = with_damas(Side::Black, &[("0E7", 'p'), ("2E7", 'p'), ("0D8", 'C')]);
    assert_eq!(sorted(targets(&pos, "0E7")), squares(&["0D6", "0D7"]));
}

#[test]
fn pawn_diagonal_step_conditions() {
    // Without a stacked pawn: step only.
    let pos = with_damas(Side::White, &[("0D6", 'P')]);
    assert_eq!(targets(&pos, "0D6"), ["0E6"]);
    // Pieces in between do not matter (pawn on level 2, a torre on level 1).
    let pos = with_damas(Side::White, &[("0D6", 'P'), ("1D6", 'T'), ("2D6", 'P')]);
    assert_eq!(
        sorted(targets(&pos, "0D6")),
        squares(&["0E5", "0E6", "0E7"])
    );
    // The stacked pawn must be of the same colour.
    let pos = with_damas(Side::White, &[("0D6", 'P'), ("1D6", 'p')]);
    assert_eq!(targets(&pos, "0D6"), ["0E6"]);
    // Not from the start row, even when stacked.
    let pos = with_damas(Side::White, &[("0B4", 'P'), ("1B4", 'P')]);
    assert_eq!(targets(&pos, "0B4"), ["0C4"]);
    let pos = with_damas(Side::Black, &[("1G4", 'p'), ("0G4", 'p')]);
    assert_eq!(targets(&pos, "1G4"), ["1F4"]);
    // The diagonal step works in both directions and on every level.
    let pos = with_damas(Side::Black, &[("2C1", 'p'), ("0C1", 'p')]);
    assert_eq!(sorted(targets(&pos, "2C1")), squares(&["2B1", "2B2"]));
    // Pawns have no level moves.
    let pos = with_damas(Side::White, &[("1E5", 'P')]);
    assert_eq!(targets(&pos, "1E5"), ["1F5"]);
}

// ---------------------------------------------------------------------------------
// §4 alfil, torre, caballo, rey, dama
// ---------------------------------------------------------------------------------

#[test]
fn alfil_slides_orthogonally() {
    let pos = with_damas(Side::White, &[("0D4", 'A')]);
    let t = targets(&pos, "0D4");
    assert_eq!(t.len(), 14);
    assert!(t.iter().all(|s| s.starts_with("0D") || s.ends_with('4')));
    // Stops before an own piece, captures an enemy one and stops there.
    let pos = with_damas(Side::White, &[("0D4", 'A'), ("0D6", 'P'), ("0F4", 'p')]);
    assert_eq!(
        sorted(targets(&pos, "0D4")),
        squares(&[
            "0A4", "0B4", "0C4", "0D1", "0D2", "0D3", "0D5", "0E4", "0F4"
        ])
    );
}

#[test]
fn alfil_level_moves_need_a_partner_on_a_diagonal() {
    // Partner on the same diagonal, with a piece in between: level move allowed.
    let pos = with_damas(Side::White, &[("0D4", 'A'), ("0G7", 'A'), ("0E5", 'p')]);
    assert!(targets(&pos, "0D4").contains(&"1D4".to_owned()));
    assert!(targets(&pos, "0G7").contains(&"1G7".to_owned()));
    // On the other diagonal.
    let pos = with_damas(Side::White, &[("1D4", 'A'), ("1G1", 'A')]);
    let t = targets(&pos, "1D4");
    assert!(t.contains(&"0D4".to_owned()) && t.contains(&"2D4".to_owned()));
    assert_eq!(t.first().map(String::as_str), Some("0D4"), "down first");
    assert_eq!(t.last().map(String::as_str), Some("2D4"), "up last");
    // Partner on the same row: no level move.
    let pos = with_damas(Side::White, &[("0D4", 'A'), ("0D7", 'A')]);
    assert!(targets(&pos, "0D4").iter().all(|s| s.starts_with('0')));
    // Partner on another level, of the other colour, or of another kind: none.
    for extra in [("1G7", 'A'), ("0G7", 'a'), ("0G7", 'T')] {
        let pos = with_damas(Side::White, &[("0D4", 'A'), extra]);
        assert!(
            targets(&pos, "0D4").iter().all(|s| s.starts_with('0')),
            "{extra:?}"
        );
    }
    // Level moves never capture and need an empty destination.
    for blocker in [('1', 'p'), ('1', 'P')] {
        let pos = with_damas(
            Side::White,
            &[("0D4", 'A'), ("0G7", 'A'), ("1D4", blocker.1)],
        );
        assert!(!targets(&pos, "0D4").contains(&"1D4".to_owned()));
    }
}

#[test]
fn torre_slides_diagonally() {
    let pos = with_damas(Side::White, &[("0D4", 'T')]);
    assert_eq!(targets(&pos, "0D4").len(), 13);
    let pos = with_damas(Side::White, &[("0D4", 'T'), ("0F6", 'P'), ("0B2", 'p')]);
    assert_eq!(
        sorted(targets(&pos, "0D4")),
        squares(&[
            "0B2", "0C3", "0E5", "0C5", "0B6", "0A7", "0E3", "0F2", "0G1"
        ])
    );
}

#[test]
fn torre_level_moves_need_a_partner_on_the_row_or_column() {
    // Same row, a piece in between.
    let pos = with_damas(Side::Black, &[("2D4", 't'), ("2D8", 't'), ("2D6", 'P')]);
    assert!(targets(&pos, "2D4").contains(&"1D4".to_owned()));
    assert!(!targets(&pos, "2D4").iter().any(|s| s.starts_with('0')));
    // Same column.
    let pos = with_damas(Side::Black, &[("1D4", 't'), ("1A4", 't')]);
    let t = targets(&pos, "1D4");
    assert!(t.contains(&"0D4".to_owned()) && t.contains(&"2D4".to_owned()));
    // Same diagonal only: no level move.
    let pos = with_damas(Side::Black, &[("1D4", 't'), ("1F6", 't')]);
    assert!(targets(&pos, "1D4").iter().all(|s| s.starts_with('1')));
    // A torre of the other colour is no partner.
    let pos = with_damas(Side::Black, &[("1D4", 't'), ("1A4", 'T')]);
    assert!(targets(&pos, "1D4").iter().all(|s| s.starts_with('1')));
}

#[test]
fn caballo_moves_long_leg_first() {
    let pos = with_damas(Side::White, &[("0D4", 'C')]);
    assert_eq!(
        sorted(targets(&pos, "0D4")),
        squares(&["0B3", "0B5", "0C2", "0C6", "0E2", "0E6", "0F3", "0F5"])
    );
    // "From D4 to B3 it passes C4 and B4": either one blocks B3 (and B5, which
    // shares that leg).
    for blocker in ["0C4", "0B4"] {
        let pos = with_damas(Side::White, &[("0D4", 'C'), (blocker, 'p')]);
        let t = targets(&pos, "0D4");
        assert!(!t.contains(&"0B3".to_owned()) && !t.contains(&"0B5".to_owned()));
        assert_eq!(t.len(), 6, "{blocker}");
    }
    // "from D4 to C2 it passes D3 and D2".
    for blocker in ["0D3", "0D2"] {
        let pos = with_damas(Side::White, &[("0D4", 'C'), (blocker, 'P')]);
        let t = targets(&pos, "0D4");
        assert!(!t.contains(&"0C2".to_owned()) && !t.contains(&"0E2".to_owned()));
        assert_eq!(t.len(), 6, "{blocker}");
    }
    // The short leg does not matter: C3 is on no long leg from D4.
    let pos = with_damas(Side::White, &[("0D4", 'C'), ("0C3", 'p'), ("0E5", 'p')]);
    assert_eq!(targets(&pos, "0D4").len(), 8);
    // Captures an enemy on the destination, never an own piece; no level moves.
    let pos = with_damas(Side::White, &[("1D4", 'C'), ("1B3", 'p'), ("1B5", 'P')]);
    let t = targets(&pos, "1D4");
    assert!(t.contains(&"1B3".to_owned()) && !t.contains(&"1B5".to_owned()));
    assert!(t.iter().all(|s| s.starts_with('1')));
}

#[test]
fn rey_slides_like_a_queen_and_changes_level_freely() {
    let pos = with_damas(Side::White, &[("1D4", 'R')]);
    let t = targets(&pos, "1D4");
    assert_eq!(t.len(), 27 + 2);
    assert_eq!(t.first().map(String::as_str), Some("0D4"));
    assert_eq!(t.last().map(String::as_str), Some("2D4"));
    // Level moves need an empty destination, never capture.
    let pos = with_damas(Side::White, &[("1D4", 'R'), ("0D4", 'p'), ("2D4", 'P')]);
    assert!(targets(&pos, "1D4").iter().all(|s| s.starts_with('1')));
    // From level 0 only up, from level 2 only down.
    let pos = with_damas(Side::White, &[("0A1", 'R')]);
    let t = targets(&pos, "0A1");
    assert_eq!(t.len(), 21 + 1);
    assert!(t.contains(&"1A1".to_owned()));
}

#[test]
fn dama_jumps_one_or_two_squares() {
    let pos = place(Side::White, 0, &[("0D4", 'D'), ("2H8", 'd')]);
    assert_eq!(
        sorted(targets(&pos, "0D4")),
        squares(&[
            "0B2", "0B4", "0B6", "0C3", "0C4", "0C5", "0D2", "0D3", "0D5", "0D6", "0E3", "0E4",
            "0E5", "0F2", "0F4", "0F6",
        ])
    );
    // Jumps over any piece; never onto an own piece; captures enemies.
    let pos = place(
        Side::White,
        0,
        &[
            ("0D4", 'D'),
            ("0D5", 'P'),
            ("0D6", 'p'),
            ("0E5", 'p'),
            ("0F6", 'C'),
            ("2H8", 'd'),
        ],
    );
    let t = targets(&pos, "0D4");
    assert!(t.contains(&"0D6".to_owned()) && t.contains(&"0E5".to_owned()));
    assert!(!t.contains(&"0D5".to_owned()) && !t.contains(&"0F6".to_owned()));
    assert_eq!(t.len(), 14);
    // Near a corner.
    let pos = place(Side::White, 0, &[("0A1", 'D'), ("2H8", 'd')]);
    assert_eq!(targets(&pos, "0A1").len(), 6);
}

#[test]
fn dama_level_moves_need_the_own_king_next_to_it() {
    let pos = place(Side::White, 0, &[("1D4", 'D'), ("1C3", 'R'), ("2H8", 'd')]);
    let t = targets(&pos, "1D4");
    assert!(t.contains(&"0D4".to_owned()) && t.contains(&"2D4".to_owned()));
    // A king two squares away, on another level, or of the other side does not count.
    for king in [("1B2", 'R'), ("0C3", 'R'), ("2D4", 'R'), ("1C3", 'r')] {
        let pos = place(Side::White, 0, &[("1D4", 'D'), king, ("2H8", 'd')]);
        assert!(
            targets(&pos, "1D4").iter().all(|s| s.starts_with('1')),
            "{king:?}"
        );
    }
    // The destination must be empty.
    let pos = place(
        Side::White,
        0,
        &[
            ("1D4", 'D'),
            ("1E5", 'R'),
            ("2D4", 'c'),
            ("0D4", 'P'),
            ("2H8", 'd'),
        ],
    );
    assert!(targets(&pos, "1D4").iter().all(|s| s.starts_with('1')));
}

// ---------------------------------------------------------------------------------
// §4 promotions and §7 randomness, with hand-computed generator draws
// ---------------------------------------------------------------------------------

/// Plays `from-to`, checks the pawn left `to`, and returns the position.
fn promote(pos: &Chess3d, from: &str, to: &str) -> Chess3d {
    let m = mv(from, to);
    assert!(pos.is_legal(m), "{m} is legal");
    let mut after = pos.clone();
    after.play_unchecked(m);
    after
}

#[test]
fn promotion_on_level_0_lifts_the_pawn() {
    // White pawn 0-G4 reaches 0-H4. Level 1 holds 1-A1 and 1-C3, so the candidates off
    // row H are 54 squares: A2..A8 (indices 0-6), B1 (7), ... Seed 0: next() =
    // 0xE220A8397B1DCDAF (SplitMix64's published first output), and
    // 0xE220A8397B1DCDAF % 54 = 7: the pawn lands on 1-B1.
    let pos = place(
        Side::White,
        0,
        &[
            ("0G4", 'P'),
            ("0A1", 'D'),
            ("0H8", 'd'),
            ("1A1", 'a'),
            ("1C3", 'R'),
        ],
    );
    assert_eq!(0xE220_A839_7B1D_CDAFu64 % 54, 7);
    let after = promote(&pos, "0G4", "0H4");
    assert_eq!(after.board().piece_at(sq("0H4")), None);
    assert_eq!(
        after.board().piece_at(sq("1B1")).map(|p| p.char()),
        Some('P')
    );
    assert_eq!(after.rng().state(), 0x9E37_79B9_7F4A_7C15);
    assert_eq!(after.piece_count(Side::White), 3);
    assert_eq!(after.key(), after.compute_key());
}

#[test]
fn promotion_on_level_1_lifts_the_pawn_off_its_promotion_row() {
    // Black pawn 1-B5 reaches 1-A5 (Black's promotion row is A). Level 2 holds 2-B1
    // and 2-H8; the candidates are rows B..H minus those: 54 squares, B2..B8 first
    // (indices 0-6). Seed 1: next() = 0x910A2DEC89025CC1, % 54 = 5: 2-B7.
    let pos = place(
        Side::Black,
        1,
        &[
            ("1B5", 'p'),
            ("0A1", 'D'),
            ("0H8", 'd'),
            ("2B1", 'T'),
            ("2H8", 'c'),
        ],
    );
    assert_eq!(0x910A_2DEC_8902_5CC1u64 % 54, 5);
    let after = promote(&pos, "1B5", "1A5");
    assert_eq!(after.board().piece_at(sq("1A5")), None);
    assert_eq!(
        after.board().piece_at(sq("2B7")).map(|p| p.char()),
        Some('p')
    );
    assert_eq!(after.rng().state(), 0x9E37_79B9_7F4A_7C16);

    // Black pawn 0-B3 reaches 0-A3; level 1 holds 1-B2 and 1-H8: 54 candidates in rows
    // B..H. Seed 4: next() = 0x6E73E372E2338ACA, % 54 = 40: B (0-6), C (7-14),
    // D (15-22), E (23-30), F (31-38), G1 = 39, G2 = 40.
    let pos = place(
        Side::Black,
        4,
        &[
            ("0B3", 'p'),
            ("0A1", 'D'),
            ("0H8", 'd'),
            ("1B2", 'R'),
            ("1H8", 't'),
        ],
    );
    assert_eq!(0x6E73_E372_E233_8ACAu64 % 54, 40);
    let after = promote(&pos, "0B3", "0A3");
    assert_eq!(
        after.board().piece_at(sq("1G2")).map(|p| p.char()),
        Some('p')
    );
}

#[test]
fn promotion_on_level_2_draws_a_piece_and_a_level_0_square() {
    // White pawn 2-G2 reaches 2-H2. Seed 2: first next() = 0x975835DE1C9756CE, % 3 = 1:
    // [A, C, T][1] = caballo. Level 0 holds 0-A1 and 0-H8: 62 candidates; second
    // next() = 0xBFC846100BFC1E42, % 62 = 2: A2 (0), A3 (1), A4 (2).
    let pos = place(Side::White, 2, &[("2G2", 'P'), ("0A1", 'D'), ("0H8", 'd')]);
    assert_eq!(0x9758_35DE_1C97_56CEu64 % 3, 1);
    assert_eq!(0xBFC8_4610_0BFC_1E42u64 % 62, 2);
    let after = promote(&pos, "2G2", "2H2");
    assert_eq!(after.board().piece_at(sq("2H2")), None);
    assert_eq!(
        after.board().piece_at(sq("0A4")).map(|p| p.char()),
        Some('C')
    );
    assert_eq!(after.rng().state(), 0x3C6E_F372_FE94_F82C);
    assert_eq!(after.key(), after.compute_key());

    // Black pawn 2-B7 reaches 2-A7. Seed 3: 0x1D0B14E4DB018FED % 3 = 0: alfil. Level 0
    // holds A1, D4, H8: 61 candidates; 0xB3466F8A7B81A989 % 61 = 13: A2..A8 (0-6),
    // B1..B7 (7-13): 0-B7.
    let pos = place(
        Side::Black,
        3,
        &[("2B7", 'p'), ("0A1", 'D'), ("0H8", 'd'), ("0D4", 'P')],
    );
    assert_eq!(0x1D0B_14E4_DB01_8FEDu64 % 3, 0);
    assert_eq!(0xB346_6F8A_7B81_A989u64 % 61, 13);
    let after = promote(&pos, "2B7", "2A7");
    assert_eq!(
        after.board().piece_at(sq("0B7")).map(|p| p.char()),
        Some('a')
    );
}

#[test]
fn promotion_with_one_candidate_still_draws() {
    // Level 2 is full on rows A..G except 2-C6: count 1, index next() % 1 = 0, and the
    // generator advances once (seed 5 -> 5 + 0x9E3779B97F4A7C15).
    let full_but_c6 = "8/pppppppp/pppppppp/pppppppp/pppppppp/ppppp1pp/pppppppp/pppppppp";
    let text = format!("3D4/8/8/8/8/8/8/3d4|8/7P/8/8/8/8/8/8|{full_but_c6} w 0 1 0000000000000005");
    let pos = Chess3d::from_position_string(&text).expect("valid");
    let after = promote(&pos, "1G8", "1H8");
    assert_eq!(
        after.board().piece_at(sq("2C6")).map(|p| p.char()),
        Some('P')
    );
    assert_eq!(after.board().piece_at(sq("1H8")), None);
    assert_eq!(after.rng().state(), 0x9E37_79B9_7F4A_7C1A);
}

#[test]
fn promotion_without_a_free_square_stays() {
    // Level 1 has no empty square off row H: the pawn stays on 0-H4 and nothing is
    // drawn.
    let text = "8/3P4/8/8/8/8/8/3D4|8/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp|3d4/8/8/8/8/8/8/8 w 0 40 0123456789abcdef";
    let pos = Chess3d::from_position_string(text).expect("valid");
    let after = promote(&pos, "0G4", "0H4");
    assert_eq!(
        after.board().piece_at(sq("0H4")).map(|p| p.char()),
        Some('P')
    );
    assert_eq!(after.rng().state(), 0x0123_4567_89ab_cdef);
    // Level 0 full: a level-2 promotion still draws the piece, which stays on the
    // arrival square; no square is drawn. Seed 0xFEDCBA9876543210: next() =
    // 0x7AE893B5E32FEE86, % 3 = 2: torre.
    let text = "pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppDpppp|3d4/8/8/8/8/8/8/8|8/4P3/8/8/8/8/8/8 w 0 40 fedcba9876543210";
    let pos = Chess3d::from_position_string(text).expect("valid");
    assert_eq!(0x7AE8_93B5_E32F_EE86u64 % 3, 2);
    let after = promote(&pos, "2G5", "2H5");
    assert_eq!(
        after.board().piece_at(sq("2H5")).map(|p| p.char()),
        Some('T')
    );
    assert_eq!(
        after.rng().state(),
        0xFEDC_BA98_7654_3210u64.wrapping_add(0x9E37_79B9_7F4A_7C15)
    );
    assert_eq!(after.key(), after.compute_key());
}

#[test]
fn promotion_by_diagonal_step_and_undo() {
    // A diagonal step onto the promotion row promotes too; undo restores the pawn,
    // the generator and the key.
    let pos = place(
        Side::White,
        0,
        &[
            ("0G4", 'P'),
            ("1G4", 'P'),
            ("0H4", 'c'),
            ("0A1", 'D'),
            ("0H8", 'd'),
        ],
    );
    let m = mv("0G4", "0H5");
    assert!(pos.is_legal(m));
    let mut after = pos.clone();
    let undo = after.play_with_undo(m);
    let (landed, kind) = undo.landed().expect("a move of the side to move");
    assert_eq!(kind, Kind::Peon);
    assert_eq!(landed.level(), 1);
    assert_ne!(landed.row(), 7, "never on its promotion row");
    assert_ne!(after.rng(), pos.rng());
    after.undo(undo);
    assert_eq!(after, pos);
}

// ---------------------------------------------------------------------------------
// Counters and play
// ---------------------------------------------------------------------------------

#[test]
fn counters_follow_the_rule_book() {
    let pos = Chess3d::start(0);
    let after = pos.clone().play(mv("0G1", "0F1")).expect("legal");
    assert_eq!((after.quiet_plies(), after.move_number()), (0, 1));
    assert_eq!(after.turn(), Side::White);
    let after = after.play(mv("0A1", "1A1")).expect("torre level move");
    assert_eq!((after.quiet_plies(), after.move_number()), (1, 2));
    let after = after.play(mv("1H5", "1H6")).expect("rey slide");
    assert_eq!((after.quiet_plies(), after.move_number()), (2, 2));
    assert!(after.position_string().ends_with(" w 2 2 0000000000000000"));
    // An illegal move comes back unchanged inside the error.
    let err = after
        .clone()
        .play(mv("1H6", "1H7"))
        .expect_err("not White's piece");
    assert_eq!(err.into_inner(), after);
}

#[test]
fn captures_reset_the_quiet_count() {
    let mut pos = with_damas(Side::White, &[("0D4", 'A'), ("0D7", 'c')]);
    pos = pos.play(mv("0D4", "0D5")).expect("legal");
    assert_eq!(pos.quiet_plies(), 1);
    pos = pos.play(mv("0D7", "0B6")).expect("caballo");
    let undo = pos.play_with_undo(mv("0D5", "0B5"));
    assert_eq!(pos.quiet_plies(), 3);
    pos.undo(undo);
    let undo = pos.play_with_undo(mv("0D5", "0D8"));
    assert_eq!(undo.captured(), None);
    pos.undo(undo);
    pos = pos.play(mv("0D5", "0B5")).expect("legal");
    let undo = pos.play_with_undo(mv("0B6", "0D5"));
    assert_eq!(pos.quiet_plies(), 4);
    pos.undo(undo);
    let pos2 = with_damas(Side::White, &[("0D4", 'A'), ("0D7", 'c')]);
    let undo_pos = pos2.clone().play(mv("0D4", "0D7")).expect("capture");
    assert_eq!(undo_pos.quiet_plies(), 0);
    assert_eq!(undo_pos.piece_count(Side::Black), 1);
}

// ---------------------------------------------------------------------------------
// §5 end of the game
// ---------------------------------------------------------------------------------

#[test]
fn capturing_the_dama_wins() {
    let pos = place(
        Side::White,
        0,
        &[("0D4", 'D'), ("0D6", 'd'), ("1A1", 'R'), ("1H8", 'r')],
    );
    assert_eq!(pos.outcome(), None);
    let after = pos.play(mv("0D4", "0D6")).expect("legal");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::DamaCaptured
        })
    );
    assert!(
        after.legal_moves().is_empty(),
        "a finished position has no moves"
    );
    assert_eq!(after.count_legal_moves(), 0);
    assert_eq!(perft(&after, 0), 1);
    assert_eq!(perft(&after, 2), 0);
}

#[test]
fn a_position_without_a_dama_has_no_moves() {
    let pos = place(Side::Black, 0, &[("0D4", 'R'), ("0D6", 'd'), ("1A1", 'P')]);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: Reason::DamaCaptured
        })
    );
    let pos = place(Side::White, 0, &[("0D4", 'R'), ("0D6", 'r')]);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw {
            reason: Reason::DamaCaptured
        })
    );
    assert!(!pos.is_legal(mv("0D4", "0D5")));
}

#[test]
fn no_legal_move_is_a_draw() {
    // Black's dama in the corner, every square it reaches taken by black pawns that
    // cannot move (no diagonal steps without a stacked pawn, nothing to capture).
    let pos = place(
        Side::Black,
        0,
        &[
            ("0A1", 'd'),
            ("0A2", 'p'),
            ("0A3", 'p'),
            ("0B1", 'p'),
            ("0B2", 'p'),
            ("0B3", 'p'),
            ("0C1", 'p'),
            ("0C3", 'p'),
            ("2H8", 'D'),
        ],
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw {
            reason: Reason::NoLegalMove
        })
    );
}

#[test]
fn timed_mode_counts_pieces() {
    let pos = place(Side::White, 0, &[("0A1", 'D'), ("0H8", 'd'), ("1A1", 'P')]);
    assert_eq!(
        pos.timeout_outcome(),
        Outcome::Win {
            winner: Side::White,
            reason: Reason::PieceCount
        }
    );
    let pos = place(
        Side::White,
        0,
        &[("0A1", 'D'), ("0H8", 'd'), ("1A1", 'p'), ("2C3", 't')],
    );
    assert_eq!(
        Game::new(pos).timeout_outcome(),
        Outcome::Win {
            winner: Side::Black,
            reason: Reason::PieceCount
        }
    );
    assert_eq!(
        Chess3d::start(9).timeout_outcome(),
        Outcome::Draw {
            reason: Reason::PieceCount
        }
    );
}

#[test]
fn threefold_repetition_ends_the_game() {
    let start = place(
        Side::White,
        0,
        &[("1D4", 'R'), ("1E8", 'r'), ("0A1", 'D'), ("0H8", 'd')],
    );
    let mut game = Game::new(start.clone());
    let cycle = [
        ("1D4", "2D4"),
        ("1E8", "2E8"),
        ("2D4", "1D4"),
        ("2E8", "1E8"),
    ];
    for round in 0..2 {
        for (i, (from, to)) in cycle.iter().enumerate() {
            assert_eq!(game.outcome(), None, "round {round} ply {i}");
            game.play(mv(from, to)).expect("legal");
        }
        assert_eq!(game.repetitions(), round + 2);
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    // The position itself still has its moves (the rule ends the game, not the list).
    assert_eq!(
        game.position().legal_moves().len(),
        start.legal_moves().len()
    );
    assert!(matches!(
        game.play(mv("1D4", "2D4")),
        Err(GameError::Over(_))
    ));
    assert_eq!(game.undo(), Some(mv("2E8", "1E8")));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.moves().len(), 7);
}

#[test]
fn hundred_quiet_plies_end_the_game() {
    let text = "3D4/8/8/8/8/8/8/3d4|8/8/8/8/8/8/1P6/R7|8/8/8/8/8/8/8/7r w 99 60 0000000000000000";
    let pos = Chess3d::from_position_string(text).expect("valid");
    let mut game = Game::new(pos.clone());
    assert_eq!(game.outcome(), None);
    game.play(mv("1A1", "2A1")).expect("rey level move");
    assert_eq!(game.position().quiet_plies(), 100);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::MoveLimit
        })
    );
    assert!(!game.position().legal_moves().is_empty());
    // A pawn move instead resets the count.
    let mut game = Game::new(pos);
    game.play(mv("1B2", "1C2")).expect("pawn step");
    assert_eq!(game.position().quiet_plies(), 0);
    assert_eq!(game.outcome(), None);
    assert!(matches!(
        game.play(mv("1C2", "1D2")),
        Err(GameError::IllegalMove(_))
    ));
}

#[test]
fn game_undo_restores_promotions() {
    let start = place(
        Side::White,
        2,
        &[("2G2", 'P'), ("0A1", 'D'), ("0H8", 'd'), ("1C1", 'r')],
    );
    let mut game = Game::new(start.clone());
    let undo = game.play(mv("2G2", "2H2")).expect("legal");
    assert_eq!(undo.landed(), Some((sq("0A4"), Kind::Caballo)));
    game.play(mv("1C1", "2C1")).expect("legal");
    assert_eq!(game.undo(), Some(mv("1C1", "2C1")));
    assert_eq!(game.undo(), Some(mv("2G2", "2H2")));
    assert_eq!(game.undo(), None);
    assert_eq!(game.position(), &start);
    assert_eq!(game.start(), &start);
}

#[test]
fn setup_round_trip_and_move_number_zero() {
    let pos = Chess3d::start(77);
    let setup = pos.to_setup();
    assert_eq!(Chess3d::from_setup(setup.clone()).as_ref(), Ok(&pos));
    let bad = Setup {
        move_number: 0,
        ..setup
    };
    assert!(Chess3d::from_setup(bad).is_err());
}
