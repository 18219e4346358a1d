//! Games and their moves.

use sqlx::{Row, SqliteConnection};
use tablero_core::Side;

use crate::writer::{MoveWrite, Written};
use crate::{NOW, SqliteStore, StoreError};

/// How the seats of a game are filled. Stored as its id; requests name it by the
/// same id (serde).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Two people on one device: the creator holds both seats.
    Hotseat,
    /// A person against the computer (or the computer against itself).
    Computer,
    /// Two people on two devices: the second joins by an invite link.
    Online,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 3] = [Mode::Hotseat, Mode::Computer, Mode::Online];

    /// The stable id: `hotseat`, `computer`, `online`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Mode::Hotseat => "hotseat",
            Mode::Computer => "computer",
            Mode::Online => "online",
        }
    }

    /// The mode with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// Whether a game goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// Moves may still be played.
    Playing,
    /// The game has a result.
    Finished,
}

impl GameStatus {
    /// The stable id: `playing` or `finished`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
        }
    }

    /// The status with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<GameStatus> {
        [GameStatus::Playing, GameStatus::Finished]
            .into_iter()
            .find(|s| s.id() == id)
    }
}

/// Which games a listing holds ([`crate::Store::list_games`]); the default: all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games with this status.
    pub status: Option<GameStatus>,
    /// Only games of this game id (`chess`, `xiangqi`, ...).
    pub game: Option<String>,
    /// Only these games (a browser's own games), when given.
    pub ids: Option<Vec<String>>,
}

impl GameFilter {
    /// The ids as a JSON array (the listing queries' parameter), or `None` for all.
    pub(crate) fn ids_json(&self) -> Option<String> {
        self.ids
            .as_ref()
            .map(|ids| serde_json::Value::from(ids.clone()).to_string())
    }
}

/// Which clock a game has; requests name it by its id (serde).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockKind {
    /// Each side has its own time, plus an increment after each of its moves.
    Fischer,
    /// Chess3d's timed mode: one clock for the whole game.
    Game,
}

impl ClockKind {
    /// The stable id: `fischer` or `game`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            ClockKind::Fischer => "fischer",
            ClockKind::Game => "game",
        }
    }

    /// The kind with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<ClockKind> {
        [ClockKind::Fischer, ClockKind::Game]
            .into_iter()
            .find(|k| k.id() == id)
    }
}

/// A game's time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockRecord {
    /// Per side (Fischer) or for the whole game.
    pub kind: ClockKind,
    /// The time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added after each move of a side (Fischer only), in milliseconds.
    pub increment_ms: u64,
}

/// Who sits on one side.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seat {
    /// A person's name, if a person plays this side.
    pub name: Option<String>,
    /// The computer's level (1–10), if the computer plays this side.
    pub level: Option<u8>,
    /// The SHA-256 of the secret that lets a person move for this side
    /// ([`crate::token_hash`]): the secret itself is never stored.
    pub token_hash: Option<String>,
}

/// How a game ends: stored with its last move, or on its own (resignation, agreement,
/// claim, flag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The winner (`None`: a draw).
    pub winner: Option<Side>,
    /// Why it ended (a `Reason` id).
    pub reason: String,
    /// The remaining times at the end, white (red) first.
    pub remaining_ms: [Option<u64>; 2],
}

/// One move as stored: the move text and the clocks right after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move in the game's move format.
    pub text: String,
    /// White's (red's) remaining time after the move, in milliseconds.
    pub white_ms: Option<u64>,
    /// Black's remaining time after the move, in milliseconds.
    pub black_ms: Option<u64>,
}

/// A game to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The game's id (unique).
    pub id: String,
    /// The game kind id (`chess`, `xiangqi`, `draughts`, `chess3d`).
    pub game: String,
    /// The variant id.
    pub variant: String,
    /// The start position in the game's position format.
    pub start_position: String,
    /// Chess3d's generator seed.
    pub seed: Option<u64>,
    /// How the seats are filled.
    pub mode: Mode,
    /// The seats, white (red) first.
    pub seats: [Seat; 2],
    /// The time control, if any.
    pub clock: Option<ClockRecord>,
    /// Moves already played (an imported game).
    pub moves: Vec<MoveRecord>,
    /// The result of a game that is already over: winner and reason id.
    pub finished: Option<(Option<Side>, String)>,
    /// Tags of an imported record kept for its export (`Event`, `Date`, the players
    /// as the file names them, ...), in file order.
    pub tags: Vec<(String, String)>,
}

