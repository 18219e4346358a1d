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
//! When the winner has nothing but pawns, each with a loser's pawn ahead on its file
//! (it is *starved*), it can only get a piece from the loser: the loser's king takes a
//! pawn, the loser's pawn on that file runs, promotes and offers itself to a winner's
//! pawn, which then runs free. The guided search then follows that plan, with the
//! winner's other moves as tempo moves (one or two a node, in an order each pass
//! chooses), and from each position where the winner is no longer starved runs a
//! fresh guided search for the mate, with a small node limit.
//!
//! A table of positions already searched (keyed by the incremental Zobrist key,
//! storing the depth left) prunes repeated work and cycles. It only ever answers "no
//! mate found here", never a proof, so a key collision can cost a mate but never make
//! an answer wrong.

use std::sync::OnceLock;

use arrayvec::ArrayVec;
use tablero_core::Side;

use crate::attacks::{knight_attacks, pawn_attacks};
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
    /// Whether the guided search started from a position where the winner is starved
    /// (see [`Plan::starved`]): it then looks for a position where it no longer is, and
    /// from each one it meets runs a fresh guided search for the mate (`inner`) within
    /// [`SUBGOAL_NODES`] nodes.
    chain: bool,
    inner: Option<Box<Search>>,
    /// How many tempo moves of a starved winner each node tries, and whether those of
    /// the pawn farthest from the loser's king come first (each guided pass tries
    /// another policy: which pawn must keep its tempo differs from one position to
    /// the next).
    tempo_moves: u32,
    tempo_far: bool,
}

