//! `POST /api/analyse`: the engine's view of a position for the analysis board — the
//! evaluation, the best lines in the move format and in the game's notation, the depth
//! and nodes. A search is capped in time ([`LONGEST`]), counted against the client's
//! analysis quota (the `analyses` rate limit) and run by a small pool of its own, so
//! that analysis never slows the computer's moves in games.
//!
//! `POST /api/positions` gives the same position's board, legal moves and move list
//! without the engine, for the analysis board to draw.
//!
//! A position is given as a game, variant, start and moves, or as a stored game
//! (`game_id`, up to `ply`). The players of a game in progress between two people get
//! no engine for it (a request with one of its seat tokens is refused); onlookers may
//! analyse it. A position copied by hand cannot be told apart, which the fair-play
//! rules of every site leave to moderation.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tablero_core::{Outcome, Side};
use tablero_games::{
    AnyEngine, AnyPosition, AnyRecord, GameKind, Limits, PiecePlacement, Place, SearchRequest,
    Variant,
};
use tokio::sync::Semaphore;

use crate::view::{BoardView, MoveHintView, MoveView, OutcomeView};
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
    /// Held by each search until its blocking thread ends, not only while its request
    /// waits: a client that hangs up must not let more searches run than this.
    permits: Arc<Semaphore>,
    idle: SyncMutex<Vec<AnyEngine>>,
}

impl Analysts {
    /// A pool of `searches` analysts at once (at least one).
    pub(crate) fn new(searches: usize) -> Analysts {
        Analysts {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            idle: SyncMutex::new(Vec::new()),
        }
    }
}

/// The body of both requests: the position, and for `/api/analyse` the search.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    game: Option<String>,
    variant: Option<String>,
    position: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// A board set up piece by piece (a position editor), instead of `position`.
    pieces: Option<Vec<PieceRequest>>,
    /// With `pieces`: the side to move (default: the game's first side).
    turn: Option<String>,
    /// A stored game to analyse instead of `game`/`variant`/`position`/`moves`.
    game_id: Option<String>,
    /// With `game_id`: the position after this many plies (default: the last).
    ply: Option<usize>,
    movetime_ms: Option<u64>,
    multipv: Option<usize>,
}

/// What the analysis board draws: the position after the moves, its pieces and legal
/// moves with their squares, the moves with their notation, and the result if the
/// rules have ended the game.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct AnalysisBoard {
    game: &'static str,
    variant: &'static str,
    start_position: String,
    position: String,
    turn: &'static str,
    moves: Vec<MoveView>,
    board: BoardView,
    legal_moves: Vec<MoveHintView>,
    last_move: Option<MoveHintView>,
    outcome: Option<OutcomeView>,
}

/// `POST /api/positions`: the board of a position for the analysis board, with no
/// engine (so also for a game in progress, as any spectator sees it).
pub(crate) async fn position(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnalyseRequest>,
) -> Result<Json<AnalysisBoard>, ApiError> {
    if request.movetime_ms.is_some() || request.multipv.is_some() {
        return Err(ApiError::bad_request(
            "movetime_ms and multipv are for /api/analyse: /api/positions asks no engine",
        ));
    }
    let record = record_of(&state, &request, Engine::NotUsed, None).await?;
    let kind = record.kind();
    let sides = kind.info().sides;
    let position = record.position();
    let outcome = record.outcome().map(|o| OutcomeView {
        winner: o.winner().map(|w| sides[w.index()]),
        reason: o.reason().id(),
        result: o.result_str(),
        text: match o {
            Outcome::Win { winner, reason } => {
                format!("{} wins by {reason}", sides[winner.index()])
            }
            Outcome::Draw { reason } => format!("draw by {reason}"),
        },
    });
    let legal_moves = if outcome.is_some() {
        Vec::new()
    } else {
        position
            .move_hints()
            .into_iter()
            .map(MoveHintView::from)
            .collect()
    };
    Ok(Json(AnalysisBoard {
        game: kind.id(),
        variant: record.start().variant_id(),
        start_position: record.start().position_text(),
        position: position.position_text(),
        turn: sides[position.turn().index()],
        moves: record
            .moves()
            .iter()
            .map(|m| MoveView {
                r#move: m.text.clone(),
                notation: m.notation.clone(),
                notation_zh: None,
            })
            .collect(),
        board: BoardView::of(position, sides),
        legal_moves,
        last_move: MoveHintView::played(&record, record.plies()),
        outcome,
    }))
}

