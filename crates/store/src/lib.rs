#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod batch;
mod checkpoint;
mod error;
mod games;
mod glicko;
pub mod player_file;
mod players;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::SqliteSynchronous;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

pub use error::StoreError;
pub use games::{
    ClockKind, ClockRecord, GameRecord, GameStatus, GameSummary, Mode, MoveRecord, NewGame, Seat,
};
pub use glicko::Rating;
pub use player_file::{PlayerFileEntry, PlayerFileError, parse_player_file};
pub use players::{ImportSummary, ImportedCounts, PlayerRating, PlayerRecord, PlayerStats, Totals};

/// The embedded migrations (`crates/store/migrations`), applied by [`Store::open`].
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The timestamp SQLite writes: UTC, RFC 3339 with milliseconds.
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// The database of one tablero installation: games with their moves, and players.
///
/// Cloning is cheap (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct Store {
    /// Reads, on several connections (WAL lets them run beside a write).
    pool: SqlitePool,
    /// Writes, on one connection: SQLite takes one writer at a time, and queueing
    /// writers here (in order, without blocking a thread) is faster and fairer than
    /// letting connections wait on SQLite's busy handler.
    writer: SqlitePool,
    /// Moves to write, group-committed by the task of `batch.rs`.
    moves: tokio::sync::mpsc::Sender<batch::MoveWrite>,
}

impl Store {
    /// Opens (creating it if needed) the SQLite database at `url` (`sqlite://PATH`,
    /// a bare path, or `sqlite::memory:`), in WAL mode with foreign keys on, and applies
    /// the migrations.
    ///
    /// Writes are committed with `synchronous = NORMAL`: in WAL mode a committed
    /// transaction survives a crash of the process (even SIGKILL); only a power loss
    /// may take back the last ones.
    ///
    /// # Errors
    ///
    /// [`StoreError::Url`] for a URL that is not SQLite, [`StoreError::Database`] when
    /// the file cannot be opened or migrated.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let url = normalise_url(url)?;
        let memory = url.contains(":memory:");
        let options = SqliteConnectOptions::from_str(&url)
            .map_err(|e| StoreError::Url {
                url: url.clone(),
                reason: e.to_string(),
            })?
            .create_if_missing(true)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let options = if memory {
            options
        } else {
            options
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                // Checkpoints run beside the writer (`checkpoint.rs`), not in its
                // commits, where they would hold up every move of the batch.
                .pragma("wal_autocheckpoint", "0")
        };
        if let Some(dir) = options.get_filename().parent()
            && !memory
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Url {
                url: url.clone(),
                reason: format!("cannot create {}: {e}", dir.display()),
            })?;
        }
        let pool_of = |connections: u32| {
            SqlitePoolOptions::new()
                .max_connections(connections)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
        };
        let writer = pool_of(1).connect_with(options.clone()).await?;
        MIGRATOR.run(&writer).await?;
        // An in-memory database lives in its one connection: reads share it.
        let pool = if memory {
            writer.clone()
        } else {
            pool_of(4).connect_with(options).await?
        };
        let finish = checkpoint::FinishRequest::default();
        let moves = batch::start(writer.clone(), finish.clone());
        if !memory {
            checkpoint::start(pool.clone(), moves.downgrade(), finish);
        }
        Ok(Store {
            pool,
            writer,
            moves,
        })
    }

    /// The default database: `tablero.db` in the user's data directory
    /// (`$XDG_DATA_HOME/tablero`, `~/Library/Application Support/tablero`,
    /// `%APPDATA%\tablero`), or in the current directory when there is none.
    #[must_use]
    pub fn default_path() -> PathBuf {
        dirs::data_dir()
            .map(|dir| dir.join("tablero"))
            .unwrap_or_default()
            .join("tablero.db")
    }

    /// The URL of a database file.
    #[must_use]
    pub fn url_for(path: &Path) -> String {
        format!("sqlite://{}", path.display())
    }

    /// Closes every connection, waiting for running queries.
    pub async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }
}

/// Accepts `sqlite://path`, `sqlite:path`, `sqlite::memory:` and bare paths.
fn normalise_url(url: &str) -> Result<String, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(url.to_owned())
    } else if url.contains("://") {
        Err(StoreError::Url {
            url: url.to_owned(),
            reason: "only SQLite databases are supported (sqlite://PATH)".to_owned(),
        })
    } else if url.is_empty() {
        Err(StoreError::Url {
            url: String::new(),
            reason: "empty database path".to_owned(),
        })
    } else {
        Ok(format!("sqlite://{url}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            normalise_url("a/b.db").ok().as_deref(),
            Some("sqlite://a/b.db")
        );
        assert_eq!(
            normalise_url("sqlite::memory:").ok().as_deref(),
            Some("sqlite::memory:")
        );
        assert!(matches!(
            normalise_url("postgres://x"),
            Err(StoreError::Url { .. })
        ));
        assert!(normalise_url("").is_err());
    }
}
