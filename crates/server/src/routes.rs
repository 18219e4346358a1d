//! The HTTP routes.

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tablero_core::Side;
use tablero_games::{
    AnyPosition, AnyRecord, CATALOG, GameInfo, GameKind, UnknownGame, Variant, fresh_seed,
};
use tablero_store::{ClockKind, ClockRecord, GameFilter, GameStatus, Mode, Seat, StoreHealth};
use tower_http::compression::CompressionLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::limits::Limiters;
use crate::live::{LiveGame, Setup};
use crate::registry::{Action, new_token};
use crate::view::PositionView;
use crate::{ApiError, ApiJson, AppState, GameView};

/// Bodies of ordinary requests are small; an imported file may be larger.
const BODY_LIMIT: usize = 64 * 1024;
const IMPORT_LIMIT: usize = 1024 * 1024;

/// The time to send a request's body (a 1 MB import at 100 KB/s fits).
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

pub(crate) fn router(state: AppState) -> Router {
    let Limiters {
        creates,
        moves,
        imports,
        analyses,
    } = state.options.limiters.clone();
    let action = |action: Action| {
        moves.on(post(
            move |State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap| {
                let action = action.clone();
                async move { act(&state, &id, &headers, action).await }
            },
        ))
    };
    Router::new()
        .route("/api/health", get(health))
        .route("/api/catalog", get(catalog))
        .route(
            "/api/openapi.json",
            get(|| async { Json(crate::openapi::document()) }),
        )
        .route("/api/games", creates.on(post(create_game)).get(list_games))
        .route(
            "/api/games/import",
            imports.on(post(import_game).layer(DefaultBodyLimit::max(IMPORT_LIMIT))),
        )
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/moves", moves.on(post(play_move)))
        .route("/api/games/{id}/takeback", action(Action::TakeBack))
        .route(
            "/api/games/{id}/takeback/accept",
            action(Action::AcceptTakeBack),
        )
        .route(
            "/api/games/{id}/takeback/decline",
            action(Action::DeclineTakeBack),
        )
        .route("/api/games/{id}/resign", action(Action::Resign))
        .route("/api/games/{id}/draw/offer", action(Action::OfferDraw))
        .route("/api/games/{id}/draw/accept", action(Action::AcceptDraw))
        .route("/api/games/{id}/draw/decline", action(Action::DeclineDraw))
        .route("/api/games/{id}/draw/claim", action(Action::ClaimDraw))
        .route("/api/games/{id}/export", get(export_game))
        .route("/api/games/{id}/positions/{ply}", get(position_at))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/analyse", analyses.on(post(crate::analysis::analyse)))
        .route("/api/positions", post(crate::analysis::position))
        .merge(crate::players_routes::routes(&imports))
        // Paths outside /api are the web interface's files and client routes.
        .fallback(
            |method: axum::http::Method, uri: axum::http::Uri, headers: HeaderMap| async move {
                if uri.path() == "/api" || uri.path().starts_with("/api/") {
                    ApiError::not_found("no such route")
                        .with_code("route_not_found")
                        .into_response()
                } else {
                    crate::web::serve(&method, uri.path(), &headers)
                }
            },
        )
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take this method",
            )
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // A body that stalls is cut off (a slow client cannot hold a request open).
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        // gzip or Brotli, as the client accepts: the first page is about a third of
        // its size compressed.
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .with_state(state)
}

/// Runs CPU-heavy work (replaying files, drawing reports) on a blocking thread, so
/// that the async threads keep answering everyone else.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        tracing::error!(error = %e, "a blocking task failed");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the work failed")
    })?
}

/// The log's span of a request: its method and path, never its query, which may hold
/// a seat token (`/api/games/{id}/ws?token=`).
fn request_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::debug_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        version = ?request.version(),
    )
}

/// Whether the server works: `status` is `ok`, or `degraded` while the store refuses
/// writes (with the cause); `store` is `writable`, `degraded` or `read-only`.
async fn health(State(state): State<AppState>) -> Json<Value> {
    Json(match state.games.store().health() {
        StoreHealth::Writable => json!({ "status": "ok", "store": "writable" }),
        StoreHealth::ReadOnly => json!({ "status": "ok", "store": "read-only" }),
        StoreHealth::Degraded(fault) => json!({
            "status": "degraded",
            "store": "degraded",
            "cause": fault.kind.id(),
            "error": fault.to_string(),
        }),
    })
}

/// The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 7235).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(char::is_whitespace)?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
        .filter(|t| !t.is_empty())
}

