//! PGN reading and writing: round trips, errors that name the game and ply, streaming.

use std::io::{self, Read};

use tablero_chess::pgn::{self, GameResult, Nag, PgnError, PgnErrorKind, PgnGame, Reader};
use tablero_chess::{CastlingMode, Chess, Game, Outcome, Reason, Side};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_ok(text: &str) -> Vec<PgnGame> {
    pgn::read_str(text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn read_one(text: &str) -> PgnGame {
    let mut games = read_ok(text);
    assert_eq!(games.len(), 1, "expected exactly one game");
    games.remove(0)
}

fn read_err(text: &str) -> PgnError {
    let mut results = pgn::read_str(text);
    assert_eq!(results.len(), 1, "expected exactly one game");
    match results.remove(0) {
        Ok(game) => panic!("expected an error, read {game}"),
        Err(e) => e,
    }
}

/// Read → write → read gives the same game, and writing again gives the same text.
fn assert_round_trip(game: &PgnGame) -> String {
    let text = game.to_pgn_string();
    let again = read_one(&text);
    assert_eq!(
        &again, game,
        "round trip changed the game; written:\n{text}"
    );
    assert_eq!(again.to_pgn_string(), text, "writing is not stable");
    assert_eq!(format!("{game}"), text, "Display and to_pgn_string differ");
    text
}

fn assert_lines_fit(text: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= pgn::LINE_WIDTH || line.starts_with('['),
            "line longer than {} columns: {line:?}",
            pgn::LINE_WIDTH
        );
    }
}

fn movetext(text: &str) -> String {
    let (_, moves) = text
        .split_once("\n\n")
        .expect("a blank line after the tags");
    moves.trim_end().replace('\n', " ")
}

#[test]
fn famous_games_are_read_and_round_trip() {
    let games = read_ok(&data("famous.pgn"));
    assert_eq!(games.len(), 3);

    let opera = &games[0];
    assert_eq!(opera.tag("White"), Some("Paul Morphy"));
    assert_eq!(opera.tag("ECO"), Some("C41"));
    assert_eq!(opera.moves.len(), 33);
    assert_eq!(opera.result, GameResult::WhiteWins);
    assert_eq!(
        opera.comments,
        ["The Opera Game, played in a box at the Italian Opera during The Barber of Seville."]
    );
    let end = opera.final_position();
    assert_eq!(
        end.fen(),
        "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"
    );
    let game = opera.to_game().expect("a legal game");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::Checkmate
        })
    );

    let kasparov = &games[1];
    assert_eq!(kasparov.tag("Black"), Some("Veselin Topalov"));
    assert_eq!(kasparov.moves.len(), 87);
    assert_eq!(kasparov.moves[46].san.to_string(), "Rxd4");
    assert_eq!(kasparov.moves[46].nags, [Nag::BRILLIANT_MOVE]);
    assert_eq!(kasparov.moves[46].comments_after, ["Kasparov's immortal."]);
    let refutation = &kasparov.moves[49].variations[0];
    assert_eq!(refutation.len(), 8);
    assert_eq!(refutation[0].san.to_string(), "Qxe7");

    let immortal = &games[2];
    assert_eq!(immortal.moves.len(), 45);
    assert_eq!(
        immortal.moves[35].variations[0][0].comments_before,
        ["Better is"]
    );

    for game in &games {
        let text = assert_round_trip(game);
        assert_lines_fit(&text);
    }
}

