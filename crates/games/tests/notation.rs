//! Moves by game id, in the move format and the display notation of each game.

use tablero_games::{AnyPosition, GameKind, Variant};

#[test]
fn every_game_pairs_its_move_format_with_its_display_notation() {
    let cases = [
        ("chess", None, "e4", ("e2e4", "e4")),
        ("xiangqi", None, "h2e2", ("h2e2", "C2.5")),
        ("xiangqi", None, "炮二平五", ("h2e2", "C2.5")),
        ("draughts", Some("english"), "11-15", ("11-15", "11-15")),
        ("chess3d", None, "0G1-0F1", ("0G1-0F1", "P-0-F1")),
    ];
    for (game, variant, text, (format, notation)) in cases {
        let mut pos = AnyPosition::new(game, variant, None).expect("start position");
        let listed = pos.legal_moves_with_notation();
        assert!(
            listed.contains(&(format.to_owned(), notation.to_owned())),
            "{game}: {listed:?}"
        );
        let before = pos.clone();
        assert_eq!(
            pos.play_text_with_notation(text),
            Ok((format.to_owned(), notation.to_owned())),
            "{game}"
        );
        assert_ne!(pos, before);
    }
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut pos = AnyPosition::new("xiangqi", None, None).expect("start position");
    let before = pos.clone();
    let error = pos
        .play_text_with_notation("C2.9")
        .expect_err("no such move");
    assert!(
        error.to_string().starts_with("move 1 (\"C2.9\")"),
        "{error}"
    );
    assert_eq!(pos, before);
}

#[test]
fn importing_one_game_replays_only_that_one() {
    // Game 1 has an illegal move: reading game 2 alone does not replay it.
    let file = "[Event \"one\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"two\"]\n\n1. d4 d5 2. c4 *\n";
    let all = tablero_games::AnyRecord::import(GameKind::Chess, Variant::Standard, file);
    assert_eq!(all.len(), 2);
    assert!(all[0].is_err() && all[1].is_ok());
    let (count, second) =
        tablero_games::AnyRecord::import_one(GameKind::Chess, Variant::Standard, file, 2);
    assert_eq!(count, 2);
    let second = second.expect("game 2").expect("it replays");
    assert_eq!(second.record.plies(), 3);
    let (count, first) =
        tablero_games::AnyRecord::import_one(GameKind::Chess, Variant::Standard, file, 1);
    assert_eq!(count, 2);
    assert!(first.expect("game 1").is_err());
    assert!(
        tablero_games::AnyRecord::import_one(GameKind::Chess, Variant::Standard, file, 3)
            .1
            .is_none()
    );
}

#[test]
fn an_imported_result_ends_a_game_the_rules_leave_open() {
    use tablero_core::{Outcome, Reason, Side};
    let read = |file: &str, game: &str| {
        let kind: GameKind = game.parse().expect("a game id in this test");
        let variant = kind.variant(None).expect("the default");
        tablero_games::AnyRecord::import(kind, variant, file)
            .remove(0)
            .expect("a game")
            .outcome()
    };
    assert_eq!(
        read("[Result \"1-0\"]\n\n1. e4 e5 1-0\n", "chess"),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::RecordedResult
        })
    );
    assert_eq!(
        read(
            "[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. e4 e5 0-1\n",
            "chess"
        ),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: Reason::Resignation
        })
    );
    assert_eq!(
        read("[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n", "chess"),
        Some(Outcome::Draw {
            reason: Reason::RecordedResult
        })
    );
    assert_eq!(read("1. e4 e5 *\n", "chess"), None);
    // The rules' own end comes first, whatever the file says.
    assert_eq!(
        read("1. f3 e5 2. g4 Qh4# 1/2-1/2\n", "chess"),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: Reason::Checkmate
        })
    );
    assert_eq!(
        read("[GameType \"20\"]\n1. 32-28 19-23 2-0\n", "draughts"),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::RecordedResult
        })
    );
}

#[test]
fn every_chess960_start_knows_its_number() {
    for n in 0..960 {
        let start = AnyPosition::chess960(n).expect("a start");
        assert_eq!(start.chess960_number(), Some(n));
    }
    assert!(AnyPosition::chess960(960).is_err());
    // Once a move is played, or in standard chess, it is no start.
    let mut moved = AnyPosition::chess960(7).expect("a start");
    moved.play_text("a2a3").expect("a legal move");
    assert_eq!(moved.chess960_number(), None);
    let standard = AnyPosition::new("chess", None, None).expect("chess");
    assert_eq!(standard.chess960_number(), None);
}
