#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod api;
mod checkpoint;
mod error;
mod files;
mod games;
mod glicko;
pub mod player_file;
mod players;
mod postgres;
mod postgres_moves;
mod tokens;
mod writer;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::SqliteSynchronous;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

pub use error::{Fault, FaultKind, StoreError};
pub use games::{
    ClockKind, ClockRecord, GameEnd, GameFilter, GameRecord, GameStatus, GameSummary, Mode,
    MoveRecord, NewGame, Seat,
};
pub use glicko::Rating;
pub use player_file::{PlayerFileEntry, PlayerFileError, parse_player_file};
pub use players::{ImportSummary, ImportedCounts, PlayerRating, PlayerRecord, PlayerStats, Totals};
pub use tokens::{token_hash, token_matches};

use crate::postgres::PgStore;
use crate::writer::Writer;

/// The embedded migrations (`crates/store/migrations`), applied by [`Store::open`].
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The timestamp SQLite writes: UTC, RFC 3339 with milliseconds.
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Whether the store can be written, as its last write found out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreHealth {
    /// Writes work.
    Writable,
    /// The last write failed (the heartbeat probes again every 250 ms): changes are
    /// refused with [`StoreError::Unavailable`] until one works.
    Degraded(Fault),
    /// Opened with [`Store::open_read_only`]: nothing can be changed.
    ReadOnly,
}

/// The database of one tablero installation: games with their moves, and players.
///
/// An SQLite file (the default: one server process) or a PostgreSQL database (any
/// number of server processes, see [`Store::subscribe`]). Cloning is cheap (the
/// connections are shared).
#[derive(Debug, Clone)]
pub struct Store {
    backend: Backend,
}

#[derive(Debug, Clone)]
enum Backend {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// The store on an SQLite file.
#[derive(Debug, Clone)]
pub(crate) struct SqliteStore {
    /// Reads, on several connections (WAL lets them run beside a write).
    pool: SqlitePool,
    /// Writes, by one task on one connection (`writer.rs`); `None` when read-only.
    writer: Option<Writer>,
    /// The previous run's last heartbeat: when its clocks stopped.
    stopped_at: Option<String>,
}

/// A change that another server process made to the database, as PostgreSQL
/// announces it (`LISTEN`/`NOTIFY`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreEvent {
    /// Game `id` changed (a move, a take-back, its end): a copy held in memory is
    /// out of date.
    GameChanged {
        /// The game's id.
        id: String,
    },
    /// The connection that listens was lost and has been made again: changes may
    /// have been missed meanwhile, so every copy held in memory may be out of date.
    Missed,
}