#[test]
fn comments_nags_and_nested_variations_are_kept() {
    let opera = read_ok(&data("famous.pgn")).remove(0);
    // 3... Bg4 $6 {comment} (3... exd4 {comment})
    let bg4 = &opera.moves[5];
    assert_eq!(bg4.san.to_string(), "Bg4");
    assert_eq!(bg4.nags, [Nag::DUBIOUS_MOVE]);
    assert_eq!(
        bg4.comments_after,
        ["Already dubious: it gives up the bishop pair."]
    );
    assert_eq!(bg4.variations.len(), 1);
    assert_eq!(bg4.variations[0][0].san.to_string(), "exd4");
    assert_eq!(
        bg4.variations[0][0].comments_after,
        ["keeps the centre tension."]
    );
    // 15... Nxd7 (15... Qxd7 ... 17. Qxe5+ (17. Rxd7+ {also wins}) 17... Kd8 ...)
    let nxd7 = &opera.moves[29];
    assert_eq!(nxd7.san.to_string(), "Nxd7");
    let line = &nxd7.variations[0];
    assert_eq!(line.len(), 12);
    assert_eq!(line[3].san.to_string(), "Qxe5");
    assert_eq!(line[3].variations[0][0].san.to_string(), "Rxd7");
    assert_eq!(line[3].variations[0][0].comments_after, ["also wins"]);
    assert_eq!(opera.moves[30].nags, [Nag(3)]);

    let text = opera.to_pgn_string();
    let moves = movetext(&text);
    assert!(moves.contains(
        "3. d4 Bg4 $6 {Already dubious: it gives up the bishop pair.} (3... exd4 {keeps \
         the centre tension.}) 4. dxe5"
    ));
    assert!(moves.contains(
        "15. Bxd7+ Nxd7 (15... Qxd7 16. Qb8+ Ke7 17. Qxe5+ (17. Rxd7+ {also wins}) 17... \
         Kd8 18. Bxf6+ gxf6 19. Qxf6+ Ke8 20. Rxd7 Kxd7 21. Qxh8) 16. Qb8+ $3 Nxb8 17. Rd8# 1-0"
    ));
}

#[test]
fn movetext_is_wrapped_at_80_columns() {
    let mut game = read_ok(&data("famous.pgn")).remove(1);
    let long = "word ".repeat(100) + &"x".repeat(200);
    game.moves[0].comments_after.push(long);
    game.comments
        .push("an introduction that is long enough to need a line break ".repeat(3));
    let text = game.to_pgn_string();
    let mut movetext_lines = 0;
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        movetext_lines += 1;
        assert!(line.chars().count() <= 80, "{line:?}");
        assert!(!line.starts_with(' ') && !line.ends_with(' '), "{line:?}");
    }
    assert!(movetext_lines > 10);
    // Lines are filled: only the cut word's pieces stand alone.
    let plain = read_ok(&data("famous.pgn")).remove(1).to_pgn_string();
    let lines: Vec<&str> = plain.lines().filter(|l| !l.starts_with('[')).collect();
    for line in &lines[1..lines.len() - 1] {
        assert!(line.chars().count() > 70, "{line:?}");
    }
    assert_eq!(
        lines[1],
        "1. e4 d6 2. d4 Nf6 3. Nc3 g6 4. Be3 Bg7 5. Qd2 c6 6. f3 b5 7. Nge2 Nbd7 8. Bh6"
    );
    // The comment reads back; only the over-long word gains line-break spaces.
    let back = read_one(&text);
    let comment = &back.moves[0].comments_after[0];
    assert!(comment.starts_with("word word"));
    assert_eq!(comment.replace(' ', "").len(), 400 + 200);
}

#[test]
fn seven_tag_roster_comes_first_in_order_with_defaults() {
    let text = "[Annotator \"me\"]\n[White \"Carlsen, Magnus\"]\n[ECO \"B90\"]\n\
                [Event \"Title \\\"quoted\\\" and back\\\\slash\"]\n[Result \"0-1\"]\n\n\
                1. e4 c5 0-1\n";
    let game = read_one(text);
    assert_eq!(game.tag("Event"), Some("Title \"quoted\" and back\\slash"));
    let written = assert_round_trip(&game);
    let tags: Vec<&str> = written.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        tags,
        [
            "[Event \"Title \\\"quoted\\\" and back\\\\slash\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[White \"Carlsen, Magnus\"]",
            "[Black \"?\"]",
            "[Result \"0-1\"]",
            "[Annotator \"me\"]",
            "[ECO \"B90\"]",
        ]
    );
    assert_eq!(movetext(&written), "1. e4 c5 0-1");

    let empty = PgnGame::default().to_pgn_string();
    assert_eq!(
        empty,
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n\
         [Black \"?\"]\n[Result \"*\"]\n\n*\n"
    );
}

