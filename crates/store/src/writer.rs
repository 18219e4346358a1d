//! The one writer: a task that owns the database's write connection and runs every
//! change as one transaction, in the order asked.
//!
//! - **Group commit for moves**: the moves that arrive while the previous transaction
//!   commits are written together, in one statement and one transaction, and each one
//!   is answered after the commit. A move that ends its game carries the game's end
//!   (status, result, players' counts and ratings), written in the same transaction.
//! - **A failed write never poisons the next**: whatever SQLite answers (disk full,
//!   I/O error, read-only, busy), the transaction is rolled back, the connection is
//!   closed and the pool opens a fresh one for the next job; the callers get
//!   [`StoreError::Unavailable`] and [`Health`] says what failed until a write works.
//! - **A heartbeat** row is written every [`HEARTBEAT`]: the last sign of life of this
//!   run, from which the next run knows when the clocks stopped (a crash included),
//!   and the probe that finds out when a failed store works again.
//!
//! Callers wait on a channel, never on the connection: a caller that goes away (a
//! client hanging up) cannot leave a transaction half done.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use sqlx::pool::PoolConnection;
use sqlx::{Sqlite, SqliteConnection, SqlitePool};
use tokio::sync::{mpsc, oneshot};

use crate::checkpoint::{self, FinishRequest};
use crate::error::Fault;
use crate::{GameEnd, MoveRecord, NOW, StoreError};

/// At most this many moves share one transaction.
const MAX_BATCH: usize = 256;

/// How often the heartbeat is written (and a failed store probed). A crash gives the
/// side to move back at most this much time (plus one commit).
pub(crate) const HEARTBEAT: Duration = Duration::from_millis(250);

/// A future borrowing the write connection.
pub(crate) type BoxFuture<'c, T> = Pin<Box<dyn Future<Output = T> + Send + 'c>>;

/// A transaction's body: runs on the write connection inside `BEGIN IMMEDIATE` …
/// `COMMIT`; an error rolls everything back.
type Body<T> = Box<
    dyn for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<T, StoreError>> + Send,
>;

/// A type-erased job: runs its transaction on the connection (or, when none could be
/// opened, fails with its fault), answers its caller, and tells the task whether the
/// database failed.
type Job = Box<
    dyn for<'c> FnOnce(Result<&'c mut SqliteConnection, Fault>) -> BoxFuture<'c, Option<Fault>>
        + Send,
>;

/// One move to write and where to answer.
#[derive(Debug)]
pub(crate) struct MoveWrite {
    pub(crate) id: String,
    pub(crate) ply: i64,
    pub(crate) record: MoveRecord,
    /// The game ends with this move.
    pub(crate) end: Option<GameEnd>,
    pub(crate) done: oneshot::Sender<Result<Written, StoreError>>,
}

/// What became of a move that reached the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// Stored.
    Stored,
    /// Refused: the game is unknown or finished, or the move number is not the next.
    Refused,
}

/// Work for the writer task.
pub(crate) enum Task {
    Move(MoveWrite),
    Job(Job),
}

/// Whether writes work, as the writer last found out.
#[derive(Debug, Clone, Default)]
pub(crate) struct Health(Arc<Mutex<Option<Fault>>>);

impl Health {
    pub(crate) fn set(&self, fault: Option<Fault>) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = fault;
    }

    /// The fault of the last write, if it failed.
    pub(crate) fn fault(&self) -> Option<Fault> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// The handle on the writer task; cloning shares the task.
#[derive(Debug, Clone)]
pub(crate) struct Writer {
    tasks: mpsc::Sender<Task>,
    pool: SqlitePool,
    pub(crate) health: Health,
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Task::Move(m) => f.debug_tuple("Move").field(m).finish(),
            Task::Job(_) => f.write_str("Job"),
        }
    }
}

impl Writer {
    /// Starts the writer task on `pool` (one connection); it ends when every handle
    /// is dropped. `persistent`: the database is a file, so a failed connection may
    /// be closed (an in-memory database lives in its connection).
    pub(crate) fn start(pool: SqlitePool, persistent: bool, finish: FinishRequest) -> Writer {
        let (tasks, receiver) = mpsc::channel(4 * MAX_BATCH);
        let health = Health::default();
        tokio::spawn(run(
            pool.clone(),
            persistent,
            receiver,
            finish,
            health.clone(),
        ));
        Writer {
            tasks,
            pool,
            health,
        }
    }

