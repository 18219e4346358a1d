//! The HTTP API through `app()` without a socket: games of every kind, seats and
//! tokens, takebacks, draws, clocks, import/export and every kind of bad input.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::*;
use serde_json::{Value, json};

#[tokio::test]
async fn health_catalog_and_openapi() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let (status, body) = call(&app, "GET", "/api/health", None, None).await;
    assert_eq!(
        (status, body),
        (StatusCode::OK, json!({"status": "ok", "store": "writable"}))
    );

    let (_, catalog) = call(&app, "GET", "/api/catalog", None, None).await;
    let games: Vec<&str> = catalog["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["chess", "xiangqi", "draughts", "chess3d"]);
    assert_eq!(catalog["games"][1]["sides"], json!(["red", "black"]));
    assert_eq!(catalog["games"][2]["variants"].as_array().unwrap().len(), 6);

    // Every documented path is routed: an unknown id gives "no game", never "no route".
    let (status, doc) = call(&app, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 17, "{} paths", paths.len());
    for (path, item) in paths {
        for method in item.as_object().unwrap().keys() {
            let uri = path.replace("{id}", "nosuchgame");
            let (status, body) = call(&app, &method.to_uppercase(), &uri, None, None).await;
            assert_ne!(body["code"], "route_not_found", "{method} {path}");
            assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        }
    }
}

