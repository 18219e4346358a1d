//! PGN records: reading the forms other programs write, round trips in every move
//! notation, and errors that name the game, ply and move.

use tablero_core::SplitMix64;
use tablero_xiangqi::pgn::{MoveFormat, PgnGame, read_pgn};
use tablero_xiangqi::{Game, Move, Reason, Xiangqi};

fn random_game(seed: u64, plies: usize) -> PgnGame {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Xiangqi::new();
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(rng.next() % legal.len() as u64) as usize];
        pos.play_unchecked(m);
        moves.push(m);
    }
    PgnGame::from_moves(Xiangqi::new(), &moves).expect("legal moves")
}

#[test]
fn written_records_read_back_in_every_notation() {
    for seed in 0..40 {
        let mut game = random_game(seed, 30 + seed as usize * 3);
        game.set_tag("Event", "Round trip");
        game.set_tag("Red", "A \"quoted\" name");
        game.comments[1].push("the first move".to_owned());
        for format in [MoveFormat::Wxf, MoveFormat::Iccs, MoveFormat::Chinese] {
            let text = game.to_pgn_string(format);
            let read = read_pgn(&text);
            assert_eq!(read.len(), 1, "{text}");
            let back = read[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.moves, game.moves, "{format:?}\n{text}");
            assert_eq!(back.start, game.start);
            assert_eq!(back.comments, game.comments);
            assert_eq!(back.tag("Red"), Some("A \"quoted\" name"));
            assert_eq!(back.to_pgn_string(format), text, "writing is not stable");
            assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        }
    }
}

#[test]
fn reads_records_in_the_forms_other_programs_write() {
    // xqbase-style ICCS with dashes and uppercase files, Red/Black tags, no FEN tag.
    let iccs = r#"[Game "Chinese Chess"]
[Event "Example"]
[Red "Red player"]
[Black "Black player"]
[Result "1-0"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 1-0
"#;
    // The same moves in WXF, with a White tag, comments, a NAG and a variation.
    let wxf = r#"[White "Red player"]
[Variant "xiangqi"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]

{Central cannon} 1. C2.5 H8+7 $1 (1... C8.5) 2. H2+3 R9.8 ; the chariot comes out
3. R1.2 H2+3 1-0
"#;
    // And in Chinese.
    let chinese = "[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. 车一平二 马２进３ 1-0\n";
    let games: Vec<PgnGame> = [iccs, wxf, chinese]
        .iter()
        .map(|t| read_pgn(t).remove(0).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(games[0].moves, games[1].moves);
    assert_eq!(games[0].moves, games[2].moves);
    assert_eq!(games[0].moves.len(), 6);
    assert_eq!(games[1].tag("Red"), Some("Red player"));
    assert_eq!(games[1].comments[0], ["Central cannon"]);
    assert_eq!(games[1].comments[4], ["the chariot comes out"]);
    assert_eq!(games[0].result, "1-0");
    assert_eq!(
        games[0].final_position().fen(),
        "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4"
    );
}

#[test]
fn a_broken_game_names_game_ply_and_move_and_reading_goes_on() {
    let text = r#"[Event "one"]

1. h2e2 h9g7 *

[Event "two"]

1. h2e2 h9g7 2. e2e9 *

[Event "three"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"]

*

[Event "four"]

1. C2.5 Q8+7 *

[Event "five"]

1. b0c2 *
"#;
    let games = read_pgn(text);
    assert_eq!(games.len(), 5);
    assert!(games[0].is_ok());
    let two = games[1]
        .as_ref()
        .expect_err("e2e9 is not legal")
        .to_string();
    assert!(two.starts_with("game 2, ply 3 (\"e2e9\")"), "{two}");
    let three = games[2].as_ref().expect_err("bad FEN").to_string();
    assert!(
        three.starts_with("game 3: FEN tag") && three.contains("\"x\""),
        "{three}"
    );
    let four = games[3].as_ref().expect_err("no Q in xiangqi").to_string();
    assert!(four.starts_with("game 4, ply 2 (\"Q8+7\")"), "{four}");
    assert!(games[4].is_ok());
}

#[test]
fn other_variants_and_malformed_tags_are_refused() {
    let chess = read_pgn("[Variant \"chess960\"]\n\n1. e4 *\n");
    assert!(
        chess[0]
            .as_ref()
            .is_err_and(|e| e.to_string().contains("Variant"))
    );
    let tag = read_pgn("[Event unquoted]\n\n*\n");
    assert!(
        tag[0]
            .as_ref()
            .is_err_and(|e| e.to_string().contains("double quotes"))
    );
    let result = read_pgn("1. h2e2 h9g7 2-0\n");
    assert!(result[0].is_err());
    // Found by fuzzing: a stray '}' once made the reader loop forever.
    let stray = read_pgn("[Red \"a\"]c} 1. C2.5 *\n");
    assert!(
        stray[0]
            .as_ref()
            .is_err_and(|e| e.to_string().contains("'}'"))
    );
    let variation = read_pgn("1. h2e2 (1. b2e2 *\n");
    assert!(
        variation[0]
            .as_ref()
            .is_err_and(|e| e.to_string().contains("never closed"))
    );
}

#[test]
fn games_save_with_their_result_and_load_to_continue() {
    // Red checks with the chariot forever; the third occurrence is ruled.
    let start = Xiangqi::from_fen("R8/4k4/9/9/9/9/9/9/9/3K5 w - - 0 1").expect("legal");
    let mut game = Game::new(start);
    for _ in 0..2 {
        for m in ["a9a8", "e8e9", "a8a9", "e9e8"] {
            game.play_iccs(m).expect("legal move");
        }
    }
    let outcome = game.outcome().expect("ruled at the third occurrence");
    assert_eq!(outcome.reason(), Reason::PerpetualCheck);
    let record = PgnGame::from_game(&game, [("Red".to_owned(), "A".to_owned())]);
    assert_eq!(record.result, "0-1");
    assert_eq!(record.tag("Termination"), Some("perpetual_check"));
    let text = record.to_pgn_string(MoveFormat::Wxf);
    let back = read_pgn(&text).remove(0).expect("reads back");
    let replayed = back.to_game().expect("replays");
    assert_eq!(replayed.outcome(), Some(outcome));
    assert_eq!(
        replayed.moves().collect::<Vec<_>>(),
        game.moves().collect::<Vec<_>>()
    );

    // An unfinished game continues after loading.
    let mut open = Game::default();
    open.play_iccs("h2e2").expect("legal");
    let text = PgnGame::from_game(&open, []).to_pgn_string(MoveFormat::Iccs);
    let mut loaded = read_pgn(&text)
        .remove(0)
        .expect("reads back")
        .to_game()
        .expect("replays");
    assert!(loaded.play_iccs("h9g7").is_ok());
}
