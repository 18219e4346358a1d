//! Players and reports: the registry (list, search, standings with ratings, import
//! of a player file, delete) and the four Graphviz reports as DOT or SVG.

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tablero_reports::{
    Diagram, Order, PlayerLine, ReportKind, board_level, linearisation, player_tree, replay,
    sparse_matrix, standings, top_ten,
};
use tablero_store::{PlayerRecord, parse_player_file};

use crate::{ApiError, ApiJson, AppState};

/// A player file may be larger than an ordinary request.
const PLAYER_FILE_LIMIT: usize = 1024 * 1024;

/// The routes of this module, merged into the app's router.
pub(crate) fn routes(imports: &crate::limits::Limiter) -> Router<AppState> {
    // The fixed paths below /api/players are also valid player names: their other
    // methods reach that player.
    let named = |name: &'static str| {
        delete(
            move |State(state): State<AppState>, headers: HeaderMap| async move {
                delete_player(&state, &headers, name.to_owned()).await
            },
        )
    };
    Router::new()
        .route("/api/players", get(list))
        .route(
            "/api/players/standings",
            get(standings_of).merge(named("standings")),
        )
        .route(
            "/api/players/import",
            imports
                .on(post(import).layer(DefaultBodyLimit::max(PLAYER_FILE_LIMIT)))
                .get(|State(state): State<AppState>| async move {
                    one_player(&state, "import".to_owned()).await
                })
                .merge(named("import")),
        )
        .route(
            "/api/players/{name}",
            get(
                |State(state): State<AppState>, Path(name): Path<String>| async move {
                    one_player(&state, name).await
                },
            )
            .delete(
                |State(state): State<AppState>,
                 Path(name): Path<String>,
                 headers: HeaderMap| async move {
                    delete_player(&state, &headers, name).await
                },
            ),
        )
        .route("/api/reports/{kind}", get(report))
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(q)| q)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

fn counts(won: u32, lost: u32, drawn: u32) -> Value {
    json!({ "won": won, "lost": lost, "drawn": drawn })
}

fn rating_json(r: &tablero_store::PlayerRating) -> Value {
    json!({
        "rating": (r.rating.rating * 10.0).round() / 10.0,
        "deviation": (r.rating.deviation * 10.0).round() / 10.0,
        "volatility": (r.rating.volatility * 1e6).round() / 1e6,
        "games": r.games,
    })
}

