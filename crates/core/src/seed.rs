//! Fresh seeds for new games.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

/// A fresh seed: for a new chess3d game (its rule book's "a seed chosen by the
/// application") or for a skill level's move choice. Taken from the operating
/// system's per-process hashing keys and the clock. Not for cryptography; two calls
/// in one process differ.
#[must_use]
pub fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(nanos);
    hasher.finish()
}
