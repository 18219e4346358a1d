//! The helpmate searches: both sides cooperate so that the intended winner mates.
//!
//! Two depth-first searches share this state. The *exhaustive* one tries every move
//! to a fixed depth: a line ending in checkmate by the intended winner proves
//! "winnable" (the line is the witness), and a node all of whose moves lead to
//! positions proved hopeless (a game end without that mate, or a static proof) is
//! itself hopeless, which proves "unwinnable" when it reaches the root. The *guided*
//! one only looks for mates: iterative deepening in which a move that makes progress
//! toward a mating picture (the losing king in a corner of the winner's choice, the
//! winner's king two squares in front of it, a loser's piece beside it to take the
//! flight square, the winner's pieces heading there, pawns advancing, captures by the
//! winner) costs no depth, an ordinary move one ply and a move against the plan
//! (a capture by the loser) three, with a node limit per iteration so that one
//! unlucky iteration cannot eat the whole budget. The guided search may run the
//! semi-static proofs after pawn moves and captures to cut hopeless lines, or skip
//! them (it then only wastes nodes, which are far cheaper without them).
//!
//! A table of positions already searched (keyed by the incremental Zobrist key,
//! storing the depth left) prunes repeated work and cycles. It only ever answers "no
//! mate found here", never a proof, so a key collision can cost a mate but never make
//! an answer wrong.

use std::sync::OnceLock;

use arrayvec::ArrayVec;
use tablero_core::Side;

use crate::attacks::knight_attacks;
use crate::{Bitboard, Chess, File, Move, MoveList, Rank, Role, Square};

use super::cannot_mate;

/// The deepest line the searches look at, in plies.
pub(crate) const MAX_PLIES: usize = 400;

/// The deepest iteration of the guided search (its depth counts only the moves that
/// make no progress, so lines run longer).
const MAX_GUIDED_DEPTH: i16 = 1000;

/// Nodes each iteration of the guided search may visit.
const ITERATION_NODES: u64 = 10_000;

/// What a subtree proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A checkmate by the intended winner (the line is in [`Search::line`]).
    Mate,
    /// No series of legal moves from here reaches that mate.
    Hopeless,
    /// Neither, within the depth or the node budget.
    Open,
}

/// One entry of the table of positions already searched.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// The depth left when the position was searched.
    depth: i16,
}

/// The largest table: 2^16 entries (1 MiB); small budgets get small tables.
const MAX_TABLE_BITS: u32 = 16;

/// The search state, allocated once per analysis and reused by every node.
pub(crate) struct Search {
    winner: Side,
    /// Whether the guided search aims at the other corner of the far rank.
    mirror: bool,
    /// Whether the guided search runs the semi-static proofs to prune hopeless
    /// subtrees (dearer nodes, fewer of them).
    prune: bool,
    nodes: u64,
    budget: u64,
    /// log2 of the table's size.
    table_bits: u32,
    /// Node count at which the current guided iteration stops.
    iteration_end: u64,
    table: Vec<Entry>,
    /// A move list per ply, each move with its cost in depth (ordering key).
    lists: Vec<ArrayVec<(i16, Move), 256>>,
    scratch: MoveList,
    /// The moves from the root to the current node.
    pub(crate) line: Vec<Move>,
}

impl Search {
    pub(crate) fn new(winner: Side, budget: u64) -> Search {
        let table_bits = (u64::BITS - budget.leading_zeros()).clamp(8, MAX_TABLE_BITS);
        Search {
            winner,
            mirror: false,
            prune: false,
            nodes: 0,
            budget,
            table_bits,
            iteration_end: budget,
            table: vec![Entry::default(); 1 << table_bits],
            lists: Vec::new(),
            scratch: MoveList::new(),
            line: Vec::with_capacity(MAX_PLIES),
        }
    }

