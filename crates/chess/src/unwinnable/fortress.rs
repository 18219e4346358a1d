//! The semi-static proof: pawns that can never move, behind which the intended
//! winner's pieces can never attack a square the losing king can stand on.
//!
//! The argument is an induction over any future game. Choose a set of *frozen* pawns
//! and assume they never move. Then every other unit can only ever stand on the
//! squares a flood fill reaches from where it stands now, moving as its kind moves
//! with the frozen pawns as the only obstacles (other units may move away or be
//! captured, so they are ignored, which can only enlarge the regions); a king never
//! stands on a square a frozen enemy pawn attacks; a free pawn pushes unless a frozen
//! pawn stands in front, captures onto any square an enemy unit may reach, and a
//! promotion adds a queen and a knight (which between them move as any piece) on the
//! promotion square. These regions grow together until nothing changes. If, in them,
//! no frozen pawn can advance (a frozen pawn is right in front of it), capture (no
//! enemy unit can reach a square it attacks) or be captured (none can reach its
//! square), the assumption survives every move, so it holds forever. Frozen pawns are
//! chosen as the largest set that passes: start from every pawn blocked head-on and
//! drop the ones that fail until the rest pass.
//!
//! A checkmate needs a check; so when no piece or pawn of the intended winner can ever
//! attack a square of the losing king's region, that side can never checkmate.

use tablero_core::Side;

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::{Bitboard, Chess, Rank, Role, Square};

/// Whether `winner` provably can never give check (see the module documentation).
/// `false` means "not proved", never "can check".
pub(crate) fn frozen_pawns_forbid_check(pos: &Chess, winner: Side) -> bool {
    let board = pos.board();
    let pawns = board.by_role(Role::Pawn);
    if pawns.is_empty() || pos.castling_rooks().any() || pos.ep_square().is_some() {
        return false;
    }
    let mut frozen = head_on(pos, pawns);
    loop {
        if frozen.is_empty() {
            return false;
        }
        let regions = Regions::grow(pos, frozen);
        let mut keep = frozen;
        for side in [Side::White, Side::Black] {
            let ours = frozen & board.by_side(side);
            let theirs = &regions.of[(!side).index()];
            let reachable_by_them = theirs.occupy | theirs.pawns;
            let capturable = reachable_by_them | (frozen & board.by_side(!side));
            for sq in ours {
                if reachable_by_them.contains(sq)
                    || theirs.pawn_attack.contains(sq)
                    || (pawn_attacks(side, sq) & capturable).any()
                {
                    keep = keep.without(sq);
                }
            }
        }
        keep &= head_on(pos, keep);
        if keep == frozen {
            let loser_king = regions.of[(!winner).index()].king;
            let ours = &regions.of[winner.index()];
            return ((ours.attack | ours.pawn_attack) & loser_king).is_empty();
        }
        frozen = keep;
    }
}

/// The largest subset of `candidates` whose pawns each have a pawn of the subset
/// right in front of them.
fn head_on(pos: &Chess, candidates: Bitboard) -> Bitboard {
    let white = pos.board().by_side(Side::White);
    let mut set = candidates;
    loop {
        let blocked_white = set.shift(-8) & white;
        let blocked_black = set.shift(8) & !white;
        let next = set & (blocked_white | blocked_black);
        if next == set {
            return set;
        }
        set = next;
    }
}

/// Where one side's units can ever be, given the frozen pawns.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Reach {
    /// Squares any piece of the side (king included) can ever occupy, enemy squares
    /// it could capture on included.
    occupy: Bitboard,
    /// Squares the side's king can ever occupy.
    king: Bitboard,
    /// Squares the side's pieces other than the king can ever attack.
    attack: Bitboard,
    /// Squares the side's free pawns can ever occupy.
    pawns: Bitboard,
    /// Squares the side's free pawns can ever attack.
    pawn_attack: Bitboard,
    /// Promotion squares the side's free pawns can reach.
    promotions: Bitboard,
}