/// Nodes the guided search may spend on the mate from each position where a starved
/// winner got a free pawn or a piece.
const SUBGOAL_NODES: u64 = 20_000;

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
            chain: false,
            inner: None,
            tempo_moves: 1,
            tempo_far: false,
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
        self.chain = starved(pos, self.winner).0;
        self.tempo_moves = if prune == mirror { 1 } else { 2 };
        self.tempo_far = mirror;
        self.clear_table();
        let end = self.nodes.saturating_add(nodes).min(self.budget);
        for depth in 2..MAX_GUIDED_DEPTH {
            if self.nodes >= end {
                break;
            }
            // A starved winner's iterations get the whole budget: the plan is narrow,
            // and a capped iteration would only ever see the leftmost lines.
            self.iteration_end = if self.chain {
                end
            } else {
                end.min(self.nodes + ITERATION_NODES)
            };
            self.line.clear();
            if self.node(pos, depth, 0, false, false, false) == Found::Mate {
                return Found::Mate;
            }
        }
        Found::Open
    }

    /// The mate search from a position where a starved winner got a free pawn or a
    /// piece: `Mate` (with the whole line in [`Search::line`]) or `Open`.
    fn after_subgoal(&mut self, pos: &Chess) -> Found {
        let budget = SUBGOAL_NODES.min(self.budget.saturating_sub(self.nodes));
        let inner = self
            .inner
            .get_or_insert_with(|| Box::new(Search::new(self.winner, SUBGOAL_NODES)));
        inner.nodes = 0;
        inner.budget = budget;
        let found = inner.guided(pos, budget, self.mirror, false);
        let spent = inner.nodes;
        self.nodes += spent;
        // The inner nodes count against the budget, not against this iteration.
        self.iteration_end = self.iteration_end.saturating_add(spent);
        if found == Found::Mate {
            self.line.extend_from_slice(&inner.line);
            return Found::Mate;
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
        if self.chain && !exhaustive && !starved(pos, self.winner).0 {
            return self.after_subgoal(pos);
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
        // A starved winner's tempo moves commute: only one or two are tried, single
        // steps first, those of the pawn nearest the loser's king first or last as the
        // pass chooses (the guided search only looks for mates, so leaving moves out
        // never makes an answer wrong).
        let tempo_only = !exhaustive && plan.starved && pos.turn() == self.winner;
        let loser_king = pos.king_of(!self.winner);
        list.sort_by_key(|&(cost, m)| {
            (
                cost,
                if tempo_only {
                    // Single steps first: a double step wastes a tempo.
                    let near = manhattan(m.to(), loser_king);
                    let near = if self.tempo_far { 16 - near } else { near };
                    near + 16 * m.to().distance(m.from())
                } else {
                    0
                },
            )
        });
        if tempo_only {
            let mut tempo = 0;
            list.retain(|&mut (cost, _)| {
                tempo += u32::from(cost > 0);
                tempo <= self.tempo_moves
            });
        }

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
    /// The winner has only pawns, each with a loser's pawn ahead on its file: it can
    /// only get a piece from the loser. The loser's king then heads for the winner's
    /// pawns (`prey`) to free a pawn of its own, which promotes and offers itself to a
    /// winner's pawn (on a square of `offer`), which then runs free.
    starved: bool,
    /// The loser has two bishops or more, and there are no knights, rooks or queens:
    /// bishop walls, where the loser's bishops must block the flight squares of a
    /// king that one bishop of the winner mates.
    loser_bishops: bool,
    /// The winner's pawns, while it is starved.
    prey: Bitboard,
    /// The squares they attack.
    offer: Bitboard,
    /// The loser has a piece to offer, or a pawn with no enemy unit ahead on its file.
    runner: bool,
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
        let (starved, prey, offer) = starved(pos, winner);
        Plan {
            winner,
            corner: Square::from_coords(file, rank),
            beside: Square::from_coords(beside_file, rank),
            king_spot: Square::from_coords(file, spot_rank),
            loser_must_promote: knight_only || bishops_only,
            loser_bishops: (theirs & bishops).more_than_one()
                && (board.by_role(Role::Knight)
                    | board.by_role(Role::Rook)
                    | board.by_role(Role::Queen))
                .is_empty(),
            starved,
            prey,
            offer,
            runner: starved && has_runner(pos, !winner),
        }
    }

    /// The cost of a loser's move while the winner is starved (see [`Plan::starved`]):
    /// taking a winner's pawn, the king heading for the nearest one, a pawn running
    /// free, a minor promotion and a piece offering itself to a winner's pawn make
    /// progress.
    fn starved_cost(&self, pos: &Chess, m: Move, role: Role) -> i16 {
        if self.runner {
            // A pawn already runs free (or a piece is there to offer): taking more of
            // the winner's pawns only wastes the winner's tempo.
            if self.prey.contains(m.to()) {
                return 3;
            }
            if role == Role::King {
                return 1;
            }
        } else if self.prey.contains(m.to()) {
            return 0;
        }
        let progress = match role {
            Role::King => {
                let from = m.from();
                let nearest = self.prey.into_iter().min_by_key(|&sq| from.distance(sq));
                nearest.is_some_and(|sq| m.king_destination().distance(sq) < from.distance(sq))
            }
            Role::Pawn => match m.promotion_role() {
                Some(promoted) => matches!(promoted, Role::Knight | Role::Bishop),
                None => {
                    let ahead = front_span(!self.winner, m.from());
                    (ahead & self.prey).is_empty() && !pos.is_capture(m)
                }
            },
            _ => self.offer.contains(m.to()),
        };
        if progress { 0 } else { 3 }
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
            // See `loser_bishops`.
            Role::Bishop if !winner_moves && self.loser_bishops => {
                m.to().distance(target) < m.from().distance(target)
            }
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
            if self.starved {
                // Only a capture gets the winner anything; every other move is a tempo
                // the loser's work needs, and never free, so that the depth bounds them.
                return if capture { 0 } else { 2 };
            }
            if advanced || capture || approaches {
                0
            } else {
                1
            }
        } else {
            if self.starved {
                return self.starved_cost(pos, m, role);
            }
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

/// Whether `winner` is starved (see [`Plan::starved`]), its pawns, and the squares they
/// attack.
fn starved(pos: &Chess, winner: Side) -> (bool, Bitboard, Bitboard) {
    let board = pos.board();
    let ours = board.by_side(winner);
    let pawns = ours & board.by_role(Role::Pawn);
    let theirs = board.by_side(!winner) & board.by_role(Role::Pawn);
    if pawns.is_empty() || (ours & !pawns & !board.by_role(Role::King)).any() {
        return (false, Bitboard::EMPTY, Bitboard::EMPTY);
    }
    let mut offer = Bitboard::EMPTY;
    for sq in pawns {
        if (front_span(winner, sq) & theirs).is_empty() {
            return (false, Bitboard::EMPTY, Bitboard::EMPTY);
        }
        offer |= pawn_attacks(winner, sq);
    }
    (true, pawns, offer)
}

/// Whether `side` has a piece besides its king, or a pawn with no enemy unit ahead on
/// its file.
fn has_runner(pos: &Chess, side: Side) -> bool {
    let board = pos.board();
    let ours = board.by_side(side);
    let pawns = ours & board.by_role(Role::Pawn);
    let theirs = board.by_side(!side);
    (ours & !pawns & !board.by_role(Role::King)).any()
        || pawns
            .into_iter()
            .filter(|&sq| (front_span(side, sq) & theirs).is_empty())
            .count()
            > 0
}

/// The squares ahead of a pawn of `side` on `sq`, on its file.
fn front_span(side: Side, sq: Square) -> Bitboard {
    let file = Bitboard::file(sq.file());
    let rank = u64::from(sq.rank().index());
    let above = if rank >= 7 {
        0
    } else {
        !0u64 << (8 * (rank + 1))
    };
    let below = (1u64 << (8 * rank)) - 1;
    file & Bitboard(match side {
        Side::White => above,
        Side::Black => below,
    })
}

/// Files plus ranks between two squares.
fn manhattan(a: Square, b: Square) -> u32 {
    a.file().index().abs_diff(b.file().index()) + a.rank().index().abs_diff(b.rank().index())
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
