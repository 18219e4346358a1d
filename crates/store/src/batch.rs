//! Group commit for moves: one task writes the moves that arrive while the previous
//! batch is being committed, all in one statement (so one transaction), and answers
//! each one after the commit. A move is still acknowledged only once it is durable;
//! the transaction overhead (the WAL append, the round trip to SQLite's thread) is
//! shared by every move in the batch.
//!
//! Only the `moves` table is written: a game's remaining times during play are those
//! of its last move (see `games.rs`), so a move touches no page of `games` or of its
//! index, which halves the pages each commit appends to the WAL.

use std::sync::LazyLock;

use sqlx::SqlitePool;
use tokio::sync::{mpsc, oneshot};

use crate::checkpoint::{self, FinishRequest};
use crate::{MoveRecord, NOW, StoreError};

/// At most this many moves share one transaction.
const MAX_BATCH: usize = 256;

/// One move to write and where to answer.
#[derive(Debug)]
pub(crate) struct MoveWrite {
    pub(crate) id: String,
    pub(crate) ply: i64,
    pub(crate) record: MoveRecord,
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

/// Starts the writer task; it ends when every sender is dropped.
pub(crate) fn start(writer: SqlitePool, finish: FinishRequest) -> mpsc::Sender<MoveWrite> {
    let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
    tokio::spawn(run(writer, receiver, finish));
    sender
}

async fn run(writer: SqlitePool, mut receiver: mpsc::Receiver<MoveWrite>, finish: FinishRequest) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while receiver.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match write(&writer, &batch).await {
            Ok(results) => {
                for (item, result) in batch.drain(..).zip(results) {
                    // A caller that went away does not need its answer.
                    let _ = item.done.send(Ok(result));
                }
            }
            Err(e) => {
                let message = e.to_string();
                tracing::error!(error = %message, moves = batch.len(), "a batch of moves failed");
                for item in batch.drain(..) {
                    let _ = item.done.send(Err(StoreError::Failed(message.clone())));
                }
            }
        }
        if finish.take() {
            // Between two batches no frame is being written: this checkpoint
            // completes, and the next commit starts the WAL file over.
            checkpoint::passive(&writer).await;
        }
    }
}

/// The statement of [`write`], made once. `OR IGNORE`: a move number already stored
/// refuses the move, not the batch.
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

/// Writes every move of `batch` in one statement: each one is stored or refused on
/// its own (stored: its game goes on, its move number is free and the one before is
/// stored); only a database failure fails them all. The moves travel as one JSON
/// array, so the statement text, and SQLite's prepared statement, never change.
async fn write(writer: &SqlitePool, batch: &[MoveWrite]) -> Result<Vec<Written>, sqlx::Error> {
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
    let json = serde_json::Value::Array(rows).to_string();
    let stored: Vec<(String, i64)> = sqlx::query_as(&INSERT_MOVES)
        .bind(json)
        .fetch_all(writer)
        .await?;
    let mut stored: std::collections::HashSet<(&str, i64)> =
        stored.iter().map(|(id, ply)| (id.as_str(), *ply)).collect();
    // Of two moves with one number in a batch, the first was inserted.
    Ok(batch
        .iter()
        .map(|item| {
            if stored.remove(&(item.id.as_str(), item.ply)) {
                Written::Stored
            } else {
                Written::Refused
            }
        })
        .collect())
}
