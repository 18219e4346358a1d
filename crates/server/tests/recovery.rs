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