    /// Nodes visited so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    fn stopped(&self) -> bool {
        self.nodes >= self.budget || self.nodes >= self.iteration_end
    }

    fn clear_table(&mut self) {
        self.table.fill(Entry::default());
    }

    /// The exhaustive search, deepening up to `max_depth` plies within `nodes` more
    /// nodes.
    pub(crate) fn exhaustive(&mut self, pos: &Chess, max_depth: usize, nodes: u64) -> Found {
        self.iteration_end = self.nodes.saturating_add(nodes);
        self.clear_table();
        for depth in 1..=max_depth.min(MAX_PLIES) {
            self.line.clear();
            match self.node(pos, depth as i16, 0, false, false, true) {
                Found::Open if !self.stopped() => {}
                found => return found,
            }
        }
        Found::Open
    }

    /// The guided search for a mate within `nodes` more nodes: `Mate` or `Open`;
    /// `mirror` aims at the other corner of the far rank than the bishops suggest.
    pub(crate) fn guided(&mut self, pos: &Chess, nodes: u64, mirror: bool, prune: bool) -> Found {
        self.mirror = mirror;
        self.prune = prune;
        self.clear_table();
        let end = self.nodes.saturating_add(nodes).min(self.budget);
        for depth in 2..MAX_GUIDED_DEPTH {
            if self.nodes >= end {
                break;
            }
            self.iteration_end = end.min(self.nodes + ITERATION_NODES);
            self.line.clear();
            if self.node(pos, depth, 0, false, false, false) == Found::Mate {
                return Found::Mate;
            }
        }
        Found::Open
    }

    /// Searches `pos` with `depth` plies left (guided moves may cost less), `ply`
    /// plies from the root. `progress` says the move into `pos` made progress;
    /// `structural` that it was a pawn move or a capture; `exhaustive` selects the
    /// search (every move costs one ply; proofs kept).
    fn node(
        &mut self,
        pos: &Chess,
        depth: i16,
        ply: usize,
        progress: bool,
        structural: bool,
        exhaustive: bool,
    ) -> Found {
        self.nodes += 1;
        pos.fill_legal_moves(&mut self.scratch);
        if self.scratch.is_empty() {
            return if pos.turn() != self.winner && pos.is_check() {
                Found::Mate
            } else {
                Found::Hopeless
            };
        }
        if pos.has_insufficient_material(self.winner) {
            return Found::Hopeless;
        }
        // The pawn proof only changes its answer when the pawns or the material do,
        // so it runs at the root and after pawn moves and captures.
        if (exhaustive || self.prune) && (ply == 0 || structural) && cannot_mate(pos, self.winner) {
            return Found::Hopeless;
        }
        if depth <= 0 || ply >= MAX_PLIES || self.stopped() {
            return Found::Open;
        }
        let slot = (pos.key() >> (64 - self.table_bits)) as usize;
        let entry = self.table[slot];
        if entry.key == pos.key() && entry.depth >= depth {
            return Found::Open;
        }
        self.table[slot] = Entry {
            key: pos.key(),
            depth,
        };

        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, ArrayVec::new);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let plan = Plan::new(pos, self.winner, self.mirror);
        for &m in &self.scratch {
            list.push((plan.cost(pos, m), m));
        }
        list.sort_by_key(|&(cost, _)| cost);

        let mut found = Found::Hopeless;
        for &(cost, m) in &list {
            let (child_depth, child_progress) = if exhaustive {
                (depth - 1, false)
            } else {
                match cost {
                    0 => (depth, true),
                    1 if progress => (depth, false),
                    c => (depth - c, false),
                }
            };
            let structural = pos.is_capture(m) || pos.board().role_at(m.from()) == Some(Role::Pawn);
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.line.push(m);
            let result = self.node(
                &child,
                child_depth,
                ply + 1,
                child_progress,
                structural,
                exhaustive,
            );
            if result == Found::Mate {
                self.lists[ply] = list;
                return Found::Mate;
            }
            self.line.pop();
            if result == Found::Open {
                found = Found::Open;
            }
            if self.stopped() {
                found = Found::Open;
                break;
            }
        }
        self.lists[ply] = list;
        found
    }
}

/// The mating picture the guided search steers toward, and the cost of each move.
struct Plan {
    winner: Side,
    /// Where the losing king should go (a corner on the winner's far side).
    corner: Square,
    /// Beside the corner on its rank: where a loser's piece blocks the flight.
    beside: Square,
    /// Two ranks from the corner toward the winner: where the winner's king helps.
    king_spot: Square,
    /// The loser must promote to give the winner a blocker to mate against.
    loser_must_promote: bool,
}

