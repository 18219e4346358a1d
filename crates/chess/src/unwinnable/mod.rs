//! Unwinnability: can a side still checkmate by some series of legal moves?
//!
//! FIDE's laws make a game drawn when neither side can checkmate by any series of
//! legal moves (a dead position, 5.2.2), and a flag fall or a resignation a draw when
//! the opponent could not checkmate that way (6.9). The question is a helpmate
//! problem: both sides cooperate. [`Chess::can_checkmate`] answers it in three values
//! and is never wrong: [`Verdict::Winnable`] comes with a line that ends in the mate,
//! [`Verdict::Unwinnable`] with a proof, and anything the analysis cannot settle
//! within its node budget is [`Verdict::Undetermined`].
//!
//! The analysis runs in three steps, cheapest first:
//! 1. material: a side with only a king, or minor pieces that cannot mate against
//!    what the opponent has ([`Chess::has_insufficient_material`]);
//! 2. frozen pawns: every pawn blocked so that it can never move, capture or be
//!    captured, and no piece of the side able to ever attack a square the enemy king
//!    can reach (see `fortress.rs`);
//! 3. a helpmate search (see `search.rs`): iterative deepening with move ordering
//!    that drives toward a mate, first over every move (which can also prove that
//!    every line runs into steps 1–2 or a game end), then along the few best moves only
//!    to find long mates: once with the semi-static proofs pruning hopeless lines
//!    (dear nodes, so capped), then without them (some fifty times cheaper a node, so
//!    many more, on top of the budget), toward either corner;
//! 4. the closure walk (see `closure.rs`): when few units can move, every reachable
//!    position is visited, which finds the shortest mate or proves there is none;
//! 5. the same walk with one side's bishops of one colour left out (see `bishops.rs`),
//!    over states that stand for every placement of them: bishops shuffling behind a
//!    wall no longer multiply the positions.
//!
//! The approach follows the ideas of the Chess Unwinnability Analyzer by Miguel
//! Ambrona ("Chess is hard even for a single player", FUN 2022).

mod bishops;
mod closure;
mod fortress;
mod reach;
mod search;

use tablero_core::Side;

use crate::{Chess, Move};

use closure::Closure;
use search::{Found, Search};

/// Whether a side can still checkmate by some series of legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A series of legal moves ends in checkmate by the side.
    Winnable,
    /// No series of legal moves does.
    Unwinnable,
    /// The analysis could not settle it within its budget.
    Undetermined,
}

impl Verdict {
    /// Whether the side may still win: anything but a proved [`Verdict::Unwinnable`].
    #[must_use]
    pub const fn may_win(self) -> bool {
        !matches!(self, Verdict::Unwinnable)
    }
}

/// The answer of [`Chess::analyse_unwinnability`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The verdict.
    pub verdict: Verdict,
    /// For [`Verdict::Winnable`], legal moves from the position that end in
    /// checkmate by the side; empty otherwise (and when the position already is that
    /// checkmate).
    pub witness: Vec<Move>,
    /// Search nodes visited.
    pub nodes: u64,
}

/// The node budget of [`Chess::can_checkmate`].
pub const DEFAULT_BUDGET: u64 = 400_000;

/// A budget for a question asked once, where seconds are fine (`tablero winnable`):
/// it decides 3,595 of the 3,648 verdicts of CHA's test vectors (the default budget
/// 3,501), at up to tens of seconds and about 100 MB on the hardest positions.
pub const THOROUGH_BUDGET: u64 = 10_000_000;

/// The most positions the second closure walk may see, whatever the budget (it keeps
/// about 100 bytes a position, and the walk is the slowest step per position).
const CLOSURE_MAX: u64 = 1 << 20;

/// The second closure walk may see one position per this many nodes of the budget
/// (at about 100 bytes a position seen, plus the frontier).
const CLOSURE_SHARE: u64 = 1;

/// The first, cheap closure walk may see one position per this many nodes.
const CLOSURE_SMALL_SHARE: u64 = 400;

/// The walk that leaves bishops out (`bishops.rs`) may see one state per this many
/// nodes of the budget (a state costs about as much as a closure position).
const BLIND_SHARE: u64 = 20;

/// The guided pass from the position after an en passant capture at the root may
/// visit one node per this many nodes of the budget.
const EN_PASSANT_SHARE: u64 = 20;