/// A stored game with every move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's id.
    pub id: String,
    /// The game kind id.
    pub game: String,
    /// The variant id.
    pub variant: String,
    /// The start position in the game's position format.
    pub start_position: String,
    /// Chess3d's generator seed.
    pub seed: Option<u64>,
    /// How the seats are filled.
    pub mode: Mode,
    /// The seats, white (red) first.
    pub seats: [Seat; 2],
    /// The time control, if any.
    pub clock: Option<ClockRecord>,
    /// The remaining times after the last move, white (red) first.
    pub remaining_ms: [Option<u64>; 2],
    /// In a game in progress, how long the side to move had been thinking when the
    /// record was read (since its turn started, see `updated_at`), in milliseconds.
    /// For the games read at start-up ([`crate::Store::unfinished_games`]) it counts only up
    /// to the previous run's last heartbeat: the clocks stop while no server runs.
    pub turn_used_ms: u64,
    /// Whether the game goes on.
    pub status: GameStatus,
    /// The winner of a finished game (`None`: a draw, or still playing).
    pub winner: Option<Side>,
    /// Why a finished game ended (a `Reason` id).
    pub reason: Option<String>,
    /// When it was created (UTC, RFC 3339).
    pub created_at: String,
    /// When it last changed (UTC, RFC 3339): in a game in progress, when the side
    /// to move's turn started.
    pub updated_at: String,
    /// The moves, first one first.
    pub moves: Vec<MoveRecord>,
    /// Tags of an imported record kept for its export, in file order.
    pub tags: Vec<(String, String)>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// The side whose take-back request stands.
    pub takeback_request: Option<Side>,
    /// On PostgreSQL, how many changes the game has had: every process numbers the
    /// game's states by it. `None` on SQLite, where one process numbers them.
    pub version: Option<u64>,
}

/// A game in a list: no moves, no tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// The game kind id.
    pub game: String,
    /// The variant id.
    pub variant: String,
    /// How the seats are filled.
    pub mode: Mode,
    /// Names and levels of the seats, white (red) first; tokens are left out.
    pub seats: [Seat; 2],
    /// Whether the game goes on.
    pub status: GameStatus,
    /// The winner of a finished game.
    pub winner: Option<Side>,
    /// Why a finished game ended.
    pub reason: Option<String>,
    /// How many moves (plies) were played.
    pub plies: u32,
    /// When it was created.
    pub created_at: String,
    /// When it last changed.
    pub updated_at: String,
}

pub(crate) const SIDES: [Side; 2] = [Side::White, Side::Black];

impl GameRecord {
    /// Moves are stored without touching the game's row (see `writer.rs`): the row's
    /// clocks are those of its creation, last takeback or end. A game in progress is
    /// as its last move left it.
    pub(crate) fn follow_last_move(&mut self) {
        if self.status != GameStatus::Playing {
            return;
        }
        if let Some(last) = self.moves.last() {
            self.remaining_ms = [last.white_ms, last.black_ms];
        }
    }
}

pub(crate) fn ms(value: Option<u64>) -> Option<i64> {
    value.map(|v| i64::try_from(v).unwrap_or(i64::MAX))
}

pub(crate) fn from_ms(value: Option<i64>) -> Option<u64> {
    value.map(|v| u64::try_from(v).unwrap_or(0))
}

pub(crate) fn side_id(side: Side) -> &'static str {
    side.fold("white", "black")
}

