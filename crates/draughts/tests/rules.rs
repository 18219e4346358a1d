//! The rules that tell the rule sets apart, each on a hand-built position: capture
//! choice, crowning during a capture, short and flying kings, backward captures, the
//! Turkish strike, merged duplicate captures; move text; game end and draw rules.

mod common;

use tablero_draughts::{
    Draughts, DrawRules, EndingRule, Game, GameError, Outcome, PdnMove, PdnMoveError, Position,
    Reason, RuleSet, Side,
};

use common::{moves_if_captured_pieces_vanished, reference_moves};

fn pos(rule_set: RuleSet, fen: &str) -> Draughts {
    Draughts::from_fen(fen, rule_set).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move with all its landing squares, `+` when it crowns, sorted.
fn moves(rule_set: RuleSet, fen: &str) -> Vec<String> {
    let p = pos(rule_set, fen);
    let mut out: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| format!("{}{}", m.full_text(), if m.crowns() { "+" } else { "" }))
        .collect();
    out.sort();
    assert_eq!(
        reference_moves(&p).len(),
        out.len(),
        "reference disagrees at {fen}"
    );
    out
}

// ---------------------------------------------------------------- capture choice

#[test]
fn free_choice_in_english_and_russian_majority_elsewhere() {
    // White 22 can take 17 (one piece) or 18 then 10 (two pieces).
    let fen = "W:W22:B17,18,10";
    assert_eq!(moves(RuleSet::English, fen), ["22x13", "22x15x6"]);
    assert_eq!(moves(RuleSet::Russian, fen), ["22x13", "22x15x6"]);
    assert_eq!(moves(RuleSet::Brazilian, fen), ["22x15x6"]);
}

#[test]
fn english_and_russian_captures_are_completed() {
    // 22x15 alone is not a move: the capture goes on over 10.
    assert!(!moves(RuleSet::English, "W:W22:B18,10").contains(&"22x15".to_owned()));
    assert_eq!(moves(RuleSet::English, "W:W22:B18,10"), ["22x15x6"]);
}

#[test]
fn majority_counts_kings_as_one() {
    // International: capturing two men beats capturing one king.
    assert_eq!(
        moves(RuleSet::International, "W:W28:B23,14,K33"),
        ["28x19x10"]
    );
    assert_eq!(
        moves(RuleSet::International, "W:W28:B23,14,33"),
        ["28x19x10"]
    );
    assert_eq!(
        moves(RuleSet::International, "W:W28:B23,33"),
        ["28x19", "28x39"]
    );
}

#[test]
fn italian_men_never_capture_kings() {
    assert_eq!(moves(RuleSet::Italian, "W:W22:BK18"), ["22-19"]);
    assert_eq!(moves(RuleSet::Italian, "W:W22:B18"), ["22x13"]);
    // The same position in Spanish draughts: men take kings there.
    assert_eq!(moves(RuleSet::Spanish, "W:W22:BK18"), ["22x13"]);
}

#[test]
fn italian_most_pieces_first() {
    // The man's two-piece capture beats the king's one-piece capture.
    assert_eq!(moves(RuleSet::Italian, "W:W22,K31:B18,10,27"), ["22x13x6"]);
}

#[test]
fn italian_king_captures_before_man() {
    // Man 23 and king 30 can each take one piece: the king must.
    assert_eq!(moves(RuleSet::Italian, "W:W23,K30:B19,26"), ["30x21"]);
    // Spanish has no such rule: both captures are legal.
    assert_eq!(
        moves(RuleSet::Spanish, "W:W23,K30:B19,26"),
        ["23x14", "30x17", "30x21"]
    );
}

#[test]
fn italian_most_kings_then_king_met_first() {
    // King 22 can take the man on 18 or the king on 19: the king.
    assert_eq!(moves(RuleSet::Italian, "W:WK22:B18,K19"), ["22x15"]);
    // King 31: king 27 then man 18, or man 28 then king 20. Both take one king; the
    // one meeting the king first must be played.
    assert_eq!(
        moves(RuleSet::Italian, "W:WK31:BK27,18,28,K20"),
        ["31x22x13"]
    );
}

#[test]
fn spanish_cantidad_then_calidad_then_free() {
    // Cantidad: the two-piece capture.
    assert_eq!(moves(RuleSet::Spanish, "W:W22,24:B18,10,20"), ["22x13x6"]);
    // Calidad: the flying king must take the king on 19 (landing anywhere beyond),
    // not the man on 18.
    assert_eq!(
        moves(RuleSet::Spanish, "W:WK22:B18,K19"),
        ["22x12", "22x15", "22x8"]
    );
    // Equal in number and kings: free choice.
    assert_eq!(moves(RuleSet::Spanish, "W:W22:B18,19"), ["22x13", "22x15"]);
}

