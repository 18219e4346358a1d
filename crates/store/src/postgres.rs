//! The store on PostgreSQL: the same tables, records and guarantees as on SQLite,
//! for any number of server processes sharing one database.
//!
//! - **Every change is one transaction** on a pooled connection. PostgreSQL runs
//!   them side by side and commits them in groups (its WAL writer), so there is no
//!   writer task as on SQLite.
//! - **One game, one order.** Every write to a game first locks its row
//!   (`SELECT … FOR UPDATE`) and checks the state it expects (in progress, with
//!   exactly `ply` moves): of two moves for one game sent to two processes at once,
//!   the second waits for the first, then finds the move number taken and is refused.
//! - **Players are locked in id order** before their counts and ratings change, so
//!   that two games ending at once on two processes never lose an update.
//! - **Every change to a game is announced** with `NOTIFY tablero_games, '<id>'`,
//!   sent by PostgreSQL when (and only if) the transaction commits; a listener per
//!   process turns the announcements into [`StoreEvent`]s.
//! - **A heartbeat** row, written by every process every [`HEARTBEAT`], is the last
//!   sign of life of any of them: when all are gone, the clocks stop there.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};
use sqlx::{Connection, PgConnection, Row};
use tokio::sync::{broadcast, mpsc};

use crate::postgres_moves::{self, MoveWrite};

use crate::games::{
    SIDES, UNFINISHED_MOVES, from_ms, game_from_row, ms, refusal_of, side_id, summary_from_row,
    with_moves,
};
use crate::glicko::Rating;
use crate::player_file::PlayerFileEntry;
use crate::writer::{BoxFuture, HEARTBEAT, Health};
use crate::{
    Fault, GameEnd, GameFilter, GameRecord, GameStatus, GameSummary, ImportSummary, ImportedCounts,
    Mode, MoveRecord, NewGame, PlayerRating, PlayerRecord, PlayerStats, StoreError, StoreEvent,
    StoreHealth,
};

/// The migrations of the PostgreSQL schema (`crates/store/migrations-postgres`).
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations-postgres");

/// The channel of the games' change announcements.
pub(crate) const CHANNEL: &str = "tablero_games";

/// The timestamp every row gets: UTC, RFC 3339 with milliseconds, as SQLite writes it.
pub(crate) const NOW: &str =
    r#"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"#;

/// How many connections one process opens at most.
const CONNECTIONS: u32 = 16;

/// How long a process counts as alive after its last heartbeat (written every
/// [`HEARTBEAT`]): how long its games go unattended after it dies.
const LEASE: &str = "interval '3 seconds'";

/// The games that need a process to look after them: a clock or a computer seat.
const NEEDS_OWNER: &str =
    "(clock_kind IS NOT NULL OR white_level IS NOT NULL OR black_level IS NOT NULL)";

/// The game's owner (on `games`) is no longer alive.
const OWNER_GONE: &str = "NOT EXISTS (SELECT 1 FROM processes p
     WHERE p.name = games.owner AND p.alive_until >= clock_timestamp())";

/// At most this many games are taken over at once by [`PgStore::claim_orphans`].
const CLAIM_BATCH: i64 = 64;

/// How often a write that lost a deadlock or a serialisation race is tried again.
const RETRIES: usize = 3;

/// A transaction's body, run between `BEGIN` and `COMMIT`; an error rolls it back.
pub(crate) type Body<T> =
    Box<dyn for<'c> Fn(&'c mut PgConnection) -> BoxFuture<'c, Result<T, StoreError>> + Send + Sync>;

/// Whether `url` names a PostgreSQL database.
pub(crate) fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// `url` without its password, for messages and logs.
pub(crate) fn redacted(url: &str) -> String {
    match PgConnectOptions::from_str(url) {
        Ok(options) => format!(
            "postgres://{}@{}:{}/{}",
            options.get_username(),
            options.get_host(),
            options.get_port(),
            options.get_database().unwrap_or("")
        ),
        Err(_) => "postgres://…".to_owned(),
    }
}