/// Ends the game `id` if it is in progress, and counts it for its named players (and
/// rates it between two different named people, unless it was a hot-seat game), on
/// `conn` inside the caller's transaction.
pub(crate) async fn finish(
    conn: &mut SqliteConnection,
    id: &str,
    end: &GameEnd,
) -> Result<(), StoreError> {
    let row = sqlx::query(&format!(
        "UPDATE games SET status = 'finished', winner = ?, reason = ?,
            white_ms = ?, black_ms = ?, updated_at = {NOW},
            draw_offer = NULL, takeback_request = NULL
         WHERE id = ? AND status = 'playing'
         RETURNING game, mode, white_name, black_name"
    ))
    .bind(end.winner.map(side_id))
    .bind(&end.reason)
    .bind(ms(end.remaining_ms[0]))
    .bind(ms(end.remaining_ms[1]))
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Err(refusal(conn, id, "result", 0).await);
    };
    let kind: String = row.try_get("game")?;
    let mut names = [None, None];
    for side in SIDES {
        let name: Option<String> = row.try_get(side.fold("white_name", "black_name"))?;
        if let Some(name) = &name {
            let column = match end.winner {
                None => "drawn",
                Some(w) if w == side => "won",
                Some(_) => "lost",
            };
            crate::players::count_result(conn, name, &kind, column).await?;
        }
        names[side.index()] = name;
    }
    // A hot-seat game is one person holding both seats, whatever the names say: its
    // result counts, but says nothing of either name's strength (lichess rates no
    // such games either).
    let mode: String = row.try_get("mode")?;
    if let [Some(white), Some(black)] = &names
        && mode != Mode::Hotseat.id()
    {
        crate::players::rate_game(conn, &kind, [white, black], end.winner).await?;
    }
    Ok(())
}