// ---------------------------------------------------------------- men and kings

#[test]
fn men_capture_backward_only_where_allowed() {
    let fen = "W:W22:B26";
    assert_eq!(moves(RuleSet::English, fen), ["22-17", "22-18"]);
    assert_eq!(moves(RuleSet::Brazilian, fen), ["22x31"]);
    assert_eq!(moves(RuleSet::Russian, fen), ["22x31"]);
    // Spanish men capture forward only (a1-light numbering: 26 is behind 22).
    assert_eq!(moves(RuleSet::Spanish, fen), ["22-18", "22-19"]);
}

#[test]
fn short_kings_step_one_square_and_flying_kings_slide() {
    assert_eq!(
        moves(RuleSet::English, "W:WK22:B18,15"),
        ["22-17", "22-25", "22-26"]
    );
    let flying = moves(RuleSet::Russian, "W:WK22:B18,15");
    assert!(flying.contains(&"22-13".to_owned()) && flying.contains(&"22-31".to_owned()));
}

#[test]
fn flying_king_lands_where_the_capture_goes_on() {
    // King 29 takes 22; only landing on 15 lets it take 10 as well.
    assert_eq!(
        moves(RuleSet::Russian, "W:WK29:B22,10"),
        ["29x15x1", "29x15x6"]
    );
}

// ---------------------------------------------------------------- crowning

#[test]
fn crowning_during_a_capture() {
    // English and Italian-style: reaching the far row ends the move.
    assert_eq!(moves(RuleSet::English, "W:W10:B7,8"), ["10x3+"]);
    // Russian: crowned at once, the new king goes on capturing.
    assert_eq!(moves(RuleSet::Russian, "W:W10:B7,8"), ["10x3x12+"]);
    // International: passing the far row leaves a man...
    assert_eq!(moves(RuleSet::International, "W:W12:B8,9"), ["12x3x14"]);
    // ... which is crowned only when the capture ends there.
    assert_eq!(moves(RuleSet::International, "W:W12:B8"), ["12x3+"]);
    // Brazilian, same rule on 8×8.
    assert_eq!(moves(RuleSet::Brazilian, "W:W10:B7,8"), ["10x3x12"]);
    let after = {
        let mut p = pos(RuleSet::Russian, "W:W10:B7,8");
        let m = p.legal_moves()[0];
        p.play_unchecked(m);
        p
    };
    assert_eq!(after.fen(), "B:WK12:B");
}

// ---------------------------------------------------------------- Turkish strike

#[test]
fn captured_pieces_block_until_the_move_ends() {
    for (rule_set, fen, legal) in [
        (
            RuleSet::International,
            "W:WK11:B24,28,42",
            &["11x15", "11x20", "11x47"][..],
        ),
        (
            RuleSet::Brazilian,
            "W:WK8:B7,11,25,26,27",
            &["8x20", "8x24"][..],
        ),
        (
            RuleSet::Russian,
            "W:WK1:B10,11,25",
            &["1x29", "1x4", "1x8"][..],
        ),
        (RuleSet::Spanish, "W:WK18:B7,19,21", &["18x25", "18x4"][..]),
    ] {
        let p = pos(rule_set, fen);
        let mut texts: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m)).collect();
        texts.sort();
        assert_eq!(texts, legal, "{rule_set} {fen}");
        assert_ne!(
            reference_moves(&p),
            moves_if_captured_pieces_vanished(&p),
            "{rule_set} {fen}: the rule should matter here"
        );
    }
}

// ---------------------------------------------------------------- duplicates, notation

#[test]
fn two_paths_to_the_same_capture_are_one_move() {
    // The man on 28 takes the four pieces around 18 clockwise or anticlockwise.
    let p = pos(RuleSet::International, "W:W28:B22,12,13,23");
    let legal = p.legal_moves();
    assert_eq!(legal.len(), 1);
    assert_eq!(p.move_text(legal[0]), "28x28");
    assert_eq!(legal[0].captured().to_string(), "12,13,22,23");
    // Either path, written out, names that move.
    assert_eq!(p.parse_move("28x17x8x19x28"), Ok(legal[0]));
    assert_eq!(p.parse_move("28x19x8x17x28"), Ok(legal[0]));
}