/// The store on one PostgreSQL database.
#[derive(Debug, Clone)]
pub(crate) struct PgStore {
    pool: PgPool,
    health: Health,
    events: broadcast::Sender<StoreEvent>,
    /// This process's name in announcements and claims (random, per open).
    process: Arc<str>,
    /// Held by every clone: the background tasks end when the last one goes.
    alive: Arc<()>,
    /// The group commit of moves (`postgres_moves.rs`).
    moves: mpsc::Sender<MoveWrite>,
    /// The games' versions as the last move batches left them.
    versions: postgres_moves::Versions,
    /// The listener and the heartbeat, stopped by [`PgStore::close`] (the listener
    /// holds a connection of the pool, which closing waits for).
    tasks: Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl PgStore {
    /// Connects, applies the migrations (PostgreSQL's advisory lock lets several
    /// processes start at once), writes a first heartbeat and starts the heartbeat
    /// and the listener.
    pub(crate) async fn open(url: &str) -> Result<PgStore, StoreError> {
        let shown = redacted(url);
        let options = PgConnectOptions::from_str(url).map_err(|e| StoreError::Url {
            url: shown.clone(),
            reason: e.to_string(),
        })?;
        let not_writable = |cause: String| StoreError::NotWritable {
            path: shown.clone(),
            cause,
        };
        // One connection first: a server that cannot be reached is named at once,
        // where the pool would keep trying for its whole acquire timeout.
        let first = sqlx::PgConnection::connect_with(&options)
            .await
            .map_err(|e| not_writable(e.to_string()))?;
        first.close().await?;
        let pool = PgPoolOptions::new()
            .max_connections(CONNECTIONS)
            // A request waits at most this for a connection when the server is gone:
            // then it is answered 503.
            .acquire_timeout(Duration::from_secs(3))
            .connect_with(options)
            .await
            .map_err(|e| not_writable(e.to_string()))?;
        MIGRATOR.run(&pool).await?;
        // No process has beaten for longer than a lease: none was alive, and the
        // clocks stood still from the last heartbeat until now.
        sqlx::query(&format!(
            "INSERT INTO outages (started, ended)
             SELECT at::timestamptz, clock_timestamp() FROM heartbeat
             WHERE at::timestamptz < clock_timestamp() - {LEASE}
             ON CONFLICT (started) DO NOTHING"
        ))
        .execute(&pool)
        .await
        .map_err(|e| not_writable(e.to_string()))?;
        beat(&pool).await.map_err(|e| not_writable(e.to_string()))?;
        let process: Arc<str> = process_name().into();
        renew(&pool, &process)
            .await
            .map_err(|e| not_writable(e.to_string()))?;
        let (events, _) = broadcast::channel(1024);
        let health = Health::default();
        let versions = postgres_moves::Versions::default();
        let moves = postgres_moves::start(&pool, &health, &process, &versions);
        let store = PgStore {
            pool,
            health,
            events,
            moves,
            versions,
            process,
            alive: Arc::new(()),
            tasks: Arc::default(),
        };
        // Listening before `open` returns: a change made the moment after must reach
        // this process (the task used to start listening later, and could miss it).
        let mut listener = PgListener::connect_with(&store.pool).await?;
        listener.listen(CHANNEL).await?;
        let listening = tokio::spawn(listen(
            listener,
            store.events.clone(),
            Arc::clone(&store.process),
            Arc::downgrade(&store.alive),
        ));
        let beating = tokio::spawn(heartbeat(
            store.pool.clone(),
            store.health.clone(),
            Arc::clone(&store.process),
            Arc::downgrade(&store.alive),
        ));
        store
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend([listening.abort_handle(), beating.abort_handle()]);
        Ok(store)
    }

    pub(crate) fn health(&self) -> StoreHealth {
        match self.health.fault() {
            Some(fault) => StoreHealth::Degraded(fault),
            None => StoreHealth::Writable,
        }
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<StoreEvent> {
        self.events.subscribe()
    }

    pub(crate) async fn close(&self) {
        let tasks = std::mem::take(
            &mut *self
                .tasks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        for task in tasks {
            task.abort();
        }
        self.pool.close().await;
    }

    /// Runs `body` as one transaction (again, up to [`RETRIES`] times, when it loses
    /// a deadlock or a serialisation race: nothing of it was written). A database
    /// failure becomes [`StoreError::Unavailable`] and marks the store degraded until
    /// a write works.
    async fn write<T>(&self, body: Body<T>) -> Result<T, StoreError> {
        write(&self.pool, &self.health, body).await
    }

    pub(crate) async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let game = Arc::new(game.clone());
        let process = Arc::clone(&self.process);
        self.write(Box::new(move |conn| {
            let (game, process) = (Arc::clone(&game), Arc::clone(&process));
            Box::pin(async move {
                insert_game(conn, &game).await?;
                // Its creator looks after it first (if it has a clock or a computer).
                sqlx::query(&format!(
                    "UPDATE games SET owner = $1 WHERE id = $2 AND {NEEDS_OWNER}"
                ))
                .bind(&*process)
                .bind(&game.id)
                .execute(&mut *conn)
                .await?;
                Ok(())
            })
        }))
        .await
    }

    pub(crate) async fn append_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
    ) -> Result<(), StoreError> {
        self.write_move(id, ply, m, None).await
    }

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
            ply,
            record: m.clone(),
            end,
            done,
        };
        let closed = || StoreError::Failed("the store is closed".to_owned());
        self.moves.send(write).await.map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }

    pub(crate) async fn take_back(
        &self,
        id: &str,
        keep: usize,
        remaining_ms: [Option<u64>; 2],
    ) -> Result<(), StoreError> {
        self.forget_version(id);
        let id = Arc::new(id.to_owned());
        let process = Arc::clone(&self.process);
        self.write(Box::new(move |conn| {
            let (id, process) = (Arc::clone(&id), Arc::clone(&process));
            Box::pin(async move {
                lock_game(conn, &id, "take-back", 0, |plies| plies >= keep).await?;
                sqlx::query(&format!(
                    "UPDATE games SET white_ms = $1, black_ms = $2, updated_at = {NOW}
                     WHERE id = $3"
                ))
                .bind(ms(remaining_ms[0]))
                .bind(ms(remaining_ms[1]))
                .bind(id.as_str())
                .execute(&mut *conn)
                .await?;
                sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                    .bind(id.as_str())
                    .bind(i64::try_from(keep).unwrap_or(i64::MAX))
                    .execute(&mut *conn)
                    .await?;
                announce(conn, &process, &id).await
            })
        }))
        .await
    }

    pub(crate) async fn finish_game(&self, id: &str, end: &GameEnd) -> Result<(), StoreError> {
        self.forget_version(id);
        let write = Arc::new((id.to_owned(), end.clone()));
        let process = Arc::clone(&self.process);
        self.write(Box::new(move |conn| {
            let (write, process) = (Arc::clone(&write), Arc::clone(&process));
            Box::pin(async move {
                let (id, end) = &*write;
                finish(conn, id, end).await?;
                announce(conn, &process, id).await
            })
        }))
        .await
    }

    pub(crate) async fn set_offers(
        &self,
        id: &str,
        draw_offer: Option<tablero_core::Side>,
        takeback_request: Option<tablero_core::Side>,
    ) -> Result<(), StoreError> {
        self.forget_version(id);
        let id = Arc::new(id.to_owned());
        let process = Arc::clone(&self.process);
        self.write(Box::new(move |conn| {
            let (id, process) = (Arc::clone(&id), Arc::clone(&process));
            Box::pin(async move {
                lock_game(conn, &id, "offer", 0, |_| true).await?;
                sqlx::query(
                    "UPDATE games SET draw_offer = $1, takeback_request = $2 WHERE id = $3",
                )
                .bind(draw_offer.map(side_id))
                .bind(takeback_request.map(side_id))
                .bind(id.as_str())
                .execute(&mut *conn)
                .await?;
                announce(conn, &process, &id).await
            })
        }))
        .await
    }

    /// Forgets the version a move batch left for game `id`: a write of another kind
    /// comes after it.
    fn forget_version(&self, id: &str) -> Option<u64> {
        self.versions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(id)
    }

    pub(crate) async fn game_version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let written = self.forget_version(id);
        if let Some(version) = written {
            return Ok(Some(version));
        }
        let version: Option<i64> = sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(version.map(|v| u64::try_from(v).unwrap_or(0)))
    }

    pub(crate) async fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        // One statement, so one snapshot and one round trip: the processes that
        // follow another's changes read a game per change.
        let Some(row) = sqlx::query(&format!(
            "SELECT t.*, (SELECT coalesce(json_agg(json_build_array(m.move, m.white_ms,
                                 m.black_ms) ORDER BY m.ply), '[]')::text
                          FROM moves m WHERE m.game_id = t.id) AS moves_json
             FROM ({}) t",
            games_with_turn("g.id = $2")
        ))
        .bind(None::<String>)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let mut game = game_from_row(&row)?;
        let text: String = row.try_get("moves_json")?;
        let moves: Vec<(String, Option<i64>, Option<i64>)> =
            serde_json::from_str(&text).map_err(|_| StoreError::Corrupt {
                id: id.to_owned(),
                column: "moves",
                value: text.chars().take(64).collect(),
            })?;
        game.moves = moves.into_iter().map(move_record).collect();
        game.follow_last_move();
        Ok(Some(game))
    }

    pub(crate) async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let mut tx = self.snapshot().await?;
        let rows = sqlx::query(&format!(
            "{} ORDER BY created_at, id",
            games_with_turn("g.status = 'playing'")
        ))
        .bind(None::<String>)
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

    pub(crate) async fn delete_abandoned_games(
        &self,
        idle: std::time::Duration,
    ) -> Result<Vec<String>, StoreError> {
        let seconds = i64::try_from(idle.as_secs()).unwrap_or(i64::MAX);
        self.write(Box::new(move |conn| {
            Box::pin(async move {
                let ids = sqlx::query_scalar::<_, String>(
                    r#"DELETE FROM games WHERE status = 'playing'
                         AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = games.id)
                         AND updated_at <= to_char((clock_timestamp() - $1 * interval '1 second')
                                                   AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                       RETURNING id"#,
                )
                .bind(seconds)
                .fetch_all(&mut *conn)
                .await?;
                Ok(ids)
            })
        }))
        .await
    }

    pub(crate) async fn list_games(
        &self,
        filter: &GameFilter,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, game, variant, mode, white_name, white_level, black_name, black_level,
                    status, winner, reason, created_at,
                    CASE WHEN status = 'playing'
                         THEN GREATEST(updated_at, coalesce((SELECT played_at FROM moves
                              WHERE game_id = games.id ORDER BY ply DESC LIMIT 1), ''))
                         ELSE updated_at END AS changed_at,
                    (SELECT count(*) FROM moves WHERE game_id = games.id) AS plies
             FROM games WHERE ($1::text IS NULL OR status = $1) AND ($4::text IS NULL OR game = $4)
                  AND ($5::text[] IS NULL OR id = ANY($5))
             ORDER BY changed_at DESC, id LIMIT $2 OFFSET $3",
        )
        .bind(filter.status.map(GameStatus::id))
        .bind(i64::from(limit))
        .bind(i64::from(offset))
        .bind(filter.game.as_deref())
        .bind(filter.ids.as_deref())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary_from_row).collect()
    }

    pub(crate) async fn players(&self) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut tx = self.snapshot().await?;
        let players = crate::players::read_players!(tx);
        tx.commit().await?;
        Ok(players)
    }

    pub(crate) async fn import_players(
        &self,
        entries: &[PlayerFileEntry],
    ) -> Result<ImportSummary, StoreError> {
        let entries = Arc::new(entries.to_vec());
        self.write(Box::new(move |conn| {
            let entries = Arc::clone(&entries);
            Box::pin(async move { import(conn, &entries).await })
        }))
        .await
    }

    pub(crate) async fn delete_player(&self, name: &str) -> Result<bool, StoreError> {
        let name = Arc::new(name.to_owned());
        self.write(Box::new(move |conn| {
            let name = Arc::clone(&name);
            Box::pin(async move {
                let deleted = sqlx::query("DELETE FROM players WHERE name = $1")
                    .bind(name.as_str())
                    .execute(&mut *conn)
                    .await?;
                Ok(deleted.rows_affected() > 0)
            })
        }))
        .await
    }

    /// Claims game `id` for this process if no live process has it (or this one
    /// does already); returns whether this process now looks after it.
    pub(crate) async fn claim_game(&self, id: &str) -> Result<bool, StoreError> {
        let claimed = sqlx::query(&format!(
            "UPDATE games SET owner = $1
             WHERE id = $2 AND status = 'playing'
               AND (owner = $1 OR owner IS NULL OR {OWNER_GONE})"
        ))
        .bind(&*self.process)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(claimed.rows_affected() > 0)
    }

    /// Claims the games in progress whose process is gone (their lease ran out) and
    /// that need one (a clock or a computer seat), at most [`CLAIM_BATCH`]; returns
    /// their ids. Processes that look at once each take different games.
    pub(crate) async fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(&format!(
            "UPDATE games SET owner = $1
             WHERE id IN (SELECT id FROM games
                          WHERE status = 'playing' AND {NEEDS_OWNER}
                            AND (owner IS NULL OR {OWNER_GONE})
                          LIMIT $2 FOR UPDATE SKIP LOCKED)
             RETURNING id"
        ))
        .bind(&*self.process)
        .bind(CLAIM_BATCH)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// A read-only transaction whose statements all see one moment.
    async fn snapshot(&self) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        Ok(tx)
    }
}

