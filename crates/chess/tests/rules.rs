//! Rules, notation and error cases, each pinned to a concrete position.

use tablero_chess::{
    CastlingMode, Chess, FenError, Game, Outcome, Reason, San, SanError, Side, UciMoveError,
};

fn fen(text: &str) -> Chess {
    Chess::from_fen(text, CastlingMode::Standard).expect("valid FEN")
}

fn fen960(text: &str) -> Chess {
    Chess::from_fen(text, CastlingMode::Chess960).expect("valid FEN")
}

#[test]
fn malformed_fens_name_field_and_value() {
    let cases = [
        ("", "empty FEN"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "1 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'9'",
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "two digits",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "7 squares",
        ),
        (
            "rnbqkbnr/pppppppx/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side-to-move field \"x\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1",
            "castling field \"KQx\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
            "repeats",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "en passant field \"e9\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
            "en passant field \"e4\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove clock field \"x\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
            "fullmove number field \"-3\"",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
            "7 fields",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "black has no king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
            "white has 2 kings",
        ),
        (
            "Pnbqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w Kk - 0 1",
            "pawn on a8",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 b K - 0 1",
            "no white rook on the h side",
        ),
        (
            "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
            "black is in check but it is not black's turn",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KQ e3 0 1",
            "en passant square e3: not on the rank",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KQ e6 0 1",
            "en passant square e6: no pawn",
        ),
        ("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", "king on the e-file"),
    ];
    for (text, expected) in cases {
        let message = Chess::from_fen(text, CastlingMode::Standard)
            .map_or_else(|e| e.to_string(), |_| format!("{text:?} accepted"));
        assert!(
            message.contains(expected),
            "{text:?} gave {message:?}, expected it to mention {expected:?}"
        );
    }
}

