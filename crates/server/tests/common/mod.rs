//! Helpers shared by the server tests: an app on a fresh database and a JSON caller.
#![allow(dead_code, unreachable_pub)]

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tablero_server::AppState;
use tablero_store::Store;
use tower::ServiceExt;

/// The app over a new database in `dir` (a file, as in production).
pub async fn app_in(dir: &tempfile::TempDir) -> Router {
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let store = Store::open(&url).await.expect("a temporary database opens");
    tablero_server::app(AppState::new(store, 1))
}

/// The administrator token of [`app_with_admin`].
pub const ADMIN: &str = "test-admin-token";

/// The app over a new database in `dir`, with the administrator token [`ADMIN`].
pub async fn app_with_admin(dir: &tempfile::TempDir) -> Router {
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    let store = Store::open(&url).await.expect("a temporary database opens");
    tablero_server::app(AppState::with_options(
        store,
        tablero_server::ServerOptions {
            engine_threads: 1,
            admin_token: Some(ADMIN.to_owned()),
            rate_limits: tablero_server::RateLimits::off(),
            ..tablero_server::ServerOptions::default()
        },
    ))
}

/// A request and its answer: status and body (JSON, or a string for other bodies).
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = match body {
        Some(body) => request
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string())),
        None => request.body(Body::empty()),
    }
    .expect("a valid request");
    raw(app, request).await
}

/// Sends a prepared request.
pub async fn raw(app: &Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the router answers");
    let status = response.status();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("the body is read")
        .to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

/// A created game: its id, and the tokens by side name.
#[derive(Debug, Clone)]
pub struct Created {
    pub id: String,
    pub body: Value,
}

impl Created {
    /// The token of `side`: the creator's, or the invitation's in an online game.
    pub fn token(&self, side: &str) -> String {
        let invited = &self.body["invite"];
        if invited["side"] == side {
            return invited["token"].as_str().expect("a token").to_owned();
        }
        self.body["seats"][side]
            .as_str()
            .unwrap_or_else(|| panic!("no {side} token in {}", self.body))
            .to_owned()
    }
}

pub async fn create(app: &Router, request: Value) -> Created {
    let (status, body) = call(app, "POST", "/api/games", None, Some(request.clone())).await;
    assert_eq!(status, StatusCode::CREATED, "creating {request}: {body}");
    Created {
        id: body["id"].as_str().expect("an id").to_owned(),
        body,
    }
}

/// A hot-seat game of `game` between ana and bo.
pub async fn hotseat(app: &Router, game: &str) -> Created {
    let first = if game == "xiangqi" { "red" } else { "white" };
    create(
        app,
        json!({"game": game, "players": {first: {"name": "ana"}, "black": {"name": "bo"}}}),
    )
    .await
}

/// An online game between ana and bo (rated, unlike a hot-seat game).
pub async fn online(app: &Router, game: &str) -> Created {
    let first = if game == "xiangqi" { "red" } else { "white" };
    create(
        app,
        json!({"game": game, "mode": "online",
               "players": {first: {"name": "ana"}, "black": {"name": "bo"}}}),
    )
    .await
}

pub async fn play(app: &Router, id: &str, token: &str, mv: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({ "move": mv })),
    )
    .await
}

pub async fn state(app: &Router, id: &str) -> Value {
    let (status, body) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// Polls the state until `done` holds, for at most `limit`.
pub async fn wait_for(
    app: &Router,
    id: &str,
    limit: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let s = state(app, id).await;
        if done(&s) {
            return s;
        }
        assert!(start.elapsed() < limit, "gave up waiting; last state {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("a move list")
        .iter()
        .map(|m| m["move"].as_str().expect("a move").to_owned())
        .collect()
}