/// Runs `body` as one transaction (again, up to [`RETRIES`] times, when it loses a
/// deadlock or a serialisation race: nothing of it was written). A database failure
/// becomes [`StoreError::Unavailable`] and marks the store degraded until a write
/// works.
pub(crate) async fn write<T>(
    pool: &PgPool,
    health: &Health,
    body: Body<T>,
) -> Result<T, StoreError> {
    let mut tries = 0;

    loop {
        tries += 1;
        let result = async {
            let mut tx = pool.begin().await?;
            let value = body(&mut tx).await?;
            tx.commit().await?;
            Ok(value)
        }
        .await
        .map_err(|e| match e {
            StoreError::Database(e) => StoreError::Unavailable(fault_of(&e)),
            other => other,
        });
        match &result {
            Err(StoreError::Unavailable(fault)) => {
                if fault.kind == crate::FaultKind::Busy && tries < RETRIES {
                    continue;
                }
                health.set(Some(fault.clone()));
            }
            _ => health.set(None),
        }
        return result;
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

fn move_record((text, white, black): (String, Option<i64>, Option<i64>)) -> MoveRecord {
    MoveRecord {
        text,
        white_ms: from_ms(white),
        black_ms: from_ms(black),
    }
}

/// Locks game `id`'s row for the rest of the transaction and checks that it is in
/// progress with a number of moves that `expected` accepts; otherwise the refusal
/// names what was found.
async fn lock_game(
    conn: &mut PgConnection,
    id: &str,
    what: &str,
    ply: usize,
    expected: impl Fn(usize) -> bool,
) -> Result<(), StoreError> {
    // The lock first, the count after it: in READ COMMITTED each statement sees the
    // writes committed before it began, and a count in the locking statement would
    // miss the move of the transaction it waited for.
    // Locking by an update counts the change in the game's version too (a refused
    // write rolls it back).
    let status: Option<String> =
        sqlx::query_scalar("UPDATE games SET version = version + 1 WHERE id = $1 RETURNING status")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    let found = match status {
        Some(status) => {
            let plies: i64 = sqlx::query_scalar(
                "SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = $1",
            )
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
            Some((status, plies))
        }
        None => None,
    };
    match found {
        Some((status, plies))
            if status == GameStatus::Playing.id()
                && expected(usize::try_from(plies).unwrap_or(usize::MAX)) =>
        {
            Ok(())
        }
        found => Err(refusal_of(id, what, ply, found)),
    }
}

/// Tells every other process that game `id` changed, when this transaction commits.
/// The payload is `<process> <game id>`: a process ignores its own announcements.
async fn announce(conn: &mut PgConnection, process: &str, id: &str) -> Result<(), StoreError> {
    sqlx::query("SELECT pg_notify($1, $2 || ' ' || $3)")
        .bind(CHANNEL)
        .bind(process)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A name for this process that no other process on the database has: the host's
/// process id and the time, mixed.
fn process_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("p{:x}-{:x}", std::process::id(), nanos)
}

/// The body of [`PgStore::create_game`].
async fn insert_game(conn: &mut PgConnection, game: &NewGame) -> Result<(), StoreError> {
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
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21, {NOW}, {NOW})
         ON CONFLICT (id) DO NOTHING"
    ))
    .bind(&game.id)
    .bind(&game.game)
    .bind(&game.variant)
    .bind(&game.start_position)
    .bind(game.seed.map(|s| format!("{s:016x}")))
    .bind(game.mode.id())
    .bind(&white.name)
    .bind(white.level.map(i64::from))
    .bind(&white.token_hash)
    .bind(&black.name)
    .bind(black.level.map(i64::from))
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
        sqlx::query(&format!(
            "INSERT INTO moves (game_id, ply, move, white_ms, black_ms, played_at)
             VALUES ($1, $2, $3, $4, $5, {NOW})"
        ))
        .bind(&game.id)
        .bind(i64::try_from(ply).unwrap_or(i64::MAX))
        .bind(&m.text)
        .bind(ms(m.white_ms))
        .bind(ms(m.black_ms))
        .execute(&mut *conn)
        .await?;
    }
    let names: Vec<&str> = game
        .seats
        .iter()
        .filter_map(|s| s.name.as_deref())
        .collect();
    lock_players(conn, &names).await?;
    Ok(())
}