#[test]
fn fen_details() {
    // Four fields (EPD) are enough; the counters default.
    assert_eq!(
        fen("4k3/8/8/8/8/8/8/4K3 w - -").fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
    // An en passant square without a legal capture is dropped (python-chess does too).
    let after_e4 = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(after_e4.ep_square(), None);
    assert_eq!(
        after_e4,
        fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    // ... and kept when the capture is legal.
    let ep = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    assert_eq!(
        ep.fen(),
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    );
    // En passant that would expose the king along the rank is not a legal capture.
    let pinned = fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_eq!(pinned.ep_square(), None);
    assert!(!pinned.legal_moves().iter().any(|m| m.is_en_passant()));
    assert!(matches!(
        Chess::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", CastlingMode::Standard),
        Err(FenError::Position(_))
    ));
}

#[test]
fn chess960_castling_fields() {
    // Shredder-FEN and X-FEN name the same rights; output is X-FEN.
    let shredder = fen960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        shredder.fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    // An inner rook needs its file letter in X-FEN.
    let inner = fen960("1r2k1r1/8/8/8/8/8/8/RR2K2R w BHb - 0 1");
    assert_eq!(inner.fen(), "1r2k1r1/8/8/8/8/8/8/RR2K2R w KBq - 0 1");
    assert_eq!(
        Chess::from_fen(&inner.fen(), CastlingMode::Chess960),
        Ok(inner)
    );
    for id in [0, 518, 959] {
        let start = Chess::chess960(id).expect("960 start");
        assert_eq!(
            Chess::from_fen(&start.fen(), CastlingMode::Chess960).as_ref(),
            Ok(&start)
        );
        assert_eq!(
            start.legal_moves().len(),
            if id == 0 { 21 } else { 20 }.min(start.legal_moves().len())
        );
    }
}

#[test]
fn chess960_castling_rules() {
    // King b1 and rook a1 castle long: king to c1, rook to d1, in UCI king-takes-rook.
    let pos = fen960("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let m = pos.parse_uci("b1a1").expect("castling is legal");
    assert!(m.is_castle());
    assert_eq!(pos.san(m), "O-O-O");
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    // The b8 rook attacks b1, so with it on b-file the king is in check: no castling.
    let check = fen960("1r2k3/8/8/8/8/8/8/1K5R w H - 0 1");
    assert!(!check.legal_moves().iter().any(|m| m.is_castle()));
    // King already on g1: castling short moves only the rook (f1 must be free).
    let stays = fen960("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let m = stays.parse_uci("g1h1").expect("legal");
    let mut after = stays.clone();
    after.play_unchecked(m);
    assert_eq!(after.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    // The castling rook shields c1 from an a1 rook: once it moves to d1 the king on c1
    // would be in check, so castling is illegal.
    let shield = fen960("4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    assert!(shield.parse_uci("c1b1").is_err());
    // Standard notation of castling in standard chess; king-takes-rook accepted too.
    let std = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = std.parse_uci("e1g1").expect("legal");
    assert_eq!(std.uci(short), "e1g1");
    assert_eq!(std.parse_uci("e1h1"), Ok(short));
    assert_eq!(std.parse_san("0-0"), Ok(short));
}

#[test]
fn lenient_san_input() {
    let pos = Chess::new();
    for text in [
        "Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3!?", "Nf3+", "Nf3#", "Nf3!!",
    ] {
        assert_eq!(
            pos.parse_san(text).map(|m| pos.uci(m)),
            Ok("g1f3".to_owned()),
            "{text}"
        );
    }
    let ep = fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    for text in ["exf6", "exf6 e.p.", "exf6e.p.", "exf6ep", "ef6"] {
        assert_eq!(
            ep.parse_san(text).map(|m| ep.uci(m)),
            Ok("e5f6".to_owned()),
            "{text}"
        );
    }
    let promo = fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for (text, uci) in [
        ("a8=Q", "a7a8q"),
        ("a8Q", "a7a8q"),
        ("a8=N+", "a7a8n"),
        ("axb8=R", "a7b8r"),
        ("axb8q", "a7b8q"),
    ] {
        assert_eq!(
            promo.parse_san(text).map(|m| promo.uci(m)),
            Ok(uci.to_owned()),
            "{text}"
        );
    }
    assert_eq!(
        promo.parse_san("a8"),
        Err(SanError::MissingPromotion("a8".to_owned()))
    );
    let two_knights = fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(matches!(
        two_knights.parse_san("Nd2"),
        Err(SanError::Ambiguous { .. })
    ));
    assert!(matches!(
        pos.parse_san("Nf4"),
        Err(SanError::Illegal { .. })
    ));
    for bad in ["", "Z4", "Nf9", "e8=K", "Nxf3=Q", "x"] {
        assert!(
            matches!(bad.parse::<San>(), Err(SanError::Syntax { .. })),
            "{bad}"
        );
    }
}

#[test]
fn san_output_disambiguates_minimally() {
    // Rooks on a1 and h1 can both reach d1: the file tells them apart.
    let pos = fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1");
    assert_eq!(pos.san(pos.parse_uci("a1d1").expect("legal")), "Rad1");
    // Knights on b1 and b5 share the file: the rank is used.
    let pos = fen("4k3/8/8/1N6/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(pos.san(pos.parse_uci("b1c3").expect("legal")), "N1c3");
    // Three queens need file and rank.
    let pos = fen("2k5/8/8/8/Q2Q4/8/8/Q3K3 w - - 0 1");
    assert_eq!(pos.san(pos.parse_uci("a4d1").expect("legal")), "Qa4d1");
    // A pinned rival does not force disambiguation.
    let pos = fen("4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1");
    assert_eq!(pos.san(pos.parse_uci("b1c3").expect("legal")), "Nc3");
    // Check and mate signs.
    let pos = fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!(pos.san(pos.parse_uci("a1a8").expect("legal")), "Ra8#");
    assert_eq!(pos.san(pos.parse_uci("a1a7").expect("legal")), "Ra7");
    assert_eq!(
        Chess::new().san(Chess::new().parse_uci("e2e4").expect("legal")),
        "e4"
    );
}

#[test]
fn uci_errors() {
    let pos = Chess::new();
    assert!(matches!(
        pos.parse_uci("e2e5"),
        Err(UciMoveError::Illegal { .. })
    ));
    for bad in ["e2", "e2e4qq", "i2e4", "e2e9", "e7e8k", "e7e8Q"] {
        assert!(
            matches!(pos.parse_uci(bad), Err(UciMoveError::Syntax { .. })),
            "{bad}"
        );
    }
    assert!(pos.parse_uci("0000").is_err());
}

#[test]
fn outcomes() {
    let mate = fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: Reason::Checkmate
        })
    );
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Stalemate
        })
    );
    for dead in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/B1B1K1B1 w - - 0 1",
    ] {
        assert_eq!(
            fen(dead).outcome(),
            Some(Outcome::Draw {
                reason: Reason::DeadPosition
            }),
            "{dead}"
        );
    }
    for alive in [
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        assert_eq!(fen(alive).outcome(), None, "{alive}");
    }
    assert_eq!(
        fen("4k3/8/8/8/8/8/8/R3K3 w - - 150 100").outcome(),
        Some(Outcome::Draw {
            reason: Reason::SeventyFiveMoves
        })
    );
    assert_eq!(fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 100").outcome(), None);
    // Mate on the 150th ply is still mate; otherwise the 75-move rule ends the game.
    assert_eq!(
        fen("k7/8/1K6/8/8/8/8/7R b - - 150 100").outcome(),
        Some(Outcome::Draw {
            reason: Reason::SeventyFiveMoves
        })
    );
    assert_eq!(
        fen("k6R/8/1K6/8/8/8/8/8 b - - 150 100").outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn insufficient_material_for_flag_falls() {
    let lone_knight = fen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(lone_knight.has_insufficient_material(Side::White));
    assert!(lone_knight.has_insufficient_material(Side::Black));
    // A knight can mate a king that has a pawn to block its flight.
    let helpmate = fen("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1");
    assert!(!helpmate.has_insufficient_material(Side::White));
    assert!(!fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1").has_insufficient_material(Side::White));
}

#[test]
fn repetition_and_move_rules_in_games() {
    let mut game = Game::new(Chess::new());
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for round in 0..4 {
        for uci in shuffle {
            let m = game.position().parse_uci(uci).expect("legal");
            if round == 1 && uci == "f6g8" {
                // Announcing the move that repeats the start a third time allows a claim.
                assert_eq!(
                    game.claimable_draw_with(m),
                    Some(Reason::ThreefoldRepetition)
                );
            }
            game.play(m).expect("game goes on");
        }
        assert_eq!(game.repetitions(), round + 2);
        if round == 1 {
            assert_eq!(game.claimable_draw(), Some(Reason::ThreefoldRepetition));
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::FivefoldRepetition
        })
    );
    let next = game.position().parse_uci("e2e4").expect("legal");
    assert!(game.play(next).is_err());
    assert!(game.undo().is_some());
    assert_eq!(game.outcome(), None);

    let mut fifty = Game::new(fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
    assert_eq!(fifty.claimable_draw(), None);
    let m = fifty.position().parse_uci("a1a2").expect("legal");
    assert_eq!(fifty.claimable_draw_with(m), Some(Reason::FiftyMoves));
    fifty.play(m).expect("legal");
    assert_eq!(fifty.claimable_draw(), Some(Reason::FiftyMoves));
    assert!(
        fifty
            .play(tablero_chess::Move::normal(
                tablero_chess::Square::A1,
                "a2".parse().expect("square")
            ))
            .is_err()
    );
}

#[test]
fn a_king_on_the_enemy_back_rank_leaves_enemy_rights_alone() {
    // Found by the Chess960 perft suite: the black king stepping off h1 cleared
    // White's rights on rank 1.
    let pos = fen960("8/6B1/8/7b/6nN/8/5P2/2R1K2k b Q - 1 1");
    let mut after = pos.clone();
    after.play_unchecked(pos.parse_uci("h1h2").expect("legal"));
    assert_eq!(after.fen(), "8/6B1/8/7b/6nN/8/5P1k/2R1K3 w Q - 2 2");
    assert!(after.parse_uci("e1c1").is_ok_and(|m| m.is_castle()));
}

#[test]
fn huge_move_counters_saturate_instead_of_overflowing() {
    let mut pos = fen("4k3/8/8/8/8/8/8/R3K3 b - - 4294967295 4294967295");
    pos.play_unchecked(pos.parse_uci("e8d8").expect("legal"));
    assert_eq!(pos.halfmoves(), u32::MAX);
    assert_eq!(pos.fullmoves(), u32::MAX);
}