#[test]
fn broken_game_names_game_and_ply_and_reading_goes_on() {
    let results = pgn::read_str(&data("broken.pgn"));
    assert_eq!(results.len(), 5, "{results:#?}");
    let events: Vec<Option<String>> = results
        .iter()
        .map(|r| {
            r.as_ref()
                .ok()
                .and_then(|g| g.tag("Event").map(str::to_owned))
        })
        .collect();
    assert_eq!(
        events,
        [
            Some("Game one".to_owned()),
            Some("Game two".to_owned()),
            None,
            Some("Game four".to_owned()),
            Some("Game five".to_owned()),
        ]
    );
    let error = results[2].as_ref().expect_err("game three is broken");
    assert_eq!(error.game, 3);
    assert_eq!(error.ply, Some(48));
    assert_eq!(error.at_move.as_deref(), Some("24...Nf3"));
    assert!(matches!(error.kind, PgnErrorKind::Move(_)));
    assert_eq!(
        error.to_string(),
        "game 3, ply 48 (24...Nf3): illegal move Nf3: no knight of yours can make the move Nf3"
    );
    let games: Vec<&PgnGame> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert_eq!(games[0].result, GameResult::Draw);
    assert_eq!(games[1].result, GameResult::BlackWins);
    assert_eq!(games[2].moves.len(), 7);
    assert_eq!(games[3].moves[0].variations[0].len(), 2);
}

/// A malformed game, the kind of error it gives and the error's message.
struct Case {
    text: &'static str,
    is_kind: fn(&PgnErrorKind) -> bool,
    message: &'static str,
}

#[test]
fn each_kind_of_error_spoils_only_its_own_game() {
    let good = "[Event \"good\"]\n\n1. e4 e5 *\n\n";
    let cases = [
        Case {
            text: "[Event \"bad tag]\n\n1. e4 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::BadTag { .. }),
            message: "game 2: tag \"Event\": value not closed by '\"' on its line",
        },
        Case {
            text: "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::BadFen { .. }),
            message: "game 2: FEN tag \"8/8/8/8/8/8/8/8 w - - 0 1\": illegal position: \
                      white has no king",
        },
        Case {
            text: "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 4294967295 1\"]\n\n1... Kd7 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::BadFen { .. }),
            message: "game 2: FEN tag \"4k3/8/8/8/8/8/8/4K3 b - - 4294967295 1\": halfmove \
                      clock field \"4294967295\": expected a number of plies (0 or more)",
        },
        Case {
            text: "[Variant \"Atomic\"]\n\n1. e4 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::UnknownVariant(_)),
            message: "game 2: Variant tag \"Atomic\": only standard chess and Chess960 are \
                      supported",
        },
        Case {
            text: "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4+ 7. Kf1 \
                   Qc4+ 8. Ke1 Qxc2 9. Zz9 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::Move(_)),
            message: "game 2, ply 17 (9.Zz9): invalid SAN \"Zz9\": unknown piece letter \
                      (use K, Q, R, B, N)",
        },
        Case {
            text: "1. e4 e5 2. Nf3 Nc6 3. Nd5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::Move(_)),
            message: "game 2, ply 5 (3.Nd5): illegal move Nd5: no knight of yours can make the move Nd5",
        },
        Case {
            text: "[Event \"n\"]\n\n1. e4 e5 2. Nc3 Nc6 3. Nd5 Nd4 4. Nf3 Nf6 5. Nb5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::Move(_)),
            message: "game 2, ply 9 (5.Nb5): illegal move Nb5: no knight of yours can make the move Nb5",
        },
        Case {
            text: "1. e4 e5 2. Nc3 Nc6 3. Nd5 Nf6 4. Nf3 Nd4 5. Nd5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::Move(_)),
            message: "game 2, ply 9 (5.Nd5): illegal move Nd5: d5 is occupied by your own piece",
        },
        Case {
            text: "1. e4 ) e5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::UnmatchedParenthesis),
            message: "game 2, after ply 1: ')' without a matching '('",
        },
        Case {
            text: "1. e4 (1. d4 (1. c4 e5) d5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::UnclosedVariation(1)),
            message: "game 2, after ply 2: 1 variation(s) opened with '(' not closed before \
                      the end of the game",
        },
        Case {
            text: "[Event \"v\"]\n\n( 1. e4 ) *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::VariationWithoutMove),
            message: "game 2: '(' before any move: a variation must follow the move it replaces",
        },
        Case {
            text: "1. e4 $300 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::BadNag(_)),
            message: "game 2, after ply 1: annotation \"$300\": expected $0 to $255 or a \
                      glyph such as !? or +-",
        },
        Case {
            text: "1. e4!!! e5 *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::BadNag(_)),
            message: "game 2, ply 1 (1.e4!!!): annotation \"e4!!!\": expected $0 to $255 or \
                      a glyph such as !? or +-",
        },
        Case {
            text: "1. e4 e5 } *\n\n",
            is_kind: |k| matches!(k, PgnErrorKind::Unexpected('}')),
            message: "game 2, after ply 2: unexpected '}' in the movetext",
        },
    ];
    for case in cases {
        let text = format!("{good}{}{good}", case.text);
        let results = pgn::read_str(&text);
        assert_eq!(results.len(), 3, "{}: {results:#?}", case.text);
        assert!(results[0].is_ok(), "{}: {results:#?}", case.text);
        let error = results[1].as_ref().expect_err(case.text);
        assert!((case.is_kind)(&error.kind), "{}: {error:?}", case.text);
        assert_eq!(error.to_string(), case.message, "{}", case.text);
        assert_eq!(results[2].as_ref().map(|g| g.moves.len()).ok(), Some(2));
    }
}