/// Why a conditional write matched no row.
async fn refusal(conn: &mut SqliteConnection, id: &str, what: &str, ply: usize) -> StoreError {
    let status: Result<Option<(String, i64)>, sqlx::Error> = sqlx::query_as(
        "SELECT status, (SELECT count(*) FROM moves WHERE game_id = games.id)
         FROM games WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(conn)
    .await;
    match status {
        Ok(found) => refusal_of(id, what, ply, found),
        Err(e) => StoreError::Database(e),
    }
}

/// Why a write for game `id` (`what`, for move number `ply`) was refused, given the
/// game's status and move count as found (`None`: no such game).
pub(crate) fn refusal_of(
    id: &str,
    what: &str,
    ply: usize,
    found: Option<(String, i64)>,
) -> StoreError {
    match found {
        None => StoreError::UnknownGame(id.to_owned()),
        Some((status, _)) if status != GameStatus::Playing.id() => StoreError::Conflict {
            id: id.to_owned(),
            reason: format!("{what} refused: the game is {status}"),
        },
        Some((_, plies)) => StoreError::Conflict {
            id: id.to_owned(),
            reason: format!("{what} refused: the game has {plies} moves (write for {ply})"),
        },
    }
}

impl SqliteStore {
    /// See [`crate::Store::create_game`].
    pub(crate) async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let game = game.clone();
        self.writer()?
            .transaction(move |conn| Box::pin(async move { insert_game(conn, &game).await }))
            .await
    }

    /// See [`crate::Store::append_move`].
    pub(crate) async fn append_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
    ) -> Result<(), StoreError> {
        self.write_move(id, ply, m, None).await
    }

    /// See [`crate::Store::append_final_move`].
    pub(crate) async fn append_final_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
        end: &GameEnd,
    ) -> Result<(), StoreError> {
        self.write_move(id, ply, m, Some(end.clone())).await
    }

    async fn write_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
        end: Option<GameEnd>,
    ) -> Result<(), StoreError> {
        let (done, answer) = tokio::sync::oneshot::channel();
        let write = MoveWrite {
            id: id.to_owned(),
            ply: i64::try_from(ply).unwrap_or(i64::MAX),
            record: m.clone(),
            end,
            done,
        };
        self.writer()?.write_move(write).await?;
        let written = answer
            .await
            .map_err(|_| StoreError::Failed("the store is closed".to_owned()))??;
        match written {
            Written::Stored => Ok(()),
            Written::Refused => {
                let mut conn = self.pool.acquire().await?;
                Err(refusal(&mut conn, id, "move", ply).await)
            }
        }
    }

    /// See [`crate::Store::take_back`].
    pub(crate) async fn take_back(
        &self,
        id: &str,
        keep: usize,
        remaining_ms: [Option<u64>; 2],
    ) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.writer()?
            .transaction(move |conn| {
                Box::pin(async move {
                    let keep = i64::try_from(keep).unwrap_or(i64::MAX);
                    let updated = sqlx::query(&format!(
                        "UPDATE games SET white_ms = ?, black_ms = ?, updated_at = {NOW}
                         WHERE id = ? AND status = 'playing'
                           AND (SELECT count(*) FROM moves WHERE game_id = ?) >= ?"
                    ))
                    .bind(ms(remaining_ms[0]))
                    .bind(ms(remaining_ms[1]))
                    .bind(&id)
                    .bind(&id)
                    .bind(keep)
                    .execute(&mut *conn)
                    .await?;
                    if updated.rows_affected() == 0 {
                        return Err(refusal(conn, &id, "take-back", 0).await);
                    }
                    sqlx::query("DELETE FROM moves WHERE game_id = ? AND ply >= ?")
                        .bind(&id)
                        .bind(keep)
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            })
            .await
    }

    /// See [`crate::Store::finish_game`].
    pub(crate) async fn finish_game(&self, id: &str, end: &GameEnd) -> Result<(), StoreError> {
        let id = id.to_owned();
        let end = end.clone();
        self.writer()?
            .transaction(move |conn| Box::pin(async move { finish(conn, &id, &end).await }))
            .await
    }

    /// See [`crate::Store::set_offers`].
    pub(crate) async fn set_offers(
        &self,
        id: &str,
        draw_offer: Option<Side>,
        takeback_request: Option<Side>,
    ) -> Result<(), StoreError> {
        let id = id.to_owned();
        self.writer()?
            .transaction(move |conn| {
                Box::pin(async move {
                    let updated = sqlx::query(
                        "UPDATE games SET draw_offer = ?, takeback_request = ?
                         WHERE id = ? AND status = 'playing'",
                    )
                    .bind(draw_offer.map(side_id))
                    .bind(takeback_request.map(side_id))
                    .bind(&id)
                    .execute(&mut *conn)
                    .await?;
                    if updated.rows_affected() == 0 {
                        return Err(refusal(conn, &id, "offer", 0).await);
                    }
                    Ok(())
                })
            })
            .await
    }

    /// See [`crate::Store::game`].
    pub(crate) async fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        // One read transaction: the row and the moves are of one moment.
        let mut tx = self.pool.begin().await?;
        let Some(row) = sqlx::query(&games_with_turn("g.id = ?2"))
            .bind(None::<String>)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let mut game = game_from_row(&row)?;
        let moves = sqlx::query_as::<_, (String, Option<i64>, Option<i64>)>(
            "SELECT move, white_ms, black_ms FROM moves WHERE game_id = ? ORDER BY ply",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        for (text, white, black) in moves {
            game.moves.push(MoveRecord {
                text,
                white_ms: from_ms(white),
                black_ms: from_ms(black),
            });
        }
        game.follow_last_move();
        Ok(Some(game))
    }

    /// See [`crate::Store::unfinished_games`].
    pub(crate) async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(&format!(
            "{} ORDER BY created_at, id",
            games_with_turn("g.status = 'playing'")
        ))
        .bind(self.stopped_at.as_deref())
        .fetch_all(&mut *tx)
        .await?;
        let games = rows
            .iter()
            .map(game_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        let moves = sqlx::query_as(UNFINISHED_MOVES).fetch_all(&mut *tx).await?;
        tx.commit().await?;
        Ok(with_moves(games, moves))
    }

    /// See [`crate::Store::delete_abandoned_games`].
    pub(crate) async fn delete_abandoned_games(
        &self,
        idle: std::time::Duration,
    ) -> Result<Vec<String>, StoreError> {
        let age = format!("-{} seconds", idle.as_secs());
        self.writer()?
            .transaction(move |conn| {
                Box::pin(async move {
                    let ids = sqlx::query_scalar::<_, String>(
                        "DELETE FROM games WHERE status = 'playing'
                           AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = games.id)
                           AND updated_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)
                         RETURNING id",
                    )
                    .bind(&age)
                    .fetch_all(&mut *conn)
                    .await?;
                    Ok(ids)
                })
            })
            .await
    }

    /// See [`crate::Store::list_games`].
    pub(crate) async fn list_games(
        &self,
        filter: &GameFilter,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            // A game in progress changed last with its last move (see `follow_last_move`);
            // a finished game's row was written at its end. Only games in progress, which
            // the server holds in memory anyway, pay for the lookup.
            "SELECT id, game, variant, mode, white_name, white_level, black_name, black_level,
                    status, winner, reason, created_at,
                    CASE WHEN status = 'playing'
                         THEN max(updated_at, coalesce((SELECT played_at FROM moves
                              WHERE game_id = games.id ORDER BY ply DESC LIMIT 1), ''))
                         ELSE updated_at END AS changed_at,
                    (SELECT count(*) FROM moves WHERE game_id = games.id) AS plies
             FROM games WHERE (?1 IS NULL OR status = ?1) AND (?4 IS NULL OR game = ?4)
                  AND (?5 IS NULL OR id IN (SELECT value FROM json_each(?5)))
             ORDER BY changed_at DESC, id LIMIT ?2 OFFSET ?3",
        )
        .bind(filter.status.map(GameStatus::id))
        .bind(limit)
        .bind(offset)
        .bind(filter.game.as_deref())
        .bind(filter.ids_json())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary_from_row).collect()
    }
}

