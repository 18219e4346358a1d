//! Seat tokens at rest: only their SHA-256 is stored. A token is 128 random bits, so
//! a plain hash is enough (no salt or slow hash: nothing to guess from a dictionary).

use sha2::{Digest, Sha256};
use sqlx::SqlitePool;
use subtle::ConstantTimeEq;

use crate::StoreError;

/// The hash stored for a seat token: SHA-256, 64 lower-case hex digits.
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `token` is the one whose hash is `hash`, compared in constant time.
#[must_use]
pub fn token_matches(hash: &str, token: &str) -> bool {
    token_hash(token).as_bytes().ct_eq(hash.as_bytes()).into()
}

/// Moves the plain tokens that older versions stored into their hashes, overwriting
/// the freed bytes (`secure_delete`), in one transaction.
pub(crate) async fn hash_legacy_tokens(pool: &SqlitePool) -> Result<(), StoreError> {
    let plain: Vec<(String, Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT id, white_token, black_token FROM games
         WHERE white_token IS NOT NULL OR black_token IS NOT NULL",
    )
    .fetch_all(pool)
    .await?;
    if plain.is_empty() {
        return Ok(());
    }
    let mut conn = pool.acquire().await?;
    sqlx::query("PRAGMA secure_delete = ON")
        .execute(&mut *conn)
        .await?;
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    for (id, white, black) in &plain {
        sqlx::query(
            "UPDATE games SET white_token_hash = coalesce(?, white_token_hash),
                black_token_hash = coalesce(?, black_token_hash),
                white_token = NULL, black_token = NULL WHERE id = ?",
        )
        .bind(white.as_deref().map(token_hash))
        .bind(black.as_deref().map(token_hash))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    tracing::info!(
        games = plain.len(),
        "seat tokens of an older version replaced by their hashes"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_sha256_and_match_only_their_token() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let hash = token_hash("0123456789abcdef0123456789abcdef");
        assert!(token_matches(&hash, "0123456789abcdef0123456789abcdef"));
        assert!(!token_matches(&hash, "0123456789abcdef0123456789abcdee"));
        assert!(!token_matches(&hash, ""));
    }
}
