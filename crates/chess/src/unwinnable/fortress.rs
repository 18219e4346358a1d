//! The semi-static proof: pawns that can never get out of the way, behind which the
//! intended winner can never attack a square the losing king can stand on.
//!
//! The argument is an induction over any future game, under a hypothesis about the
//! pawns that the analysis then checks. Some pawns are assumed *file-bound* (they never
//! capture, so they stay on their file) and some of those *anchored* as well (never
//! captured either). A file-bound pawn can never pass an anchored pawn on its file, so
//! it stays in a segment of its file: below an enemy anchored pawn's current square,
//! or below the highest square an own anchored pawn ahead can reach (for White; the
//! mirror for Black). An anchored pawn whose segment is its own square is *frozen*:
//! always there, an obstacle and a guard of the squares it attacks.
//!
//! Under the hypothesis every other unit can only ever stand on the squares a flood
//! fill reaches from where it stands now: pieces move as their kind moves with the
//! frozen pawns as the only obstacles (other units may move away or be captured, so
//! they are ignored, which only enlarges the regions); a king never enters a square a
//! frozen enemy pawn attacks; other pawns push unless a frozen pawn is in front and
//! capture onto any square an enemy piece or pawn may reach; a promotion adds a queen
//! and a knight (which between them move as any piece) on the promotion square. Both
//! sides' regions grow together until nothing changes. Then the hypothesis is checked:
//! no square a file-bound pawn attacks from its segment may ever hold an enemy piece or
//! pawn, and no square of an anchored pawn's segment may ever be reached by an enemy
//! king or piece or attacked by an enemy pawn that can capture. Pawns that fail are
//! dropped from the hypothesis and everything is recomputed; what survives holds after
//! every move, so forever (the first move breaking it would need a unit outside its
//! region).
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
    // Without a pawn blocked head-on nothing can be frozen, and the kings roam free.
    let white = pawns & board.by_side(Side::White);
    let black = pawns & board.by_side(Side::Black);
    if (white.shift(8) & black).is_empty() {
        return false;
    }
    let mut hypothesis = Hypothesis {
        file_bound: pawns,
        anchored: pawns,
    };
    loop {
        let segments = Segments::new(pos, hypothesis);
        let regions = Regions::grow(pos, &segments);
        let next = hypothesis.checked(pos, &segments, &regions);
        if next == hypothesis {
            let loser_king = regions.of[(!winner).index()].king;
            let ours = &regions.of[winner.index()];
            return ((ours.attack | ours.pawn_attack) & loser_king).is_empty();
        }
        hypothesis = next;
    }
}

/// The pawns assumed to stay on their file, and those also assumed never captured.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Hypothesis {
    file_bound: Bitboard,
    anchored: Bitboard,
}

/// The squares each file-bound pawn can occupy, under a hypothesis.
struct Segments {
    hypothesis: Hypothesis,
    /// Indexed by the pawn's current square; empty for other squares.
    of: [Bitboard; 64],
    /// Anchored pawns that can never move.
    frozen: Bitboard,
}

impl Segments {
    fn new(pos: &Chess, hypothesis: Hypothesis) -> Segments {
        let mut segments = Segments {
            hypothesis,
            of: [Bitboard::EMPTY; 64],
            frozen: Bitboard::EMPTY,
        };
        let white = pos.board().by_side(Side::White);
        // White pawns from the top down, Black ones from the bottom up, so that the
        // anchored pawn ahead of each is done first.
        let order = (0..64u32)
            .rev()
            .filter_map(|i| Square::new(i).filter(|&sq| white.contains(sq)))
            .chain((0..64u32).filter_map(|i| Square::new(i).filter(|&sq| !white.contains(sq))));
        for sq in order {
            if !hypothesis.file_bound.contains(sq) {
                continue;
            }
            let side = if white.contains(sq) {
                Side::White
            } else {
                Side::Black
            };
            let segment = segments.segment(sq, side, white);
            segments.of[sq.index() as usize] = segment;
            if hypothesis.anchored.contains(sq) && !segment.more_than_one() {
                segments.frozen = segments.frozen.with(sq);
            }
        }
        segments
    }
}

impl Segments {
    /// The squares the file-bound pawn of `side` on `sq` can occupy: up its file to
    /// the last rank, below an enemy anchored pawn's square, or below the farthest
    /// square an own anchored pawn ahead can reach.
    fn segment(&self, sq: Square, side: Side, white: Bitboard) -> Bitboard {
        let step = side.fold(8, -8);
        let mut segment = Bitboard::from_square(sq);
        let mut cur = sq;
        while let Some(next) = Square::new(cur.index().wrapping_add_signed(step)) {
            if self.hypothesis.anchored.contains(next) {
                let own = white.contains(next) == (side == Side::White);
                if own {
                    let reach = self.of[next.index() as usize];
                    let far = match side {
                        Side::White => reach.into_iter().last(),
                        Side::Black => reach.first(),
                    };
                    if let Some(far) = far {
                        segment |= between_on_file(sq, far);
                    }
                }
                break;
            }
            segment = segment.with(next);
            cur = next;
        }
        segment
    }
}

