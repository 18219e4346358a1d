//! Group commit of moves on PostgreSQL: the moves that arrive while a batch commits
//! are written together by the next one, in a few statements and one transaction,
//! as on SQLite (`writer.rs`). A move per transaction costs six round trips and a
//! commit; at 200 games in flight one process stored about 1,600 moves a second so.

use std::collections::HashMap;
use std::sync::Arc;

use sqlx::PgConnection;
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::games::{ms, refusal_of};
use crate::postgres::{NOW, finish, write};
use crate::writer::Health;
use crate::{GameEnd, GameStatus, MoveRecord, StoreError};

/// At most this many moves share one transaction.
const MAX_BATCH: usize = 256;

/// Batches committed at once by one process (each on its own connection).
const WORKERS: usize = 2;

/// The versions the last batches gave their games, until [`crate::Store::game_version`]
/// takes them: it then needs no query of its own after each move.
pub(crate) type Versions = Arc<std::sync::Mutex<HashMap<String, u64>>>;

/// A move of a batch: game id, move number, the move and the game's end with it.
type Request = (String, usize, MoveRecord, Option<GameEnd>);

/// One move to write, and where to answer.
#[derive(Debug)]
pub(crate) struct MoveWrite {
    pub(crate) id: String,
    pub(crate) ply: usize,
    pub(crate) record: MoveRecord,
    pub(crate) end: Option<GameEnd>,
    pub(crate) done: oneshot::Sender<Result<(), StoreError>>,
}

/// Starts the workers that write the moves sent on the returned channel; they end
/// when every sender is gone.
pub(crate) fn start(
    pool: &sqlx::PgPool,
    health: &Health,
    process: &Arc<str>,
    versions: &Versions,
) -> mpsc::Sender<MoveWrite> {
    let (sender, receiver) = mpsc::channel(4 * MAX_BATCH);
    let receiver = Arc::new(Mutex::new(receiver));
    for _ in 0..WORKERS {
        let receiver = Arc::clone(&receiver);
        let (pool, health, process) = (pool.clone(), health.clone(), Arc::clone(process));
        let versions = Arc::clone(versions);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            loop {
                // One worker collects while the other commits.
                let received = receiver.lock().await.recv_many(&mut batch, MAX_BATCH).await;
                if received == 0 {
                    return;
                }
                write_batch(
                    &pool,
                    &health,
                    &process,
                    &versions,
                    std::mem::take(&mut batch),
                )
                .await;
            }
        });
    }
    sender
}

/// Writes a batch in one transaction and answers each move.
async fn write_batch(
    pool: &sqlx::PgPool,
    health: &Health,
    process: &Arc<str>,
    versions: &Versions,
    batch: Vec<MoveWrite>,
) {
    let requests: Arc<Vec<Request>> = Arc::new(
        batch
            .iter()
            .map(|m| (m.id.clone(), m.ply, m.record.clone(), m.end.clone()))
            .collect(),
    );
    let process = Arc::clone(process);
    let result = write(
        pool,
        health,
        Box::new(move |conn| {
            let (requests, process) = (Arc::clone(&requests), Arc::clone(&process));
            Box::pin(async move {
                let mut written = Vec::new();
                let answers = insert(conn, &requests, &process, &mut written).await?;
                Ok((answers, written))
            })
        }),
    )
    .await;
    match result {
        Ok((answers, written)) => {
            // Committed: the versions are those of the database now.
            versions
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend(written);
            for (write, answer) in batch.into_iter().zip(answers) {
                let _ = write.done.send(answer);
            }
        }
        Err(e) => {
            for write in batch {
                let _ = write.done.send(Err(e.shared()));
            }
        }
    }
}