#[tokio::test]
async fn a_chess_game_to_mate_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "chess").await;
    let (white, black) = (game.token("white"), game.token("black"));
    assert_eq!(game.body["state"]["legal"].as_array().unwrap().len(), 20);
    assert_eq!(game.body["invite"], Value::Null);
    for (token, mv) in [
        (&white, "f2f3"),
        (&black, "e5"),
        (&white, "g2g4"),
        (&black, "Qh4#"),
    ] {
        let (status, body) = play(&app, &game.id, token, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {body}");
    }
    let s = state(&app, &game.id).await;
    assert_eq!(moves(&s), ["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(s["moves"][3]["notation"], "Qh4#");
    assert_eq!(s["status"], "finished");
    assert_eq!(
        s["outcome"],
        json!({"winner": "black", "reason": "checkmate", "result": "0-1", "text": "black wins by checkmate"})
    );
    assert_eq!(s["legal"], json!([]));

    // After the end: 409, nothing stored.
    let (status, body) = play(&app, &game.id, &white, "a2a3").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["error"].as_str().unwrap().contains("over"), "{body}");

    let (status, pgn) = call(
        &app,
        "GET",
        &format!("/api/games/{}/export", game.id),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn.as_str().unwrap();
    assert!(
        pgn.contains("[White \"ana\"]") && pgn.contains("[Black \"bo\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("2. g4 Qh4# 0-1"), "{pgn}");

    // The players' counts were updated with the result.
    let (_, players) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(players["players"][0]["name"], "ana");
    assert_eq!(
        players["players"][0]["stats"]["chess"],
        json!({"won": 0, "lost": 1, "drawn": 0})
    );
    assert_eq!(
        players["players"][1]["stats"]["chess"],
        json!({"won": 1, "lost": 0, "drawn": 0})
    );

    let (_, list) = call(&app, "GET", "/api/games?status=finished", None, None).await;
    assert_eq!(list["games"][0]["id"], game.id);
    assert_eq!(list["games"][0]["plies"], 4);
    assert_eq!(list["games"][0]["reason"], "checkmate");
    assert_eq!(list["games"][0]["turn"], Value::Null, "a finished game");

    // Filters: by game, and a browser's own games by their ids.
    let other = hotseat(&app, "xiangqi").await;
    let (_, list) = call(&app, "GET", "/api/games?game=xiangqi", None, None).await;
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [other.id.as_str()]);
    let uri = format!("/api/games?ids={},nosuchgame", game.id);
    let (_, list) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["games"][0]["id"], game.id);
    let (status, _) = play(&app, &other.id, &other.token("red"), "h2e2").await;
    assert_eq!(status, StatusCode::OK);
    let uri = format!("/api/games?ids={}", other.id);
    let (_, list) = call(&app, "GET", &uri, None, None).await;
    assert_eq!(list["games"][0]["turn"], "black", "{list}");
    let (status, body) = call(&app, "GET", "/api/games?game=go", None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "unknown_game");
    let many = vec!["x"; 201].join(",");
    let (status, body) = call(&app, "GET", &format!("/api/games?ids={many}"), None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn tokens_turns_and_seats() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "chess").await;
    let (white, black) = (game.token("white"), game.token("black"));

    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/games/{}/moves", game.id),
        None,
        Some(json!({"move": "e2e4"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert!(body["error"].as_str().unwrap().contains("token"));
    let (status, _) = play(&app, &game.id, "0123456789abcdef0123456789abcdef", "e2e4").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let other = hotseat(&app, "chess").await;
    let (status, _) = play(&app, &game.id, &other.token("white"), "e2e4").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a token of another game");

    // Black's token tries to move white's pawn: 403; black's own move out of turn: 409.
    let (status, body) = play(&app, &game.id, &black, "e2e4").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, body) = play(&app, &game.id, &black, "e7e5").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("not your turn"),
        "{body}"
    );

    for bad in ["e2e5", "zz", "", "Ke2", "e2e4e4"] {
        let (status, body) = play(&app, &game.id, &white, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad:?}: {body}");
        assert!(body["error"].is_string());
    }
    assert_eq!(
        moves(&state(&app, &game.id).await),
        Vec::<String>::new(),
        "nothing stored"
    );

    // An online game: the creator holds one seat, the invitation the other.
    let online = create(
        &app,
        json!({"game": "xiangqi", "mode": "online", "side": "black",
               "players": {"red": {"name": "li"}, "black": {"name": "wang"}}}),
    )
    .await;
    let seats = online.body["seats"].as_object().unwrap();
    assert_eq!(seats.keys().collect::<Vec<_>>(), ["black"]);
    let invite = &online.body["invite"];
    assert_eq!(invite["side"], "red");
    let red = invite["token"].as_str().unwrap();
    assert!(invite["path"].as_str().unwrap().contains(&online.id));
    let (status, body) = play(&app, &online.id, red, "h2e2").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["moves"][0]["notation"], "C2.5");
    assert_eq!(body["turn"], "black");
}

#[tokio::test]
async fn bad_requests_name_the_problem_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let bad_creates = [
        (json!({"game": "go"}), "unknown game"),
        (
            json!({"game": "chess", "variant": "atomic"}),
            "unknown variant",
        ),
        (
            json!({"game": "chess", "position": "8/8/8 w - - 0 1"}),
            "bad position",
        ),
        (
            json!({"game": "draughts", "variant": "english", "position": "W:W33:B1"}),
            "bad position",
        ),
        (
            json!({"game": "chess", "players": {"red": {"name": "a"}}}),
            "unknown side",
        ),
        (
            json!({"game": "chess", "players": {"white": {"computer": 11}}}),
            "level 11",
        ),
        (
            json!({"game": "chess", "players": {"white": {"name": "a b"}}}),
            "player name",
        ),
        (
            json!({"game": "chess", "players": {"white": {"name": "a", "computer": 3}}}),
            "not both",
        ),
        (
            json!({"game": "chess", "mode": "tournament"}),
            "mode: unknown variant `tournament`, expected one of `hotseat`, `computer`, `online`",
        ),
        (
            json!({"game": "chess", "clock": {"initial_ms": 5}}),
            "initial_ms",
        ),
        (
            json!({"game": "chess", "clock": {"initial_ms": 60000, "kind": "game"}}),
            "chess3d",
        ),
        (
            json!({"game": "chess", "clock": {"initial_ms": 60000, "kind": "hourglass"}}),
            "clock.kind: unknown variant `hourglass`, expected `fischer` or `game`",
        ),
        (json!({"game": "chess", "colour": "white"}), "unknown field"),
        (json!({"variant": "standard"}), "missing field"),
    ];
    for (request, expected) in bad_creates {
        let (status, body) = call(&app, "POST", "/api/games", None, Some(request.clone())).await;
        assert_eq!(status.as_u16() / 100, 4, "{request}: {status} {body}");
        let message = body["error"].as_str().unwrap_or_default();
        assert!(
            message.contains(expected),
            "{request}: {message:?} lacks {expected:?}"
        );
        if expected == "unknown game" {
            assert_eq!(body["code"], "unknown_game", "{body}");
            assert_eq!(body["params"], json!({"game": "go"}), "{body}");
        }
    }
    let malformed = Request::post("/api/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"game\": "))
        .unwrap();
    let (status, body) = raw(&app, malformed).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body["error"].as_str().unwrap().contains("malformed JSON"),
        "{body}"
    );
    let no_type = Request::post("/api/games").body(Body::from("{}")).unwrap();
    let (status, body) = raw(&app, no_type).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
    assert!(body["error"].is_string());
    let huge = json!({"game": "chess", "position": "x".repeat(100_000)});
    let (status, body) = call(&app, "POST", "/api/games", None, Some(huge)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert!(body["error"].is_string());

    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    assert_eq!(list["games"], json!([]), "no refused request stored a game");

    let (status, body) = call(&app, "GET", "/api/games/doesNotExist", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("doesNotExist"));
    assert_eq!(body["code"], "game_not_found");
    assert_eq!(body["params"], json!({"id": "doesNotExist"}));
    let (status, _) = call(&app, "GET", "/api/games/..%2F..%2Fetc", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // An unknown API route: `web.rs` (pages_files_and_the_api_fallback).
    let (status, body) = call(&app, "DELETE", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(body["error"].is_string());
    let (status, body) = call(&app, "GET", "/api/games?status=lost", None, None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    let game = hotseat(&app, "chess").await;
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/games/{}/moves", game.id),
        Some(&game.token("white")),
        Some(json!({"mov": "e2e4"})),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("mov"), "{body}");
}

#[tokio::test]
async fn every_game_kind_plays_and_round_trips_through_export_and_import() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let cases = [
        ("chess", "standard", vec!["e2e4", "c7c5", "g1f3"]),
        ("chess", "chess960", vec![]),
        ("xiangqi", "standard", vec!["h2e2", "h9g7", "h0g2"]),
        ("draughts", "english", vec!["11-15", "23-19", "8-11"]),
        ("draughts", "international", vec!["32-28", "19-23", "28x19"]),
        ("draughts", "russian", vec!["c3-d4"]),
        ("chess3d", "standard", vec![]),
    ];
    for (kind, variant, given) in cases {
        let first = if kind == "xiangqi" { "red" } else { "white" };
        let mut body = json!({"game": kind, "variant": variant,
                              "players": {first: {"name": "ana"}, "black": {"name": "bo"}}});
        if variant == "chess960" {
            // A fixed start: from start 75 the first legal moves end in mate on the
            // sixth ply (…Nxb2#), so a finished game round-trips too (a random start
            // did so one time in sixty and failed the test).
            body["chess960"] = json!(75);
        }
        let game = create(&app, body).await;
        let mut s = game.body["state"].clone();
        assert_eq!(s["variant"], variant);
        // The given moves, then legal ones from the state, for both sides.
        for i in 0..6 {
            let mv = given.get(i).map_or_else(
                || s["legal"][0].as_str().unwrap().to_owned(),
                |m| (*m).to_owned(),
            );
            let side = s["turn"].as_str().unwrap();
            let token = game.token(side);
            let (status, body) = play(&app, &game.id, &token, &mv).await;
            assert_eq!(status, StatusCode::OK, "{kind} {variant} {mv}: {body}");
            s = body;
        }
        let (_, text) = call(
            &app,
            "GET",
            &format!("/api/games/{}/export", game.id),
            None,
            None,
        )
        .await;
        let text = text.as_str().unwrap().to_owned();
        let (status, imported) = call(
            &app,
            "POST",
            "/api/games/import",
            None,
            Some(json!({"game": kind, "variant": variant, "text": text})),
        )
        .await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "{kind} {variant}: {imported}\n{text}"
        );
        let again = &imported["state"];
        assert_eq!(again["position"], s["position"], "{kind} {variant}");
        assert_eq!(again["moves"], s["moves"], "{kind} {variant}");
        let status = if variant == "chess960" {
            "finished"
        } else {
            "playing"
        };
        assert_eq!(s["status"], status, "{kind} {variant}");
        assert_eq!(again["status"], status, "{kind} {variant}");
        assert_eq!(again["outcome"], s["outcome"], "{kind} {variant}");
        assert_eq!(
            again["players"], s["players"],
            "names come from the file's tags"
        );
        if kind == "chess3d" {
            assert_eq!(again["seed"], s["seed"]);
        }
    }
    let (status, body) = call(
        &app,
        "POST",
        "/api/games/import",
        None,
        Some(json!({"game": "chess", "text": "1. e4 e5 2. Ke3 *"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Ke3"), "{body}");
}

async fn action(app: &axum::Router, id: &str, token: &str, what: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/{what}"),
        Some(token),
        None,
    )
    .await
}

#[tokio::test]
async fn takebacks_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;

    // Hot-seat: at once, one move.
    let game = hotseat(&app, "chess").await;
    let (w, b) = (game.token("white"), game.token("black"));
    let (status, _) = action(&app, &game.id, &w, "takeback").await;
    assert_eq!(status, StatusCode::CONFLICT, "nothing to take back");
    play(&app, &game.id, &w, "e4").await;
    play(&app, &game.id, &b, "e5").await;
    let (status, s) = action(&app, &game.id, &b, "takeback").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(moves(&s), ["e2e4"]);
    assert_eq!(s["turn"], "black");
    assert_eq!(moves(&state(&app, &game.id).await), ["e2e4"]);

    // Online: a request, declined, then accepted; the requester's move goes.
    let online = create(
        &app,
        json!({"game": "draughts", "variant": "international", "mode": "online"}),
    )
    .await;
    let w = online.token("white");
    let b = online.body["invite"]["token"].as_str().unwrap().to_owned();
    play(&app, &online.id, &w, "32-28").await;
    play(&app, &online.id, &b, "19-23").await;
    let (status, s) = action(&app, &online.id, &w, "takeback").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["takeback_request"], "white");
    assert_eq!(moves(&s).len(), 2, "only a request");
    let (status, _) = action(&app, &online.id, &w, "takeback/accept").await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "one cannot accept one's own request"
    );
    let (_, s) = action(&app, &online.id, &b, "takeback/decline").await;
    assert_eq!(s["takeback_request"], Value::Null);
    action(&app, &online.id, &w, "takeback").await;
    let (status, s) = action(&app, &online.id, &b, "takeback/accept").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        moves(&s),
        Vec::<String>::new(),
        "white's move and black's answer go"
    );
    assert_eq!(s["turn"], "white");

    // Against the computer: the person's last move and the computer's answer go.
    let vs = create(
        &app,
        json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"computer": 1}}}),
    )
    .await;
    let w = vs.token("white");
    play(&app, &vs.id, &w, "d4").await;
    wait_for(&app, &vs.id, Duration::from_secs(20), |s| {
        moves(s).len() == 2
    })
    .await;
    let (status, s) = action(&app, &vs.id, &w, "takeback").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(moves(&s), Vec::<String>::new());
    assert_eq!(s["turn"], "white");
}