#[test]
fn landing_squares_are_written_only_when_needed() {
    let p = pos(RuleSet::English, "W:WK23:B10,17,18,25,26");
    let mut texts: Vec<String> = p.legal_moves().iter().map(|&m| p.move_text(m)).collect();
    texts.sort();
    assert_eq!(texts, ["23x14x7", "23x23", "23x30x21x14x7"]);
    assert_eq!(
        p.parse_move("23x7"),
        Err(PdnMoveError::Ambiguous {
            text: "23x7".into(),
            candidates: vec!["23x14x7".into(), "23x30x21x14x7".into()]
        })
    );
    assert_eq!(
        p.parse_move("23x7").map_err(|e| e.to_string()),
        Err("ambiguous move 23x7: it could be 23x14x7 or 23x30x21x14x7".into())
    );
    // A landing square in the middle is enough to tell them apart.
    let long = p.parse_move("23x21x7").expect("unique with 21");
    assert_eq!(long.captured().to_string(), "10,17,25,26");
    assert_eq!(p.parse_move("23x14x7").map(|m| m.capture_count()), Ok(2));
    // The loop back to 23 in either direction.
    assert_eq!(p.parse_move("23x23").map(|m| m.capture_count()), Ok(4));
    assert_eq!(
        p.parse_move("23x30x21x14x23").map(|m| m.capture_count()),
        Ok(4)
    );
}

#[test]
fn move_text_errors() {
    let p = Draughts::new(RuleSet::English);
    let err = |t: &str| p.parse_move(t).expect_err(t);
    assert!(matches!(err("11-"), PdnMoveError::Malformed { .. }));
    assert!(matches!(err(""), PdnMoveError::Malformed { .. }));
    assert!(matches!(err("11-15-19"), PdnMoveError::Malformed { .. }));
    assert!(matches!(err("11x15-19"), PdnMoveError::Malformed { .. }));
    assert!(matches!(err("0-4"), PdnMoveError::Malformed { .. }));
    assert!(matches!(err("11-999"), PdnMoveError::Malformed { .. }));
    assert!(matches!(err("z9-k2"), PdnMoveError::Malformed { .. }));
    assert_eq!(
        err("11-17").to_string(),
        "illegal move 11-17: a man cannot move from 11 to 17"
    );
    assert!(matches!(err("11x18"), PdnMoveError::Illegal { .. }));
    assert_eq!(
        err("11+15").to_string(),
        "malformed move \"11+15\": expected square numbers separated by '-' or 'x', like 11-15 or 15x24"
    );
    assert_eq!(p.parse_move(" 11-15 ").map(|m| m.to()), Ok(15));
    let m: PdnMove = "15x24x31".parse().expect("parses");
    assert_eq!(m.squares(), [15, 24, 31]);
    assert!(m.is_capture());
}

#[test]
fn captures_may_be_written_with_a_dash_and_russian_algebraic() {
    let p = pos(RuleSet::Russian, "W:W22:B17,18,10");
    let m = p.parse_move("22-13").expect("a capture written with '-'");
    assert_eq!(m.captured().to_string(), "17");
    assert_eq!(p.algebraic(m), "c3:a5");
    assert_eq!(p.parse_move("c3:a5"), Ok(m));
    assert_eq!(p.parse_move("C3xA5"), Ok(m));
    let start = Draughts::new(RuleSet::Russian);
    let e3f4 = start.parse_move("e3-f4").expect("legal");
    assert_eq!(start.move_text(e3f4), "23-19");
    assert_eq!(start.algebraic(e3f4), "e3-f4");
    assert!(start.parse_move("e4-f5").is_err());
    assert!(start.parse_move("d3-e4").is_err(), "light square");
}

// ---------------------------------------------------------------- end of game

#[test]
fn a_side_without_moves_loses() {
    let none = pos(RuleSet::Russian, "B:W21:B");
    assert_eq!(
        none.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::NoLegalMove
        })
    );
    // White's man on 29 is blocked by 25 and 22.
    let blocked = pos(RuleSet::English, "W:W29:B25,22");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(
        blocked.outcome().and_then(Outcome::winner),
        Some(Side::Black)
    );
    assert_eq!(Draughts::new(RuleSet::Spanish).outcome(), None);
}