impl Store {
    /// Opens the database at `url`: `postgres://…` (or `postgresql://…`) for
    /// PostgreSQL, otherwise an SQLite file (`sqlite://PATH`, a bare path, or
    /// `sqlite::memory:`). Applies the migrations and checks that the database can
    /// be written.
    ///
    /// On SQLite, writes are committed with `synchronous = NORMAL` in WAL mode: a
    /// committed transaction survives a crash of the process (even SIGKILL); only a
    /// power loss may take back the last ones. The file and its `-wal`/`-shm`
    /// companions are made readable by their owner only (0600), and a folder the
    /// store creates 0700. On PostgreSQL, a write is acknowledged after its
    /// transaction commits with the server's `synchronous_commit`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Url`] for a URL neither backend takes;
    /// [`StoreError::NotWritable`] (naming the file or server and the cause) when the
    /// database cannot be reached, created or written; [`StoreError::Database`] or
    /// [`StoreError::Migration`] otherwise.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let backend = if postgres::is_postgres_url(url) {
            Backend::Postgres(PgStore::open(url).await?)
        } else {
            Backend::Sqlite(SqliteStore::open(url).await?)
        };
        Ok(Store { backend })
    }

    /// Opens an existing SQLite database for reading only: every change is refused
    /// with [`StoreError::ReadOnly`]. For serving finished games from a file that may
    /// not be written (a read-only disk, a copy).
    ///
    /// # Errors
    ///
    /// [`StoreError::Url`] (a PostgreSQL URL included: give its server a read-only
    /// user instead); [`StoreError::Database`] when the file cannot be opened;
    /// [`StoreError::Outdated`] when it is not a tablero database of this version (it
    /// needs migrations: open it once for writing).
    pub async fn open_read_only(url: &str) -> Result<Store, StoreError> {
        if postgres::is_postgres_url(url) {
            return Err(StoreError::Url {
                url: postgres::redacted(url),
                reason: "read-only mode serves SQLite files only".to_owned(),
            });
        }
        Ok(Store {
            backend: Backend::Sqlite(SqliteStore::open_read_only(url).await?),
        })
    }

    /// Whether writes work now.
    #[must_use]
    pub fn health(&self) -> StoreHealth {
        match &self.backend {
            Backend::Sqlite(s) => s.health(),
            Backend::Postgres(p) => p.health(),
        }
    }

    /// Whether the store was opened read-only.
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        match &self.backend {
            Backend::Sqlite(s) => s.writer.is_none(),
            Backend::Postgres(_) => false,
        }
    }

    /// Whether other server processes may share this database (PostgreSQL): then
    /// what one process holds in memory may be outdated by another, and
    /// [`Store::subscribe`] tells when.
    #[must_use]
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// The changes other processes make, as the database announces them; `None` for
    /// SQLite, which one process owns.
    #[must_use]
    pub fn subscribe(&self) -> Option<tokio::sync::broadcast::Receiver<StoreEvent>> {
        match &self.backend {
            Backend::Sqlite(_) => None,
            Backend::Postgres(p) => Some(p.subscribe()),
        }
    }

    /// Claims game `id` for this process: it runs the game's clock and computer
    /// seats while it lives. `false` when another live process has it (PostgreSQL);
    /// always `true` on SQLite, which one process owns.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn claim_game(&self, id: &str) -> Result<bool, StoreError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(true),
            Backend::Postgres(p) => p.claim_game(id).await,
        }
    }

    /// Claims the games in progress with a clock or a computer seat whose process is
    /// gone, and returns their ids (a batch at a time: call it again until it is
    /// empty). Always empty on SQLite, where [`Store::unfinished_games`] at start-up
    /// gives every game back to its one process.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn claim_orphans(&self) -> Result<Vec<String>, StoreError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(Vec::new()),
            Backend::Postgres(p) => p.claim_orphans().await,
        }
    }

    /// The default database: `tablero.db` in the user's data directory
    /// (`$XDG_DATA_HOME/tablero`, `~/Library/Application Support/tablero`,
    /// `%APPDATA%\\tablero`), or in the current directory when there is none.
    #[must_use]
    pub fn default_path() -> PathBuf {
        dirs::data_dir()
            .map(|dir| dir.join("tablero"))
            .unwrap_or_default()
            .join("tablero.db")
    }

    /// `url` as it may be shown or logged: a PostgreSQL URL without its password.
    #[must_use]
    pub fn display_url(url: &str) -> String {
        if postgres::is_postgres_url(url) {
            postgres::redacted(url)
        } else {
            url.to_owned()
        }
    }

    /// The URL of a database file.
    #[must_use]
    pub fn url_for(path: &Path) -> String {
        format!("sqlite://{}", path.display())
    }

    /// Closes every connection, waiting for running queries.
    pub async fn close(&self) {
        match &self.backend {
            Backend::Sqlite(s) => s.close().await,
            Backend::Postgres(p) => p.close().await,
        }
    }
}