/// The body of [`Store::create_game`].
async fn insert_game(conn: &mut SqliteConnection, game: &NewGame) -> Result<(), StoreError> {
    let (winner, reason) = match &game.finished {
        Some((winner, reason)) => (winner.map(side_id), Some(reason.as_str())),
        None => (None, None),
    };
    let remaining = game.moves.last().map_or_else(
        || {
            let initial = game.clock.map(|c| c.initial_ms);
            [initial, initial]
        },
        |m| [m.white_ms, m.black_ms],
    );
    let [white, black] = &game.seats;
    let inserted = sqlx::query(&format!(
        "INSERT INTO games (id, game, variant, start_position, seed, mode,
            white_name, white_level, white_token_hash, black_name, black_level, black_token_hash,
            clock_kind, clock_initial_ms, clock_increment_ms, white_ms, black_ms,
            status, winner, reason, tags, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {NOW}, {NOW})
         ON CONFLICT (id) DO NOTHING"
    ))
    .bind(&game.id)
    .bind(&game.game)
    .bind(&game.variant)
    .bind(&game.start_position)
    .bind(game.seed.map(|s| format!("{s:016x}")))
    .bind(game.mode.id())
    .bind(&white.name)
    .bind(white.level)
    .bind(&white.token_hash)
    .bind(&black.name)
    .bind(black.level)
    .bind(&black.token_hash)
    .bind(game.clock.map(|c| c.kind.id()))
    .bind(ms(game.clock.map(|c| c.initial_ms)))
    .bind(ms(game.clock.map(|c| c.increment_ms)))
    .bind(ms(remaining[0]))
    .bind(ms(remaining[1]))
    .bind(if game.finished.is_some() {
        GameStatus::Finished.id()
    } else {
        GameStatus::Playing.id()
    })
    .bind(winner)
    .bind(reason)
    .bind(serde_json::to_string(&game.tags).unwrap_or_else(|_| "[]".to_owned()))
    .execute(&mut *conn)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict {
            id: game.id.clone(),
            reason: "the id is taken".to_owned(),
        });
    }
    for (ply, m) in game.moves.iter().enumerate() {
        insert_move(conn, &game.id, ply, m).await?;
    }
    for name in game.seats.iter().filter_map(|s| s.name.as_deref()) {
        crate::players::ensure_player(conn, name).await?;
    }
    Ok(())
}

async fn insert_move(
    conn: &mut SqliteConnection,
    id: &str,
    ply: usize,
    m: &MoveRecord,
) -> Result<(), StoreError> {
    let inserted = sqlx::query(&format!(
        "INSERT INTO moves (game_id, ply, move, white_ms, black_ms, played_at)
         VALUES (?, ?, ?, ?, ?, {NOW}) ON CONFLICT DO NOTHING"
    ))
    .bind(id)
    .bind(i64::try_from(ply).unwrap_or(i64::MAX))
    .bind(&m.text)
    .bind(ms(m.white_ms))
    .bind(ms(m.black_ms))
    .execute(&mut *conn)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict {
            id: id.to_owned(),
            reason: format!("move {ply} is already stored"),
        });
    }
    Ok(())
}

