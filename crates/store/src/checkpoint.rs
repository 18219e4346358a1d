//! WAL checkpoints, mostly off the writer's path. SQLite's automatic checkpoint runs
//! inside the commit that crosses its threshold, so a batch of moves would wait for
//! the database file to be written and synced (tens of milliseconds under load).
//!
//! Here a task copies the WAL back into the database file every [`INTERVAL`] on a
//! reading connection (`PASSIVE`: it blocks neither the writer nor the readers). A
//! passive checkpoint beside a busy writer never catches up with the last commits,
//! and SQLite starts the WAL file over only once every frame is copied; so once the
//! WAL has grown past [`FINISH_FROM_FRAMES`] the task asks the writer to finish the
//! checkpoint between two batches, where only the frames written since the last
//! passive one are left to copy.
//!
//! The WAL file is not cut back when it starts over (no `journal_size_limit`):
//! truncating it waits for the kernel to finish writing its pages back, which held
//! the next commit up for 170 ms; reused, it costs nothing. Under a sustained load it
//! reaches about [`FINISH_FROM_FRAMES`] pages; SQLite deletes it when the last
//! connection closes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::SqlitePool;
use tokio::sync::mpsc::WeakSender;

use crate::writer::Task;

/// How often the WAL is copied back.
const INTERVAL: Duration = Duration::from_millis(500);

/// The WAL size, in pages, from which the writer is asked to finish a checkpoint so
/// that the WAL starts over: 256 MiB with 4 KiB pages, about every ten seconds at
/// 5,000 moves a second. Finishing costs the writer 10–20 ms (the syncs), so it is
/// rare; a WAL that stops growing is finished by the passive checkpoint alone.
const FINISH_FROM_FRAMES: i64 = 65_536;

/// A request from the checkpoint task to the writer, shared by both.
#[derive(Debug, Clone, Default)]
pub(crate) struct FinishRequest(Arc<AtomicBool>);

impl FinishRequest {
    fn ask(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a finishing checkpoint is due; the request is consumed.
    pub(crate) fn take(&self) -> bool {
        self.0.swap(false, Ordering::Relaxed)
    }
}

/// Runs a passive checkpoint and returns the WAL's size in pages. A failed
/// checkpoint loses nothing (the WAL keeps every commit); the next one tries again.
pub(crate) async fn passive<'e>(executor: impl sqlx::SqliteExecutor<'e>) -> i64 {
    let statement = "PRAGMA wal_checkpoint(PASSIVE)";
    let result: Result<(i64, i64, i64), _> = sqlx::query_as(statement).fetch_one(executor).await;
    match result {
        Ok((_busy, frames, _copied)) => frames,
        Err(e) => {
            tracing::warn!(error = %e, "WAL checkpoint failed");
            0
        }
    }
}

/// Starts the checkpoint task; it ends with the store (when `alive` can no longer be
/// upgraded: every [`crate::Store`] is gone).
pub(crate) fn start(pool: SqlitePool, alive: WeakSender<Task>, finish: FinishRequest) {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if alive.upgrade().is_none() || pool.is_closed() {
                break;
            }
            if passive(&pool).await >= FINISH_FROM_FRAMES {
                finish.ask();
            }
        }
    });
}
