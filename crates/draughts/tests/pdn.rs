//! PDN game files (several games, tags, comments, bad games reported by number) and
//! parsers that never panic.

use proptest::prelude::*;
use tablero_draughts::{Draughts, Game, PdnGame, PdnMove, RuleSet, Setup, read_pdn, write_pdn};

const FILE: &str = r#"; A file of test games.
% an escape line
[Event "Club match"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[GameType "20"]

1. 32-28 19-23 {an old opening} 2. 28x19 14x23 3. 37-32! $1 10-14 *

[Event "English, no GameType"]
1. 11-15 22-18 2. 15x22 25x18 ; a line comment
3. 8-11 1-1

[Event "Bad move"]
[GameType "21"]
1. 11-15 23-19 2. 15-20 *

[Event "Bad FEN"]
[GameType "25"]
[FEN "W:W33:B1"]
1. 33-29 *

[Event "Russian from a position"]
[GameType "25,W,8,8,A0,0"]
[FEN "W:W10:B7,8"]
1. 10x3x12 (1. 10x12 {the same}) 2-0
"#;

#[test]
fn reads_several_games_and_reports_bad_ones_by_number() {
    let read = read_pdn(FILE, RuleSet::English);
    assert_eq!(read.games.len(), 3, "{:?}", read.errors);
    let messages: Vec<String> = read.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "game 3: move 3 (15-20): illegal move 15-20: a man cannot move from 15 to 20",
            "game 4: FEN tag \"W:W33:B1\": square 33 does not exist in russian draughts (squares 1-32)",
        ]
    );

    let first = &read.games[0];
    assert_eq!(first.start.rule_set(), RuleSet::International);
    assert_eq!(first.moves.len(), 6);
    assert_eq!(
        first.comments,
        [
            (0, "A file of test games.".to_owned()),
            (2, "an old opening".to_owned())
        ]
    );
    assert_eq!(first.tags[1], ("White".to_owned(), "Ann".to_owned()));
    assert_eq!(first.result.as_deref(), Some("*"));

    let second = &read.games[1];
    assert_eq!(second.start, Draughts::new(RuleSet::English));
    assert_eq!(second.moves.len(), 5);
    assert_eq!(second.comments, [(4, "a line comment".to_owned())]);
    assert_eq!(second.result.as_deref(), Some("1-1"));

    let third = &read.games[2];
    assert_eq!(third.start.rule_set(), RuleSet::Russian);
    assert_eq!(third.moves.len(), 1);
    assert_eq!(third.moves[0].captured().to_string(), "7,8");
}

#[test]
fn writes_and_reads_back() {
    let read = read_pdn(FILE, RuleSet::English);
    let text = write_pdn(&read.games);
    let again = read_pdn(&text, RuleSet::Italian);
    assert!(again.errors.is_empty(), "{:?}\n{text}", again.errors);
    assert_eq!(again.games.len(), read.games.len());
    for (a, b) in read.games.iter().zip(&again.games) {
        assert_eq!(a.start, b.start);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.comments, b.comments);
        let without_result = |tags: &[(String, String)]| {
            tags.iter()
                .filter(|(k, _)| k != "Result")
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(without_result(&a.tags), without_result(&b.tags));
        assert_eq!(a.result, b.result);
    }
    assert!(
        text.contains("[GameType \"25\"]\n[FEN \"W:W10:B7,8\"]"),
        "{text}"
    );
    assert!(
        text.replace('\n', " ")
            .contains("{A file of test games.} 1. 32-28 19-23 {an old opening} 2. 28x19 14x23 3. 37-32 10-14 *"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.len() <= 80), "{text}");
}

#[test]
fn numbering_follows_who_starts() {
    // English: Black starts, so "1." is Black's move.
    let mut game = Game::new(Draughts::new(RuleSet::English));
    for m in ["11-15", "23-19", "8-11"] {
        game.play_text(m).expect("legal");
    }
    let text = PdnGame::from_game(&game, vec![("Event".into(), "t".into())]).to_pdn();
    assert!(text.ends_with("1. 11-15 23-19 2. 8-11 *\n"), "{text}");
    assert!(text.contains("[GameType \"21\"]"));
    // A game starting with the second player to move.
    let start = Draughts::from_fen("B:W31-50:B1-20", RuleSet::International).expect("fen");
    let mut game = Game::new(start);
    game.play_text("19-23").expect("legal");
    game.play_text("32-28").expect("legal");
    let text = PdnGame::from_game(&game, Vec::new()).to_pdn();
    assert!(text.ends_with("1... 19-23 2. 32-28 *\n"), "{text}");
    let back = read_pdn(&text, RuleSet::English);
    assert_eq!(back.games[0].moves, game.moves());
}