/// The body of a batch, in four statements: locks the games (in id order, so that
/// batches never wait for each other in a circle); inserts each move whose game is
/// in progress and whose number is the next (the move before it stored, its own
/// not: moves have no gaps), of two with one number the first; counts them in their
/// games' versions and announces them in one statement; ends the games their last
/// move ends. Returns each move's answer, in order.
async fn insert(
    conn: &mut PgConnection,
    requests: &[Request],
    process: &str,
    versions: &mut Vec<(String, u64)>,
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    let mut ids: Vec<&str> = requests.iter().map(|r| r.0.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let statuses: HashMap<String, String> =
        sqlx::query_as("SELECT id, status FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE")
            .bind(&ids)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
    let playing: Vec<usize> = (0..requests.len())
        .filter(|&i| {
            statuses
                .get(&requests[i].0)
                .is_some_and(|s| s == GameStatus::Playing.id())
        })
        .collect();
    let column = |f: &dyn Fn(&Request) -> Option<i64>| {
        playing.iter().map(|&i| f(&requests[i])).collect::<Vec<_>>()
    };
    let game_ids: Vec<&str> = playing.iter().map(|&i| requests[i].0.as_str()).collect();
    let texts: Vec<&str> = playing
        .iter()
        .map(|&i| requests[i].2.text.as_str())
        .collect();
    // A statement after the locks sees the moves of the transactions it waited for.
    let inserted: Vec<(String, i64)> = sqlx::query_as(&format!(
        "INSERT INTO moves (game_id, ply, move, white_ms, black_ms, played_at)
         SELECT m.game_id, m.ply, m.move, m.white_ms, m.black_ms, {NOW}
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[])
              AS m (game_id, ply, move, white_ms, black_ms)
         WHERE m.ply = 0 OR EXISTS (SELECT 1 FROM moves p
                                    WHERE p.game_id = m.game_id AND p.ply = m.ply - 1)
         ON CONFLICT DO NOTHING
         RETURNING game_id, ply"
    ))
    .bind(&game_ids)
    .bind(column(&|r| Some(i64::try_from(r.1).unwrap_or(i64::MAX))))
    .bind(&texts)
    .bind(column(&|r| ms(r.2.white_ms)))
    .bind(column(&|r| ms(r.2.black_ms)))
    .fetch_all(&mut *conn)
    .await?;
    let mut inserted: std::collections::HashSet<(String, i64)> = inserted.into_iter().collect();
    let stored: Vec<bool> = requests
        .iter()
        .map(|(id, ply, _, _)| {
            // Of two moves with one number in the batch, the first takes the row.
            inserted.remove(&(id.clone(), i64::try_from(*ply).unwrap_or(i64::MAX)))
        })
        .collect();
    let stored_ids: Vec<&str> = requests
        .iter()
        .zip(&stored)
        .filter(|(_, stored)| **stored)
        .map(|(r, _)| r.0.as_str())
        .collect();
    if !stored_ids.is_empty() {
        let counted: Vec<(String, i64)> = sqlx::query_as(
            "WITH changed AS (UPDATE games SET version = version + 1 WHERE id = ANY($1)
                              RETURNING id, version)
             SELECT id, version, pg_notify($2, $3 || ' ' || id)::text FROM changed",
        )
        .bind(&stored_ids)
        .bind(crate::postgres::CHANNEL)
        .bind(process)
        .fetch_all(&mut *conn)
        .await?;
        let mut counted: HashMap<String, u64> = counted
            .into_iter()
            .map(|(id, version)| (id, u64::try_from(version).unwrap_or(0)))
            .collect();
        for ((id, _, _, end), stored) in requests.iter().zip(&stored) {
            if let (Some(end), true) = (end, stored) {
                finish(conn, id, end).await?;
                // The end is one more change.
                if let Some(version) = counted.get_mut(id) {
                    *version += 1;
                }
            }
        }
        versions.extend(counted);
    }
    let refused: Vec<&str> = requests
        .iter()
        .zip(&stored)
        .filter(|(_, stored)| !**stored)
        .map(|(r, _)| r.0.as_str())
        .collect();
    // Why a move was refused takes one more read, only when one was.
    let plies: HashMap<String, i64> = if refused.is_empty() {
        HashMap::new()
    } else {
        sqlx::query_as(
            "SELECT game_id, max(ply) + 1 FROM moves WHERE game_id = ANY($1) GROUP BY game_id",
        )
        .bind(&refused)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .collect()
    };
    let answers = requests
        .iter()
        .zip(stored)
        .map(|((id, ply, _, _), stored)| {
            if stored {
                Ok(())
            } else {
                let found = statuses
                    .get(id)
                    .map(|status| (status.clone(), plies.get(id).copied().unwrap_or(0)));
                Err(refusal_of(id, "move", *ply, found))
            }
        })
        .collect();
    Ok(answers)
}