/// The games rows that match `filter` (on `g`), with `turn_started_at` (a game in
/// progress changed last with its last move: see `follow_last_move`) and
/// `turn_used_ms`, the time since then up to `?1` (a timestamp, or now when NULL).
/// The kept tags of a game row: a JSON array of `[name, value]` pairs.
fn tags_of(id: &str, row: &impl StoredRow) -> Result<Vec<(String, String)>, StoreError> {
    // A read-only file of a version before the column has none: no tags kept.
    let text: String = match row.value("tags") {
        Ok(text) => text,
        Err(sqlx::Error::ColumnNotFound(_)) => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    serde_json::from_str(&text).map_err(|_| StoreError::Corrupt {
        id: id.to_owned(),
        column: "tags",
        value: text.chars().take(64).collect(),
    })
}

fn games_with_turn(filter: &str) -> String {
    format!(
        "SELECT t.*, CASE WHEN t.status = 'playing'
                THEN CAST(max(0, (julianday(coalesce(?1, 'now')) - julianday(t.turn_started_at))
                                 * 86400000.0) AS INTEGER)
                ELSE 0 END AS turn_used_ms
         FROM (SELECT g.*, CASE WHEN g.status = 'playing'
                    THEN max(g.updated_at, coalesce((SELECT played_at FROM moves
                         WHERE game_id = g.id ORDER BY ply DESC LIMIT 1), ''))
                    ELSE g.updated_at END AS turn_started_at
               FROM games g WHERE {filter}) t"
    )
}

/// A row of a games listing (see `list_games`): the columns of `games` but the
/// tokens, with `changed_at` and `plies`.
pub(crate) fn summary_from_row(row: &impl StoredRow) -> Result<GameSummary, StoreError> {
    let id: String = row.value("id")?;
    let plies: i64 = row.value("plies")?;
    Ok(GameSummary {
        mode: parse(&id, "mode", row.value("mode")?, Mode::from_id)?,
        seats: [
            seat(row, Side::White, false)?,
            seat(row, Side::Black, false)?,
        ],
        status: parse(&id, "status", row.value("status")?, GameStatus::from_id)?,
        winner: winner(&id, row)?,
        reason: row.value("reason")?,
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        game: row.value("game")?,
        variant: row.value("variant")?,
        created_at: row.value("created_at")?,
        updated_at: row.value("changed_at")?,
        id,
    })
}

/// A value both databases can return.
pub(crate) trait StoredValue:
    for<'r> sqlx::Decode<'r, sqlx::Sqlite>
    + sqlx::Type<sqlx::Sqlite>
    + for<'r> sqlx::Decode<'r, sqlx::Postgres>
    + sqlx::Type<sqlx::Postgres>
{
}

impl<T> StoredValue for T where
    T: for<'r> sqlx::Decode<'r, sqlx::Sqlite>
        + sqlx::Type<sqlx::Sqlite>
        + for<'r> sqlx::Decode<'r, sqlx::Postgres>
        + sqlx::Type<sqlx::Postgres>
{
}

/// A row of either database, read by column name: the rows of both stores are
/// turned into records by the same code.
pub(crate) trait StoredRow {
    /// The value of `column`.
    fn value<T: StoredValue>(&self, column: &str) -> Result<T, sqlx::Error>;
}

impl StoredRow for sqlx::sqlite::SqliteRow {
    fn value<T: StoredValue>(&self, column: &str) -> Result<T, sqlx::Error> {
        self.try_get(column)
    }
}

impl StoredRow for sqlx::postgres::PgRow {
    fn value<T: StoredValue>(&self, column: &str) -> Result<T, sqlx::Error> {
        self.try_get(column)
    }
}

fn parse<T>(
    id: &str,
    column: &'static str,
    value: String,
    from: impl Fn(&str) -> Option<T>,
) -> Result<T, StoreError> {
    from(&value).ok_or_else(|| StoreError::Corrupt {
        id: id.to_owned(),
        column,
        value,
    })
}

/// A side stored in `column`; `None` also for a read-only file of a version before
/// the column.
fn optional_side(
    id: &str,
    row: &impl StoredRow,
    column: &'static str,
) -> Result<Option<Side>, StoreError> {
    let value: Option<String> = match row.value(column) {
        Ok(value) => value,
        Err(sqlx::Error::ColumnNotFound(_)) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    value
        .map(|w| parse(id, column, w, |s| s.parse().ok()))
        .transpose()
}

fn winner(id: &str, row: &impl StoredRow) -> Result<Option<Side>, StoreError> {
    let value: Option<String> = row.value("winner")?;
    value
        .map(|w| parse(id, "winner", w, |s| s.parse().ok()))
        .transpose()
}

pub(crate) fn seat(row: &impl StoredRow, side: Side, with_token: bool) -> Result<Seat, StoreError> {
    let prefix = side_id(side);
    let level: Option<i64> = row.value(format!("{prefix}_level").as_str())?;
    Ok(Seat {
        name: row.value(format!("{prefix}_name").as_str())?,
        level: level.and_then(|l| u8::try_from(l).ok()),
        token_hash: if with_token {
            row.value(format!("{prefix}_token_hash").as_str())?
        } else {
            None
        },
    })
}

/// The moves of every unfinished game, in game and ply order: (game id, move, White's
/// and Black's clock after it).
pub(crate) const UNFINISHED_MOVES: &str =
    "SELECT m.game_id, m.move, m.white_ms, m.black_ms FROM moves m
     JOIN games g ON g.id = m.game_id WHERE g.status = 'playing'
     ORDER BY m.game_id, m.ply";

/// `games` with `moves` ([`UNFINISHED_MOVES`]' rows) put on the games they belong
/// to, and each game's clocks taken from its last move.
pub(crate) fn with_moves(
    mut games: Vec<GameRecord>,
    moves: Vec<(String, String, Option<i64>, Option<i64>)>,
) -> Vec<GameRecord> {
    let index: std::collections::HashMap<String, usize> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id.clone(), i))
        .collect();
    for (id, text, white, black) in moves {
        if let Some(&i) = index.get(&id) {
            games[i].moves.push(MoveRecord {
                text,
                white_ms: from_ms(white),
                black_ms: from_ms(black),
            });
        }
    }
    for game in &mut games {
        game.follow_last_move();
    }
    games
}