#[tokio::test]
async fn a_computer_game_goes_on_by_itself() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // The computer moves first in xiangqi as red, and answers each move.
    let game = create(
        &app,
        json!({"game": "xiangqi", "players": {"red": {"computer": 2}, "black": {"name": "li"}}}),
    )
    .await;
    assert_eq!(game.body["seats"].as_object().unwrap().len(), 1);
    let black = game.token("black");
    for ply in [1, 3, 5] {
        let s = wait_for(&app, &game.id, Duration::from_secs(20), |s| {
            moves(s).len() == ply
        })
        .await;
        assert_eq!(s["turn"], "black");
        let mv = s["legal"][0].as_str().unwrap().to_owned();
        let (status, body) = play(&app, &game.id, &black, &mv).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    // Computer against computer plays to the end.
    let cc = create(
        &app,
        json!({"game": "draughts", "players": {"white": {"computer": 1}, "black": {"computer": 1}}}),
    )
    .await;
    assert_eq!(cc.body["seats"], json!({}));
    let s = wait_for(&app, &cc.id, Duration::from_secs(120), |s| {
        s["status"] == "finished"
    })
    .await;
    assert!(s["outcome"]["reason"].is_string(), "{s}");
}

#[tokio::test]
async fn draws_resignation_and_claims() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let game = hotseat(&app, "chess").await;
    let (w, b) = (game.token("white"), game.token("black"));
    let (status, _) = action(&app, &game.id, &b, "draw/accept").await;
    assert_eq!(status, StatusCode::CONFLICT, "no offer to accept");
    let (_, s) = action(&app, &game.id, &w, "draw/offer").await;
    assert_eq!(s["draw_offer"], "white");
    let (_, s) = action(&app, &game.id, &b, "draw/decline").await;
    assert_eq!(s["draw_offer"], Value::Null);
    action(&app, &game.id, &w, "draw/offer").await;
    let (status, s) = action(&app, &game.id, &b, "draw/accept").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["outcome"]["reason"], "agreement");
    assert_eq!(s["outcome"]["result"], "1/2-1/2");

    let game = hotseat(&app, "xiangqi").await;
    let (status, s) = action(&app, &game.id, &game.token("black"), "resign").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["outcome"]["winner"], "red");
    assert_eq!(s["outcome"]["text"], "red wins by resignation");
    let (status, _) = action(&app, &game.id, &game.token("red"), "resign").await;
    assert_eq!(status, StatusCode::CONFLICT);

    // Threefold repetition is claimed by the side to move, not automatic.
    let game = hotseat(&app, "chess").await;
    let (w, b) = (game.token("white"), game.token("black"));
    let (status, _) = action(&app, &game.id, &w, "draw/claim").await;
    assert_eq!(status, StatusCode::CONFLICT);
    for _ in 0..2 {
        for (t, m) in [(&w, "Nf3"), (&b, "Nf6"), (&w, "Ng1"), (&b, "Ng8")] {
            let (status, body) = play(&app, &game.id, t, m).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
    }
    let s = state(&app, &game.id).await;
    assert_eq!(s["claimable_draw"], "threefold_repetition");
    let (status, _) = action(&app, &game.id, &b, "draw/claim").await;
    assert_eq!(status, StatusCode::CONFLICT, "not black's turn");
    let (status, s) = action(&app, &game.id, &w, "draw/claim").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["outcome"]["reason"], "threefold_repetition");
}