#[test]
fn unterminated_comment_is_an_error_at_the_end() {
    let error = read_err("1. e4 {never closed 1-0\n\n[Event \"swallowed\"]\n1. d4 *\n");
    assert!(matches!(error.kind, PgnErrorKind::UnterminatedComment));
    assert_eq!(error.game, 1);
}

#[test]
fn chess960_game_with_castling() {
    let game = read_one(&data("chess960.pgn"));
    assert_eq!(game.start.castling_mode(), CastlingMode::Chess960);
    assert_eq!(game.moves.len(), 13);
    assert_eq!(game.moves[10].san.to_string(), "O-O-O");
    assert!(game.moves[10].mv.is_castle());
    assert_eq!(
        game.final_position().fen(),
        "bbkr3r/pppq1ppp/3pnn2/4pN2/4P3/3P1N2/PPPQ1PPP/BBKR3R b - - 5 7"
    );
    // The writer gives the FEN as X-FEN, Variant first.
    let text = assert_round_trip(&game);
    assert!(
        text.contains(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n"
        ),
        "{text}"
    );
    assert!(movetext(&text).contains("6. O-O-O O-O-O 7. Nf5 *"));

    // Other spellings of the variant, and a Chess960 FEN without a Variant tag.
    for variant in [
        "[Variant \"chess 960\"]\n",
        "[Variant \"Fischerandom\"]\n",
        "",
    ] {
        let text = format!(
            "{variant}[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
             1. e4 e5 2. Ne3 Ne6 3. Nf3 Nf6 4. d3 d6 5. Qd2 Qd7 6. O-O-O *\n"
        );
        let game = read_one(&text);
        assert_eq!(
            game.start.castling_mode(),
            CastlingMode::Chess960,
            "{variant}"
        );
        assert_eq!(game.moves.len(), 11);
        let expected_variant = if variant.is_empty() {
            "Chess960"
        } else {
            &variant[10..variant.len() - 3]
        };
        assert_eq!(game.tag("Variant"), Some(expected_variant));
        assert_round_trip(&game);
    }

    // The classical start in Chess960 mode: Variant without FEN.
    let game = read_one("[Variant \"Chess960\"]\n\n1. e4 e5 *\n");
    assert_eq!(game.start.castling_mode(), CastlingMode::Chess960);
    assert_round_trip(&game);
}

#[test]
fn fen_start_with_black_to_move_is_numbered_with_dots() {
    let game = read_one(&data("black_to_move.pgn"));
    assert_eq!(game.start.turn(), Side::Black);
    assert_eq!(game.moves.len(), 4);
    let text = assert_round_trip(&game);
    assert_eq!(
        movetext(&text),
        "2... Nc6 3. Bb5 {The Ruy Lopez.} 3... a6 (3... Nf6 4. O-O) 4. Ba4 *"
    );
    assert!(text.contains(
        "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"]\n"
    ));
    // A standard start given as a FEN needs no FEN tag when written.
    let game = read_one(&format!(
        "[SetUp \"1\"]\n[FEN \"{}\"]\n\n1. e4 *\n",
        tablero_chess::START_FEN
    ));
    assert_eq!(game.tag("FEN"), None);
    assert!(!game.to_pgn_string().contains("FEN"));
}