/// Applies a seat's action and answers the new state, serialised once for the
/// watchers and this answer.
async fn act(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Response, ApiError> {
    let text = state.games.act(id, bearer(headers), action).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        text.as_str().to_owned(),
    )
        .into_response())
}

async fn catalog() -> Json<Value> {
    let games: Vec<Value> = CATALOG
        .iter()
        .filter(|g| g.available)
        .map(|g| {
            json!({
                "id": g.id,
                "name": g.name,
                "variants": g.variants.iter().map(|v| json!({"id": v.id, "name": v.name})).collect::<Vec<_>>(),
                "default_variant": g.default_variant(),
                "sides": g.sides,
                "pieces": g.piece_letters.chars().map(String::from).collect::<Vec<_>>(),
                "levels": {"min": 1, "max": 10},
                "clocks": if g.kind.has_game_clock() { vec!["fischer", "game"] } else { vec!["fischer"] },
            })
        })
        .collect();
    Json(json!({ "games": games, "modes": Mode::ALL.map(Mode::id) }))
}

/// A seat in a create or import request: a person (optionally named) or the computer.
/// A whole number that JSON may write as `5` or `5.0` (both are JSON Schema integers).
fn whole<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    let number = serde_json::Number::deserialize(deserializer)?;
    number
        .as_u64()
        .or_else(|| {
            number
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= 9.0e15)
                // The filter makes the conversion exact.
                .map(|f| f as u64)
        })
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| serde::de::Error::custom(format!("{number} is not a whole number in range")))
}

fn whole_opt<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    whole(deserializer).map(Some)
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerRequest {
    name: Option<String>,
    #[serde(default, deserialize_with = "whole_opt")]
    computer: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    #[serde(default)]
    kind: Option<ClockKind>,
    #[serde(deserialize_with = "whole")]
    initial_ms: u64,
    #[serde(default, deserialize_with = "whole")]
    increment_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    game: String,
    variant: Option<String>,
    position: Option<String>,
    #[serde(default)]
    players: BTreeMap<String, PlayerRequest>,
    clock: Option<ClockRequest>,
    /// `online` gives the creator one seat and an invite for the other.
    mode: Option<Mode>,
    /// The creator's side in an online game (default: the side that moves first).
    side: Option<String>,
    /// Chess3d's generator seed, 16 hex digits (default: a fresh one).
    seed: Option<String>,
    /// A Chess960 start number, 0–959 (default: one at random).
    chess960: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    game: String,
    variant: Option<String>,
    /// The file: PGN, PDN or the chess3d record.
    text: String,
    /// Which game of the file, from 1 (default 1).
    #[serde(default, deserialize_with = "whole_opt")]
    index: Option<usize>,
    #[serde(default)]
    players: BTreeMap<String, PlayerRequest>,
    clock: Option<ClockRequest>,
    mode: Option<Mode>,
    side: Option<String>,
}

fn game_info(game: &str) -> Result<&'static GameInfo, ApiError> {
    let kind: GameKind = game.parse().map_err(|e| ApiError::unknown_game(&e))?;
    Some(kind.info())
        .filter(|info| info.available)
        .ok_or_else(|| ApiError::unknown_game(&UnknownGame(game.to_owned())))
}

/// A player name as the player file allows it: 1–32 letters, digits, `.` or `-`.
fn check_name(name: &str) -> Result<(), ApiError> {
    let count = name.chars().count();
    if (1..=32).contains(&count)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
    {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "player name {name:?}: expected 1 to 32 letters, digits, '.' or '-'"
        )))
    }
}

