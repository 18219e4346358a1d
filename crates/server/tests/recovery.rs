//! What the server repairs and restores when it starts on a database that an older
//! version, or a crash, left behind.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;
use tablero_core::Side;
use tablero_server::AppState;
use tablero_store::{GameStatus, Mode, MoveRecord, NewGame, Seat, Store};

fn person(name: &str) -> Seat {
    Seat {
        name: Some(name.to_owned()),
        ..Seat::default()
    }
}

#[tokio::test]
async fn a_game_whose_last_move_ended_it_is_finished_and_counted_at_start() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    let store = Store::open(&url).await.expect("the store opens");
    // What an older version could leave: the mating move stored, the row still
    // saying "playing", the players' results not counted.
    store
        .create_game(&NewGame {
            id: "halfended".to_owned(),
            game: "chess".to_owned(),
            variant: "standard".to_owned(),
            start_position: "k7/8/1K6/8/8/8/8/7R w - - 0 1".to_owned(),
            seed: None,
            mode: Mode::Online,
            seats: [person("ana"), person("bo")],
            clock: None,
            moves: Vec::new(),
            finished: None,
            tags: Vec::new(),
        })
        .await
        .expect("created");
    let mate = MoveRecord {
        text: "h1h8".to_owned(),
        white_ms: None,
        black_ms: None,
    };
    store
        .append_move("halfended", 0, &mate)
        .await
        .expect("stored");
    assert_eq!(
        store
            .game("halfended")
            .await
            .expect("read")
            .expect("a game")
            .status,
        GameStatus::Playing
    );

    let state = AppState::new(store.clone(), 1);
    let resumed = state.resume_games().await.expect("the games resume");
    assert_eq!(resumed, 0, "a finished game is not resumed");
    let record = store
        .game("halfended")
        .await
        .expect("read")
        .expect("a game");
    assert_eq!(record.status, GameStatus::Finished);
    assert_eq!(
        (record.winner, record.reason.as_deref()),
        (Some(Side::White), Some("checkmate"))
    );
    let ana = store.player("ana").await.expect("read").expect("ana");
    let bo = store.player("bo").await.expect("read").expect("bo");
    assert_eq!(
        (ana.totals(Some("chess")).won, bo.totals(Some("chess")).lost),
        (1, 1)
    );
    assert!(ana.rating("chess").is_some(), "the game is rated");

    let app = tablero_server::app(state);
    let (status, list) = call(&app, "GET", "/api/games?status=playing", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["games"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resumed_computer_games_queue_for_their_worker_without_losing_on_time() {
    use tablero_store::{ClockKind, ClockRecord};
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("resume.db").display());
    let store = Store::open(&url).await.expect("the store opens");
    let computer = Seat {
        level: Some(10),
        ..Seat::default()
    };
    // Three games on 60 s clocks, then one on a 4 s clock, each after 1. e4, as a
    // stopped server left them: all resume at once with one worker between them.
    for (i, initial_ms) in [60_000, 60_000, 60_000, 4_000].into_iter().enumerate() {
        store
            .create_game(&NewGame {
                id: format!("resumed{i}"),
                game: "chess".to_owned(),
                variant: "standard".to_owned(),
                start_position: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
                    .to_owned(),
                seed: None,
                mode: Mode::Computer,
                seats: [computer.clone(), computer.clone()],
                clock: Some(ClockRecord {
                    kind: ClockKind::Fischer,
                    initial_ms,
                    increment_ms: 0,
                }),
                moves: vec![MoveRecord {
                    text: "e2e4".to_owned(),
                    white_ms: Some(initial_ms),
                    black_ms: Some(initial_ms),
                }],
                finished: None,
                tags: Vec::new(),
            })
            .await
            .expect("created");
    }
    let state = AppState::with_options(
        store.clone(),
        tablero_server::ServerOptions {
            engine_threads: 1,
            computer_game_threads: 1,
            rate_limits: tablero_server::RateLimits::off(),
            ..tablero_server::ServerOptions::default()
        },
    );
    assert_eq!(state.resume_games().await.expect("resumed"), 4);
    // The 4 s game waits behind three searches of about 2 s: longer than its clock,
    // which must not run meanwhile.
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    let last = store.game("resumed3").await.expect("read").expect("a game");
    assert_ne!(
        last.reason.as_deref(),
        Some("timeout"),
        "the waiting computer lost on time"
    );
    assert!(
        last.moves.len() >= 2,
        "it has moved since: {:?}",
        last.moves
    );
}