#[tokio::test]
async fn clocks_run_out() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // The clock starts with the first move; then white's second move never comes.
    let game = create(
        &app,
        json!({"game": "chess", "clock": {"initial_ms": 1000, "increment_ms": 0}}),
    )
    .await;
    let (w, b) = (game.token("white"), game.token("black"));
    assert_eq!(game.body["state"]["clock"]["running"], Value::Null);
    play(&app, &game.id, &w, "e4").await;
    let (_, s) = play(&app, &game.id, &b, "e5").await;
    assert_eq!(s["clock"]["running"], "white");
    let s = wait_for(&app, &game.id, Duration::from_secs(5), |s| {
        s["status"] == "finished"
    })
    .await;
    assert_eq!(s["outcome"]["reason"], "timeout");
    assert_eq!(s["outcome"]["winner"], "black");
    assert_eq!(s["clock"]["remaining_ms"]["white"], 0);
    let (status, _) = play(&app, &game.id, &w, "d4").await;
    assert_eq!(status, StatusCode::CONFLICT);

    // A flag against a lone king is a draw (FIDE 6.9).
    let game = create(
        &app,
        json!({"game": "chess", "position": "4k3/8/8/8/8/8/8/4K2Q w - - 0 1",
               "clock": {"initial_ms": 1000}}),
    )
    .await;
    play(&app, &game.id, &game.token("white"), "Qh2").await;
    play(&app, &game.id, &game.token("black"), "Kd7").await;
    let s = wait_for(&app, &game.id, Duration::from_secs(5), |s| {
        s["status"] == "finished"
    })
    .await;
    assert_eq!(s["outcome"]["reason"], "timeout_insufficient_material");
    assert_eq!(s["outcome"]["winner"], Value::Null);

    // Chess3d's timed mode: one clock for the game, then the pieces are counted.
    let game = create(
        &app,
        json!({"game": "chess3d", "clock": {"kind": "game", "initial_ms": 1000}}),
    )
    .await;
    let s = &game.body["state"];
    let first = s["turn"].as_str().unwrap().to_owned();
    let mv = s["legal"][0].as_str().unwrap().to_owned();
    let (status, s) = play(&app, &game.id, &game.token(&first), &mv).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["clock"]["kind"], "game");
    let s = wait_for(&app, &game.id, Duration::from_secs(5), |s| {
        s["status"] == "finished"
    })
    .await;
    assert_eq!(s["outcome"]["reason"], "piece_count", "{s}");
}

