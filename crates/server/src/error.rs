//! The one error type of the API: a status and a message, sent as
//! `{"error": "<message>"}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use tablero_store::StoreError;

/// An error answer. Database failures are logged and answered with a generic
/// message, never with their details.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status (4xx for the client's mistakes, 5xx for the server's).
    pub status: StatusCode,
    /// What is wrong, naming the bad value.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: shorten_quotes(&message.into()),
        }
    }

    /// 400: the request is malformed or names something impossible.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401: no token, or one that is not a seat of this game.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the token is a seat of this game but may not do this.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such game or route.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the game is not in a state that allows this (not your turn, game over).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 503 for a write the database refused (disk full, read-only, I/O error, busy),
    /// naming the cause; 500 for other store failures, whose details go to the log
    /// only.
    pub fn storage(error: &StoreError) -> ApiError {
        match error {
            StoreError::UnknownGame(id) => ApiError::not_found(format!("no game with id {id:?}")),
            StoreError::Conflict { reason, .. } => ApiError::conflict(reason.clone()),
            StoreError::Unavailable(fault) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, fault.to_string())
            }
            StoreError::ReadOnly => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is read-only (--read-only): nothing can be changed",
            ),
            other => {
                tracing::error!(error = %other, "database failure");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the database failed; nothing was changed",
                )
            }
        }
    }
}

/// At most this many characters of a quoted input in an error message.
const QUOTE_LIMIT: usize = 64;

/// At most this many characters in an error message.
const MESSAGE_LIMIT: usize = 512;

/// The message with every quoted input (`"…"`) cut to [`QUOTE_LIMIT`] characters, and
/// the whole to [`MESSAGE_LIMIT`]: an error names the bad value without sending back
/// a 60 KB move twice.
fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MESSAGE_LIMIT + 8));
    let mut quoted: Option<usize> = None;
    let mut escaped = false;
    for c in message.chars() {
        match quoted {
            None => {
                out.push(c);
                if c == '"' {
                    quoted = Some(0);
                }
            }
            Some(n) => {
                let closing = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                if closing {
                    out.push(c);
                    quoted = None;
                } else {
                    if n < QUOTE_LIMIT {
                        out.push(c);
                    } else if n == QUOTE_LIMIT {
                        out.push('…');
                    }
                    quoted = Some(n + 1);
                }
            }
        }
    }
    if let Some((cut, _)) = out.char_indices().nth(MESSAGE_LIMIT) {
        out.truncate(cut);
        out.push('…');
    }
    out
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::storage(&error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            // The store probes itself every 250 ms: a retry a second later may work.
            return (
                self.status,
                [(axum::http::header::RETRY_AFTER, "1")],
                Json(body),
            )
                .into_response();
        }
        (self.status, Json(body)).into_response()
    }
}

/// `Json<T>` whose rejection is an [`ApiError`]: malformed JSON, a wrong content
/// type or an oversize body get a JSON error naming the problem.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(&rejection)),
        }
    }
}

fn json_rejection(rejection: &JsonRejection) -> ApiError {
    let message = match rejection {
        JsonRejection::JsonDataError(e) => format!("invalid request body: {}", e.body_text()),
        JsonRejection::JsonSyntaxError(e) => format!("malformed JSON: {}", e.body_text()),
        JsonRejection::MissingJsonContentType(_) => {
            "expected a JSON body with `Content-Type: application/json`".to_owned()
        }
        other => other.body_text(),
    };
    ApiError::new(rejection.status(), message)
}

impl<T: serde::Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        Json(self.0).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quoted_inputs_are_cut() {
        let long = "e".repeat(60_000);
        let message = format!("invalid SAN {long:?}: {long:?} is not a move");
        let short = shorten_quotes(&message);
        assert!(short.chars().count() < 200, "{short}");
        assert!(short.starts_with(&format!("invalid SAN \"{}…\"", "e".repeat(64))));
        assert!(short.ends_with("is not a move"), "{short}");
        // Short quotes and escaped quotes are kept whole.
        let kept = r#"castling field "KQx\"y": unexpected 'x'"#;
        assert_eq!(shorten_quotes(kept), kept);
        assert_eq!(
            shorten_quotes(&"x".repeat(1000)).chars().count(),
            MESSAGE_LIMIT + 1
        );
    }
}