/// Registers the people `names` that are new and locks their rows until the
/// transaction ends, always in one order (by name to register, by id to lock): two
/// transactions that change the same players wait for each other and never
/// deadlock. Returns the ids, by name.
async fn lock_players(
    conn: &mut PgConnection,
    names: &[&str],
) -> Result<HashMap<String, i64>, StoreError> {
    let mut sorted: Vec<&str> = names.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    for name in &sorted {
        sqlx::query(&format!(
            "INSERT INTO players (name, created_at) VALUES ($1, {NOW})
             ON CONFLICT (name) DO NOTHING"
        ))
        .bind(*name)
        .execute(&mut *conn)
        .await?;
    }
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT id, name FROM players WHERE name = ANY($1) ORDER BY id FOR UPDATE")
            .bind(&sorted)
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.into_iter().map(|(id, name)| (name, id)).collect())
}

/// Ends game `id`, which must be in progress, and counts (and rates) it for its
/// named players, as [`crate::games::finish`] does on SQLite.
pub(crate) async fn finish(
    conn: &mut PgConnection,
    id: &str,
    end: &GameEnd,
) -> Result<(), StoreError> {
    let row = sqlx::query(&format!(
        "UPDATE games SET status = 'finished', winner = $1, reason = $2,
            white_ms = $3, black_ms = $4, updated_at = {NOW}, version = version + 1,
            draw_offer = NULL, takeback_request = NULL
         WHERE id = $5 AND status = 'playing'
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
        let found: Option<(String, i64)> = sqlx::query_as(
            "SELECT status, (SELECT count(*) FROM moves WHERE game_id = $1) FROM games
             WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
        return Err(refusal_of(id, "result", 0, found));
    };
    let kind: String = row.try_get("game")?;
    let mode: String = row.try_get("mode")?;
    let names: [Option<String>; 2] = [row.try_get("white_name")?, row.try_get("black_name")?];
    let present: Vec<&str> = names.iter().flatten().map(String::as_str).collect();
    let ids = lock_players(conn, &present).await?;
    for side in SIDES {
        let Some(id) = names[side.index()].as_ref().and_then(|n| ids.get(n)) else {
            continue;
        };
        let column = match end.winner {
            None => "drawn",
            Some(w) if w == side => "won",
            Some(_) => "lost",
        };
        sqlx::query(&format!(
            "INSERT INTO player_stats (player_id, game, {column}) VALUES ($1, $2, 1)
             ON CONFLICT (player_id, game) DO UPDATE
                SET {column} = player_stats.{column} + 1"
        ))
        .bind(*id)
        .bind(&kind)
        .execute(&mut *conn)
        .await?;
    }
    if let [Some(white), Some(black)] = &names
        && white != black
        && mode != Mode::Hotseat.id()
        && let (Some(&white), Some(&black)) = (ids.get(white), ids.get(black))
    {
        rate_game(conn, &kind, [white, black], end.winner).await?;
    }
    Ok(())
}

/// One Glicko-2 period for each of two players (ids, white first), against the
/// other's rating before the game; their rows are locked by the caller.
async fn rate_game(
    conn: &mut PgConnection,
    game: &str,
    ids: [i64; 2],
    winner: Option<tablero_core::Side>,
) -> Result<(), StoreError> {
    let mut before = [Rating::default(); 2];
    for (slot, id) in before.iter_mut().zip(ids) {
        let stored = sqlx::query_as::<_, (f64, f64, f64)>(
            "SELECT rating, deviation, volatility FROM player_ratings
             WHERE player_id = $1 AND game = $2",
        )
        .bind(id)
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((rating, deviation, volatility)) = stored {
            *slot = Rating {
                rating,
                deviation,
                volatility,
            };
        }
    }
    for (i, next) in Rating::after_game(before, winner).into_iter().enumerate() {
        sqlx::query(
            "INSERT INTO player_ratings (player_id, game, rating, deviation, volatility, games)
             VALUES ($1, $2, $3, $4, $5, 1)
             ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = player_ratings.games + 1",
        )
        .bind(ids[i])
        .bind(game)
        .bind(next.rating)
        .bind(next.deviation)
        .bind(next.volatility)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The body of [`PgStore::import_players`]: as on SQLite.
async fn import(
    conn: &mut PgConnection,
    entries: &[PlayerFileEntry],
) -> Result<ImportSummary, StoreError> {
    crate::players::import_entries!(conn, entries, NOW)
}

/// The games rows that match `filter` (on `g`) with `turn_started_at` and
/// `turn_used_ms` up to `$1` (a timestamp, or now when NULL), as on SQLite.
///
/// Unlike SQLite's, the time of the outages (when no process was alive) is left out
/// wherever it falls: a game taken over long after may have turned during an outage
/// that the process taking it over never saw.
fn games_with_turn(filter: &str) -> String {
    format!(
        "SELECT t.*, CASE WHEN t.status = 'playing'
                THEN GREATEST(0, (extract(epoch FROM
                        (coalesce($1::text::timestamptz, clock_timestamp())
                         - t.turn_started_at::timestamptz)) * 1000)::bigint
                    - coalesce((SELECT sum(extract(epoch FROM
                          LEAST(o.ended, clock_timestamp())
                          - GREATEST(o.started, t.turn_started_at::timestamptz)) * 1000)
                        FROM outages o WHERE o.ended > t.turn_started_at::timestamptz), 0)::bigint)
                ELSE 0 END AS turn_used_ms
         FROM (SELECT g.*, CASE WHEN g.status = 'playing'
                    THEN GREATEST(g.updated_at, coalesce((SELECT played_at FROM moves
                         WHERE game_id = g.id ORDER BY ply DESC LIMIT 1), ''))
                    ELSE g.updated_at END AS turn_started_at
               FROM games g WHERE {filter}) t"
    )
}

/// A PostgreSQL failure's kind: as [`Fault::of`], but no connection free in time means
/// the server is gone (a pool of this process's own never waits that long else).
fn fault_of(error: &sqlx::Error) -> Fault {
    match error {
        sqlx::Error::PoolTimedOut => Fault {
            kind: crate::FaultKind::Unreachable,
            detail: error.to_string(),
        },
        _ => Fault::of(error),
    }
}

/// Keeps this process alive in `processes` for [`LEASE`] more, and forgets processes
/// gone for a day.
async fn renew(pool: &PgPool, process: &str) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO processes (name, alive_until) VALUES ($1, clock_timestamp() + {LEASE})
         ON CONFLICT (name) DO UPDATE SET alive_until = excluded.alive_until"
    ))
    .bind(process)
    .execute(pool)
    .await?;
    sqlx::query("DELETE FROM processes WHERE alive_until < clock_timestamp() - interval '1 day'")
        .execute(pool)
        .await?;
    Ok(())
}

/// Writes the heartbeat row.
async fn beat(pool: &PgPool) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO heartbeat (id, at) VALUES (1, {NOW})
         ON CONFLICT (id) DO UPDATE SET at = excluded.at"
    ))
    .execute(pool)
    .await?;
    Ok(())
}