#[test]
fn move_numbers_follow_comments_and_variations() {
    let game = read_one(
        "{Start} 1. e4 {A} e5 (1... c5 {B} 2. Nf3) (1... e6) 2. Nf3 $1 Nc6 {C} {D} 3. Bb5 *",
    );
    assert_eq!(game.comments, ["Start"]);
    assert_eq!(game.moves[0].comments_after, ["A"]);
    assert_eq!(game.moves[1].variations.len(), 2);
    assert_eq!(game.moves[3].comments_after, ["C", "D"]);
    let text = assert_round_trip(&game);
    assert_eq!(
        movetext(&text),
        "{Start} 1. e4 {A} 1... e5 (1... c5 {B} 2. Nf3) (1... e6) 2. Nf3 $1 Nc6 {C} {D} 3. Bb5 *"
    );
    // A comment after a variation goes before the next move.
    let game = read_one("1. e4 (1. d4) {after the variation} 1... e5 (1... e6) {end} *");
    assert_eq!(game.moves[1].comments_before, ["after the variation"]);
    assert_eq!(game.moves[1].comments_after, ["end"]);
    assert_round_trip(&game);
}

#[test]
fn glyphs_read_as_nags() {
    let game = read_one("1. e4!? e5? 2. Nf3!! Nc6?? 3. Bb5! a6?! 4. Ba4 $22 += Nf6 5. O-O +- *");
    let nags: Vec<Vec<u8>> = game
        .moves
        .iter()
        .map(|n| n.nags.iter().map(|g| g.0).collect())
        .collect();
    assert_eq!(
        nags,
        [
            vec![5],
            vec![2],
            vec![3],
            vec![4],
            vec![1],
            vec![6],
            vec![22, 14],
            vec![],
            vec![18]
        ]
    );
    let text = assert_round_trip(&game);
    assert!(movetext(&text).starts_with("1. e4 $5 e5 $2 2. Nf3 $3"));
}

#[test]
fn lenient_movetext() {
    // Move numbers glued or spaced, castling with zeros, over-disambiguated and
    // check-less SAN, e.p., ; comments, % lines, CRLF, a BOM, several tags per line.
    let text = "\u{feff}[Event \"x\"] [Site \"y\"]\r\n\r\n1.e4 c5 2 . Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 \
                5.Nc3 a6 6. Bc4 e6 7.0-0 b5 8.Bb3 Bb7 ; a rest-of-line comment\r\n\
                % escaped line\r\n9.Re1 Nbd7 10.Nd4f5 exf5 11.exf5+ Be7 12.Qe2 O-O \
                13.Bg5 Qc7 1/2-1/2\r\n";
    let game = read_one(text);
    assert_eq!(game.tag("Site"), Some("y"));
    assert_eq!(game.moves.len(), 26);
    assert_eq!(game.moves[15].comments_after, ["a rest-of-line comment"]);
    assert_eq!(game.moves[12].san.to_string(), "O-O");
    assert_eq!(game.moves[18].san.to_string(), "Nf5");
    assert_eq!(game.moves[20].san.to_string(), "exf5");
    assert_eq!(game.moves[25].san.to_string(), "Qc7");
    assert_eq!(game.result, GameResult::Draw);
    assert_round_trip(&game);

    let ep = read_one("1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 4. d4 *");
    assert!(ep.moves[4].mv.is_en_passant());
    let dots = read_one("1. e4 1... e5 2. Nf3 2 ... Nc6 3. ... Bb5 *");
    assert_eq!(dots.moves.len(), 5);
}