pub(crate) fn game_from_row(row: &impl StoredRow) -> Result<GameRecord, StoreError> {
    let id: String = row.value("id")?;
    let seed: Option<String> = row.value("seed")?;
    let seed = seed
        .map(|s| parse(&id, "seed", s, |s| u64::from_str_radix(s, 16).ok()))
        .transpose()?;
    let kind: Option<String> = row.value("clock_kind")?;
    let clock = kind
        .map(|k| -> Result<ClockRecord, StoreError> {
            let initial: Option<i64> = row.value("clock_initial_ms")?;
            let increment: Option<i64> = row.value("clock_increment_ms")?;
            Ok(ClockRecord {
                kind: parse(&id, "clock_kind", k, ClockKind::from_id)?,
                initial_ms: from_ms(initial).unwrap_or(0),
                increment_ms: from_ms(increment).unwrap_or(0),
            })
        })
        .transpose()?;
    Ok(GameRecord {
        mode: parse(&id, "mode", row.value("mode")?, Mode::from_id)?,
        seats: [seat(row, Side::White, true)?, seat(row, Side::Black, true)?],
        remaining_ms: [
            from_ms(row.value("white_ms")?),
            from_ms(row.value("black_ms")?),
        ],
        status: parse(&id, "status", row.value("status")?, GameStatus::from_id)?,
        winner: winner(&id, row)?,
        reason: row.value("reason")?,
        game: row.value("game")?,
        variant: row.value("variant")?,
        start_position: row.value("start_position")?,
        created_at: row.value("created_at")?,
        updated_at: row.value("turn_started_at")?,
        turn_used_ms: from_ms(row.value("turn_used_ms")?).unwrap_or(0),
        seed,
        clock,
        moves: Vec::new(),
        tags: tags_of(&id, row)?,
        draw_offer: optional_side(&id, row, "draw_offer")?,
        takeback_request: optional_side(&id, row, "takeback_request")?,
        version: match row.value::<i64>("version") {
            Ok(version) => Some(u64::try_from(version).unwrap_or(0)),
            Err(sqlx::Error::ColumnNotFound(_)) => None,
            Err(e) => return Err(e.into()),
        },
        id,
    })
}
