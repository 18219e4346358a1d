//! The public face of the store: each call goes to the backend the URL chose.

use tablero_core::Side;

use crate::{
    GameEnd, GameFilter, GameRecord, GameSummary, ImportSummary, MoveRecord, NewGame,
    PlayerFileEntry, PlayerRecord, Store, StoreError,
};

/// Calls `$method` on whichever backend `$store` has.
macro_rules! on_backend {
    ($store:expr, $method:ident ( $($arg:expr),* )) => {
        match &$store.backend {
            crate::Backend::Sqlite(s) => s.$method($($arg),*).await,
            crate::Backend::Postgres(p) => p.$method($($arg),*).await,
        }
    };
}

impl Store {
    /// Stores a new game (with its moves, for an imported game) and registers the
    /// people named in its seats as players, in one transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the id is taken; [`StoreError::Unavailable`] when
    /// the database cannot be written.
    pub async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        on_backend!(self, create_game(game))
    }

    /// Appends move number `ply` (0-based) to a game in progress, with the clocks
    /// after it. Returns once the move is durable (group-committed with the moves of
    /// other games).
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if that move number is taken or the game is finished;
    /// [`StoreError::UnknownGame`]; [`StoreError::Unavailable`].
    pub async fn append_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
    ) -> Result<(), StoreError> {
        on_backend!(self, append_move(id, ply, m))
    }

    /// Appends the move that ends a game, and the game's end ([`Store::finish_game`]),
    /// in one transaction: either both are stored or neither.
    ///
    /// # Errors
    ///
    /// As [`Store::append_move`].
    pub async fn append_final_move(
        &self,
        id: &str,
        ply: usize,
        m: &MoveRecord,
        end: &GameEnd,
    ) -> Result<(), StoreError> {
        on_backend!(self, append_final_move(id, ply, m, end))
    }

    /// Takes back moves so that `keep` remain, and sets the clocks.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game is finished or has fewer moves;
    /// [`StoreError::UnknownGame`]; [`StoreError::Unavailable`].
    pub async fn take_back(
        &self,
        id: &str,
        keep: usize,
        remaining_ms: [Option<u64>; 2],
    ) -> Result<(), StoreError> {
        on_backend!(self, take_back(id, keep, remaining_ms))
    }

    /// Ends a game in progress: winner (`None` for a draw), reason id and the final
    /// clocks; the named players' counts for this game kind (and, between two
    /// different named people, their Glicko-2 ratings) are updated in the same
    /// transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if it is already finished; [`StoreError::UnknownGame`];
    /// [`StoreError::Unavailable`].
    pub async fn finish_game(&self, id: &str, end: &GameEnd) -> Result<(), StoreError> {
        on_backend!(self, finish_game(id, end))
    }

    /// The game with this id, with every move; `None` if there is none.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`], [`StoreError::Corrupt`].
    pub async fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        on_backend!(self, game(id))
    }

    /// Every game still in progress, with its moves, oldest first: what the server
    /// loads at start-up. Each one's [`GameRecord::turn_used_ms`] counts up to when the
    /// previous run was last alive (its last heartbeat), not up to now.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`], [`StoreError::Corrupt`].
    pub async fn unfinished_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        on_backend!(self, unfinished_games())
    }

    /// Games, most recently changed first: those `filter` keeps.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`], [`StoreError::Corrupt`].
    pub async fn list_games(
        &self,
        filter: &GameFilter,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        on_backend!(self, list_games(filter, limit, offset))
    }

    /// Every player in registration order, with their results, ratings and
    /// imported counts.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn players(&self) -> Result<Vec<PlayerRecord>, StoreError> {
        on_backend!(self, players())
    }

    /// The player `name`, if registered.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn player(&self, name: &str) -> Result<Option<PlayerRecord>, StoreError> {
        Ok(self.players().await?.into_iter().find(|p| p.name == name))
    }

    /// The players whose name contains `text`, ignoring case, in registration order.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn search_players(&self, text: &str) -> Result<Vec<PlayerRecord>, StoreError> {
        let needle = text.to_lowercase();
        let mut players = self.players().await?;
        players.retain(|p| p.name.to_lowercase().contains(&needle));
        Ok(players)
    }

    /// Imports the records of a player file in one transaction: new names are
    /// registered in file order, and each named player's imported counts become the
    /// file's (replacing those of an earlier import; counts of games played here are
    /// kept and added to them). Nothing is written if anything fails.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn import_players(
        &self,
        entries: &[PlayerFileEntry],
    ) -> Result<ImportSummary, StoreError> {
        on_backend!(self, import_players(entries))
    }

    /// Deletes the player `name` and their counts; their games keep the name. Returns
    /// whether there was such a player.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn delete_player(&self, name: &str) -> Result<bool, StoreError> {
        on_backend!(self, delete_player(name))
    }

    /// Deletes the games in progress that never got a move and have not changed for
    /// `idle` (an invitation nobody took, a board set up and left), with their seats;
    /// returns their ids. Games with a move, and finished games, are never touched.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`], or a refusal to write.
    pub async fn delete_abandoned_games(
        &self,
        idle: std::time::Duration,
    ) -> Result<Vec<String>, StoreError> {
        on_backend!(self, delete_abandoned_games(idle))
    }

    /// Stores the standing draw offer and take-back request of a game in progress
    /// (the side that made each), so that they survive a restart and reach the other
    /// processes of a shared database.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game is finished; [`StoreError::UnknownGame`];
    /// [`StoreError::Unavailable`].
    pub async fn set_offers(
        &self,
        id: &str,
        draw_offer: Option<Side>,
        takeback_request: Option<Side>,
    ) -> Result<(), StoreError> {
        on_backend!(self, set_offers(id, draw_offer, takeback_request))
    }

    /// On PostgreSQL, game `id`'s version as stored now (see
    /// [`GameRecord::version`]); `None` on SQLite or for an unknown game.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn game_version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        match &self.backend {
            crate::Backend::Sqlite(_) => Ok(None),
            crate::Backend::Postgres(p) => p.game_version(id).await,
        }
    }
}
