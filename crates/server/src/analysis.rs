//! `POST /api/analyse`: the engine's view of a position for the analysis board — the
//! evaluation, the best lines in the move format and in the game's notation, the depth
//! and nodes. A search is capped in time ([`LONGEST`]), counted against the client's
//! analysis quota (the `analyses` rate limit) and run by a small pool of its own, so
//! that analysis never slows the computer's moves in games.
//!
//! A position is given as a game, variant, start and moves, or as a stored game
//! (`game_id`, up to `ply`). A game in progress between two people is not analysed:
//! its players must not get the engine's help (a position copied by hand cannot be
//! told apart, which the fair-play rules of every site leave to moderation).

use std::sync::Mutex as SyncMutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};
use tablero_games::{AnyEngine, AnyPosition, AnyRecord, GameKind, Limits, SearchRequest};
use tokio::sync::Semaphore;

use crate::{ApiError, ApiJson, AppState};

/// The default search time.
const DEFAULT_TIME: Duration = Duration::from_millis(1_000);

/// The longest search a request may ask for.
pub(crate) const LONGEST: Duration = Duration::from_millis(5_000);

/// The shortest: below it the answer says little.
const SHORTEST: Duration = Duration::from_millis(50);

/// The most lines one search reports.
pub(crate) const MOST_LINES: usize = 5;

/// How long a request waits for a free analyst before it is told to retry.
const QUEUE_WAIT: Duration = Duration::from_secs(10);

/// Hash table of each analysis engine, in MiB.
const HASH_MB: usize = 16;

/// The engines that analyse, kept between searches, at most `permits` at once.
#[derive(Debug)]
pub(crate) struct Analysts {
    permits: Semaphore,
    idle: SyncMutex<Vec<AnyEngine>>,
}

impl Analysts {
    /// A pool of `searches` analysts at once (at least one).
    pub(crate) fn new(searches: usize) -> Analysts {
        Analysts {
            permits: Semaphore::new(searches.max(1)),
            idle: SyncMutex::new(Vec::new()),
        }
    }
}

/// The request's body.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    game: Option<String>,
    variant: Option<String>,
    position: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// A stored game to analyse instead of `game`/`variant`/`position`/`moves`.
    game_id: Option<String>,
    /// With `game_id`: the position after this many plies (default: the last).
    ply: Option<usize>,
    movetime_ms: Option<u64>,
    multipv: Option<usize>,
}

/// The record to analyse: from a stored game or from the request's own position.
async fn record_of(state: &AppState, request: &AnalyseRequest) -> Result<AnyRecord, ApiError> {
    if let Some(id) = &request.game_id {
        if request.game.is_some()
            || request.variant.is_some()
            || request.position.is_some()
            || !request.moves.is_empty()
        {
            return Err(ApiError::bad_request(
                "give game_id (a stored game, with ply) or game (with variant, position, moves), not both",
            ));
        }
        let slot = state.games.slot(id).await?;
        let game = slot.game.lock().await;
        if game.ended.is_none() && game.seats.iter().all(|seat| seat.level.is_none()) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "game {id:?} is in progress between people: it can be analysed once it ends"
                ),
            )
            .with_code("analysis_of_game_in_progress"));
        }
        let plies = game.record.plies();
        let ply = request.ply.unwrap_or(plies);
        if ply > plies {
            return Err(ApiError::bad_request(format!(
                "ply {ply}: game {id:?} has {plies} plies"
            )));
        }
        let mut record = AnyRecord::new(game.record.start().clone());
        for m in &game.record.moves()[..ply] {
            record
                .play_text(&m.text)
                .map_err(|e| ApiError::bad_request(format!("stored move {}: {e}", m.text)))?;
        }
        return Ok(record);
    }
    if request.ply.is_some() {
        return Err(ApiError::bad_request("ply goes with game_id"));
    }
    let Some(game) = &request.game else {
        return Err(ApiError::bad_request(
            "give game (with variant, position, moves) or game_id",
        ));
    };
    let kind: GameKind = game.parse().map_err(|e| ApiError::unknown_game(&e))?;
    let variant = kind
        .variant(request.variant.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let start = AnyPosition::of(kind, variant, request.position.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let mut record = AnyRecord::new(start);
    for (i, text) in request.moves.iter().enumerate() {
        // The record's message names the move already: the number says which one.
        record.play_text(text).map_err(|e| match e.refusal() {
            Some(refusal) => ApiError::refused(format!("move {}: {e}", i + 1), &refusal),
            None => ApiError::bad_request(format!("move {}: {e}", i + 1)),
        })?;
    }
    Ok(record)
}

/// `POST /api/analyse`.
pub(crate) async fn analyse(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnalyseRequest>,
) -> Result<Json<Value>, ApiError> {
    let movetime = match request.movetime_ms {
        None => DEFAULT_TIME,
        Some(ms) => {
            let asked = Duration::from_millis(ms);
            if !(SHORTEST..=LONGEST).contains(&asked) {
                return Err(ApiError::bad_request(format!(
                    "movetime_ms {ms}: expected {} to {}",
                    SHORTEST.as_millis(),
                    LONGEST.as_millis()
                )));
            }
            asked
        }
    };
    let lines = request.multipv.unwrap_or(1);
    if !(1..=MOST_LINES).contains(&lines) {
        return Err(ApiError::bad_request(format!(
            "multipv {lines}: expected 1 to {MOST_LINES}"
        )));
    }
    let record = record_of(&state, &request).await?;
    let position = record.position().clone();
    let turn = record.kind().side_name(position.turn());
    if position.legal_moves_text().is_empty() {
        return Ok(Json(json!({
            "turn": turn, "depth": 0, "nodes": 0, "lines": [],
            "outcome": record.outcome().map(|o| o.to_string()),
        })));
    }
    let analysts = &state.analysts;
    let _permit = tokio::time::timeout(QUEUE_WAIT, analysts.permits.acquire())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "every analyst is busy: retry in a few seconds",
            )
            .with_code("analysis_busy")
        })?;
    let engine = analysts
        .idle
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .pop();
    let history = record.history().to_vec();
    let (engine, result) = crate::routes::blocking(move || {
        let engine = match engine {
            Some(e) if e.plays(&position) => e,
            _ => AnyEngine::for_game(&position, HASH_MB),
        };
        // Each request is its own analysis: what an earlier one left in the table
        // would make the same request answer differently.
        engine.new_game();
        let request = SearchRequest {
            limits: Limits {
                movetime: Some(movetime),
                ..Limits::default()
            },
            multipv: lines,
            threads: 1,
            ..SearchRequest::default()
        };
        let result = engine.search(
            &position,
            &history,
            &request,
            &AtomicBool::new(false),
            |_| {},
        );
        let lines: Vec<Value> = result
            .info
            .lines
            .iter()
            .map(|line| {
                let mut board = position.clone();
                let notation: Vec<String> = line
                    .pv
                    .iter()
                    .map_while(|m| board.play_text_with_notation(m).ok().map(|(_, n)| n))
                    .collect();
                json!({
                    "score": line.score,
                    "mate": tablero_games::mate_in_moves(line.score),
                    "pv": line.pv,
                    "pv_notation": notation,
                })
            })
            .collect();
        Ok((
            engine,
            json!({
                "turn": turn,
                "depth": result.info.depth,
                "nodes": result.info.nodes,
                "lines": lines,
                "outcome": Value::Null,
            }),
        ))
    })
    .await?;
    analysts
        .idle
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(engine);
    Ok(Json(result))
}