#[test]
fn result_token_wins_over_the_result_tag() {
    let game = read_one("[Result \"1-0\"]\n\n1. e4 e5 *\n");
    assert_eq!(game.result, GameResult::Unknown);
    assert_eq!(game.tag("Result"), Some("*"));
    // Without a token (the next game's tags or the end), the tag gives the result.
    let games = read_ok("[Result \"0-1\"]\n\n1. e4 e5\n[Result \"1-0\"]\n\n1. d4\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].result, GameResult::BlackWins);
    assert_eq!(games[1].result, GameResult::WhiteWins);
    assert_eq!(games[1].moves.len(), 1);
    // A game with tags and no movetext.
    let games = read_ok("[Event \"a\"]\n[Result \"1/2-1/2\"]\n\n[Event \"b\"]\n\n*\n");
    assert_eq!(games.len(), 1, "consecutive tags are one game's");
    assert_eq!(
        games[0].tag("Event"),
        Some("b"),
        "a repeated tag's last value wins"
    );
}

#[test]
fn from_game_writes_and_reads_back() {
    let mut game = Game::new(Chess::new());
    for san in ["f3", "e5", "g4", "Qh4#"] {
        let mv = game.position().parse_san(san).expect("legal");
        game.play(mv).expect("legal");
    }
    let record = PgnGame::from_game(
        &game,
        [
            ("White".to_owned(), "Fool".to_owned()),
            ("Event".to_owned(), "Lesson".to_owned()),
            ("Result".to_owned(), "1-0".to_owned()),
        ],
    );
    assert_eq!(
        record.result,
        GameResult::BlackWins,
        "the outcome beats the tag"
    );
    let text = assert_round_trip(&record);
    assert!(text.starts_with("[Event \"Lesson\"]\n[Site \"?\"]\n"));
    assert_eq!(movetext(&text), "1. f3 e5 2. g4 Qh4# 0-1");
    let back = read_one(&text).to_game().expect("legal");
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.outcome(), game.outcome());

    let start =
        Chess::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40", CastlingMode::Standard).expect("legal");
    let mut game = Game::new(start);
    game.play(game.position().parse_san("Kd7").expect("legal"))
        .expect("legal");
    let record = PgnGame::from_game(&game, []);
    let text = assert_round_trip(&record);
    assert_eq!(movetext(&text), "40... Kd7 *");
    assert!(text.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]"));
}

/// Produces `copies` copies of a game on the fly, never holding more than one.
struct Repeat {
    game: Vec<u8>,
    copies: usize,
    offset: usize,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.copies == 0 {
            return Ok(0);
        }
        let rest = &self.game[self.offset..];
        let n = rest.len().min(buf.len()).min(4099);
        buf[..n].copy_from_slice(&rest[..n]);
        self.offset += n;
        if self.offset == self.game.len() {
            self.offset = 0;
            self.copies -= 1;
        }
        Ok(n)
    }
}

#[test]
fn streams_a_large_input_one_game_at_a_time() {
    let mut game = data("famous.pgn")
        .split("\n\n[")
        .next()
        .expect("the first game")
        .to_owned();
    // Pad each copy to about 1 KB with a comment, so 20,000 copies make about 20 MB.
    game.push_str("\n{");
    game.push_str(&"padding ".repeat(40));
    game.push_str("}\n\n");
    let copies = 20_000;
    let input = Repeat {
        game: game.into_bytes(),
        copies,
        offset: 0,
    };
    let mut reader = Reader::new(input);
    let mut count = 0;
    for result in &mut reader {
        let game = result.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.moves.len(), 33);
        count += 1;
    }
    assert_eq!(count, copies);
    assert_eq!(reader.games_read(), copies as u64);
}

/// An input of `len` bytes of `fill` after a prefix, generated on the fly.
struct Flood {
    prefix: &'static [u8],
    fill: u8,
    len: usize,
    suffix: &'static [u8],
}

impl Read for Flood {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.prefix.is_empty() {
            let n = self.prefix.len().min(buf.len());
            buf[..n].copy_from_slice(&self.prefix[..n]);
            self.prefix = &self.prefix[n..];
            return Ok(n);
        }
        if self.len > 0 {
            let n = self.len.min(buf.len());
            buf[..n].fill(self.fill);
            self.len -= n;
            return Ok(n);
        }
        let n = self.suffix.len().min(buf.len());
        buf[..n].copy_from_slice(&self.suffix[..n]);
        self.suffix = &self.suffix[n..];
        Ok(n)
    }
}