#[test]
fn game_plays_undoes_and_refuses() {
    let mut game = Game::new(Draughts::new(RuleSet::English));
    assert_eq!(game.position().turn(), Side::Black, "Black moves first");
    game.play_text("11-15").expect("legal");
    game.play_text("22-18").expect("legal");
    assert!(matches!(game.play_text("8-11x"), Err(GameError::Text(_))));
    assert_eq!(game.play_text("15x22").map(|m| m.capture_count()), Ok(1));
    assert_eq!(game.moves().len(), 3);
    assert!(game.undo().is_some());
    assert_eq!(
        game.position().fen(),
        "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    );
    let illegal = Draughts::new(RuleSet::International).legal_moves()[0];
    assert!(matches!(game.play(illegal), Err(GameError::IllegalMove(_))));
    while game.undo().is_some() {}
    assert_eq!(game.position(), game.start());
}

#[test]
fn threefold_repetition_draws() {
    // Kings on edge squares (1, 6, 45, 50) can never be captured.
    let mut game = Game::new(pos(RuleSet::International, "W:WK45,36:BK1,15"));
    for _ in 0..2 {
        for m in ["45-50", "1-6", "50-45", "6-1"] {
            assert_eq!(game.outcome(), None);
            game.play_text(m).expect("legal");
        }
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    assert!(matches!(game.play_text("45-50"), Err(GameError::Over(_))));
}

#[test]
fn moves_without_capture_or_man_move_draw() {
    // English: 40 moves each. Kings shuffle between two squares each; men stay put.
    let rules = DrawRules {
        repetitions: None,
        ..DrawRules::of(RuleSet::English)
    };
    let mut game = Game::with_draw_rules(pos(RuleSet::English, "B:WK32,21:BK1,12"), rules);
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    for i in 0..80 {
        assert_eq!(game.outcome(), None, "after {i} plies");
        game.play_text(cycle[i % 4]).expect("legal");
    }
    assert_eq!(game.quiet_moves(), 40);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::MoveLimit
        })
    );
    // A man move restarts the count.
    game.undo();
    game.undo();
    game.play_text("12-16").expect("legal");
    assert_eq!(game.quiet_moves(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn fmjd_special_endings() {
    let rules = DrawRules {
        repetitions: None,
        quiet_moves: None,
        endings: EndingRule::Fmjd,
    };
    assert_eq!(
        DrawRules::of(RuleSet::International).endings,
        EndingRule::Fmjd
    );
    // Two kings against one: five moves each. (Kings on edge squares cannot be
    // captured.)
    let mut game = Game::with_draw_rules(pos(RuleSet::International, "W:WK45,K36:BK1"), rules);
    let cycle = ["45-50", "1-6", "50-45", "6-1"];
    for i in 0..10 {
        assert_eq!(game.outcome(), None);
        game.play_text(cycle[i % 4]).expect("legal");
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::EndgameRule
        })
    );
    // Three kings against one: sixteen moves each.
    let mut game = Game::with_draw_rules(pos(RuleSet::International, "W:WK45,K36,K26:BK1"), rules);
    for i in 0..32 {
        assert_eq!(game.outcome(), None, "ply {i}");
        game.play_text(cycle[i % 4]).expect("legal");
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::EndgameRule
        })
    );
}

#[test]
fn russian_special_endings() {
    let rules = DrawRules {
        repetitions: None,
        quiet_moves: None,
        endings: EndingRule::Russian,
    };
    // Three kings against one: fifteen moves.
    let mut game = Game::with_draw_rules(pos(RuleSet::Russian, "W:WK32,K13,K21:BK1"), rules);
    let cycle = ["32-28", "1-5", "28-32", "5-1"];
    for i in 0..30 {
        assert_eq!(game.outcome(), None);
        game.play_text(cycle[i % 4]).expect("legal");
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::EndgameRule
        })
    );
    // Four pieces, both sides with kings: thirty moves with the balance unchanged;
    // man moves do not restart the count.
    let mut game = Game::with_draw_rules(pos(RuleSet::Russian, "W:WK32,21:BK1,12"), rules);
    let mut plies = 0;
    for m in ["21-17", "12-16", "17-13", "16-20"] {
        game.play_text(m).expect("legal");
        plies += 1;
    }
    while plies < 60 {
        assert_eq!(game.outcome(), None);
        game.play_text(cycle[plies % 4]).expect("legal");
        plies += 1;
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::EndgameRule
        })
    );
}

#[test]
fn a_square_beyond_the_board_is_named_with_the_boards_range() {
    // Spanish draughts numbers 32 squares: 40 is on no Spanish board.
    let p = Draughts::new(RuleSet::Spanish);
    let err = p.parse_move("40-35").expect_err("off the board");
    assert_eq!(
        err.to_string(),
        "move 40-35: square 40 is not on the board (spanish draughts numbers its squares 1 to 32)"
    );
    let hub: tablero_draughts::HubMove = "40-35".parse().expect("well formed");
    let err = hub.to_move(&p).expect_err("off the board");
    assert!(err.to_string().contains("1 to 32"), "{err}");
    // Past 50 no board has the square: refused before any position is looked at.
    let err = Draughts::new(RuleSet::International)
        .parse_move("51-46")
        .expect_err("malformed");
    assert!(err.to_string().contains("above 50"), "{err}");
}