fn player_json(p: &PlayerRecord) -> Value {
    let stats: Map<String, Value> = p
        .stats
        .iter()
        .map(|s| (s.game.clone(), counts(s.won, s.lost, s.drawn)))
        .collect();
    let ratings: Map<String, Value> = p
        .ratings
        .iter()
        .map(|r| (r.game.clone(), rating_json(r)))
        .collect();
    let total = p.totals(None);
    json!({
        "name": p.name,
        "number": p.number,
        "registered_at": p.created_at,
        "stats": stats,
        "ratings": ratings,
        "imported": p.imported.as_ref().map(|i| json!({
            "won": i.won, "lost": i.lost, "imported_at": i.imported_at,
        })),
        "total": counts(total.won, total.lost, total.drawn),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    /// Only names containing this text, ignoring case.
    search: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let store = state.games.store();
    let players = match q.search.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => store.search_players(text).await?,
        _ => store.players().await?,
    };
    let players: Vec<Value> = players.iter().map(player_json).collect();
    Ok(Json(json!({ "players": players })))
}

async fn one_player(state: &AppState, name: String) -> Result<Json<Value>, ApiError> {
    let player = state.games.store().player(&name).await?;
    player.map(|p| Json(player_json(&p))).ok_or_else(|| {
        ApiError::not_found(format!("no player named {name:?}")).with_code("player_not_found")
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StandingsQuery {
    /// A game kind: its games only, with ratings. Default: every kind plus the
    /// imported counts.
    game: Option<String>,
}

async fn standings_of(
    State(state): State<AppState>,
    q: Result<Query<StandingsQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let game = q.game.as_deref();
    if let Some(game) = game
        && let Err(e) = game.parse::<tablero_games::GameKind>()
    {
        return Err(ApiError::unknown_game(&e));
    }
    let players = state.games.store().players().await?;
    let played: Vec<&PlayerRecord> = players
        .iter()
        .filter(|p| {
            game.is_none_or(|g| p.stats.iter().any(|s| s.game == g) || p.rating(g).is_some())
        })
        .collect();
    let lines: Vec<PlayerLine> = played
        .iter()
        .map(|p| {
            let t = p.totals(game);
            PlayerLine {
                name: p.name.clone(),
                won: t.won,
                lost: t.lost,
            }
        })
        .collect();
    let rows: Vec<Value> = standings(&lines)
        .into_iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let p = played.iter().find(|p| p.name == line.name)?;
            let t = p.totals(game);
            let mut row = json!({
                "place": i + 1,
                "name": p.name,
                "won": t.won,
                "lost": t.lost,
                "drawn": t.drawn,
            });
            if let Some(object) = row.as_object_mut() {
                match game {
                    Some(g) => {
                        object.insert(
                            "rating".into(),
                            p.rating(g).map_or(Value::Null, rating_json),
                        );
                    }
                    None => {
                        let ratings: Map<String, Value> = p
                            .ratings
                            .iter()
                            .map(|r| (r.game.clone(), rating_json(r)))
                            .collect();
                        object.insert("ratings".into(), Value::Object(ratings));
                    }
                }
            }
            Some(row)
        })
        .collect();
    Ok(Json(json!({ "game": game, "standings": rows })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    /// The player file: `Name_Won_Lost;` records.
    text: String,
}

async fn import(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<ImportRequest>,
) -> Result<Json<Value>, ApiError> {
    check_admin(&state, &headers)?;
    let entries = parse_player_file(&request.text)
        .map_err(|e| ApiError::bad_request(format!("nothing imported: {e}")))?;
    let summary = state.games.store().import_players(&entries).await?;
    Ok(Json(json!({
        "records": entries.len(),
        "added": summary.added,
        "updated": summary.updated,
    })))
}

/// Changing players (importing, deleting) is for the administrator: the request
/// carries the token the server was started with (`--admin-token`).
fn check_admin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(hash) = &state.options.admin_token_hash else {
        return Err(ApiError::forbidden(
            "changing players is turned off: start the server with --admin-token \
             (or TABLERO_ADMIN_TOKEN) and send that token",
        )
        .with_code("admin_disabled"));
    };
    match crate::routes::bearer(headers) {
        None => Err(ApiError::unauthorized(
            "changing players needs the administrator token: send `Authorization: Bearer <token>`",
        )
        .with_code("admin_token_required")),
        Some(token) if tablero_store::token_matches(hash, token) => Ok(()),
        Some(_) => Err(
            ApiError::forbidden("the administrator token is not the server's")
                .with_code("admin_token_invalid"),
        ),
    }
}

async fn delete_player(
    state: &AppState,
    headers: &HeaderMap,
    name: String,
) -> Result<Json<Value>, ApiError> {
    check_admin(state, headers)?;
    if state.games.store().delete_player(&name).await? {
        Ok(Json(json!({ "deleted": name })))
    } else {
        Err(ApiError::not_found(format!("no player named {name:?}")).with_code("player_not_found"))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportQuery {
    /// `dot` (default) or `svg`.
    format: Option<String>,
    /// Board reports: a stored game, drawn after its last move.
    game_id: Option<String>,
    /// Board reports: a game kind, drawn from `position` or its start.
    game: Option<String>,
    variant: Option<String>,
    position: Option<String>,
    /// Moves played from `position`, separated by spaces.
    moves: Option<String>,
    /// Chess3d's level (0–2).
    level: Option<u8>,
    /// Linearisation order: `row` (default) or `column`.
    order: Option<String>,
}

/// The players as the player reports draw them: each name with its wins and losses
/// over every game kind and the imported counts. Shared with `tablero report`.
#[must_use]
pub fn player_lines(players: &[PlayerRecord]) -> Vec<PlayerLine> {
    players
        .iter()
        .map(|p| {
            let t = p.totals(None);
            PlayerLine {
                name: p.name.clone(),
                won: t.won,
                lost: t.lost,
            }
        })
        .collect()
}

async fn report(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    q: Result<Query<ReportQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let bad = |e: tablero_reports::ReportError| ApiError::bad_request(e.to_string());
    let kind: ReportKind = kind
        .parse()
        .map_err(|e| ApiError::not_found(format!("{e}")))?;
    let svg = match q.format.as_deref() {
        None | Some("dot") => false,
        Some("svg") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "format {other:?}: expected dot or svg"
            )));
        }
    };
    let board_only = |name: &str, given: bool| {
        if given && matches!(kind, ReportKind::Players | ReportKind::Top10) {
            Err(ApiError::bad_request(format!(
                "{name} is for the board and linear reports"
            )))
        } else {
            Ok(())
        }
    };
    board_only("game_id", q.game_id.is_some())?;
    board_only("game", q.game.is_some())?;
    board_only("level", q.level.is_some())?;
    if q.order.is_some() && kind != ReportKind::Linear {
        return Err(ApiError::bad_request("order is for the linear report"));
    }
    // The store is read here; replaying, laying out and drawing run on a blocking
    // thread (a large registry or a long game must not hold up other requests).
    let diagram: Diagram = match kind {
        ReportKind::Board | ReportKind::Linear => {
            let moves: Vec<String> = q
                .moves
                .as_deref()
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_owned)
                .collect();
            let stored = match (&q.game_id, &q.game) {
                (Some(id), None) => {
                    if q.variant.is_some() || q.position.is_some() || !moves.is_empty() {
                        return Err(ApiError::bad_request(
                            "give either game_id or game (with variant, position, moves)",
                        ));
                    }
                    Some(
                        state
                            .games
                            .store()
                            .game(id)
                            .await?
                            .ok_or_else(|| ApiError::game_not_found(id))?,
                    )
                }
                (None, Some(_)) => None,
                _ => {
                    return Err(ApiError::bad_request(
                        "give game_id (a stored game) or game (with variant, position, moves)",
                    ));
                }
            };
            let order: Order = q.order.as_deref().unwrap_or("row").parse().map_err(bad)?;
            let (game, variant, position, level) = (q.game, q.variant, q.position, q.level);
            crate::routes::blocking(move || {
                let position = match stored {
                    Some(stored) => replay(
                        &stored.game,
                        Some(&stored.variant),
                        Some(&stored.start_position),
                        stored.moves.iter().map(|m| m.text.as_str()),
                    )
                    .map_err(|e| {
                        tracing::error!(game = %stored.id, error = %e, "a stored game cannot be replayed");
                        ApiError::new(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            format!("game {:?} cannot be replayed", stored.id),
                        )
                    })?,
                    None => replay(
                        game.as_deref().unwrap_or_default(),
                        variant.as_deref(),
                        position.as_deref(),
                        moves.iter().map(String::as_str),
                    )
                    .map_err(bad)?,
                };
                let board = board_level(&position, level).map_err(bad)?;
                Ok(if kind == ReportKind::Board {
                    sparse_matrix(&board)
                } else {
                    linearisation(&board, order)
                })
            })
            .await?
        }
        ReportKind::Players | ReportKind::Top10 => {
            if q.variant.is_some() || q.position.is_some() || q.moves.is_some() {
                return Err(ApiError::bad_request(
                    "variant, position and moves are for the board and linear reports",
                ));
            }
            let players = state.games.store().players().await?;
            crate::routes::blocking(move || {
                let lines = player_lines(&players);
                Ok(if kind == ReportKind::Players {
                    player_tree(&lines)
                } else {
                    top_ten(&lines)
                })
            })
            .await?
        }
    };
    let file = format!("tablero-{}", kind.id());
    let (content_type, body, extension) = crate::routes::blocking(move || {
        Ok(if svg {
            ("image/svg+xml", diagram.to_svg(), "svg")
        } else {
            ("text/vnd.graphviz; charset=utf-8", diagram.to_dot(), "dot")
        })
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{file}.{extension}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response())
}