#[test]
fn over_long_tokens_are_refused_and_reading_goes_on() {
    let after = b"}\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n";
    let input = Flood {
        prefix: b"[Event \"huge\"]\n\n1. e4 {",
        fill: b'a',
        len: 6 << 20,
        suffix: after,
    };
    let results: Vec<_> = Reader::new(input).collect();
    assert_eq!(results.len(), 2, "{results:#?}");
    let error = results[0].as_ref().expect_err("too long");
    assert!(matches!(
        error.kind,
        PgnErrorKind::TokenTooLong {
            what: "comment",
            limit: pgn::MAX_TEXT_LEN,
            ..
        }
    ));
    assert_eq!(
        error.to_string(),
        format!(
            "game 1, after ply 1: comment starting \"aaaaaaaaaaaaaaaaaaaaaaaa\" is longer \
             than {} bytes",
            pgn::MAX_TEXT_LEN
        )
    );
    assert_eq!(
        results[1].as_ref().ok().and_then(|g| g.tag("Event")),
        Some("next")
    );

    // A line of any length between games, and a huge junk word.
    let input = Flood {
        prefix: b"",
        fill: b'z',
        len: 3 << 20,
        suffix: b"\n[Event \"after\"]\n\n1. e4 *\n",
    };
    let results: Vec<_> = Reader::new(input).collect();
    assert_eq!(results.len(), 1, "{results:#?}");
    assert!(results[0].is_ok());
}

#[test]
fn a_game_too_large_is_refused_and_reading_goes_on() {
    // 70 MB of comments after the tags: more than one game may hold.
    let comment = format!("{{{}}}\n", "c".repeat(998));
    let copies = 70_000;
    let input = (&b"[Event \"huge\"]\n"[..])
        .chain(Repeat {
            game: comment.into_bytes(),
            copies,
            offset: 0,
        })
        .chain(&b"1. e4 *\n\n[Event \"next\"]\n\n1. d4 *\n"[..]);
    let results: Vec<_> = Reader::new(input).collect();
    assert_eq!(results.len(), 2, "{results:#?}");
    let error = results[0].as_ref().expect_err("too large");
    assert!(matches!(
        error.kind,
        PgnErrorKind::GameTooLarge {
            limit: pgn::MAX_GAME_SIZE
        }
    ));
    assert_eq!(
        results[1].as_ref().ok().and_then(|g| g.tag("Event")),
        Some("next")
    );
}

#[test]
fn variations_nested_too_deep_are_an_error_not_a_crash() {
    let depth = pgn::MAX_VARIATION_DEPTH + 5;
    let mut text = String::from("1. e4 ");
    for _ in 0..depth {
        text.push_str("(1. d4 ");
    }
    for _ in 0..depth {
        text.push(')');
    }
    text.push_str(" *\n\n1. c4 *\n");
    let results = pgn::read_str(&text);
    assert_eq!(results.len(), 2);
    let error = results[0].as_ref().expect_err("too deep");
    assert!(matches!(error.kind, PgnErrorKind::VariationTooDeep { .. }));
    assert!(results[1].is_ok());

    // Just within the limit, the tree is kept and written.
    let mut text = String::from("1. e4 ");
    for _ in 0..pgn::MAX_VARIATION_DEPTH {
        text.push_str("(1. d4 ");
    }
    for _ in 0..pgn::MAX_VARIATION_DEPTH {
        text.push(')');
    }
    text.push_str(" *");
    let game = read_one(&text);
    assert_round_trip(&game);
}

struct Failing {
    sent: bool,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.sent {
            return Err(io::Error::other("disk on fire"));
        }
        self.sent = true;
        let game = b"1. e4 e5 *\n\n1. d4 ";
        buf[..game.len()].copy_from_slice(game);
        Ok(game.len())
    }
}

#[test]
fn io_error_is_reported_once_and_ends_reading() {
    let results: Vec<_> = Reader::new(Failing { sent: false }).collect();
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let error = results[1].as_ref().expect_err("I/O");
    assert!(error.is_io());
    assert_eq!(error.to_string(), "game 2: I/O error: disk on fire");
}

