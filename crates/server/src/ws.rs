//! `GET /api/games/{id}/ws`: the game's state on connect and after every change; a
//! seat holder may also play over the socket.

use std::sync::Arc;

use tokio::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::registry::Action;
use crate::{ApiError, AppState};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SocketQuery {
    token: Option<String>,
}

/// A message from the client: `{"move": "e2e4"}`, or `{"action": "resign"}`; the
/// seat token comes with the message, the query (`?token=`) or the `Authorization`
/// header of the upgrade.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientMessage {
    action: Option<SocketAction>,
    r#move: Option<String>,
    token: Option<String>,
}

/// What a client message asks for (`"action"`; a message with only a `"move"` plays
/// it). An unknown action is refused by serde, naming the ones there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum SocketAction {
    Move,
    Takeback,
    TakebackAccept,
    TakebackDecline,
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    DrawClaim,
}

impl SocketAction {
    /// The action a message names, or `None` for a move.
    fn action(self) -> Option<Action> {
        Some(match self {
            SocketAction::Move => return None,
            SocketAction::Takeback => Action::TakeBack,
            SocketAction::TakebackAccept => Action::AcceptTakeBack,
            SocketAction::TakebackDecline => Action::DeclineTakeBack,
            SocketAction::Resign => Action::Resign,
            SocketAction::DrawOffer => Action::OfferDraw,
            SocketAction::DrawAccept => Action::AcceptDraw,
            SocketAction::DrawDecline => Action::DeclineDraw,
            SocketAction::DrawClaim => Action::ClaimDraw,
        })
    }
}

pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<SocketQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
    connection: Option<axum::Extension<crate::listen::ConnectionSlot>>,
    client: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    check_origin(&state, &headers)?;
    // An unknown game is refused before the upgrade.
    let slot = state.games.slot(&id).await?;
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let ws = ws.map_err(|e| {
        ApiError::new(
            e.status(),
            format!("expected a WebSocket upgrade: {}", e.body_text()),
        )
    })?;
    let token = query
        .token
        .or_else(|| crate::routes::bearer(&headers).map(str::to_owned));
    // Client messages are small: a 4 KiB read buffer (the default is 128 KiB, zeroed
    // and resident for every connection) keeps an idle watcher at about 13 KiB.
    Ok(ws
        .read_buffer_size(4 * 1024)
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            // The socket keeps its place in the connection limits while it is open.
            let _connection = connection;
            let client = client.map(|c| c.0.0.ip());
            session(state, id, slot, token, client, socket).await;
        }))
}

/// A page of another site may not open a game's socket in its visitor's browser
/// (which would carry the visitor's seat): the `Origin` of an upgrade must be this
/// server's own (its `Host`) or one named by `--allow-origin`. Clients that are not
/// browsers send no `Origin` and are let through.
fn check_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let own = origin
        .split_once("://")
        .is_some_and(|(_, authority)| !host.is_empty() && authority == host);
    if own || state.options.allowed_origins.contains(&origin) {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "a WebSocket from origin {origin:?} is refused: start the server with \
             --allow-origin {origin} to allow it"
        )))
    }
}

/// A socket whose peer has said nothing (not even a pong) for this many pings is
/// taken for dead and closed.
const PINGS_BEFORE_DEAD: u32 = 3;

/// The largest message a client may send (moves and actions are tiny).
const MAX_MESSAGE: usize = 16 * 1024;

async fn session(
    state: AppState,
    id: String,
    slot: Arc<crate::registry::Slot>,
    token: Option<String>,
    client: Option<std::net::IpAddr>,
    mut socket: WebSocket,
) {
    // Subscribe before reading the state so that no change falls in between.
    let mut updates = slot.updates.subscribe();
    let Ok(first) = state
        .games
        .view(&id)
        .await
        .and_then(|v| crate::registry::serialise(&v))
    else {
        return;
    };
    if socket.send(Message::Text(first)).await.is_err() {
        return;
    }
    let every = state.options.websocket_ping;
    let dead_after = every * PINGS_BEFORE_DEAD;
    let mut last_heard = Instant::now();
    let mut ping = tokio::time::interval_at(Instant::now() + every, every);
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if last_heard.elapsed() >= dead_after {
                    let close = CloseFrame {
                        code: close_code::AWAY,
                        reason: "no answer to pings".into(),
                    };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    return;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
            update = updates.recv() => {
                let text: Utf8Bytes = match update {
                    Ok(text) => text,
                    // Too slow to follow every change: send the state as it is now.
                    Err(RecvError::Lagged(_)) => match state.games.view(&id).await.and_then(|v| crate::registry::serialise(&v)) {
                        Ok(text) => text,
                        Err(_) => return,
                    },
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => {
                last_heard = Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Err(e)) if e.to_string().contains("too long") => {
                        // RFC 6455: 1009, "message too big", not a dropped connection.
                        let close = CloseFrame {
                            code: close_code::SIZE,
                            reason: format!("a message may have {} KiB at most", MAX_MESSAGE / 1024).into(),
                        };
                        let _ = socket.send(Message::Close(Some(close))).await;
                        return;
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                    Some(Ok(_)) => continue,
                };
                // A socket's moves count against its address's quota, as over HTTP.
                let handled = match state.options.limiters.moves.check(client) {
                    Ok(()) => handle(&state, &id, token.as_deref(), &text).await,
                    Err(refused) => Err(refused),
                };
                if let Err(error) = handled {
                    let mut body = error.body();
                    body["status"] = json!(error.status.as_u16());
                    if socket.send(Message::Text(body.to_string().into())).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// Applies a client message; the new state reaches every watcher by the broadcast.
async fn handle(
    state: &AppState,
    id: &str,
    socket_token: Option<&str>,
    text: &str,
) -> Result<(), ApiError> {
    let message: ClientMessage = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("malformed message: {e}")))?;
    let named = message.action.unwrap_or(SocketAction::Move);
    let action = match (named.action(), message.r#move) {
        (None, Some(m)) => Action::Move(m),
        (None, None) => {
            return Err(ApiError::bad_request("message without a move or an action"));
        }
        (Some(action), None) => action,
        (Some(_), Some(m)) => {
            return Err(ApiError::bad_request(format!(
                "a message is one move or one action, not both: it named an action and \
                 the move {m:?} (send {{\"move\": {m:?}}} to play it)"
            )));
        }
    };
    let token = message.token.as_deref().or(socket_token);
    state.games.act(id, token, action).await.map(|_| ())
}