/// Checks the seats, clock and mode of a create or import request.
fn seats_and_mode(
    info: &GameInfo,
    players: &BTreeMap<String, PlayerRequest>,
    mode: Option<Mode>,
    clock: Option<&ClockRequest>,
) -> Result<([Seat; 2], SeatTokens, Mode, Option<ClockRecord>), ApiError> {
    let mut seats = [Seat::default(), Seat::default()];
    for (side_name, player) in players {
        let side = LiveGame::side_named(info, side_name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown side {side_name:?} in players (sides of {}: {}, {})",
                info.id, info.sides[0], info.sides[1]
            ))
        })?;
        let seat = &mut seats[side.index()];
        match (&player.name, player.computer) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(format!(
                    "players.{side_name}: give either a name or a computer level, not both"
                )));
            }
            (Some(name), None) => {
                check_name(name)?;
                seat.name = Some(name.clone());
            }
            (None, Some(level)) => {
                if !(1..=10).contains(&level) {
                    return Err(ApiError::bad_request(format!(
                        "players.{side_name}.computer: level {level} is not from 1 to 10"
                    )));
                }
                seat.level = Some(level);
            }
            (None, None) => {}
        }
    }
    let computers = seats.iter().filter(|s| s.level.is_some()).count();
    let mode = match (mode, computers) {
        (None | Some(Mode::Computer), 1 | 2) => Mode::Computer,
        (Some(Mode::Computer), _) => {
            return Err(ApiError::bad_request(
                "mode \"computer\" needs a computer seat: players.<side>.computer = level",
            ));
        }
        (Some(m), 1 | 2) => {
            return Err(ApiError::bad_request(format!(
                "mode {:?} cannot have computer seats",
                m.id()
            )));
        }
        (None, _) => Mode::Hotseat,
        (Some(m), _) => m,
    };
    // The secrets go to the creator once; the game keeps only their hashes.
    let mut tokens: SeatTokens = [None, None];
    for (seat, token) in seats.iter_mut().zip(&mut tokens) {
        if seat.level.is_none() {
            let secret = new_token();
            seat.token_hash = Some(tablero_store::token_hash(&secret));
            *token = Some(secret);
        }
    }
    let clock = clock
        .map(|c| -> Result<ClockRecord, ApiError> {
            let kind = match c.kind.unwrap_or(ClockKind::Fischer) {
                ClockKind::Game if !info.kind.has_game_clock() => {
                    return Err(ApiError::bad_request(format!(
                        "clock.kind \"game\" (one clock for the game) is chess3d's timed mode, not {}'s",
                        info.id
                    )));
                }
                kind => kind,
            };
            if !(1_000..=86_400_000).contains(&c.initial_ms) {
                return Err(ApiError::bad_request(format!(
                    "clock.initial_ms {}: expected 1000 (1 s) to 86400000 (24 h)",
                    c.initial_ms
                )));
            }
            if c.increment_ms > 600_000 || (kind == ClockKind::Game && c.increment_ms > 0) {
                return Err(ApiError::bad_request(format!(
                    "clock.increment_ms {}: expected 0 to 600000 (0 for a game clock)",
                    c.increment_ms
                )));
            }
            Ok(ClockRecord {
                kind,
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
            })
        })
        .transpose()?;
    Ok((seats, tokens, mode, clock))
}

/// The seats' secret tokens, white (red) first: answered once, at creation.
type SeatTokens = [Option<String>; 2];

/// The answer to a create or import: the tokens the caller may hold, and for an online
/// game the invitation for the other seat.
fn created(
    info: &GameInfo,
    view: GameView,
    secrets: &SeatTokens,
    mode: Mode,
    creator: Side,
) -> Response {
    let mut tokens = serde_json::Map::new();
    let mut invite = Value::Null;
    for side in [Side::White, Side::Black] {
        let Some(token) = &secrets[side.index()] else {
            continue;
        };
        let name = info.sides[side.index()];
        if mode == Mode::Online && side != creator {
            invite = json!({
                "side": name,
                "token": token,
                "path": format!("/game/{}#seat={token}", view.id),
            });
        } else {
            tokens.insert(name.to_owned(), Value::String(token.clone()));
        }
    }
    let body = json!({ "id": view.id, "seats": tokens, "invite": invite, "state": view });
    (StatusCode::CREATED, Json(body)).into_response()
}

fn creator_side(info: &GameInfo, side: Option<&str>, first: Side) -> Result<Side, ApiError> {
    match side {
        None => Ok(first),
        Some(name) => LiveGame::side_named(info, name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown side {name:?} (sides of {}: {}, {})",
                info.id, info.sides[0], info.sides[1]
            ))
        }),
    }
}

/// The client's address, when the server knows it (not for a router called
/// in-process).
type Client = Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>;

fn address(client: &Client) -> Option<std::net::IpAddr> {
    client.as_ref().map(|c| c.0.0.ip())
}

