//! What keeps one client from changing what is not theirs or flooding the server:
//! the administrator token for players, rate limits, WebSocket origins and message
//! sizes, short error messages, compression, and the `Bearer` scheme in any case.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tablero_server::{AppState, RateLimit, RateLimits, ServerOptions};
use tablero_store::Store;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tower::ServiceExt;

async fn app_with(dir: &tempfile::TempDir, options: ServerOptions) -> axum::Router {
    let url = format!("sqlite://{}", dir.path().join("h.db").display());
    let store = Store::open(&url).await.expect("a temporary database opens");
    tablero_server::app(AppState::with_options(store, options))
}

fn quiet(options: ServerOptions) -> ServerOptions {
    ServerOptions {
        engine_threads: 1,
        rate_limits: RateLimits::off(),
        ..options
    }
}

#[tokio::test]
async fn players_change_only_with_the_administrator_token() {
    let dir = tempfile::tempdir().expect("a directory");
    let file = json!({"text": "alice_0_999;"});
    // No administrator set: changes are turned off.
    let app = app_with(&dir, quiet(ServerOptions::default())).await;
    let (status, body) = call(
        &app,
        "POST",
        "/api/players/import",
        Some("x"),
        Some(file.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["code"], "admin_disabled");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or_default()
            .contains("--admin-token")
    );
    let (status, _) = call(&app, "DELETE", "/api/players/alice", None, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(
        &dir,
        quiet(ServerOptions {
            admin_token: Some("s3cret".to_owned()),
            ..ServerOptions::default()
        }),
    )
    .await;
    let (status, body) = call(
        &app,
        "POST",
        "/api/players/import",
        None,
        Some(file.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body["code"], "admin_token_required");
    let (status, body) = call(
        &app,
        "POST",
        "/api/players/import",
        Some("guess"),
        Some(file.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["code"], "admin_token_invalid");
    let (_, players) = call(&app, "GET", "/api/players", None, None).await;
    assert_eq!(players["players"], json!([]), "nothing was imported");
    let (status, body) = call(
        &app,
        "POST",
        "/api/players/import",
        Some("s3cret"),
        Some(file),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = call(&app, "DELETE", "/api/players/alice", Some("guess"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(&app, "DELETE", "/api/players/alice", Some("s3cret"), None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn creating_beyond_the_limit_answers_429_with_retry_after() {
    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(
        &dir,
        ServerOptions {
            engine_threads: 1,
            rate_limits: RateLimits {
                creates: Some(RateLimit::per_minute(3)),
                moves: Some(RateLimit::per_minute(2)),
                imports: None,
                analyses: None,
            },
            ..ServerOptions::default()
        },
    )
    .await;
    let mut created = Vec::new();
    for _ in 0..3 {
        created.push(create(&app, json!({"game": "chess"})).await);
    }
    let request = Request::post("/api/games")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"game":"chess"}"#))
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = response.headers()[header::RETRY_AFTER]
        .to_str()
        .expect("text")
        .parse()
        .expect("seconds");
    assert!((1..=60).contains(&wait), "Retry-After: {wait}");
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    assert_eq!(
        list["games"].as_array().map(Vec::len),
        Some(3),
        "the fourth was not created"
    );

    // Moves share one quota across games and routes.
    let game = &created[0];
    let (status, _) = play(&app, &game.id, &game.token("white"), "e4").await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = play(&app, &game.id, &game.token("black"), "e5").await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = call(
        &app,
        "POST",
        &format!("/api/games/{}/resign", game.id),
        Some(&game.token("white")),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(
        body["error"].as_str().unwrap_or_default().contains("2/min"),
        "{body}"
    );
    let (_, state) = call(&app, "GET", &format!("/api/games/{}", game.id), None, None).await;
    assert_eq!(
        state["status"], "playing",
        "the refused resignation changed nothing"
    );
}

#[tokio::test]
async fn errors_quote_little_of_a_huge_input_and_bearer_is_any_case() {
    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(&dir, quiet(ServerOptions::default())).await;
    let game = create(&app, json!({"game": "chess"})).await;
    let huge = "e".repeat(60_000);
    let (status, body) = play(&app, &game.id, &game.token("white"), &huge).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let error = body["error"].as_str().expect("an error");
    assert!(
        error.len() < 400,
        "{} bytes: {}",
        error.len(),
        &error[..200]
    );
    assert!(error.contains("eeee"), "it still names the input: {error}");

    for scheme in ["bearer", "BEARER", "Bearer"] {
        let request = Request::get(format!("/api/games/{}", game.id))
            .header(
                header::AUTHORIZATION,
                format!("{scheme} {}", game.token("white")),
            )
            .body(Body::empty())
            .expect("a request");
        let (status, _) = raw(&app, request).await;
        assert_eq!(status, StatusCode::OK);
    }
    let request = Request::post(format!("/api/games/{}/moves", game.id))
        .header(
            header::AUTHORIZATION,
            format!("bearer {}", game.token("white")),
        )
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"move":"e4"}"#))
        .expect("a request");
    let (status, body) = raw(&app, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn pages_and_answers_are_compressed_when_asked() {
    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(&dir, quiet(ServerOptions::default())).await;
    for (accept, encoding) in [("gzip", "gzip"), ("br", "br"), ("br, gzip", "br")] {
        let request = Request::get("/js/game.js")
            .header(header::ACCEPT_ENCODING, accept)
            .body(Body::empty())
            .expect("a request");
        let response = app.clone().oneshot(request).await.expect("an answer");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_ENCODING], encoding);
    }
    let request = Request::get("/api/catalog")
        .header(header::ACCEPT_ENCODING, "gzip")
        .body(Body::empty())
        .expect("a request");
    let response = app.clone().oneshot(request).await.expect("an answer");
    assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
    let request = Request::get("/").body(Body::empty()).expect("a request");
    let response = app.oneshot(request).await.expect("an answer");
    assert!(
        response.headers().get(header::CONTENT_ENCODING).is_none(),
        "not asked for"
    );
    for name in [
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
    ] {
        assert!(response.headers().contains_key(name), "{name}");
    }
}

async fn serve(options: ServerOptions) -> (SocketAddr, tempfile::TempDir) {
    serve_with(quiet(options)).await
}

async fn serve_with(options: ServerOptions) -> (SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(&dir, options).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let addr = listener.local_addr().expect("an address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, dir)
}

async fn new_game(addr: SocketAddr) -> String {
    new_game_with_token(addr).await.0
}

/// A hot-seat chess game over HTTP: its id and white's token.
async fn new_game_with_token(addr: SocketAddr) -> (String, String) {
    let body = r#"{"game":"chess"}"#;
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    tokio::io::AsyncWriteExt::write_all(&mut stream, request.as_bytes())
        .await
        .expect("sends");
    let mut answer = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut stream, &mut answer)
        .await
        .expect("reads");
    let (_, json) = answer.split_once("\r\n\r\n").expect("a body");
    let created: serde_json::Value = serde_json::from_str(json).expect("JSON");
    (
        created["id"].as_str().expect("an id").to_owned(),
        created["seats"]["white"]
            .as_str()
            .expect("a token")
            .to_owned(),
    )
}

#[tokio::test]
async fn websockets_from_other_sites_are_refused_unless_allowed() {
    let (addr, _dir) = serve(ServerOptions {
        allowed_origins: vec!["https://friends.example".to_owned()],
        ..ServerOptions::default()
    })
    .await;
    let id = new_game(addr).await;
    let connect = |origin: Option<String>| {
        let mut request = format!("ws://{addr}/api/games/{id}/ws")
            .into_client_request()
            .expect("a request");
        if let Some(origin) = origin {
            request
                .headers_mut()
                .insert(header::ORIGIN, origin.parse().expect("a header"));
        }
        tokio_tungstenite::connect_async(request)
    };
    let refused = connect(Some("https://evil.example".to_owned())).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::FORBIDDEN);
        }
        other => panic!("expected 403, got {:?}", other.map(|_| ())),
    }
    for origin in [
        None,
        Some(format!("http://{addr}")),
        Some("https://friends.example".to_owned()),
    ] {
        let (mut socket, _) = connect(origin.clone())
            .await
            .unwrap_or_else(|e| panic!("{origin:?}: {e}"));
        let first = socket.next().await.expect("a state").expect("a message");
        assert!(first.is_text(), "{origin:?}");
    }
}

#[tokio::test]
async fn an_oversize_websocket_message_closes_with_1009() {
    let (addr, _dir) = serve(ServerOptions::default()).await;
    let id = new_game(addr).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
            .await
            .expect("connects");
    let _state = socket.next().await.expect("a state").expect("a message");
    let huge = json!({"move": "e".repeat(64 * 1024)}).to_string();
    socket.send(Message::text(huge)).await.expect("sent");
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(message) = socket.next().await {
            match message {
                Ok(Message::Close(frame)) => return frame.map(|f| f.code),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("the server closes the socket");
    assert_eq!(closed, Some(CloseCode::Size));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_persons_game_is_not_queued_behind_computer_only_games() {
    let dir = tempfile::tempdir().expect("a directory");
    let app = app_with(
        &dir,
        quiet(ServerOptions {
            engine_threads: 1,
            computer_game_threads: 1,
            max_computer_games: 8,
            ..ServerOptions::default()
        }),
    )
    .await;
    // Six level-10 games of the computer against itself on 60 s clocks: one worker
    // for all of them, so five always wait.
    let machines = json!({"white": {"computer": 10}, "black": {"computer": 10}});
    let mut computer_games = Vec::new();
    for _ in 0..6 {
        let game = create(
            &app,
            json!({"game": "chess", "players": machines,
                   "clock": {"initial_ms": 60_000, "increment_ms": 0}}),
        )
        .await;
        computer_games.push(game.id);
    }
    // A person against level 10 on a 5 s clock.
    let person = create(
        &app,
        json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"computer": 10}},
               "clock": {"initial_ms": 5_000, "increment_ms": 0}}),
    )
    .await;
    let (status, _) = play(&app, &person.id, &person.token("white"), "e4").await;
    assert_eq!(status, StatusCode::OK);
    let replied = wait_for(&app, &person.id, Duration::from_secs(20), |s| {
        s["moves"].as_array().map_or(0, Vec::len) >= 2 || s["status"] == "finished"
    })
    .await;
    assert_eq!(replied["status"], "playing", "{}", replied["outcome"]);
    assert_eq!(replied["moves"].as_array().map(Vec::len), Some(2));

    // A waiting computer is not charged for the wait: none loses on time.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for id in &computer_games {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_ne!(state["outcome"]["reason"], "timeout", "game {id}: {state}");
    }
    // The server-wide cap: two more computer-only games make eight; a ninth is refused.
    for _ in 0..2 {
        create(&app, json!({"game": "chess", "players": machines})).await;
    }
    let (status, body) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "chess", "players": machines})),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
}