/// Writes the heartbeat and renews this process's leases every [`HEARTBEAT`] (and so
/// probes a failed database) until the store is gone.
async fn heartbeat(pool: PgPool, health: Health, process: Arc<str>, alive: Weak<()>) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if alive.strong_count() == 0 || pool.is_closed() {
            return;
        }
        let renewed = async {
            beat(&pool).await?;
            renew(&pool, &process).await
        }
        .await;
        health.set(renewed.err().map(|e| fault_of(&e)));
    }
}

/// Passes the announcements of changed games on to the subscribers until the store
/// is gone. A lost connection is made again by the listener; the changes of the gap
/// are unknown, which [`StoreEvent::Missed`] says.
async fn listen(
    mut listener: PgListener,
    events: broadcast::Sender<StoreEvent>,
    process: Arc<str>,
    alive: Weak<()>,
) {
    // No `select!` with a timer here: a `try_recv` dropped midway can lose a
    // notification. The store's `close` aborts this task; a store dropped without it
    // is noticed at the next notification.
    loop {
        let received = listener.try_recv().await;
        if alive.strong_count() == 0 {
            return;
        }
        match received {
            Ok(Some(notification)) => {
                if let Some((by, id)) = notification.payload().split_once(' ')
                    && by != &*process
                {
                    let _ = events.send(StoreEvent::GameChanged { id: id.to_owned() });
                }
            }
            // The connection was lost; the next call connects again.
            Ok(None) => {
                tracing::warn!("the listening connection to PostgreSQL was lost");
                let _ = events.send(StoreEvent::Missed);
            }
            Err(e) => {
                tracing::warn!(error = %e, "listening for changes failed; trying again");
                let _ = events.send(StoreEvent::Missed);
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
}