/// Plies the first exhaustive pass looks at before the guided search takes over.
const EXHAUSTIVE_PLIES: usize = 4;

/// Plies the last exhaustive pass may look at.
const DEEP_EXHAUSTIVE_PLIES: usize = 12;

/// The most nodes the last exhaustive pass may visit, whatever the budget (its nodes
/// run the semi-static proofs, so they are the dearest).
const DEEP_EXHAUSTIVE_MAX: u64 = 400_000;

/// The most nodes the guided pass that runs the semi-static proofs may visit, whatever
/// the budget (those nodes are dear; the unpruned passes take the rest).
const PRUNED_MAX: u64 = 1_000_000;

impl Chess {
    /// Whether `side` can still checkmate by some series of legal moves, both sides
    /// cooperating, within [`DEFAULT_BUDGET`] search nodes.
    ///
    /// ```
    /// use tablero_chess::{CastlingMode, Chess, Side, Verdict};
    ///
    /// // Blocked pawns that can never move and kings that cannot pass them.
    /// let fen = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1";
    /// let pos = Chess::from_fen(fen, CastlingMode::Standard)?;
    /// assert_eq!(pos.can_checkmate(Side::White), Verdict::Unwinnable);
    /// assert_eq!(Chess::new().can_checkmate(Side::Black), Verdict::Winnable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn can_checkmate(&self, side: Side) -> Verdict {
        self.analyse_unwinnability(side, DEFAULT_BUDGET).verdict
    }

    /// [`Chess::can_checkmate`] with a node budget, and the witness line.
    #[must_use]
    pub fn analyse_unwinnability(&self, side: Side, budget: u64) -> Analysis {
        self.analyse_with(
            side,
            budget,
            (budget / CLOSURE_SHARE).min(CLOSURE_MAX),
            true,
        )
    }

    /// [`Chess::analyse_unwinnability`] with the second closure walk's limit, and
    /// whether the unpruned guided passes run (on top of the budget).
    fn analyse_with(
        &self,
        side: Side,
        budget: u64,
        closure_limit: u64,
        cheap_passes: bool,
    ) -> Analysis {
        let done = |verdict| Analysis {
            verdict,
            witness: Vec::new(),
            nodes: 0,
        };
        if let Some(verdict) = self.static_verdict(side) {
            return done(verdict);
        }
        // A shallow exhaustive pass settles small trees either way; the guided search
        // then finds the long mates of rich positions; a deeper exhaustive pass tries
        // to prove the rest hopeless.
        // The unpruned guided passes' nodes, some fifty times cheaper than the others,
        // come on top of the budget.
        let (plain, plain_mirror) = if cheap_passes {
            (budget / 2, budget / 8)
        } else {
            (0, 0)
        };
        let mut search = Search::new(side, budget + plain + plain_mirror);
        let mut found = search.exhaustive(self, EXHAUSTIVE_PLIES, budget / 50);
        let mut witness = None;
        // Few movable units: walk every reachable position, first with a small limit
        // (cheap to give up on rich positions), after the guided search with a large one.
        let mut walk = |limit: u64, found: &mut Found| {
            if *found != Found::Open {
                return;
            }
            match closure::closure(self, side, usize::try_from(limit).unwrap_or(usize::MAX)) {
                Closure::Mate(line) => {
                    *found = Found::Mate;
                    witness = Some(line);
                }
                Closure::Hopeless => *found = Found::Hopeless,
                Closure::Open => {}
            }
        };
        walk(budget / CLOSURE_SMALL_SHARE, &mut found);
        // Bishops of one side and colour shuffling behind a wall: the walk that leaves
        // them out (not in the per-move check).
        if found == Found::Open && cheap_passes {
            let limit = usize::try_from(budget / BLIND_SHARE).unwrap_or(usize::MAX);
            if bishops::bishop_blind_walk(self, side, limit) == bishops::Blind::Hopeless {
                found = Found::Hopeless;
            }
        }
        // The guided passes: with the semi-static proofs pruning hopeless lines (dear
        // nodes, capped), then without (cheap nodes, many more), toward either corner.
        let pruned = (budget / 2).min(PRUNED_MAX);
        for (nodes, mirror, prune) in [
            (pruned, false, true),
            (plain, false, false),
            (plain_mirror, true, false),
            (pruned / 4, true, true),
        ] {
            if found == Found::Open {
                found = search.guided(self, nodes, mirror, prune);
            }
        }
        walk(closure_limit, &mut found);
        // An en passant capture can only be made now, and the guided passes, spending
        // their iterations on the other moves first, may never get to it: one more
        // pass from the position after each.
        let mut extra_nodes = 0;
        if found == Found::Open && cheap_passes && self.ep_square().is_some() {
            for m in self.legal_moves() {
                if !m.is_en_passant() || found != Found::Open {
                    continue;
                }
                let mut child = self.clone();
                child.play_unchecked(m);
                let nodes = budget / EN_PASSANT_SHARE;
                let mut after = Search::new(side, nodes);
                if after.guided(&child, nodes, false, false) == Found::Mate {
                    found = Found::Mate;
                    witness = Some(std::iter::once(m).chain(after.line.clone()).collect());
                }
                extra_nodes += after.nodes();
            }
        }
        if found == Found::Open {
            found = search.exhaustive(self, DEEP_EXHAUSTIVE_PLIES, budget.min(DEEP_EXHAUSTIVE_MAX));
        }
        let verdict = match found {
            Found::Mate => Verdict::Winnable,
            Found::Hopeless => Verdict::Unwinnable,
            Found::Open => Verdict::Undetermined,
        };
        Analysis {
            verdict,
            witness: if verdict == Verdict::Winnable {
                witness.unwrap_or_else(|| search.line.clone())
            } else {
                Vec::new()
            },
            nodes: search.nodes() + extra_nodes,
        }
    }

    /// The verdict of the static steps alone (material and frozen pawns), without
    /// searching: `Some(Unwinnable)` when they prove it, `Some(Winnable)` when the
    /// position is already that side's checkmate, `None` otherwise.
    #[must_use]
    pub fn static_verdict(&self, side: Side) -> Option<Verdict> {
        if self.turn() != side && self.is_check() && self.count_moves() == 0 {
            return Some(Verdict::Winnable);
        }
        if self.has_insufficient_material(side) || fortress::frozen_pawns_forbid_check(self, side) {
            return Some(Verdict::Unwinnable);
        }
        None
    }
}