    /// Closes the write connection, waiting for the running transaction.
    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }

    /// A weak handle: lets the checkpoint task notice that the store is gone.
    pub(crate) fn downgrade(&self) -> mpsc::WeakSender<Task> {
        self.tasks.downgrade()
    }

    /// Runs `body` as one transaction and returns its value once committed.
    ///
    /// # Errors
    ///
    /// The body's own error (nothing is written), [`StoreError::Unavailable`] when the
    /// database fails, [`StoreError::Failed`] when the store is closed.
    pub(crate) async fn transaction<T, F>(&self, body: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        let (done, answer) = oneshot::channel();
        let body: Body<T> = Box::new(body);
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let result = in_transaction(conn, body).await;
                let fault = match &result {
                    Err(StoreError::Unavailable(fault)) => Some(fault.clone()),
                    _ => None,
                };
                // A caller that went away does not need its answer.
                let _ = done.send(result);
                fault
            })
        });
        self.tasks
            .send(Task::Job(job))
            .await
            .map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }

    /// Queues a move for the next group commit; the answer comes on its `done`
    /// channel once the batch is committed or has failed.
    pub(crate) async fn write_move(&self, write: MoveWrite) -> Result<(), StoreError> {
        self.tasks
            .send(Task::Move(write))
            .await
            .map_err(|_| closed())
    }
}

fn closed() -> StoreError {
    StoreError::Failed("the store is closed".to_owned())
}

/// `BEGIN IMMEDIATE`, the body, `COMMIT`; on any error a `ROLLBACK` (which may itself
/// fail: the task then closes the connection). Database errors become
/// [`StoreError::Unavailable`], naming the cause.
async fn in_transaction<T>(
    conn: Result<&mut SqliteConnection, Fault>,
    body: Body<T>,
) -> Result<T, StoreError> {
    let conn = conn.map_err(StoreError::Unavailable)?;
    let result = async {
        sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
        let value = body(&mut *conn).await?;
        sqlx::query("COMMIT").execute(&mut *conn).await?;
        Ok(value)
    }
    .await;
    if result.is_err() {
        // "no transaction is active" when SQLite already rolled back: nothing to do.
        let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
    }
    result.map_err(StoreError::into_write_error)
}

async fn run(
    pool: SqlitePool,
    persistent: bool,
    mut receiver: mpsc::Receiver<Task>,
    finish: FinishRequest,
    health: Health,
) {
    let mut tasks = Vec::with_capacity(MAX_BATCH);
    let mut moves = Vec::with_capacity(MAX_BATCH);
    let mut connection = WriteConnection {
        pool,
        persistent,
        held: None,
    };
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            received = receiver.recv_many(&mut tasks, MAX_BATCH) => {
                if received == 0 {
                    break;
                }
            }
            _ = heartbeat.tick() => {
                if connection.pool.is_closed() {
                    break;
                }
                let fault = connection.run(Box::new(beat)).await;
                health.set(fault);
                continue;
            }
        }
        for task in tasks.drain(..) {
            match task {
                Task::Move(write) => moves.push(write),
                Task::Job(job) => {
                    // Moves queued before this job are written before it.
                    if !moves.is_empty() {
                        health.set(connection.run(write_moves(&mut moves)).await);
                    }
                    health.set(connection.run(job).await);
                }
            }
        }
        if !moves.is_empty() {
            health.set(connection.run(write_moves(&mut moves)).await);
        }
        if finish.take() {
            // Between two batches no frame is being written: this checkpoint
            // completes, and the next commit starts the WAL file over.
            connection.checkpoint().await;
        }
    }
}

/// The heartbeat's transaction.
fn beat(conn: Result<&mut SqliteConnection, Fault>) -> BoxFuture<'_, Option<Fault>> {
    Box::pin(async move {
        match in_transaction(conn, Box::new(write_heartbeat)).await {
            Err(StoreError::Unavailable(fault)) => Some(fault),
            _ => None,
        }
    })
}

fn write_heartbeat(conn: &mut SqliteConnection) -> BoxFuture<'_, Result<(), StoreError>> {
    Box::pin(async move {
        sqlx::query(&format!(
            "INSERT INTO heartbeat (id, at) VALUES (1, {NOW})
             ON CONFLICT (id) DO UPDATE SET at = excluded.at"
        ))
        .execute(&mut *conn)
        .await?;
        Ok(())
    })
}

/// Writes one heartbeat on `pool` before the task starts: the store's start-up check
/// that the database can be written.
pub(crate) async fn beat_now(pool: &SqlitePool) -> Result<(), Fault> {
    let mut conn = pool.acquire().await.map_err(|e| Fault::of(&e))?;
    match in_transaction(Ok(&mut conn), Box::new(write_heartbeat)).await {
        Ok(()) => Ok(()),
        Err(StoreError::Unavailable(fault)) => Err(fault),
        Err(other) => Err(Fault {
            kind: crate::FaultKind::Other,
            detail: other.to_string(),
        }),
    }
}

/// The writer's connection, kept from one job to the next (acquiring it from the
/// pool for each job costs about a tenth of the moves per second).
struct WriteConnection {
    pool: SqlitePool,
    /// A file database: a failed connection is closed. An in-memory database lives
    /// in its one connection, which reads share: it goes back to the pool after each
    /// job and is never closed.
    persistent: bool,
    held: Option<PoolConnection<Sqlite>>,
}