#[tokio::test]
async fn moves_over_a_websocket_count_against_the_same_quota() {
    let (addr, _dir) = serve_with(ServerOptions {
        engine_threads: 1,
        rate_limits: RateLimits {
            creates: None,
            moves: Some(RateLimit::per_minute(2)),
            imports: None,
            analyses: None,
        },
        ..ServerOptions::default()
    })
    .await;
    let (id, white) = new_game_with_token(addr).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws?token={white}"))
            .await
            .expect("connects");
    let _state = socket.next().await.expect("a state").expect("a message");
    // Two offers of a draw pass (the second repeats the first), the third is refused.
    let mut answers = Vec::new();
    for _ in 0..3 {
        socket
            .send(Message::text(json!({"action": "draw-offer"}).to_string()))
            .await
            .expect("sent");
        let text = socket.next().await.expect("an answer").expect("a message");
        let value: serde_json::Value =
            serde_json::from_str(text.to_text().expect("text")).expect("JSON");
        answers.push(value);
    }
    assert!(answers[0]["error"].is_null(), "{}", answers[0]);
    assert_eq!(answers[2]["status"], 429, "{}", answers[2]);
    assert!(
        answers[2]["error"]
            .as_str()
            .unwrap_or_default()
            .contains("2/min")
    );
}

