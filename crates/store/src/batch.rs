//! Group commit for moves: one task writes the moves that arrive while the previous
//! batch is being committed, all in one transaction, and answers each one after the
//! commit. A move is still acknowledged only once it is durable; the transaction
//! overhead (BEGIN, COMMIT, the WAL append, the round trips to SQLite's thread) is
//! shared by every move in the batch.

use sqlx::SqlitePool;
use tokio::sync::{mpsc, oneshot};

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
pub(crate) fn start(writer: SqlitePool) -> mpsc::Sender<MoveWrite> {
    let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
    tokio::spawn(run(writer, receiver));
    sender
}

async fn run(writer: SqlitePool, mut receiver: mpsc::Receiver<MoveWrite>) {
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
    }
}

/// Writes every move of `batch` in one transaction: each one is stored or refused on
/// its own; only a database failure fails them all.
async fn write(writer: &SqlitePool, batch: &[MoveWrite]) -> Result<Vec<Written>, sqlx::Error> {
    let mut tx = writer.begin().await?;
    let mut results = Vec::with_capacity(batch.len());
    for item in batch {
        // The game goes on, this move number is free and the one before is stored.
        let updated = sqlx::query(&format!(
            "UPDATE games SET white_ms = ?1, black_ms = ?2, updated_at = {NOW}
             WHERE id = ?3 AND status = 'playing'
               AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = ?3 AND ply = ?4)
               AND (?4 = 0 OR EXISTS (SELECT 1 FROM moves WHERE game_id = ?3 AND ply = ?4 - 1))"
        ))
        .bind(crate::games::ms(item.record.white_ms))
        .bind(crate::games::ms(item.record.black_ms))
        .bind(&item.id)
        .bind(item.ply)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() == 0 {
            results.push(Written::Refused);
            continue;
        }
        sqlx::query(&format!(
            "INSERT INTO moves (game_id, ply, move, white_ms, black_ms, played_at)
             VALUES (?, ?, ?, ?, ?, {NOW})"
        ))
        .bind(&item.id)
        .bind(item.ply)
        .bind(&item.record.text)
        .bind(crate::games::ms(item.record.white_ms))
        .bind(crate::games::ms(item.record.black_ms))
        .execute(&mut *tx)
        .await?;
        results.push(Written::Stored);
    }
    tx.commit().await?;
    Ok(results)
}
