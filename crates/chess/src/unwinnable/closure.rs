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

use std::collections::HashSet;

use tablero_core::Side;

use crate::{Chess, Move, MoveList, Role};

use super::cannot_check;

/// What the walk found.
pub(crate) enum Closure {
    /// A checkmate by the intended winner, and the moves from the root to it.
    Mate(Vec<Move>),
    /// Every reachable position was seen and none is that checkmate.
    Hopeless,
    /// The reachable set is larger than the walk's limit.
    Open,
}

/// A position without its move counters: the table's key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    bitboards: [u64; 9],
    /// The side to move (bit 7) and the en passant square plus one (0 for none).
    extra: u8,
}

impl Key {
    fn of(pos: &Chess) -> Key {
        let board = pos.board();
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        let mut bitboards = [0; 9];
        for (slot, role) in bitboards.iter_mut().zip(roles) {
            *slot = board.by_role(role).0;
        }
        bitboards[6] = board.by_side(Side::White).0;
        bitboards[7] = board.by_side(Side::Black).0;
        bitboards[8] = pos.castling_rooks().0;
        let ep = pos.ep_square().map_or(0, |sq| sq.index() as u8 + 1);
        let turn = if pos.turn() == Side::White { 0 } else { 0x80 };
        Key {
            bitboards,
            extra: ep | turn,
        }
    }
}

/// One position of the walk and how it was reached.
struct Node {
    pos: Chess,
    /// The index of the position it was reached from (itself for the root).
    parent: usize,
    /// The move from the parent (unused for the root).
    mv: Option<Move>,
}

/// Walks every position reachable from `root` for `winner`, seeing at most `limit`
/// positions.
pub(crate) fn closure(root: &Chess, winner: Side, limit: usize) -> Closure {
    let mut seen: HashSet<Key> = HashSet::new();
    let mut nodes: Vec<Node> = Vec::new();
    seen.insert(Key::of(root));
    nodes.push(Node {
        pos: root.clone(),
        parent: 0,
        mv: None,
    });
    let mut moves = MoveList::new();
    let mut next = 0;
    while next < nodes.len() {
        let index = next;
        next += 1;
        let pos = nodes[index].pos.clone();
        pos.fill_legal_moves(&mut moves);
        if moves.is_empty() {
            if pos.turn() != winner && pos.is_check() {
                return Closure::Mate(path(&nodes, index));
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
            if structural && cannot_check(&child, winner) {
                continue;
            }
            if nodes.len() >= limit {
                return Closure::Open;
            }
            nodes.push(Node {
                pos: child,
                parent: index,
                mv: Some(m),
            });
        }
    }
    Closure::Hopeless
}

/// The moves from the root to `nodes[index]`.
fn path(nodes: &[Node], mut index: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while let Some(m) = nodes[index].mv {
        line.push(m);
        index = nodes[index].parent;
    }
    line.reverse();
    line
}
