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
    /// Classifies a database error by SQLite's primary result code.
    #[must_use]
    pub fn of(error: &sqlx::Error) -> Fault {
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
            (None, sqlx::Error::Io(e)) => match e.kind() {
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

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.kind {
            FaultKind::Full => "storage is full; nothing was changed",
            FaultKind::ReadOnly => "storage cannot be written (read-only); nothing was changed",
            FaultKind::Busy => "storage is locked by another program; nothing was changed",
            FaultKind::Io => "storage failed to write (I/O error); nothing was changed",
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
