//! The one error type of the API: a status, a message, a stable code and parameters,
//! sent as `{"error": "<message>", "code": "<stable id>", "params": {...}}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use tablero_core::{ParamValue, Refusal};
use tablero_games::UnknownGame;
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
    /// The stable id of the reason (see [`API_CODES`]; a move refusal's rule code).
    pub code: &'static str,
    /// The reason's named parameters (e.g. `required` of `majority_capture`).
    pub params: Vec<(&'static str, ParamValue)>,
}

/// The codes of errors that are not move refusals ([`Refusal::CODES`] lists those).
pub const API_CODES: &[&str] = &[
    "bad_request",
    "invalid_json",
    "invalid_request_body",
    "expected_json",
    "payload_too_large",
    "missing_token",
    "invalid_token",
    "wrong_seat",
    "forbidden",
    "admin_disabled",
    "admin_token_required",
    "admin_token_invalid",
    "not_found",
    "game_not_found",
    "unknown_game",
    "player_not_found",
    "route_not_found",
    "method_not_allowed",
    "conflict",
    "no_takeback_request",
    "nothing_to_take_back",
    "no_draw_offer",
    "no_draw_to_claim",
    "rate_limited",
    "analysis_of_game_in_progress",
    "analysis_busy",
    "read_only",
    "storage_unavailable",
    "internal_error",
];

/// The default code of a status, for errors that name no more precise one.
const fn status_code_id(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad_request",
        401 => "invalid_token",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        409 => "conflict",
        413 => "payload_too_large",
        415 => "expected_json",
        422 => "invalid_request_body",
        429 => "rate_limited",
        503 => "storage_unavailable",
        _ => "internal_error",
    }
}

impl ApiError {
    /// An error with `status` and `message`, coded by its status (`bad_request`,
    /// `not_found`, …) until [`ApiError::with_code`] names it more precisely.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: shorten_quotes(&message.into()),
            code: status_code_id(status),
            params: Vec::new(),
        }
    }

    /// The same error with a more precise stable `code` (one of [`API_CODES`]).
    #[must_use]
    pub fn with_code(mut self, code: &'static str) -> ApiError {
        self.code = code;
        self
    }

    /// The same error with a parameter.
    #[must_use]
    pub fn with_param(mut self, name: &'static str, value: ParamValue) -> ApiError {
        self.params.push((name, value));
        self
    }

    /// A refused move: `message` in English, the rule's code and parameters. A move
    /// after the game ended is a 409, every other refusal a 400.
    pub fn refused(message: impl Into<String>, refusal: &Refusal) -> ApiError {
        let status = match refusal {
            Refusal::GameOver => StatusCode::CONFLICT,
            Refusal::NotYourTurn { .. } => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        };
        let mut error = ApiError::new(status, message);
        error.code = refusal.code();
        error.params = refusal.params();
        error
    }

    /// 404 for a game id that names no game.
    pub fn game_not_found(id: &str) -> ApiError {
        ApiError::not_found(format!("no game with id {id:?}"))
            .with_code("game_not_found")
            .with_param("id", ParamValue::Text(id.to_owned()))
    }

    /// The JSON body: `{"error", "code", "params"}`.
    #[must_use]
    pub fn body(&self) -> serde_json::Value {
        let params: serde_json::Map<String, serde_json::Value> = self
            .params
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    ParamValue::Text(text) => serde_json::Value::from(text.clone()),
                    ParamValue::Number(n) => serde_json::Value::from(*n),
                };
                ((*name).to_owned(), value)
            })
            .collect();
        serde_json::json!({ "error": self.message, "code": self.code, "params": params })
    }

    /// 400: the request is malformed or names something impossible.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 400 `unknown_game`: a game id not in the catalog.
    pub fn unknown_game(e: &UnknownGame) -> ApiError {
        ApiError::bad_request(e.to_string())
            .with_code("unknown_game")
            .with_param("game", ParamValue::Text(e.0.clone()))
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
            StoreError::UnknownGame(id) => ApiError::game_not_found(id),
            StoreError::Conflict { reason, .. } => ApiError::conflict(reason.clone()),
            StoreError::Unavailable(fault) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, fault.to_string())
            }
            StoreError::ReadOnly => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is read-only (--read-only): nothing can be changed",
            )
            .with_code("read_only"),
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

impl From<crate::live::LiveError> for ApiError {
    /// The one place a live game's refusals get their status, code and parameters.
    fn from(error: crate::live::LiveError) -> ApiError {
        use crate::live::LiveError;
        let message = error.to_string();
        match error {
            LiveError::MissingToken => ApiError::unauthorized(message).with_code("missing_token"),
            LiveError::NotASeat(_) => ApiError::unauthorized(message).with_code("invalid_token"),
            LiveError::WrongSeat { .. } => ApiError::forbidden(message).with_code("wrong_seat"),
            LiveError::Refused { refusal, .. } => ApiError::refused(message, &refusal),
            LiveError::Record(_) => ApiError::bad_request(message),
            LiveError::NoTakebackRequest(_) => {
                ApiError::conflict(message).with_code("no_takeback_request")
            }
            LiveError::NothingToTakeBack(_) => {
                ApiError::conflict(message).with_code("nothing_to_take_back")
            }
            LiveError::NoDrawOffer(_) => ApiError::conflict(message).with_code("no_draw_offer"),
            LiveError::NoDrawToClaim => ApiError::conflict(message).with_code("no_draw_to_claim"),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::storage(&error)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.body();
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
    let (message, code) = match rejection {
        JsonRejection::JsonDataError(e) => (
            format!("invalid request body: {}", e.body_text()),
            "invalid_request_body",
        ),
        JsonRejection::JsonSyntaxError(e) => {
            (format!("malformed JSON: {}", e.body_text()), "invalid_json")
        }
        JsonRejection::MissingJsonContentType(_) => (
            "expected a JSON body with `Content-Type: application/json`".to_owned(),
            "expected_json",
        ),
        other => (other.body_text(), status_code_id(other.status())),
    };
    ApiError::new(rejection.status(), message).with_code(code)
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
    fn a_refusal_sends_its_code_and_params() {
        let e = ApiError::refused(
            "illegal move 28x39",
            &Refusal::MajorityCapture { required: 2 },
        );
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(
            e.body(),
            serde_json::json!({
                "error": "illegal move 28x39",
                "code": "majority_capture",
                "params": {"required": 2}
            })
        );
        let missing = ApiError::game_not_found("abc");
        assert_eq!(missing.body()["code"], "game_not_found");
        assert_eq!(ApiError::bad_request("x").code, "bad_request");
    }

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
