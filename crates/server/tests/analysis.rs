//! `POST /api/analyse`: the engine's evaluation and best lines for the analysis board,
//! from a position or a stored game; games in progress between people refused;
//! bad requests named; the analysis quota per address.

#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use axum::http::StatusCode;
use common::{app_in, call, hotseat, play};
use serde_json::{Value, json};
use tablero_server::{AppState, RateLimit, RateLimits, ServerOptions};
use tablero_store::Store;

async fn analyse(app: &axum::Router, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/analyse", None, Some(body)).await
}

#[tokio::test]
async fn a_mate_in_one_is_found_in_every_notation() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // After 1. f3 e5 2. g4 Black mates with Qh4#.
    let (status, body) = analyse(
        &app,
        json!({"game": "chess", "moves": ["f2f3", "e7e5", "g2g4"], "movetime_ms": 200}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["turn"], "black");
    let best = &body["lines"][0];
    assert_eq!(best["pv"][0], "d8h4", "{body}");
    assert_eq!(best["pv_notation"][0], "Qh4#", "{body}");
    assert_eq!(best["mate"], 1, "{body}");
    assert!(body["depth"].as_u64().unwrap() >= 1);

    // Xiangqi answers in WXF, draughts in PDN numbers; several lines when asked.
    let (status, body) = analyse(
        &app,
        json!({"game": "xiangqi", "movetime_ms": 100, "multipv": 3}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["turn"], "red");
    assert_eq!(body["lines"].as_array().unwrap().len(), 3, "{body}");
    let first = body["lines"][0]["pv_notation"][0].as_str().unwrap();
    assert!(
        first.len() == 4 && first.contains(['+', '-', '.', '=']),
        "{first}"
    );
    let (status, body) = analyse(
        &app,
        json!({"game": "draughts", "variant": "international", "movetime_ms": 100}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let first = body["lines"][0]["pv_notation"][0].as_str().unwrap();
    assert!(first.contains('-') || first.contains('x'), "{first}");
}

#[tokio::test]
async fn a_finished_position_has_no_lines_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let (status, body) = analyse(
        &app,
        json!({"game": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["lines"], json!([]));
    assert!(
        body["outcome"].as_str().unwrap().contains("checkmate"),
        "{body}"
    );
    assert_eq!(body["result"], "0-1", "{body}");
}

#[tokio::test]
async fn bad_requests_name_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    for (body, status, expected) in [
        (json!({}), StatusCode::BAD_REQUEST, "give game"),
        (
            json!({"game": "go"}),
            StatusCode::BAD_REQUEST,
            "unknown game",
        ),
        (
            json!({"game": "chess", "variant": "atomic"}),
            StatusCode::BAD_REQUEST,
            "unknown variant",
        ),
        (
            json!({"game": "chess", "position": "8/8/8/8/8/8/8/8 w - - 0 1"}),
            StatusCode::BAD_REQUEST,
            "king",
        ),
        (
            json!({"game": "chess", "moves": ["e2e4", "e2e4"]}),
            StatusCode::BAD_REQUEST,
            "move 2: move \"e2e4\"",
        ),
        (
            json!({"game": "chess", "movetime_ms": 60000}),
            StatusCode::BAD_REQUEST,
            "movetime_ms 60000: expected 50 to 5000",
        ),
        (
            json!({"game": "chess", "multipv": 9}),
            StatusCode::BAD_REQUEST,
            "multipv 9: expected 1 to 5",
        ),
        (
            json!({"game": "chess", "game_id": "abc"}),
            StatusCode::BAD_REQUEST,
            "not both",
        ),
        (
            json!({"game": "chess", "ply": 3}),
            StatusCode::BAD_REQUEST,
            "ply goes with game_id",
        ),
        (json!({"game_id": "nope"}), StatusCode::NOT_FOUND, "no game"),
        (
            json!({"game": "chess", "depth": 3}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "depth",
        ),
    ] {
        let (got, answer) = analyse(&app, body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(expected), "{body}: {answer}");
    }
    // A refused move carries its rule's code, as a move in a game does.
    let (_, answer) = analyse(&app, json!({"game": "chess", "moves": ["e2e5"]})).await;
    assert_eq!(answer["code"], "piece_cannot_move_so", "{answer}");
    assert_eq!(answer["params"]["piece"], "pawn", "{answer}");
}

#[tokio::test]
async fn a_game_between_people_is_analysed_by_its_players_only_once_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "chess").await;
    let (white, black) = (game.token("white"), game.token("black"));
    play(&app, &game.id, &white, "f3").await;
    // Its players get no engine while it goes on (their page sends their seat's token)...
    for token in [&white, &black] {
        let (status, body) = call(
            &app,
            "POST",
            "/api/analyse",
            Some(token),
            Some(json!({"game_id": game.id, "movetime_ms": 50})),
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["code"], "analysis_of_game_in_progress");
    }
    // ...onlookers may analyse it.
    let (status, body) = analyse(&app, json!({"game_id": game.id, "movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    for (token, mv) in [(&black, "e5"), (&white, "g4"), (&black, "Qh4#")] {
        play(&app, &game.id, token, mv).await;
    }
    // Finished: any ply of it, the position before the mate finds the mate.
    let (status, body) = analyse(
        &app,
        json!({"game_id": game.id, "ply": 3, "movetime_ms": 100}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["lines"][0]["pv_notation"][0], "Qh4#", "{body}");
    let (status, body) = analyse(&app, json!({"game_id": game.id, "ply": 5})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("has 4 plies"),
        "{body}"
    );

    // A game against the computer may be analysed while it goes on.
    let (status, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "chess", "players": {"white": {"name": "ann"}, "black": {"computer": 1}}})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, body) = analyse(&app, json!({"game_id": created["id"], "movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn analyses_beyond_the_quota_answer_429() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let store = Store::open(&url).await.unwrap();
    let app = tablero_server::app(AppState::with_options(
        store,
        ServerOptions {
            engine_threads: 1,
            rate_limits: RateLimits {
                analyses: Some(RateLimit::per_minute(2)),
                ..RateLimits::off()
            },
            ..ServerOptions::default()
        },
    ));
    let body = json!({"game": "draughts", "movetime_ms": 50});
    for _ in 0..2 {
        let (status, answer) = analyse(&app, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (status, answer) = analyse(&app, body).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert_eq!(answer["code"], "rate_limited");
    assert!(
        answer["error"].as_str().unwrap().contains("analyses"),
        "{answer}"
    );
}

#[tokio::test]
async fn positions_show_the_board_moves_and_result_without_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let (status, body) = call(
        &app,
        "POST",
        "/api/positions",
        None,
        Some(json!({"game": "chess", "moves": ["e4", "e7e5"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["turn"], "white");
    assert_eq!(body["moves"][0], json!({"move": "e2e4", "notation": "e4"}));
    assert_eq!(body["moves"][1]["notation"], "e5");
    assert_eq!(body["board"]["pieces"].as_array().unwrap().len(), 32);
    assert_eq!(body["legal_moves"].as_array().unwrap().len(), 29);
    assert_eq!(body["last_move"]["move"], "e7e5");
    assert_eq!(body["outcome"], Value::Null);

    // A game in progress between people is shown (no engine is asked), at any ply.
    let game = hotseat(&app, "xiangqi").await;
    play(&app, &game.id, &game.token("red"), "h2e2").await;
    let (status, body) = call(
        &app,
        "POST",
        "/api/positions",
        None,
        Some(json!({"game_id": game.id, "ply": 0})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["turn"], "red");
    assert_eq!(body["last_move"], Value::Null);

    // The rules' end is reported with the game's side names; no legal moves.
    let (_, body) = call(
        &app,
        "POST",
        "/api/positions",
        None,
        Some(json!({"game": "chess", "moves": ["f3", "e5", "g4", "Qh4#"]})),
    )
    .await;
    assert_eq!(body["outcome"]["text"], "black wins by checkmate", "{body}");
    assert_eq!(body["legal_moves"], json!([]));
    let (status, body) = call(
        &app,
        "POST",
        "/api/positions",
        None,
        Some(json!({"game": "chess", "moves": ["e5"]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["code"].is_string(), "{body}");
}

#[tokio::test]
async fn a_board_set_up_piece_by_piece_is_read_and_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // Kings on e1 and e8, a white rook on a1; Black to move.
    let pieces = json!([
        {"at": [0, 4, 0], "side": "white", "kind": "k"},
        {"at": [0, 0, 0], "side": "white", "kind": "r"},
        {"at": [0, 4, 7], "side": "black", "kind": "k"},
    ]);
    let body = json!({"game": "chess", "pieces": pieces, "turn": "black"});
    let (status, view) = call(&app, "POST", "/api/positions", None, Some(body.clone())).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["start_position"], "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1");
    assert_eq!(view["turn"], "black");
    let mut analysed = body;
    analysed["movetime_ms"] = json!(100);
    let (status, answer) = analyse(&app, analysed).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["turn"], "black");

    // Draughts by spots: a white king on square 29 and a black man on square 1 of
    // English draughts, found by their names on the start board.
    let (_, start) = call(
        &app,
        "POST",
        "/api/positions",
        None,
        Some(json!({"game": "draughts"})),
    )
    .await;
    let spot_named = |name: &str| {
        let names = &start["board"]["names"][0];
        (0..8)
            .flat_map(|y| (0..8).map(move |x| (x, y)))
            .find(|&(x, y)| names[y][x] == name)
            .map(|(x, y)| json!([0, x, y]))
            .unwrap()
    };
    let body = json!({"game": "draughts", "pieces": [
        {"at": spot_named("29"), "side": "white", "kind": "k"},
        {"at": spot_named("1"), "side": "black", "kind": "m"},
    ], "turn": "white"});
    let (status, view) = call(&app, "POST", "/api/positions", None, Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["start_position"], "W:WK29:B1");

    for (body, expected) in [
        (
            json!({"game": "chess", "pieces": [{"at": [0, 4, 0], "side": "white", "kind": "k"}]}),
            "king",
        ),
        (
            json!({"game": "chess", "pieces": [], "position": "8/8/8/8/8/8/8/8 w - - 0 1"}),
            "position or pieces",
        ),
        (
            json!({"game": "chess", "turn": "black"}),
            "turn goes with pieces",
        ),
        (
            json!({"game": "xiangqi", "pieces": [{"at": [0, 4, 0], "side": "white", "kind": "k"}]}),
            "side \"white\": expected red or black",
        ),
        (
            json!({"game": "chess", "pieces": [{"at": [0, 4, 9], "side": "white", "kind": "k"}]}),
            "off the board",
        ),
        (
            json!({"game": "chess", "pieces": [{"at": [0, 4, 255], "side": "white", "kind": "k"}]}),
            "off the board",
        ),
        (
            json!({"game": "chess", "pieces": [{"at": [3, 4, 0], "side": "white", "kind": "k"}]}),
            "off the",
        ),
        (
            json!({"game": "chess", "pieces": [{"at": [0, 4, 0], "side": "white", "kind": "king"}]}),
            "expected one letter",
        ),
    ] {
        let (status, answer) = call(&app, "POST", "/api/positions", None, Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(expected),
            "{body}: {answer}"
        );
    }
}
