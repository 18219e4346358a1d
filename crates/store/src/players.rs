//! Players: people who played under a name, with their results per game kind.

use std::collections::HashMap;

use sqlx::SqliteConnection;
use tablero_core::Side;

use crate::glicko::Rating;
use crate::player_file::PlayerFileEntry;
use crate::{NOW, SqliteStore, StoreError};

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// A registered player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRecord {
    /// The row id: grows with registration, with gaps (an import that only updates
    /// names still draws ids).
    pub id: i64,
    /// The place in registration order among the players there are now: 1, 2, 3, ...
    pub number: u32,
    /// The name, unique.
    pub name: String,
    /// When the player was registered (UTC, RFC 3339).
    pub created_at: String,
    /// Results per game kind, by game id; kinds never played are absent.
    pub stats: Vec<PlayerStats>,
    /// Glicko-2 ratings per game kind, by game id; kinds never rated are absent.
    pub ratings: Vec<PlayerRating>,
    /// The counts of the last player file that named this player.
    pub imported: Option<ImportedCounts>,
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

/// A player's Glicko-2 rating in one game kind.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRating {
    /// The game kind id.
    pub game: String,
    /// Rating, deviation and volatility.
    pub rating: Rating,
    /// How many rated games it is based on.
    pub games: u32,
}

/// Won and lost counts brought in by a player file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedCounts {
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
    /// When the file was imported (UTC, RFC 3339).
    pub imported_at: String,
}

/// Won, lost and drawn added up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
    /// Games drawn.
    pub drawn: u32,
}

impl PlayerRecord {
    /// The counts of one game kind (`Some(game id)`: games played here only), or of
    /// everything (`None`: every kind plus the imported counts).
    #[must_use]
    pub fn totals(&self, game: Option<&str>) -> Totals {
        let mut totals = Totals::default();
        for s in self
            .stats
            .iter()
            .filter(|s| game.is_none_or(|g| g == s.game))
        {
            totals.won = totals.won.saturating_add(s.won);
            totals.lost = totals.lost.saturating_add(s.lost);
            totals.drawn = totals.drawn.saturating_add(s.drawn);
        }
        if let (None, Some(imported)) = (game, &self.imported) {
            totals.won = totals.won.saturating_add(imported.won);
            totals.lost = totals.lost.saturating_add(imported.lost);
        }
        totals
    }

    /// The rating in `game`, if the player has played a rated game of that kind.
    #[must_use]
    pub fn rating(&self, game: &str) -> Option<&PlayerRating> {
        self.ratings.iter().find(|r| r.game == game)
    }
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Names registered by the import, in file order.
    pub added: Vec<String>,
    /// Names already registered whose imported counts were replaced, in file order.
    pub updated: Vec<String>,
}

/// Registers `name` if it is new.
pub(crate) async fn ensure_player(
    conn: &mut SqliteConnection,
    name: &str,
) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO players (name, created_at) VALUES (?, {NOW}) ON CONFLICT (name) DO NOTHING"
    ))
    .bind(name)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Adds one to `column` (`won`, `lost` or `drawn`) of `name` in `game`, registering the