async fn create_game(
    State(state): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<CreateRequest>,
) -> Result<Response, ApiError> {
    let info = game_info(&request.game)?;
    let seed = match &request.seed {
        None => fresh_seed(),
        Some(hex) => u64::from_str_radix(hex, 16).map_err(|_| {
            ApiError::bad_request(format!("seed {hex:?}: expected up to 16 hex digits"))
        })?,
    };
    let variant = info
        .kind
        .variant(request.variant.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let start = match request.chess960 {
        None => AnyPosition::of_seeded(info.kind, variant, request.position.as_deref(), seed),
        Some(number) => {
            // A start number goes with Chess960, named or left to the number to imply.
            let chess960 = request.variant.is_none() || variant == Variant::Chess960;
            if !Variant::Chess960.is_of(info.kind) || !chess960 || request.position.is_some() {
                return Err(ApiError::bad_request(
                    "chess960 (a start number) is for {\"game\": \"chess\", \"variant\": \"chess960\"} without a position",
                ));
            }
            AnyPosition::chess960(number)
        }
    }
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let (seats, tokens, mode, clock) =
        seats_and_mode(info, &request.players, request.mode, request.clock.as_ref())?;
    let first = AnyRecord::new(start.clone()).first_side();
    let creator = creator_side(info, request.side.as_deref(), first)?;
    let view = state
        .games
        .create(
            Setup {
                start,
                mode,
                seats,
                clock,
                moves: Vec::new(),
                recorded_end: None,
                tags: Vec::new(),
            },
            address(&client),
        )
        .await?;
    Ok(created(info, view, &tokens, mode, creator))
}

async fn import_game(
    State(state): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ImportRequest>,
) -> Result<Response, ApiError> {
    let info = game_info(&request.game)?;
    let variant = info
        .kind
        .variant(request.variant.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let index = request.index.unwrap_or(1);
    let text = request.text.clone();
    // Every game of the file is parsed, only the one kept is replayed, and on a
    // blocking thread: a big file must not hold up the other requests.
    let (count, chosen) =
        blocking(move || Ok(AnyRecord::import_one(info.kind, variant, &text, index))).await?;
    if count == 0 {
        return Err(ApiError::bad_request("the file holds no game"));
    }
    let Some(imported) = chosen.filter(|_| index > 0) else {
        return Err(ApiError::bad_request(format!(
            "index {index}: the file holds {count} game(s)"
        )));
    };
    let imported = imported.map_err(|e| ApiError::bad_request(format!("cannot import: {e}")))?;
    let mut players = request.players.clone();
    if players.is_empty() {
        // The file's player tags name the seats when they are valid names.
        for side in [Side::White, Side::Black] {
            if let Some(name) = imported.tag(imported.record.player_tag(side))
                && check_name(name).is_ok()
            {
                players.insert(
                    info.sides[side.index()].to_owned(),
                    PlayerRequest {
                        name: Some(name.to_owned()),
                        computer: None,
                    },
                );
            }
        }
    }
    let (seats, tokens, mode, clock) =
        seats_and_mode(info, &players, request.mode, request.clock.as_ref())?;
    let recorded_end = imported.outcome();
    // The facts of the record that its export writes back: where and when it was
    // played, and its players as the file names them.
    let player_tags = [Side::White, Side::Black].map(|s| imported.record.player_tag(s));
    let tags: Vec<(String, String)> = imported
        .tags
        .iter()
        .filter(|(name, value)| {
            // PGN's "unknown" values (`?`, `????.??.??`) say nothing worth keeping.
            let known = value.chars().any(|c| !matches!(c, '?' | '.' | ' '));
            known && (KEPT_TAGS.contains(&name.as_str()) || player_tags.contains(&name.as_str()))
        })
        .cloned()
        .collect();
    let record = imported.record;
    let creator = creator_side(info, request.side.as_deref(), record.first_side())?;
    let view = state
        .games
        .create(
            Setup {
                start: record.start().clone(),
                mode,
                seats,
                clock,
                moves: record.moves().iter().map(|m| m.text.clone()).collect(),
                recorded_end,
                tags,
            },
            address(&client),
        )
        .await?;
    Ok(created(info, view, &tokens, mode, creator))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    status: Option<String>,
    /// Only this game's (`chess`, ...).
    game: Option<String>,
    /// Only these games, comma-separated (a browser's own games).
    ids: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

/// The most ids one listing may ask for.
const MOST_LISTED_IDS: usize = 200;

async fn list_games(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let status = query
        .status
        .as_deref()
        .map(|s| {
            GameStatus::from_id(s).ok_or_else(|| {
                ApiError::bad_request(format!("status {s:?}: expected playing or finished"))
            })
        })
        .transpose()?;
    let limit = query.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit {limit}: expected 1 to 500"
        )));
    }
    let game = query
        .game
        .as_deref()
        .map(|g| {
            g.parse::<GameKind>()
                .map(|kind| kind.id().to_owned())
                .map_err(|e| ApiError::unknown_game(&e))
        })
        .transpose()?;
    let ids = query
        .ids
        .as_deref()
        .map(|text| {
            let ids: Vec<String> = text
                .split(',')
                .filter(|id| !id.is_empty())
                .map(str::to_owned)
                .collect();
            if ids.len() > MOST_LISTED_IDS {
                return Err(ApiError::bad_request(format!(
                    "ids: {} given, at most {MOST_LISTED_IDS}",
                    ids.len()
                )));
            }
            Ok(ids)
        })
        .transpose()?;
    let filter = GameFilter { status, game, ids };
    let games = state
        .games
        .store()
        .list_games(&filter, limit, query.offset.unwrap_or(0))
        .await?;
    // Games in progress are held in memory: their side to move costs a lock each.
    let mut turns = Vec::with_capacity(games.len());
    for g in &games {
        turns.push(if g.status == GameStatus::Playing {
            state.games.turn(&g.id).await.ok().flatten()
        } else {
            None
        });
    }
    let games: Vec<Value> = games
        .into_iter()
        .zip(turns)
        .map(|(g, turn)| {
            let info = g.game.parse::<GameKind>().ok().map(GameKind::info);
            let side_name =
                |side: Side| info.map_or(side.fold("white", "black"), |i| i.sides[side.index()]);
            let mut players = serde_json::Map::new();
            for side in [Side::White, Side::Black] {
                let seat = &g.seats[side.index()];
                players.insert(
                    side_name(side).to_owned(),
                    match seat.level {
                        Some(level) => json!({ "computer": level }),
                        None => json!({ "name": seat.name }),
                    },
                );
            }
            json!({
                "id": g.id,
                "game": g.game,
                "variant": g.variant,
                "mode": g.mode.id(),
                "players": players,
                "status": g.status.id(),
                "winner": g.winner.map(side_name),
                "reason": g.reason,
                "plies": g.plies,
                "turn": turn,
                "created_at": g.created_at,
                "updated_at": g.updated_at,
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

async fn game_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    state.games.view(&id).await.map(Json)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    r#move: String,
}

async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<MoveRequest>,
) -> Result<Response, ApiError> {
    act(&state, &id, &headers, Action::Move(request.r#move)).await
}

async fn position_at(
    State(state): State<AppState>,
    Path((id, ply)): Path<(String, String)>,
) -> Result<Json<PositionView>, ApiError> {
    let slot = state.games.slot(&id).await?;
    let game = slot.game.lock().await;
    ply.parse::<usize>()
        .ok()
        .and_then(|n| game.position_view(n))
        .map(Json)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "ply {ply:?}: the game has positions 0 to {}",
                game.record.plies()
            ))
        })
}

