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
    /// SQLite failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A write shared with others failed (group commit), or the store is closed.
    #[error("database error: {0}")]
    Failed(String),
    /// A migration failed.
    #[error("database migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
}