/// The squares of `from`'s file from `from` (included) toward `far` (excluded).
fn between_on_file(from: Square, far: Square) -> Bitboard {
    let file = Bitboard::file(from.file());
    let (lo, hi) = if from.index() < far.index() {
        (from.index(), far.index())
    } else {
        (far.index() + 1, from.index() + 1)
    };
    let mask = if hi >= 64 { !0u64 } else { (1u64 << hi) - 1 } & !((1u64 << lo) - 1);
    file & Bitboard(mask)
}

impl Hypothesis {
    /// The hypothesis minus the pawns that the regions show can break it.
    fn checked(self, pos: &Chess, segments: &Segments, regions: &Regions) -> Hypothesis {
        let board = pos.board();
        let mut next = self;
        for sq in self.file_bound {
            let side = if board.by_side(Side::White).contains(sq) {
                Side::White
            } else {
                Side::Black
            };
            let enemy = &regions.of[(!side).index()];
            let segment = segments.of[sq.index() as usize];
            let mut attacks = Bitboard::EMPTY;
            for s in segment & !last_rank(side) {
                attacks |= pawn_attacks(side, s);
            }
            if (attacks & (enemy.pieces | enemy.pawns)).any() {
                next.file_bound = next.file_bound.without(sq);
                next.anchored = next.anchored.without(sq);
                continue;
            }
            if self.anchored.contains(sq)
                && ((segment & last_rank(side)).any()
                    || (segment & (enemy.king | enemy.pieces | enemy.capture_attack)).any())
            {
                next.anchored = next.anchored.without(sq);
            }
        }
        next
    }
}

/// Where one side's units can ever be, given the hypothesis.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Reach {
    /// Squares the side's king can ever occupy.
    king: Bitboard,
    /// Squares the side's other pieces can ever occupy (capture squares included).
    pieces: Bitboard,
    /// Squares those pieces can ever attack.
    attack: Bitboard,
    /// Squares the side's pawns can ever occupy.
    pawns: Bitboard,
    /// Squares the side's pawns other than frozen ones can ever attack.
    pawn_attack: Bitboard,
    /// Squares the side's pawns that may capture can ever attack.
    capture_attack: Bitboard,
}

struct Regions {
    of: [Reach; 2],
}

impl Regions {
    /// Grows both sides' regions together until they stop changing.
    fn grow(pos: &Chess, segments: &Segments) -> Regions {
        let mut regions = Regions {
            of: [Reach::default(); 2],
        };
        loop {
            let next = [
                Reach::of(pos, Side::White, segments, &regions.of[1]),
                Reach::of(pos, Side::Black, segments, &regions.of[0]),
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
    fn of(pos: &Chess, side: Side, segments: &Segments, enemy: &Reach) -> Reach {
        let board = pos.board();
        let ours = board.by_side(side);
        let frozen = segments.frozen;
        let own_frozen = frozen & ours;
        let mut enemy_guard = Bitboard::EMPTY;
        for sq in frozen & !ours {
            enemy_guard |= pawn_attacks(!side, sq);
        }
        let king = flood(
            Bitboard::from_square(pos.king_of(side)),
            frozen,
            !own_frozen & !enemy_guard,
            |sq, _| king_attacks(sq),
        );

        let our_pawns = ours & board.by_role(Role::Pawn);
        let bound = our_pawns & segments.hypothesis.file_bound;
        let mut pawns = Bitboard::EMPTY;
        let mut pawn_attack = Bitboard::EMPTY;
        for sq in bound {
            let segment = segments.of[sq.index() as usize];
            pawns |= segment;
            if !frozen.contains(sq) {
                for s in segment & !last_rank(side) {
                    pawn_attack |= pawn_attacks(side, s);
                }
            }
        }
        // Other pawns: pushes unless a frozen pawn is in front, captures onto squares
        // an enemy piece or pawn may occupy.
        let free = our_pawns & !bound;
        let enemy_units = enemy.pieces | enemy.pawns;
        let forward = side.fold(8, -8);
        let mut reached = free;
        let mut frontier = free;
        while frontier.any() {
            let mut next = frontier.shift(forward) & !frozen;
            for sq in frontier {
                next |= pawn_attacks(side, sq) & enemy_units;
            }
            next &= !reached & !last_rank(!side);
            reached |= next;
            // Promotion squares are kept but not moved on from.
            frontier = next & !last_rank(side);
        }
        let mut capture_attack = Bitboard::EMPTY;
        for sq in reached & !last_rank(side) {
            capture_attack |= pawn_attacks(side, sq);
        }
        pawns |= reached;
        pawn_attack |= capture_attack;
        let promotions = pawns & last_rank(side);

        let mut reach = Reach {
            king,
            pieces: Bitboard::EMPTY,
            attack: Bitboard::EMPTY,
            pawns: pawns & !promotions,
            pawn_attack,
            capture_attack,
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
            reach.pieces |= region;
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