/// player if a deleted one finishes a game.
pub(crate) async fn count_result(
    conn: &mut SqliteConnection,
    name: &str,
    game: &str,
    column: &'static str,
) -> Result<(), StoreError> {
    ensure_player(conn, name).await?;
    sqlx::query(&format!(
        "INSERT INTO player_stats (player_id, game, {column})
         SELECT id, ?, 1 FROM players WHERE name = ?
         ON CONFLICT (player_id, game) DO UPDATE SET {column} = {column} + 1"
    ))
    .bind(game)
    .bind(name)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Rates a finished game of kind `game` between two different named people,
/// `names` white (red) first: one Glicko-2 period for each, against the other's
/// rating before the game.
pub(crate) async fn rate_game(
    conn: &mut SqliteConnection,
    game: &str,
    names: [&str; 2],
    winner: Option<Side>,
) -> Result<(), StoreError> {
    if names[0] == names[1] {
        return Ok(());
    }
    let mut before = [Rating::default(); 2];
    for (slot, name) in before.iter_mut().zip(names) {
        ensure_player(conn, name).await?;
        let stored = sqlx::query_as::<_, (f64, f64, f64)>(
            "SELECT r.rating, r.deviation, r.volatility FROM player_ratings r
             JOIN players p ON p.id = r.player_id WHERE p.name = ? AND r.game = ?",
        )
        .bind(name)
        .bind(game)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some((rating, deviation, volatility)) = stored {
            *slot = Rating {
                rating,
                deviation,
                volatility,
            };
        }
    }
    for (i, next) in Rating::after_game(before, winner).into_iter().enumerate() {
        sqlx::query(
            "INSERT INTO player_ratings (player_id, game, rating, deviation, volatility, games)
             SELECT id, ?, ?, ?, ?, 1 FROM players WHERE name = ?
             ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = games + 1",
        )
        .bind(game)
        .bind(next.rating)
        .bind(next.deviation)
        .bind(next.volatility)
        .bind(names[i])
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The players with their counts, ratings and imported counts, read in the caller's
/// transaction `$tx` (the same SQL on SQLite and PostgreSQL: only the connection's
/// type differs, which a function generic over both could not name simply).
macro_rules! read_players {
    ($tx:ident) => {{
        let mut players: Vec<PlayerRecord> = sqlx::query_as::<_, (i64, String, String)>(
            "SELECT id, name, created_at FROM players ORDER BY id",
        )
        .fetch_all(&mut *$tx)
        .await?
        .into_iter()
        .zip(1..)
        .map(|((id, name, created_at), number)| PlayerRecord {
            id,
            number,
            name,
            created_at,
            stats: Vec::new(),
            ratings: Vec::new(),
            imported: None,
        })
        .collect();
        let index: HashMap<i64, usize> =
            players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        let stats = sqlx::query_as::<_, (i64, String, i64, i64, i64)>(
            "SELECT player_id, game, won, lost, drawn FROM player_stats ORDER BY player_id, game",
        )
        .fetch_all(&mut *$tx)
        .await?;
        for (player, game, won, lost, drawn) in stats {
            if let Some(&i) = index.get(&player) {
                players[i].stats.push(PlayerStats {
                    game,
                    won: count(won),
                    lost: count(lost),
                    drawn: count(drawn),
                });
            }
        }
        let ratings = sqlx::query_as::<_, (i64, String, f64, f64, f64, i64)>(
            "SELECT player_id, game, rating, deviation, volatility, games FROM player_ratings
             ORDER BY player_id, game",
        )
        .fetch_all(&mut *$tx)
        .await?;
        for (player, game, rating, deviation, volatility, games) in ratings {
            if let Some(&i) = index.get(&player) {
                players[i].ratings.push(PlayerRating {
                    game,
                    rating: Rating {
                        rating,
                        deviation,
                        volatility,
                    },
                    games: count(games),
                });
            }
        }
        let imported = sqlx::query_as::<_, (i64, i64, i64, String)>(
            "SELECT player_id, won, lost, imported_at FROM player_imported",
        )
        .fetch_all(&mut *$tx)
        .await?;
        for (player, won, lost, imported_at) in imported {
            if let Some(&i) = index.get(&player) {
                players[i].imported = Some(ImportedCounts {
                    won: count(won),
                    lost: count(lost),
                    imported_at,
                });
            }
        }
        players
    }};
}
pub(crate) use read_players;

impl SqliteStore {
    /// See [`crate::Store::players`].
    pub(crate) async fn players(&self) -> Result<Vec<PlayerRecord>, StoreError> {
        // One read transaction: the four reads see the same snapshot.
        let mut tx = self.pool.begin().await?;
        let players = read_players!(tx);
        tx.commit().await?;
        Ok(players)
    }

    /// See [`crate::Store::import_players`].
    pub(crate) async fn import_players(
        &self,
        entries: &[PlayerFileEntry],
    ) -> Result<ImportSummary, StoreError> {
        let entries = entries.to_vec();
        self.writer()?
            .transaction(move |conn| Box::pin(async move { import(conn, &entries).await }))
            .await
    }

    /// See [`crate::Store::delete_player`].
    pub(crate) async fn delete_player(&self, name: &str) -> Result<bool, StoreError> {
        let name = name.to_owned();
        self.writer()?
            .transaction(move |conn| {
                Box::pin(async move {
                    // Counts, ratings and imported counts go with the player (ON DELETE
                    // CASCADE).
                    let deleted = sqlx::query("DELETE FROM players WHERE name = ?")
                        .bind(&name)
                        .execute(&mut *conn)
                        .await?;
                    Ok(deleted.rows_affected() > 0)
                })
            })
            .await
    }
}

/// The body of an import on either database, in the caller's transaction on `$conn`
/// (`$now`: the database's timestamp expression; `$N` placeholders work on both).
macro_rules! import_entries {
    ($conn:ident, $entries:expr, $now:expr) => {{
        let mut summary = $crate::ImportSummary::default();
        for entry in $entries {
            let inserted = sqlx::query(&format!(
                "INSERT INTO players (name, created_at) VALUES ($1, {})
                 ON CONFLICT (name) DO NOTHING",
                $now
            ))
            .bind(&entry.name)
            .execute(&mut *$conn)
            .await?;
            if inserted.rows_affected() > 0 {
                summary.added.push(entry.name.clone());
            } else if !summary.added.contains(&entry.name) && !summary.updated.contains(&entry.name)
            {
                summary.updated.push(entry.name.clone());
            }
            sqlx::query(&format!(
                "INSERT INTO player_imported (player_id, won, lost, imported_at)
                 SELECT id, $1, $2, {} FROM players WHERE name = $3
                 ON CONFLICT (player_id) DO UPDATE SET
                    won = excluded.won, lost = excluded.lost,
                    imported_at = excluded.imported_at",
                $now
            ))
            .bind(i64::from(entry.won))
            .bind(i64::from(entry.lost))
            .bind(&entry.name)
            .execute(&mut *$conn)
            .await?;
        }
        Ok::<_, StoreError>(summary)
    }};
}
pub(crate) use import_entries;

/// The body of [`SqliteStore::import_players`].
async fn import(
    conn: &mut SqliteConnection,
    entries: &[PlayerFileEntry],
) -> Result<ImportSummary, StoreError> {
    import_entries!(conn, entries, NOW)
}
