/// Why the store could not do what was asked. Database details are for the log; the
/// server answers clients with its own words.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is not one the store can open.
    #[error("database {url:?}: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The database cannot be written (checked when the store opens for writing).
    #[error("cannot write the database {path}: {cause}")]
    NotWritable {
        /// The database file.
        path: String,
        /// What the system or SQLite said.
        cause: String,
    },
    /// A database opened read-only is not one this version can read as it is.
    #[error(
        "the database {path} cannot be served read-only: {reason} (start once without --read-only to bring it up to date)"
    )]
    Outdated {
        /// The database file.
        path: String,
        /// What is missing.
        reason: String,
    },
    /// No game has this id.
    #[error("no game with id {0:?}")]
    UnknownGame(String),
    /// The write lost a race: the move number is taken, or the game is not in the
    /// state the write expected (e.g. already finished).
    #[error("game {id:?}: {reason}")]
    Conflict {
        /// The game id.
        id: String,
        /// What did not match.
        reason: String,
    },
    /// A stored value could not be read back (a column holds what no version wrote).
    #[error("game {id:?}: stored {column} {value:?} is not valid")]
    Corrupt {
        /// The row's id.
        id: String,
        /// The column.
        column: &'static str,
        /// The value found.
        value: String,
    },
    /// A write failed in the database (disk full, I/O error, read-only, busy): it was
    /// rolled back, nothing was changed, and the next write starts afresh.
    #[error("{0}")]
    Unavailable(Fault),
    /// The store was opened read-only.
    #[error("the database is open read-only; nothing can be changed")]
    ReadOnly,
    /// SQLite failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The store is closed.
    #[error("database error: {0}")]
    Failed(String),
    /// A migration failed.
    #[error("database migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
}

/// What kind of failure stopped a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// No space left for the database or its journal (`SQLITE_FULL`).
    Full,
    /// The file, its folder or its file system cannot be written (`SQLITE_READONLY`,
    /// `SQLITE_CANTOPEN`, permission denied).
    ReadOnly,
    /// Another process holds the database's lock (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    Busy,
    /// The system failed to read or write the file (`SQLITE_IOERR`).
    Io,
    /// The database server cannot be reached (PostgreSQL: connection refused or
    /// lost, no connection free in time).
    Unreachable,
    /// Anything else SQLite or the connection reported.
    Other,
}

impl FaultKind {
    /// A stable id: `full`, `read-only`, `busy`, `io`, `other`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            FaultKind::Full => "full",
            FaultKind::ReadOnly => "read-only",
            FaultKind::Busy => "busy",
            FaultKind::Io => "io",
            FaultKind::Unreachable => "unreachable",
            FaultKind::Other => "other",
        }
    }
}

/// A failed write: its kind, for clients, and what the database said, for the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// What kind of failure.
    pub kind: FaultKind,
    /// The database's own words (logged, never sent to clients).
    pub detail: String,
}

impl Fault {
    /// Classifies a database error by SQLite's primary result code or PostgreSQL's
    /// SQLSTATE class.
    #[must_use]
    pub fn of(error: &sqlx::Error) -> Fault {
        if let Some(kind) = postgres_kind(error) {
            return Fault {
                kind,
                detail: error.to_string(),
            };
        }
        let code = error
            .as_database_error()
            .and_then(|e| e.code())
            .and_then(|c| c.parse::<i64>().ok())
            .map(|c| c & 0xff);
        let kind = match (code, error) {
            (Some(13), _) => FaultKind::Full,
            (Some(8 | 14), _) => FaultKind::ReadOnly,
            (Some(5 | 6), _) => FaultKind::Busy,
            (Some(10), _) => FaultKind::Io,
            (None, sqlx::Error::PoolTimedOut) => FaultKind::Busy,
            (None, sqlx::Error::Io(e)) => match e.kind() {
                std::io::ErrorKind::ConnectionRefused
                | std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::NotConnected
                | std::io::ErrorKind::BrokenPipe
                | std::io::ErrorKind::UnexpectedEof => FaultKind::Unreachable,
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    FaultKind::ReadOnly
                }
                std::io::ErrorKind::StorageFull => FaultKind::Full,
                _ => FaultKind::Io,
            },
            _ => FaultKind::Other,
        };
        Fault {
            kind,
            detail: error.to_string(),
        }
    }
}

/// The kind of a PostgreSQL failure; `None` when `error` is not one.
fn postgres_kind(error: &sqlx::Error) -> Option<FaultKind> {
    let database = error.as_database_error()?;
    let pg = database.try_downcast_ref::<sqlx::postgres::PgDatabaseError>()?;
    let code = pg.code();
    Some(match code {
        // disk_full; the other insufficient-resources states are passing.
        "53100" => FaultKind::Full,
        _ if code.starts_with("53") => FaultKind::Busy,
        // read_only_sql_transaction: a standby, or default_transaction_read_only.
        "25006" => FaultKind::ReadOnly,
        "42501" => FaultKind::ReadOnly,
        // serialization_failure, deadlock_detected, lock_not_available.
        "40001" | "40P01" | "55P03" => FaultKind::Busy,
        // admin_shutdown, crash_shutdown, cannot_connect_now; connection exceptions.
        _ if code.starts_with("57P") || code.starts_with("08") => FaultKind::Unreachable,
        // system errors (I/O) and internal errors (corrupted data).
        _ if code.starts_with("58") || code.starts_with("XX") => FaultKind::Io,
        _ => FaultKind::Other,
    })
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.kind {
            FaultKind::Full => "storage is full; nothing was changed",
            FaultKind::ReadOnly => "storage cannot be written (read-only); nothing was changed",
            FaultKind::Busy => "storage is locked by another program; nothing was changed",
            FaultKind::Io => "storage failed to write (I/O error); nothing was changed",
            FaultKind::Unreachable => "the database server cannot be reached; nothing was changed",
            FaultKind::Other => "storage failed; nothing was changed",
        })
    }
}

impl StoreError {
    /// A write's error as its caller sees it: a database failure becomes
    /// [`StoreError::Unavailable`] with its cause.
    pub(crate) fn into_write_error(self) -> StoreError {
        match self {
            StoreError::Database(e) => StoreError::Unavailable(Fault::of(&e)),
            other => other,
        }
    }

    /// The same error for each caller of a group commit.
    pub(crate) fn shared(&self) -> StoreError {
        match self {
            StoreError::Unavailable(fault) => StoreError::Unavailable(fault.clone()),
            StoreError::UnknownGame(id) => StoreError::UnknownGame(id.clone()),
            StoreError::Conflict { id, reason } => StoreError::Conflict {
                id: id.clone(),
                reason: reason.clone(),
            },
            other => StoreError::Failed(other.to_string()),
        }
    }
}