/// The tags of an imported record kept for its export (besides its players').
const KEPT_TAGS: [&str; 4] = ["Event", "Site", "Date", "Round"];

async fn export_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let stored = state.games.store().game(&id).await?;
    // The day the game was created (UTC), as PGN writes dates.
    let date = stored
        .as_ref()
        .and_then(|stored| stored.created_at.get(..10).map(|day| day.replace('-', ".")));
    let kept = stored.map(|stored| stored.tags).unwrap_or_default();
    let kept_tag = |name: &str| kept.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let slot = state.games.slot(&id).await?;
    let game = slot.game.lock().await;
    // An imported record's own event, site, date and round win over tablero's.
    let mut tags = vec![
        (
            "Event".to_owned(),
            kept_tag("Event").unwrap_or_else(|| "tablero game".to_owned()),
        ),
        (
            "Site".to_owned(),
            kept_tag("Site").unwrap_or_else(|| "tablero".to_owned()),
        ),
        ("GameId".to_owned(), game.id.clone()),
    ];
    if let Some(date) = kept_tag("Date").or(date) {
        tags.push(("Date".to_owned(), date));
    }
    if let Some(round) = kept_tag("Round") {
        tags.push(("Round".to_owned(), round));
    }
    for side in [Side::White, Side::Black] {
        let seat = &game.seats[side.index()];
        let tag = game.record.player_tag(side);
        // A file's player whose name the registry does not take ("Carlsen, Magnus")
        // still appears under it in the export.
        let name = match (seat.level, &seat.name) {
            (Some(level), _) => format!("tablero level {level}"),
            (None, Some(name)) => name.clone(),
            (None, None) => kept_tag(tag).unwrap_or_else(|| "?".to_owned()),
        };
        tags.push((tag.to_owned(), name));
    }
    // Written on a blocking thread from a copy, so that neither the async threads nor
    // the game's lock wait for a long record.
    let (record, ended) = (game.record.clone(), game.ended);
    let extension = game.record.kind().record_extension();
    let content_type = if extension == "pgn" {
        "application/x-chess-pgn; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    let disposition = format!("attachment; filename=\"tablero-{}.{extension}\"", game.id);
    drop(game);
    let text = blocking(move || Ok(record.export(&tags, ended))).await?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}