#[tokio::test]
async fn a_websocket_peer_that_never_answers_pings_is_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (addr, _dir) = serve(ServerOptions {
        websocket_ping: Duration::from_millis(100),
        ..ServerOptions::default()
    })
    .await;
    let id = new_game(addr).await;
    // A bare handshake, then silence: this peer reads but never sends a pong.
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let handshake = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(handshake.as_bytes()).await.expect("sends");
    let mut received = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        let mut buffer = [0_u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the server kept a dead peer's socket open");
    assert!(received.starts_with(b"HTTP/1.1 101"), "upgraded first");
    // The frames after the handshake: the state, pings, then a close with 1001.
    let start = received
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("the handshake's end")
        + 4;
    let mut frames = Vec::new();
    let mut at = start;
    while at + 2 <= received.len() {
        let opcode = received[at] & 0x0f;
        let (length, header) = match received[at + 1] & 0x7f {
            126 => (
                usize::from(u16::from_be_bytes([received[at + 2], received[at + 3]])),
                4,
            ),
            127 => break,
            n => (usize::from(n), 2),
        };
        let payload = &received
            [(at + header).min(received.len())..(at + header + length).min(received.len())];
        frames.push((opcode, payload.to_vec()));
        at += header + length;
    }
    let opcodes: Vec<u8> = frames.iter().map(|(o, _)| *o).collect();
    assert_eq!(opcodes.first(), Some(&0x1), "the state first: {opcodes:?}");
    assert!(opcodes.contains(&0x9), "pings: {opcodes:?}");
    let (last, payload) = frames.last().expect("frames");
    assert_eq!(*last, 0x8, "a close last: {opcodes:?}");
    assert_eq!(payload.get(..2), Some(&[0x03, 0xe9][..]), "code 1001");
}