impl WriteConnection {
    /// Runs one job; a failed connection is closed, so that the next job starts on a
    /// fresh one (no transaction left open, no stale read-only handle). Returns the
    /// database's fault, if any.
    async fn run(&mut self, job: Job) -> Option<Fault> {
        let mut conn = match self.held.take() {
            Some(conn) => conn,
            None => match self.pool.acquire().await {
                Ok(conn) => conn,
                Err(e) => {
                    let fault = Fault::of(&e);
                    tracing::debug!(cause = %fault.detail, "the database cannot be opened for writing");
                    return job(Err(fault)).await;
                }
            },
        };
        let fault = job(Ok(&mut conn)).await;
        match (&fault, self.persistent) {
            (Some(fault), true) => {
                tracing::debug!(cause = %fault.detail, "a write failed; its connection is closed");
                let _ = conn.close().await;
            }
            (None, true) => self.held = Some(conn),
            (_, false) => drop(conn),
        }
        fault
    }

    /// A passive checkpoint between two jobs.
    async fn checkpoint(&mut self) {
        match &mut self.held {
            Some(conn) => {
                checkpoint::passive(&mut **conn).await;
            }
            None => {
                checkpoint::passive(&self.pool).await;
            }
        }
    }
}

/// The job that writes `moves` and answers each; empties `moves`. Moves alone are one
/// statement (a transaction of its own); with a game's end, one explicit transaction.
fn write_moves(moves: &mut Vec<MoveWrite>) -> Job {
    let batch = std::mem::take(moves);
    Box::new(move |conn| {
        Box::pin(async move {
            let rows = batch_json(&batch);
            let ends: Vec<(String, i64, GameEnd)> = batch
                .iter()
                .filter_map(|m| m.end.clone().map(|end| (m.id.clone(), m.ply, end)))
                .collect();
            let result = match conn {
                Ok(conn) if ends.is_empty() => sqlx::query_as(&INSERT_MOVES)
                    .bind(rows)
                    .fetch_all(conn)
                    .await
                    .map_err(|e| StoreError::Database(e).into_write_error()),
                conn => {
                    let body: Body<Vec<(String, i64)>> =
                        Box::new(move |conn| Box::pin(insert_moves(conn, rows, ends)));
                    in_transaction(conn, body).await
                }
            };
            let fault = match &result {
                Err(StoreError::Unavailable(fault)) => Some(fault.clone()),
                _ => None,
            };
            answer_moves(batch, result);
            fault
        })
    })
}

fn answer_moves(batch: Vec<MoveWrite>, result: Result<Vec<(String, i64)>, StoreError>) {
    match result {
        Ok(stored) => {
            let mut stored: std::collections::HashSet<(String, i64)> = stored.into_iter().collect();
            for item in batch {
                // Of two moves with one number in a batch, the first was inserted.
                let written = if stored.remove(&(item.id.clone(), item.ply)) {
                    Written::Stored
                } else {
                    Written::Refused
                };
                let _ = item.done.send(Ok(written));
            }
        }
        Err(e) => {
            for item in batch {
                let _ = item.done.send(Err(e.shared()));
            }
        }
    }
}

/// The statement of [`insert_moves`], made once. `OR IGNORE`: a move number already
/// stored refuses the move, not the batch.
static INSERT_MOVES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "INSERT OR IGNORE INTO moves (game_id, ply, move, white_ms, black_ms, played_at)
         SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, {NOW}
         FROM json_each(?1) AS j
         WHERE EXISTS (SELECT 1 FROM games g WHERE g.id = j.value ->> 0 AND g.status = 'playing')
           AND (j.value ->> 1 = 0 OR EXISTS (SELECT 1 FROM moves m
                 WHERE m.game_id = j.value ->> 0 AND m.ply = (j.value ->> 1) - 1))
         RETURNING game_id, ply"
    )
});

/// The moves of a batch as one JSON array, so that the statement text, and SQLite's
/// prepared statement, never change.
fn batch_json(batch: &[MoveWrite]) -> String {
    let rows: Vec<serde_json::Value> = batch
        .iter()
        .map(|item| {
            serde_json::json!([
                item.id,
                item.ply,
                item.record.text,
                crate::games::ms(item.record.white_ms),
                crate::games::ms(item.record.black_ms)
            ])
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}

/// Inserts the moves (each stored or refused on its own: its game goes on, its move
/// number is free and the one before is stored), then ends the games whose final
/// move was stored. Returns the stored moves.
async fn insert_moves(
    conn: &mut SqliteConnection,
    rows: String,
    ends: Vec<(String, i64, GameEnd)>,
) -> Result<Vec<(String, i64)>, StoreError> {
    let stored: Vec<(String, i64)> = sqlx::query_as(&INSERT_MOVES)
        .bind(rows)
        .fetch_all(&mut *conn)
        .await?;
    for (id, ply, end) in ends {
        if stored.iter().any(|(s, p)| *s == id && *p == ply) {
            crate::games::finish(conn, &id, &end).await?;
        }
    }
    Ok(stored)
}