#[tokio::test]
async fn two_moves_at_once_one_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    for _ in 0..10 {
        let game = hotseat(&app, "chess").await;
        let w = game.token("white");
        let (a, b) = tokio::join!(
            play(&app, &game.id, &w, "e2e4"),
            play(&app, &game.id, &w, "d2d4")
        );
        let accepted = [a.0, b.0].iter().filter(|s| **s == StatusCode::OK).count();
        assert_eq!(accepted, 1, "{a:?} {b:?}");
        assert!([a.0, b.0].contains(&StatusCode::CONFLICT));
        assert_eq!(moves(&state(&app, &game.id).await).len(), 1);
    }
}

#[tokio::test]
async fn a_draw_offer_while_the_computer_thinks_does_not_stop_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // Level 10 without a clock thinks for about two seconds: long enough to offer.
    let game = create(
        &app,
        json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"computer": 10}}}),
    )
    .await;
    let w = game.token("white");
    play(&app, &game.id, &w, "e4").await;
    let (status, s) = action(&app, &game.id, &w, "draw/offer").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (s["draw_offer"].as_str(), moves(&s).len()),
        (Some("white"), 1)
    );
    let s = wait_for(&app, &game.id, Duration::from_secs(30), |s| {
        moves(s).len() == 2
    })
    .await;
    assert_eq!(s["turn"], "white");
    assert_eq!(
        s["draw_offer"],
        Value::Null,
        "the computer's move declines the offer"
    );
}