impl Plan {
    fn new(pos: &Chess, winner: Side, mirror: bool) -> Plan {
        let board = pos.board();
        let bishops = board.by_role(Role::Bishop);
        let winner_bishops = bishops & board.by_side(winner);
        let dark = (winner_bishops & Bitboard::DARK).any()
            || (winner_bishops.is_empty() && (bishops & Bitboard::LIGHT & !winner_bishops).any());
        let (rank, spot_rank) = match winner {
            Side::White => (Rank::EIGHTH, Rank::SIXTH),
            Side::Black => (Rank::FIRST, Rank::THIRD),
        };
        // h8 and a1 are dark, a8 and h1 light.
        let (file, beside_file) = match (winner, dark != mirror) {
            (Side::White, true) | (Side::Black, false) => (File::H, File::G),
            _ => (File::A, File::new(1).unwrap_or(File::A)),
        };
        let ours = board.by_side(winner);
        let theirs = board.by_side(!winner);
        let knight_only = (ours & !board.by_role(Role::King))
            == (ours & board.by_role(Role::Knight))
            && (ours & board.by_role(Role::Knight)).count() == 1
            && (theirs
                & (board.by_role(Role::Knight)
                    | board.by_role(Role::Bishop)
                    | board.by_role(Role::Rook)))
            .is_empty();
        let bishops_only =
            (ours & !board.by_role(Role::King)) == winner_bishops && winner_bishops.any() && {
                let colour = if (winner_bishops & Bitboard::DARK).any() {
                    Bitboard::DARK
                } else {
                    Bitboard::LIGHT
                };
                (bishops & !colour).is_empty() && (theirs & board.by_role(Role::Knight)).is_empty()
            };
        Plan {
            winner,
            corner: Square::from_coords(file, rank),
            beside: Square::from_coords(beside_file, rank),
            king_spot: Square::from_coords(file, spot_rank),
            loser_must_promote: knight_only || bishops_only,
        }
    }

    /// What `m` costs in depth: 0 for progress, 1 for an ordinary move, 3 for a move
    /// against the plan.
    fn cost(&self, pos: &Chess, m: Move) -> i16 {
        let board = pos.board();
        let role = board.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        let winner_moves = pos.turn() == self.winner;
        let target = match (winner_moves, role) {
            (true, Role::King) => self.king_spot,
            (true, _) => self.corner,
            (false, Role::King) => self.corner,
            (false, _) => self.beside,
        };
        let approaches = match role {
            Role::King => m.king_destination().distance(target) < m.from().distance(target),
            Role::Knight => knight_distance(m.to(), target) < knight_distance(m.from(), target),
            _ => false,
        };
        if winner_moves {
            let advanced = role == Role::Pawn && {
                let rank = m.to().rank().index();
                if self.winner == Side::White {
                    rank >= 4
                } else {
                    rank <= 3
                }
            };
            if advanced || capture || approaches {
                0
            } else {
                1
            }
        } else {
            if self.loser_must_promote {
                let light_promotion = !matches!(m.promotion_role(), Some(Role::Queen | Role::Rook));
                if role == Role::Pawn && light_promotion {
                    return 0;
                }
                if !approaches {
                    return 3;
                }
            }
            if approaches {
                0
            } else if capture {
                3
            } else {
                1
            }
        }
    }
}

/// Knight moves between two squares on an empty board.
fn knight_distance(a: Square, b: Square) -> u8 {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
        for from in Square::all() {
            let row = &mut table[from.index() as usize];
            row[from.index() as usize] = 0;
            let mut frontier = Bitboard::from_square(from);
            let mut seen = frontier;
            let mut steps = 0;
            while frontier.any() {
                steps += 1;
                let mut next = Bitboard::EMPTY;
                for sq in frontier {
                    next |= knight_attacks(sq);
                }
                next &= !seen;
                for sq in next {
                    row[sq.index() as usize] = steps;
                }
                seen |= next;
                frontier = next;
            }
        }
        table
    });
    table[a.index() as usize][b.index() as usize]
}
