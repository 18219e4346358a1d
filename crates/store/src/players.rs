//! Players: people who played under a name, with their results per game kind.

use sqlx::{Sqlite, Transaction};

use crate::{NOW, Store, StoreError};

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Registration order (1 first).
    pub id: i64,
    /// The name, unique.
    pub name: String,
    /// When the player was registered (UTC, RFC 3339).
    pub created_at: String,
    /// Results per game kind, by game id; kinds never played are absent.
    pub stats: Vec<PlayerStats>,
}

/// A player's results in one game kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerStats {
    /// The game kind id.
    pub game: String,
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
    /// Games drawn.
    pub drawn: u32,
}

/// Registers `name` if it is new.
pub(crate) async fn ensure_player(
    tx: &mut Transaction<'_, Sqlite>,
    name: &str,
) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO players (name, created_at) VALUES (?, {NOW}) ON CONFLICT (name) DO NOTHING"
    ))
    .bind(name)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Adds one to `column` (`won`, `lost` or `drawn`) of `name` in `game`, registering the
/// player if a deleted one finishes a game.
pub(crate) async fn count_result(
    tx: &mut Transaction<'_, Sqlite>,
    name: &str,
    game: &str,
    column: &'static str,
) -> Result<(), StoreError> {
    ensure_player(tx, name).await?;
    sqlx::query(&format!(
        "INSERT INTO player_stats (player_id, game, {column})
         SELECT id, ?, 1 FROM players WHERE name = ?
         ON CONFLICT (player_id, game) DO UPDATE SET {column} = {column} + 1"
    ))
    .bind(game)
    .bind(name)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// Every player in registration order, with their results.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn players(&self) -> Result<Vec<PlayerRecord>, StoreError> {
        let mut players: Vec<PlayerRecord> = sqlx::query_as::<_, (i64, String, String)>(
            "SELECT id, name, created_at FROM players ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|(id, name, created_at)| PlayerRecord {
            id,
            name,
            created_at,
            stats: Vec::new(),
        })
        .collect();
        let stats = sqlx::query_as::<_, (i64, String, i64, i64, i64)>(
            "SELECT player_id, game, won, lost, drawn FROM player_stats ORDER BY player_id, game",
        )
        .fetch_all(&self.pool)
        .await?;
        let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
        for (player, game, won, lost, drawn) in stats {
            if let Some(p) = players.iter_mut().find(|p| p.id == player) {
                p.stats.push(PlayerStats {
                    game,
                    won: count(won),
                    lost: count(lost),
                    drawn: count(drawn),
                });
            }
        }
        Ok(players)
    }

    /// Deletes the player `name` and their counts; their games keep the name. Returns
    /// whether there was such a player.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`].
    pub async fn delete_player(&self, name: &str) -> Result<bool, StoreError> {
        let deleted = sqlx::query("DELETE FROM players WHERE name = ?")
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(deleted.rows_affected() > 0)
    }
}