struct Regions {
    of: [Reach; 2],
}

impl Regions {
    /// Grows both sides' regions together until they stop changing.
    fn grow(pos: &Chess, frozen: Bitboard) -> Regions {
        let mut regions = Regions {
            of: [Reach::default(); 2],
        };
        loop {
            let next = [
                Reach::of(pos, Side::White, frozen, &regions.of[1]),
                Reach::of(pos, Side::Black, frozen, &regions.of[0]),
            ];
            if next == regions.of {
                return regions;
            }
            regions.of = next;
        }
    }
}

/// How a piece moves, given the obstacles.
type Step = fn(Square, Bitboard) -> Bitboard;

impl Reach {
    fn of(pos: &Chess, side: Side, frozen: Bitboard, enemy: &Reach) -> Reach {
        let board = pos.board();
        let ours = board.by_side(side);
        let own_frozen = frozen & ours;
        let enemy_frozen = frozen & !ours;
        let mut enemy_guard = Bitboard::EMPTY;
        for sq in enemy_frozen {
            enemy_guard |= pawn_attacks(!side, sq);
        }
        let king = flood(
            Bitboard::from_square(pos.king_of(side)),
            frozen,
            !own_frozen & !enemy_guard,
            |sq, _| king_attacks(sq),
        );

        // Free pawns: pushes unless a frozen pawn is in front, captures onto squares
        // the enemy may occupy.
        let free = ours & board.by_role(Role::Pawn) & !frozen;
        let enemy_there = enemy.occupy | enemy.pawns | (board.by_side(!side) & !frozen);
        let forward = side.fold(8, -8);
        let mut pawns = free;
        let mut frontier = free;
        while frontier.any() {
            let mut next = frontier.shift(forward) & !frozen;
            for sq in frontier {
                next |= pawn_attacks(side, sq) & (enemy_there | enemy_frozen);
            }
            next &= !pawns & !last_rank(!side);
            pawns |= next;
            // Promotion squares are kept but not moved on from.
            frontier = next & !last_rank(side);
        }
        let promotions = pawns & last_rank(side);
        let mut pawn_attack = Bitboard::EMPTY;
        for sq in pawns & !promotions {
            pawn_attack |= pawn_attacks(side, sq);
        }

        let mut reach = Reach {
            occupy: king,
            king,
            attack: Bitboard::EMPTY,
            pawns,
            pawn_attack,
            promotions,
        };
        let pieces = ours & !board.by_role(Role::Pawn) & !board.by_role(Role::King);
        let kinds: [(Role, Step); 4] = [
            (Role::Knight, |sq, _| knight_attacks(sq)),
            (Role::Bishop, bishop_attacks),
            (Role::Rook, rook_attacks),
            (Role::Queen, queen_attacks),
        ];
        for (role, step) in kinds {
            let mut start = pieces & board.by_role(role);
            if matches!(role, Role::Knight | Role::Queen) {
                start |= promotions;
            }
            if start.is_empty() {
                continue;
            }
            let region = flood(start, frozen, !own_frozen, step);
            reach.occupy |= region;
            for sq in region & !frozen {
                reach.attack |= step(sq, frozen);
            }
        }
        reach
    }
}

/// The last rank for `side`'s pawns.
fn last_rank(side: Side) -> Bitboard {
    Bitboard::rank(side.fold(Rank::EIGHTH, Rank::FIRST))
}

/// The squares reachable from `start` by repeated `step`s, landing only on `allowed`
/// squares and never moving on from a frozen pawn's square (landing there captures).
fn flood(start: Bitboard, frozen: Bitboard, allowed: Bitboard, step: Step) -> Bitboard {
    let mut seen = start;
    let mut frontier = start;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier & !frozen {
            next |= step(sq, frozen);
        }
        next &= allowed & !seen;
        seen |= next;
        frontier = next;
    }
    seen
}