/// SplitMix64, to make the same "random" inputs on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Reads `rounds` inputs made by mutating real PGN, appending random bytes, or
/// stringing PGN tokens together at random; whatever reads as a game must write out
/// and read back the same.
fn read_random_inputs(rounds: u32) {
    let seed_text = data("famous.pgn") + &data("broken.pgn") + &data("chess960.pgn");
    let seed = seed_text.as_bytes();
    let alphabet = b"[]{}()\";%$*!?.-/ \n\r\t0123456789abcdefghKQRBNOxX=+#\\\xff\xfe\xef\xbb\xbf";
    let vocabulary = [
        "1.",
        "2...",
        "e4",
        "e5",
        "d4",
        "d5",
        "Nf3",
        "Nc6",
        "Bb5",
        "a6",
        "O-O",
        "Ke2",
        "Ke7",
        "exd5",
        "(",
        ")",
        "{c}",
        "{",
        "}",
        "$1",
        "$256",
        "!",
        "?!",
        "+-",
        "*",
        "1-0",
        "1/2-1/2",
        "[Event \"x\"]",
        "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 9\"]",
        "[Variant \"960\"]",
        "\n",
        "\r\n",
        "\n%x\n",
        ";x\n",
        "\u{feff}",
        "Kd7",
        "Kd2",
        "--",
        "Z0",
    ];
    let mut state = u64::from(rounds);
    for round in 0..rounds {
        let mut bytes = Vec::new();
        match round % 3 {
            0 => {
                bytes.extend_from_slice(&seed[..(next(&mut state) as usize % seed.len())]);
                for _ in 0..1 + next(&mut state) % 20 {
                    let i = next(&mut state) as usize % bytes.len().max(1);
                    let b = alphabet[next(&mut state) as usize % alphabet.len()];
                    if i < bytes.len() {
                        bytes[i] = b;
                    } else {
                        bytes.push(b);
                    }
                }
            }
            1 => {
                bytes.extend_from_slice(&seed[..(next(&mut state) as usize % 400)]);
                for _ in 0..300 {
                    bytes.push(alphabet[next(&mut state) as usize % alphabet.len()]);
                }
            }
            _ => {
                for _ in 0..next(&mut state) % 200 {
                    let token = vocabulary[next(&mut state) as usize % vocabulary.len()];
                    bytes.extend_from_slice(token.as_bytes());
                    bytes.push(b' ');
                }
            }
        }
        for game in Reader::new(bytes.as_slice()).flatten() {
            let text = game.to_pgn_string();
            let again = read_one(&text);
            if !has_overlong_comment_word(&game.comments, &game.moves) {
                assert_eq!(again, game, "{text}");
            }
            assert_eq!(again.to_pgn_string(), text, "writing is not stable");
        }
    }
}

/// Whether a comment has a word too long for a line (the writer cuts such a word, and
/// it reads back with spaces in it).
fn has_overlong_comment_word(comments: &[String], line: &[pgn::Node]) -> bool {
    let overlong = |comments: &[String]| {
        comments.iter().any(|c| {
            c.split(' ')
                .any(|w| w.chars().count() + 2 > pgn::LINE_WIDTH)
        })
    };
    overlong(comments)
        || line.iter().any(|node| {
            overlong(&node.comments_before)
                || overlong(&node.comments_after)
                || node
                    .variations
                    .iter()
                    .any(|v| has_overlong_comment_word(&[], v))
        })
}

#[test]
fn arbitrary_bytes_never_panic() {
    read_random_inputs(600);
}

#[test]
#[ignore = "long: run with --ignored"]
fn arbitrary_bytes_never_panic_long() {
    read_random_inputs(300_000);
}

#[test]
fn invalid_utf8_is_replaced_not_fatal() {
    let mut bytes = b"[Event \"caf".to_vec();
    bytes.extend_from_slice(b"\xe9\"]\n\n1. e4 {na\xefve} *\n");
    let games: Vec<_> = Reader::new(bytes.as_slice()).collect();
    assert_eq!(games.len(), 1);
    let game = games[0].as_ref().expect("read");
    assert_eq!(game.tag("Event"), Some("caf\u{fffd}"));
    assert_eq!(game.moves[0].comments_after, ["na\u{fffd}ve"]);
}

#[test]
fn non_ascii_blanks_in_tags_round_trip() {
    // Found by fuzzing: the writer replaced Unicode controls and spaces the reader keeps.
    for text in [
        "[\u{97} \"-\"]\n\n*\n",
        "[A\u{a0}B \"x\"]\n\n1. e4 *\n",
        "[Event \"a\u{85}b\"]\n\n1. e4 *\n",
    ] {
        let game = pgn::read_str(text).remove(0).expect("reads");
        assert_eq!(
            pgn::read_str(&game.to_pgn_string())[0].as_ref().ok(),
            Some(&game),
            "{text:?}"
        );
    }
}
