//! The closure proof: enumerate every position reachable from the root.
//!
//! When only a few units can move (kings behind locked pawns, a bishop shut in by its
//! own pawns), the set of positions any series of legal moves can reach is small. A
//! breadth-first walk over it, with a table of the positions already seen, either
//! meets a checkmate by the intended winner (the path to it is the witness) or runs
//! out of positions: then no series of legal moves reaches that mate, which proves
//! "unwinnable".
//!
//! The walk stops expanding a position only where the answer below it is proved: a
//! game end (checkmate or stalemate) or a semi-static proof that the intended winner
//! can never give check or lacks the material to mate. Nothing else is pruned, and
//! the table compares positions exactly (placement, side to move, castling rights,
//! en passant square; never a hash alone), so a walk that runs dry is a proof. The
//! move counters are left out: the 50- and 75-move rules do not enter the question
//! ("by any series of legal moves"), and dropping them only merges positions whose
//! futures are the same.

use std::collections::{HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use tablero_core::Side;

use crate::{Chess, Move, MoveList, Role};

use super::cannot_mate;

/// What the walk found.
pub(crate) enum Closure {
    /// A checkmate by the intended winner, and the moves from the root to it.
    Mate(Vec<Move>),
    /// Every reachable position was seen and none is that checkmate.
    Hopeless,
    /// The reachable set is larger than the walk's limit.
    Open,
}

/// A position without its move counters: the table's key, packed (the occupied
/// squares, then four bits per unit in square order: its side and role).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    occupied: u64,
    units: [u64; 2],
    castling: u64,
    /// The side to move (bit 7) and the en passant square plus one (0 for none).
    extra: u8,
}

impl Key {
    pub(crate) fn of(pos: &Chess) -> Key {
        let board = pos.board();
        let white = board.by_side(Side::White);
        let mut units = [0u64; 2];
        for (i, sq) in board.occupied().enumerate() {
            let role = board.role_at(sq).map_or(0, |r| r.index() as u64 + 1);
            let code = role | if white.contains(sq) { 8 } else { 0 };
            // At most 32 units stand on a legal board: two words of sixteen nibbles.
            if let Some(word) = units.get_mut(i / 16) {
                *word |= code << (4 * (i % 16));
            }
        }
        let ep = pos.ep_square().map_or(0, |sq| sq.index() as u8 + 1);
        let turn = if pos.turn() == Side::White { 0 } else { 0x80 };
        Key {
            occupied: board.occupied().0,
            units,
            castling: pos.castling_rooks().0,
            extra: ep | turn,
        }
    }
}

/// A fast multiplicative hasher for [`Key`]s (the table compares keys exactly, so the
/// hash only spreads them; SipHash's resistance to chosen inputs is not needed).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// How a position of the walk was reached: the index of the position it was reached
/// from (itself for the root) and the move (none for the root).
type Link = (u32, Option<Move>);

/// Walks every position reachable from `root` for `winner`, seeing at most `limit`
/// positions. Only the frontier keeps whole positions; the seen ones are kept as
/// packed keys and links back to the root.
pub(crate) fn closure(root: &Chess, winner: Side, limit: usize) -> Closure {
    // The packed key holds at most 32 units (no legal position has more, and moves
    // never add any); refuse anything else rather than risk merging positions.
    if root.board().occupied().count() > 32 {
        return Closure::Open;
    }
    let limit = limit.min(u32::MAX as usize);
    let mut seen: HashSet<Key, BuildHasherDefault<KeyHasher>> = HashSet::default();
    let mut links: Vec<Link> = vec![(0, None)];
    let mut frontier: VecDeque<(u32, Chess)> = VecDeque::new();
    seen.insert(Key::of(root));
    frontier.push_back((0, root.clone()));
    let mut moves = MoveList::new();
    while let Some((index, pos)) = frontier.pop_front() {
        pos.fill_legal_moves(&mut moves);
        if moves.is_empty() {
            if pos.turn() != winner && pos.is_check() {
                return Closure::Mate(path(&links, index));
            }
            continue;
        }
        if pos.has_insufficient_material(winner) {
            continue;
        }
        for &m in &moves {
            let structural = pos.is_capture(m) || pos.board().role_at(m.from()) == Some(Role::Pawn);
            let mut child = pos.clone();
            child.play_unchecked(m);
            if !seen.insert(Key::of(&child)) {
                continue;
            }
            // The semi-static proofs change their answer mostly when the pawns or the
            // material do; elsewhere they are skipped (which only costs positions).
            if structural && cannot_mate(&child, winner) {
                continue;
            }
            if links.len() >= limit {
                return Closure::Open;
            }
            let child_index = links.len() as u32;
            links.push((index, Some(m)));
            frontier.push_back((child_index, child));
        }
    }
    Closure::Hopeless
}

/// The moves from the root to position `index`.
fn path(links: &[Link], mut index: u32) -> Vec<Move> {
    let mut line = Vec::new();
    while let Some(&(parent, Some(m))) = links.get(index as usize) {
        line.push(m);
        index = parent;
    }
    line.reverse();
    line
}