#[tokio::test]
async fn the_computer_accepts_a_standing_draw_offer_when_it_stands_worse() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // A lone king against queen and king: the computer (Black) takes the draw when
    // it comes to move (tablero_games::accepts_draw, as in `tablero play`).
    let game = create(
        &app,
        json!({"game": "chess", "position": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
               "players": {"white": {"name": "ana"}, "black": {"computer": 1}}}),
    )
    .await;
    let w = game.token("white");
    let (status, _) = action(&app, &game.id, &w, "draw/offer").await;
    assert_eq!(status, StatusCode::OK);
    play(&app, &game.id, &w, "d1d2").await;
    let s = wait_for(&app, &game.id, Duration::from_secs(30), |s| {
        s["status"] == "finished"
    })
    .await;
    assert_eq!(s["outcome"]["reason"], "agreement", "{s}");
    assert_eq!(moves(&s).len(), 1, "it answered instead of moving");
}

#[tokio::test]
async fn chess960_games_start_from_one_of_the_960() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let mut starts = std::collections::BTreeSet::new();
    for _ in 0..8 {
        let game = create(&app, json!({"game": "chess", "variant": "chess960"})).await;
        let state = &game.body["state"];
        let number = state["chess960_start"].as_u64().expect("a start number");
        assert!(number < 960);
        let expected =
            tablero_games::AnyPosition::chess960(u32::try_from(number).unwrap()).unwrap();
        assert_eq!(state["start_position"], expected.position_text());
        starts.insert(number);
    }
    assert!(starts.len() > 1, "eight games, one start: {starts:?}");
    // A chosen start, shown with the game and kept after a reload.
    let game = create(
        &app,
        json!({"game": "chess", "variant": "chess960", "chess960": 7}),
    )
    .await;
    assert_eq!(game.body["state"]["chess960_start"], 7);
    let (_, state) = call(&app, "GET", &format!("/api/games/{}", game.id), None, None).await;
    assert_eq!(state["chess960_start"], 7);
    assert!(
        state["start_position"]
            .as_str()
            .unwrap()
            .starts_with("qnbnrkrb/"),
        "{state}"
    );
    for bad in [
        json!({"game": "chess", "variant": "chess960", "chess960": 960}),
        json!({"game": "xiangqi", "chess960": 3}),
        json!({"game": "chess", "variant": "standard", "chess960": 3}),
    ] {
        let (status, body) = call(&app, "POST", "/api/games", None, Some(bad.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
    }
    // A standard game says nothing of it.
    let game = create(&app, json!({"game": "chess"})).await;
    assert!(game.body["state"].get("chess960_start").is_none());
}

#[tokio::test]
async fn an_imported_game_keeps_its_recorded_result() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let file = "[White \"ana\"]\n[Black \"bo\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n";
    let (status, body) = call(
        &app,
        "POST",
        "/api/games/import",
        None,
        Some(json!({"game": "chess", "text": file})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let state = &body["state"];
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["outcome"]["winner"], "white");
    assert_eq!(state["outcome"]["reason"], "recorded_result");
    let id = body["id"].as_str().unwrap();
    let (_, export) = call(&app, "GET", &format!("/api/games/{id}/export"), None, None).await;
    let export = export.as_str().unwrap_or_default();
    assert!(
        export.contains("[White \"ana\"]") && export.contains("1-0"),
        "{export}"
    );
    // The export is dated with the day the game was made, not "????.??.??".
    let date = export
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .expect("a Date tag");
    assert!(
        date.len() == 10 && date.matches('.').count() == 2 && !date.contains('?'),
        "{date}"
    );
    let (_, list) = call(&app, "GET", "/api/games?status=playing", None, None).await;
    assert_eq!(list["games"], json!([]));
}

/// An imported record keeps its facts: event, site, date and round, and its players
/// under the file's names even where the registry would not take them (a comma), in
/// the export, and after the server starts again.
#[tokio::test]
async fn an_imported_game_keeps_its_tags_through_export_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let file = "[Event \"World Championship\"]\n[Site \"Dubai UAE\"]\n[Date \"2021.12.03\"]\n\
                [Round \"6\"]\n[White \"Carlsen, Magnus\"]\n[Black \"Nepomniachtchi, Ian\"]\n\
                [Result \"1-0\"]\n\n1. d4 Nf6 2. Nf3 d5 1-0\n";
    let id = {
        let app = app_in(&dir).await;
        let (status, body) = call(
            &app,
            "POST",
            "/api/games/import",
            None,
            Some(json!({"game": "chess", "text": file})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body["id"].as_str().unwrap().to_owned()
    };
    // A new server over the same file.
    let app = app_in(&dir).await;
    let (status, export) = call(&app, "GET", &format!("/api/games/{id}/export"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let export = export.as_str().unwrap_or_default();
    for tag in [
        "[Event \"World Championship\"]",
        "[Site \"Dubai UAE\"]",
        "[Date \"2021.12.03\"]",
        "[Round \"6\"]",
        "[White \"Carlsen, Magnus\"]",
        "[Black \"Nepomniachtchi, Ian\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(export.contains(tag), "{tag} missing from\n{export}");
    }
    // A game made here has tablero's own event and today's date.
    let game = hotseat(&app, "chess").await;
    let (_, export) = call(
        &app,
        "GET",
        &format!("/api/games/{}/export", game.id),
        None,
        None,
    )
    .await;
    let export = export.as_str().unwrap_or_default();
    assert!(export.contains("[Event \"tablero game\"]"), "{export}");
    assert!(!export.contains("2021.12.03"), "{export}");
}

#[tokio::test]
async fn resigning_against_a_side_that_cannot_mate_is_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    // White has king and queen, black a bare king.
    let position = json!({"game": "chess", "position": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"});
    let game = create(&app, position.clone()).await;
    let (status, state) = action(&app, &game.id, &game.token("white"), "resign").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["outcome"]["winner"], Value::Null, "{state}");
    assert_eq!(
        state["outcome"]["reason"],
        "resignation_insufficient_material"
    );
    // The bare king resigning loses: the queen can mate.
    let game = create(&app, position).await;
    let (_, state) = action(&app, &game.id, &game.token("black"), "resign").await;
    assert_eq!(state["outcome"]["winner"], "white");
    assert_eq!(state["outcome"]["reason"], "resignation");
}

/// A refused move names its rule: `code` and `params` beside the English `error`, for
/// the cases in each game; other refusals carry stable codes too.
#[tokio::test]
async fn refusals_carry_their_rule_code_and_params() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(&dir).await;
    let cases = [
        (
            "draughts",
            "spanish",
            "W:W22,30:B18",
            "30-26",
            "capture_compulsory",
            json!({}),
        ),
        (
            "draughts",
            "international",
            "W:W28:B23,14,33",
            "28x39",
            "majority_capture",
            json!({"required": 2}),
        ),
        (
            "chess",
            "standard",
            "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1",
            "e1g1",
            "castling_through_check",
            json!({"square": "f1"}),
        ),
        (
            "chess",
            "standard",
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
            "Nc3",
            "pinned_piece",
            json!({"square": "e2"}),
        ),
        (
            "xiangqi",
            "standard",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "b0d1",
            "horse_leg_blocked",
            json!({"square": "c0"}),
        ),
        (
            "chess",
            "standard",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "e2e5",
            "piece_cannot_move_so",
            json!({"piece": "pawn", "from": "e2", "to": "e5"}),
        ),
    ];
    for (game, variant, position, mv, code, params) in cases {
        let first = if game == "xiangqi" { "red" } else { "white" };
        let created = create(
            &app,
            json!({"game": game, "variant": variant, "position": position,
                   "players": {first: {"name": "ana"}, "black": {"name": "bo"}}}),
        )
        .await;
        let (status, body) = play(&app, &created.id, &created.token(first), mv).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{game} {mv}: {body}");
        assert_eq!(body["code"], code, "{game} {mv}: {body}");
        assert_eq!(body["params"], params, "{game} {mv}: {body}");
        assert!(body["error"].as_str().unwrap().contains(mv), "{body}");
    }

    // Not your turn (409) and a malformed move (400) have codes too.
    let game = hotseat(&app, "chess").await;
    let (status, body) = play(&app, &game.id, &game.token("black"), "e7e5").await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "not_your_turn", "{body}");
    assert_eq!(body["params"], json!({"side": "black"}));
    let (status, body) = play(&app, &game.id, &game.token("white"), "e2e9").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["code"], "malformed_move", "{body}");
    let (status, body) = play(&app, &game.id, "0123456789abcdef0123456789abcdef", "e2e4").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "invalid_token", "{body}");
}

#[tokio::test]
async fn games_never_begun_are_deleted_once_idle() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let store = tablero_store::Store::open(&url).await.unwrap();
    let server = tablero_server::AppState::new(store, 1);
    let app = tablero_server::app(server.clone());
    let empty = hotseat(&app, "chess").await;
    let begun = hotseat(&app, "chess").await;
    play(&app, &begun.id, &begun.token("white"), "e4").await;
    // Loaded in memory too: the state is read before the sweep.
    assert_eq!(state(&app, &empty.id).await["moves"], json!([]));
    let idle_an_hour = std::time::Duration::from_secs(3600);
    assert_eq!(
        server.delete_abandoned_games(idle_an_hour).await.unwrap(),
        0
    );
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert_eq!(
        server
            .delete_abandoned_games(std::time::Duration::ZERO)
            .await
            .unwrap(),
        1
    );
    let (status, body) = call(&app, "GET", &format!("/api/games/{}", empty.id), None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = call(&app, "GET", &format!("/api/games/{}", begun.id), None, None).await;
    assert_eq!(status, StatusCode::OK);
}