/// Whether the record is wanted for the engine (which a game in progress between
/// people may not have) or only to be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Used,
    NotUsed,
}

/// A piece of a board set up by hand: its spot `[level, x, y]` (as the state's board
/// names spots), its side's name and its kind letter (as the state's pieces have it).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PieceRequest {
    at: [u8; 3],
    side: String,
    kind: String,
}

/// The start position the request gives: its position text, its pieces, or the
/// game's start.
fn start_of(
    request: &AnalyseRequest,
    kind: GameKind,
    variant: Variant,
) -> Result<AnyPosition, ApiError> {
    let bad = |e: tablero_games::GamesError| ApiError::bad_request(e.to_string());
    let Some(pieces) = &request.pieces else {
        if request.turn.is_some() {
            return Err(ApiError::bad_request("turn goes with pieces"));
        }
        return AnyPosition::of(kind, variant, request.position.as_deref()).map_err(bad);
    };
    if request.position.is_some() {
        return Err(ApiError::bad_request("give position or pieces, not both"));
    }
    let info = kind.info();
    let side_named = |name: &str| {
        [Side::White, Side::Black]
            .into_iter()
            .find(|s| info.sides[s.index()] == name)
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "side {name:?}: expected {} or {}",
                    info.sides[0], info.sides[1]
                ))
            })
    };
    let height = AnyPosition::of(kind, variant, None)
        .map_err(bad)?
        .board_description()
        .height;
    let placements = pieces
        .iter()
        .map(|p| {
            let [level, x, y] = p.at;
            let mut letters = p.kind.chars();
            let (Some(letter), None) = (letters.next(), letters.next()) else {
                return Err(ApiError::bad_request(format!(
                    "piece kind {:?}: expected one letter",
                    p.kind
                )));
            };
            Ok(PiecePlacement {
                place: Place {
                    level,
                    // Spots count rows from the bottom, places from the top.
                    row: height
                        .checked_sub(1)
                        .and_then(|top| top.checked_sub(y))
                        .ok_or_else(|| {
                            ApiError::bad_request(format!("spot {:?} is off the board", p.at))
                        })?,
                    column: x,
                },
                side: side_named(&p.side)?,
                letter,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let turn = match &request.turn {
        Some(name) => side_named(name)?,
        None => Side::White,
    };
    AnyPosition::compose(kind, variant, &placements, turn).map_err(bad)
}

/// The record to analyse: from a stored game or from the request's own position.
async fn record_of(
    state: &AppState,
    request: &AnalyseRequest,
    engine: Engine,
    token: Option<&str>,
) -> Result<AnyRecord, ApiError> {
    if let Some(id) = &request.game_id {
        if request.game.is_some()
            || request.variant.is_some()
            || request.position.is_some()
            || request.pieces.is_some()
            || !request.moves.is_empty()
        {
            return Err(ApiError::bad_request(
                "give game_id (a stored game, with ply) or game (with variant, position, moves), not both",
            ));
        }
        let slot = state.games.slot(id).await?;
        let game = slot.game.lock().await;
        // A player of a game in progress against a person gets no engine: the request
        // that shows one of its seats' tokens is refused (the web page of a player sends
        // it); onlookers may analyse, as they could by copying the position.
        if engine == Engine::Used
            && game.ended.is_none()
            && game.seats.iter().all(|seat| seat.level.is_none())
            && game.seat_of(token).is_ok()
        {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "game {id:?} is in progress against a person: its players can analyse it once it ends"
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
    let start = start_of(request, kind, variant)?;
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
    headers: axum::http::HeaderMap,
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
    let record = record_of(
        &state,
        &request,
        Engine::Used,
        crate::routes::bearer(&headers),
    )
    .await?;
    let position = record.position().clone();
    let turn = record.kind().side_name(position.turn());
    if position.legal_moves_text().is_empty() {
        let outcome = record.outcome();
        return Ok(Json(json!({
            "turn": turn, "depth": 0, "nodes": 0, "lines": [],
            "outcome": outcome.map(|o| o.to_string()),
            "result": outcome.map(|o| o.result_str()),
        })));
    }
    let analysts = &state.analysts;
    let permit = tokio::time::timeout(QUEUE_WAIT, Arc::clone(&analysts.permits).acquire_owned())
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
        let _permit = permit;
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