#[test]
fn finished_game_writes_its_result() {
    let mut game = Game::new(Draughts::from_fen("W:W10:B7,8", RuleSet::Russian).expect("fen"));
    game.play_text("10x12").expect("legal");
    let text = PdnGame::from_game(&game, Vec::new()).to_pdn();
    assert!(
        text.contains("[Result \"2-0\"]") && text.ends_with("1. 10x12 2-0\n"),
        "{text}"
    );
}

proptest! {
    #[test]
    fn parsers_never_panic(text in ".{0,200}") {
        let _ = text.parse::<Setup>();
        let _ = text.parse::<PdnMove>();
        for rule_set in RuleSet::ALL {
            let _ = Draughts::from_fen(&text, rule_set);
            let _ = Draughts::new(rule_set).parse_move(&text);
        }
        let _ = read_pdn(&text, RuleSet::International);
    }

    #[test]
    fn pdn_like_text_never_panics(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("[GameType \"20\"]".to_owned()),
                Just("[FEN \"W:WK46:B5\"]".to_owned()),
                Just("[Event \"x\\\"y\"]".to_owned()),
                Just("{c}".to_owned()),
                Just("(1. 32-28)".to_owned()),
                Just("1.".to_owned()),
                Just("32-28".to_owned()),
                Just("19x28".to_owned()),
                Just("2-0".to_owned()),
                Just("*".to_owned()),
                Just("[".to_owned()),
                Just("{".to_owned()),
                "[0-9x:-]{1,8}",
            ],
            0..30,
        )
    ) {
        let text = parts.join(" ");
        let read = read_pdn(&text, RuleSet::International);
        let _ = write_pdn(&read.games);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[WBwbK:,0-9 .-]{0,40}") {
        if let Ok(setup) = text.parse::<Setup>() {
            for rule_set in RuleSet::ALL {
                if let Ok(pos) = Draughts::from_setup(&setup, rule_set) {
                    let _ = pos.legal_moves();
                    prop_assert_eq!(Draughts::from_fen(&pos.fen(), rule_set), Ok(pos));
                }
            }
        }
    }
}

#[test]
fn odd_tag_names_and_escaped_values_survive_a_write_and_a_read() {
    // Found by fuzzing: a tag name with quotes and NUL bytes was read, then written in a
    // form that read back differently; and a value with a backslash before a quote lost
    // its backslash (it was unescaped twice).
    let text = "[1:B::::1\"2\u{0} \"x\"]\n[Event \"a\\\\\\\"b\\\\\"]\n1. 11-15 *\n";
    let read = read_pdn(text, RuleSet::English);
    assert_eq!(
        read.errors.len(),
        1,
        "the bad tag name is reported: {:?}",
        read.errors
    );
    let read = read_pdn("[Event \"a\\\\\\\"b\\\\\"]\n1. 11-15 *\n", RuleSet::English);
    let game = &read.games[0];
    assert!(
        game.tags
            .iter()
            .any(|(k, v)| k == "Event" && v == "a\\\"b\\"),
        "{:?}",
        game.tags
    );
    let again = read_pdn(&write_pdn(&read.games), RuleSet::English);
    assert!(again.errors.is_empty());
    assert!(
        again.games[0].tags.contains(&game.tags[0]),
        "{:?}",
        again.games[0].tags
    );
    assert_eq!(again.games[0].moves, game.moves);
}

#[test]
fn russian_positions_may_name_squares_algebraically() {
    // As pydraughts writes Russian FENs: a1 is square 29, g1 32, b8 1, h8 4.
    let algebraic = Draughts::from_fen("W:Wa1,g1,c3:Bb8,Kh8", RuleSet::Russian).expect("read");
    let numbered = Draughts::from_fen("W:W29,32,22:B1,K4", RuleSet::Russian).expect("read");
    assert_eq!(algebraic.fen(), numbered.fen());
    // In a PDN file too, with algebraic moves.
    let file = "[GameType \"25\"]\n[FEN \"W:Wa1,c3:Bf6,h8\"]\n1. c3-d4 f6-e5 *\n";
    let read = tablero_draughts::read_pdn(file, RuleSet::Russian);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    assert_eq!(read.games.len(), 1);
    // A light square or a bad name is still refused, naming it.
    let bad = Draughts::from_fen("W:Wa2:Bb8", RuleSet::Russian).expect_err("a2 is light");
    assert!(bad.to_string().contains("a2"), "{bad}");
}