/// Whether either semi-static proof shows that `side` can never checkmate.
pub(crate) fn cannot_mate(pos: &Chess, side: Side) -> bool {
    fortress::frozen_pawns_forbid_check(pos, side) || reach::reach_forbids_mate(pos, side)
}

/// Most non-king units with which [`Chess::is_dead_position_analysed`] searches.
const SEARCH_UNITS: u32 = 4;

/// The node budget of [`Chess::is_dead_position_analysed`]'s search, per side.
const DEAD_POSITION_BUDGET: u64 = 1_500;

/// The positions [`Chess::is_dead_position_analysed`]'s second closure walk may see,
/// per side (kept small: the check runs after every move).
const DEAD_POSITION_CLOSURE: u64 = 200;

/// Whether pawns are locked so that neither side can ever give check; cheap to reject
/// (a couple of bitboard tests) when no pawns stand head-on or pieces abound.
pub(crate) fn locked_pawns_forbid_checks(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.by_role(crate::Role::Pawn);
    let white = pawns & board.by_side(Side::White);
    let black = pawns & board.by_side(Side::Black);
    let pieces = board.occupied() & !pawns & !board.by_role(crate::Role::King);
    if (white.shift(8) & black).is_empty()
        || pieces.count() > 4
        || board.by_role(crate::Role::Queen).any()
    {
        return false;
    }
    fortress::frozen_pawns_forbid_check(pos, Side::White)
        && fortress::frozen_pawns_forbid_check(pos, Side::Black)
}

impl Chess {
    /// Whether the position is dead (FIDE 5.2.2: neither side can checkmate by any
    /// series of legal moves), as a game checks after every move: the static proofs of
    /// [`Chess::is_dead_position`], and with few units left a short helpmate search
    /// per side. `false` means "not proved dead".
    #[must_use]
    pub fn is_dead_position_analysed(&self) -> bool {
        if self.is_dead_position() {
            return true;
        }
        let board = self.board();
        if (board.occupied() & !board.by_role(crate::Role::King)).count() > SEARCH_UNITS {
            return false;
        }
        [Side::White, Side::Black].into_iter().all(|side| {
            self.analyse_with(side, DEAD_POSITION_BUDGET, DEAD_POSITION_CLOSURE, false)
                .verdict
                == Verdict::Unwinnable
        })
    }
}
