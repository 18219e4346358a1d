//! The transposition table: a lock-free hash of search results shared by every
//! search thread (Lazy SMP).
//!
//! Each slot is two `AtomicU64`s: the packed data, and the key XOR the data, so a slot
//! torn by two threads writing at once fails the key check instead of returning
//! another position's result (Hyatt's lockless hashing). Moves are stored as their
//! index in the position's legal-move list, which every game generates in a fixed
//! order: the table needs no per-game move encoding, and a stale or colliding entry
//! can only suggest a legal move.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::Score;

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One probe's answer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) move_index: Option<u16>,
    pub(crate) score: Score,
    pub(crate) eval: Score,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
}

#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A transposition table of a fixed number of slots.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

const NO_MOVE: u64 = 0xFFFF;

impl TranspositionTable {
    /// A table using about `megabytes` MiB (at least one slot).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) * 1024 * 1024;
        let count = (bytes / size_of::<Slot>()).max(1);
        let mut slots = Vec::with_capacity(count);
        slots.resize_with(count, Slot::default);
        TranspositionTable {
            slots,
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search, so that old entries are replaced first.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto the table without a division.
        let index = ((u128::from(key) * self.slots.len() as u128) >> 64) as usize;
        &self.slots[index]
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        if data == 0 || slot.check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        let move_index = data & 0xFFFF;
        Some(Entry {
            move_index: (move_index != NO_MOVE).then_some(move_index as u16),
            score: Score::from((data >> 16) as u16 as i16),
            eval: Score::from((data >> 32) as u16 as i16),
            depth: ((data >> 48) & 0xFF) as i32,
            bound,
        })
    }

    pub(crate) fn store(
        &self,
        key: u64,
        move_index: Option<usize>,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let slot = self.slot(key);
        let generation = u64::from(self.generation.load(Ordering::Relaxed) & 0x3F);
        let old = slot.data.load(Ordering::Relaxed);
        let same_key = slot.check.load(Ordering::Relaxed) ^ old == key;
        if same_key && old != 0 {
            let old_depth = ((old >> 48) & 0xFF) as i32;
            let old_generation = (old >> 58) & 0x3F;
            if old_generation == generation && bound != Bound::Exact && depth + 2 < old_depth {
                return;
            }
        }
        let mut move_bits = move_index.map_or(NO_MOVE, |i| (i as u64).min(NO_MOVE - 1));
        if move_index.is_none() && same_key {
            // Keep the old entry's move: a fail-low knows no better one.
            move_bits = old & 0xFFFF;
        }
        let clamp16 = |s: Score| u64::from(s.clamp(-32_000, 32_000) as i16 as u16);
        let data = move_bits
            | clamp16(score) << 16
            | clamp16(eval) << 32
            | (depth.clamp(0, 255) as u64) << 48
            | (bound as u64) << 56
            | generation << 58;
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Per mille of a sample of slots written during the current search (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = u64::from(self.generation.load(Ordering::Relaxed) & 0x3F);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && (data >> 58) & 0x3F == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}