impl SqliteStore {
    /// Opens (creating it if needed) the SQLite database at `url`, in WAL mode with
    /// foreign keys on: see [`Store::open`].
    async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let url = normalise_url(url)?;
        let memory = url.contains(":memory:");
        let options = connect_options(&url)?
            .create_if_missing(true)
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
        let path = options.get_filename().to_path_buf();
        let not_writable = |cause: String| StoreError::NotWritable {
            path: path.display().to_string(),
            cause,
        };
        if !memory {
            files::prepare(&path).map_err(|e| not_writable(e.to_string()))?;
        }
        let writer_pool = pool_of(1)
            .connect_with(options.clone())
            .await
            .map_err(|e| not_writable(Fault::of(&e).detail))?;
        MIGRATOR.run(&writer_pool).await.map_err(|e| match &e {
            sqlx::migrate::MigrateError::Execute(db) if is_write_fault(db) => {
                not_writable(Fault::of(db).detail)
            }
            _ => StoreError::Migration(e),
        })?;
        tokens::hash_legacy_tokens(&writer_pool).await?;
        let stopped_at: Option<String> = sqlx::query_scalar("SELECT at FROM heartbeat")
            .fetch_optional(&writer_pool)
            .await?;
        // The first heartbeat is the start-up check: a database that cannot be
        // written stops the server now, not at its first client.
        writer::beat_now(&writer_pool)
            .await
            .map_err(|fault| not_writable(fault.detail))?;
        if !memory {
            files::restrict_companions(&path);
        }
        // An in-memory database lives in its one connection: reads share it.
        let pool = if memory {
            writer_pool.clone()
        } else {
            pool_of(4).connect_with(options).await?
        };
        let finish = checkpoint::FinishRequest::default();
        let writer = Writer::start(writer_pool, !memory, finish.clone());
        if !memory {
            checkpoint::start(pool.clone(), writer.downgrade(), finish);
        }
        Ok(SqliteStore {
            pool,
            writer: Some(writer),
            stopped_at,
        })
    }

    /// See [`Store::open_read_only`].
    async fn open_read_only(url: &str) -> Result<SqliteStore, StoreError> {
        let url = normalise_url(url)?;
        let options = connect_options(&url)?.read_only(true);
        let path = options.get_filename().display().to_string();
        let applied_in = async |options: SqliteConnectOptions| {
            let pool = pool_of(4).connect_with(options).await?;
            let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations")
                .fetch_all(&pool)
                .await?;
            Ok::<_, sqlx::Error>((pool, applied))
        };
        let (pool, applied) = match applied_in(options.clone()).await {
            Ok(opened) => Ok(opened),
            // A WAL database on a read-only disk, closed cleanly (no -shm file left),
            // opens only as immutable: nothing may write it meanwhile, which a
            // read-only disk guarantees.
            Err(e) if Fault::of(&e).kind == FaultKind::ReadOnly => {
                applied_in(options.immutable(true)).await
            }
            Err(e) => Err(e),
        }
        .map_err(|e| StoreError::Outdated {
            path: path.clone(),
            reason: Fault::of(&e).detail,
        })?;
        if let Some(missing) = MIGRATOR.iter().find(|m| !applied.contains(&m.version)) {
            return Err(StoreError::Outdated {
                path,
                reason: format!("migration {} is not applied", missing.version),
            });
        }
        Ok(SqliteStore {
            pool,
            writer: None,
            stopped_at: None,
        })
    }

    fn health(&self) -> StoreHealth {
        match &self.writer {
            None => StoreHealth::ReadOnly,
            Some(writer) => match writer.health.fault() {
                Some(fault) => StoreHealth::Degraded(fault),
                None => StoreHealth::Writable,
            },
        }
    }

    fn writer(&self) -> Result<&Writer, StoreError> {
        self.writer.as_ref().ok_or(StoreError::ReadOnly)
    }

    async fn close(&self) {
        self.pool.close().await;
        if let Some(writer) = &self.writer {
            writer.close().await;
        }
    }
}

fn connect_options(url: &str) -> Result<SqliteConnectOptions, StoreError> {
    Ok(SqliteConnectOptions::from_str(url)
        .map_err(|e| StoreError::Url {
            url: url.to_owned(),
            reason: e.to_string(),
        })?
        .foreign_keys(true))
}

fn pool_of(connections: u32) -> SqlitePoolOptions {
    SqlitePoolOptions::new()
        .max_connections(connections)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
}

/// Whether a migration failed because the database cannot be written.
fn is_write_fault(error: &sqlx::Error) -> bool {
    matches!(
        Fault::of(error).kind,
        FaultKind::Full | FaultKind::ReadOnly | FaultKind::Io
    )
}

/// Accepts `sqlite://path`, `sqlite:path`, `sqlite::memory:` and bare paths (a
/// PostgreSQL URL never comes here).
fn normalise_url(url: &str) -> Result<String, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(url.to_owned())
    } else if url.contains("://") {
        Err(StoreError::Url {
            url: url.to_owned(),
            reason: "use sqlite://PATH or postgres://USER@HOST/DATABASE".to_owned(),
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
