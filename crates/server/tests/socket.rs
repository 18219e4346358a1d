//! The server on a real socket (127.0.0.1:0): HTTP over TCP and WebSocket games with a
//! watcher.
#![allow(clippy::unwrap_used)] // a test fails loudly where its set-up does

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tablero_server::AppState;
use tablero_store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

async fn start(dir: &tempfile::TempDir) -> SocketAddr {
    let url = format!("sqlite://{}", dir.path().join("socket.db").display());
    let store = Store::open(&url).await.unwrap();
    let app = tablero_server::app(AppState::new(store, 1));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// One HTTP/1.1 request on a fresh connection: the status and the JSON body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8(response).unwrap();
    let status = response[9..12].parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.to_owned())),
    )
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let (socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws{query}"))
            .await
            .unwrap();
    socket
}

async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

#[tokio::test]
async fn a_game_over_http_on_a_real_socket() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(&dir).await;
    let (status, body) = http(addr, "GET", "/api/health", None, None).await;
    assert_eq!(
        (status, body),
        (200, json!({"status": "ok", "store": "writable"}))
    );
    let (status, created) = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "chess"})),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let tokens = [
        created["seats"]["white"].as_str().unwrap(),
        created["seats"]["black"].as_str().unwrap(),
    ];
    for (i, mv) in ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"].iter().enumerate() {
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(tokens[i % 2]),
            Some(json!({"move": mv})),
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
    let (_, state) = http(addr, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(state["outcome"]["reason"], "checkmate");
    assert_eq!(state["moves"][4]["notation"], "Qh5#");
    let (status, body) = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "checkers"})),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("checkers"));
}

#[tokio::test]
async fn a_game_over_websocket_with_a_watcher() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(&dir).await;
    let (_, created) = http(
        addr,
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "draughts", "variant": "english", "mode": "online"})),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_owned();
    // English draughts: black moves first. The creator took the first side's seat.
    let black = created["seats"]["black"].as_str().unwrap().to_owned();
    let white = created["invite"]["token"].as_str().unwrap().to_owned();

    let mut watcher = connect(addr, &id, None).await;
    let mut b = connect(addr, &id, Some(&black)).await;
    let mut w = connect(addr, &id, None).await;
    for socket in [&mut watcher, &mut b, &mut w] {
        let first = next_json(socket).await;
        assert_eq!(first["id"], id.as_str());
        assert_eq!(first["turn"], "black");
    }

    // The watcher may not move; the refusal goes to it alone.
    watcher
        .send(Message::text(json!({"move": "11-15"}).to_string()))
        .await
        .unwrap();
    let refusal = next_json(&mut watcher).await;
    assert_eq!(refusal["status"], 401, "{refusal}");
    assert_eq!(refusal["code"], "missing_token", "{refusal}");

    // Black plays with the socket's token, white with a token in the message.
    let plan = ["11-15", "23-19", "8-11", "22-17"];
    for (i, mv) in plan.iter().enumerate() {
        if i % 2 == 0 {
            b.send(Message::text(json!({"move": mv}).to_string()))
                .await
                .unwrap();
        } else {
            w.send(Message::text(
                json!({"move": mv, "token": white}).to_string(),
            ))
            .await
            .unwrap();
        }
        for socket in [&mut watcher, &mut b, &mut w] {
            let update = next_json(socket).await;
            assert_eq!(update["moves"].as_array().unwrap().len(), i + 1, "{update}");
            assert_eq!(update["moves"][i]["move"], *mv);
        }
    }
    // An illegal move over the socket: an error to the sender, nothing to the others.
    b.send(Message::text(json!({"move": "1-5"}).to_string()))
        .await
        .unwrap();
    let refusal = next_json(&mut b).await;
    assert_eq!(refusal["status"], 400, "{refusal}");
    // It names its rule, with the parameters a client translates it from.
    assert_eq!(refusal["code"], "square_occupied", "{refusal}");
    assert_eq!(refusal["params"], json!({"square": "5"}), "{refusal}");
    b.send(Message::text("not json".to_owned())).await.unwrap();
    assert_eq!(next_json(&mut b).await["status"], 400);
    b.send(Message::text(json!({"action": "fly"}).to_string()))
        .await
        .unwrap();
    let unknown = next_json(&mut b).await;
    let text = unknown["error"].as_str().unwrap();
    // The actions there are are named.
    assert!(
        text.contains("fly") && text.contains("draw-offer") && text.contains("resign"),
        "{unknown}"
    );
    // An action with a move is refused as such, not as an unknown action.
    b.send(Message::text(
        json!({"action": "resign", "move": "9-13"}).to_string(),
    ))
    .await
    .unwrap();
    let both = next_json(&mut b).await;
    let text = both["error"].as_str().unwrap();
    assert!(
        text.contains("one move or one action") && !text.contains("unknown"),
        "{both}"
    );

    // Resignation over the socket reaches everyone.
    w.send(Message::text(
        json!({"action": "resign", "token": white}).to_string(),
    ))
    .await
    .unwrap();
    let last = next_json(&mut watcher).await;
    assert_eq!(
        last["moves"].as_array().unwrap().len(),
        4,
        "the illegal move changed nothing"
    );
    assert_eq!(last["outcome"]["text"], "black wins by resignation");

    // A client that reconnects gets the whole state.
    drop(watcher);
    let mut again = connect(addr, &id, None).await;
    let state = next_json(&mut again).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 4);
    assert_eq!(state["status"], "finished");

    // An unknown game is refused before the upgrade.
    let refused = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/nope/ws")).await;
    assert!(refused.is_err());
}
