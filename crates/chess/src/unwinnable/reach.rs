//! The second semi-static proof: where can each unit ever go? (a least fixpoint)
//!
//! Every unit starts able to stand only where it stands, and every unit counts as
//! *stuck* (it never leaves its square) until shown otherwise. Rules then add squares
//! until nothing changes: a piece steps as its kind moves, never onto a square held by
//! a stuck unit of its side, sliding through no stuck unit; a king never onto a square
//! that a stuck enemy pawn, knight or king attacks; a pawn pushes onto squares no stuck
//! unit holds and captures onto squares an enemy piece or pawn may reach, except that
//! it never pushes onto the square of an enemy pawn facing it on its file when neither
//! can ever leave the file and the enemy pawn can never be captured; a pawn that can
//! reach its last rank may become anything, anywhere. A unit stops being stuck once it
//! can reach another square or an enemy unit can reach its square (kings are never
//! captured). Each rule only allows more than the game does, given that the stuck
//! units are in place; and at the fixpoint the stuck units can indeed never move or be
//! taken. So by induction over any game every unit stays inside its computed region.
//!
//! If no piece or pawn of the intended winner can ever attack a square of the losing
//! king's region, that side can never give check, so never checkmate. Otherwise a mate
//! needs a square of that region on which every flight is guarded or blocked, which
//! `no_mating_square` counts. This catches
//! what the hypothesis-driven proof of `fortress.rs` misses (a king that cannot leave
//! its corner because its own pieces hem it in, pawns that block each other on a
//! file), and the other way round.

use arrayvec::ArrayVec;
use tablero_core::Side;

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::{Bitboard, Chess, Rank, Role, Square};

/// One unit of the position, by the square it stands on now.
#[derive(Clone, Copy)]
struct Unit {
    side: Side,
    role: Role,
    origin: Square,
}

/// Whether `winner` provably can never checkmate. `false` means "not proved".
pub(crate) fn reach_forbids_mate(pos: &Chess, winner: Side) -> bool {
    if pos.castling_rooks().any() || pos.ep_square().is_some() {
        return false;
    }
    let board = pos.board();
    let mut units: ArrayVec<Unit, 32> = ArrayVec::new();
    for (sq, piece) in board.pieces() {
        if units
            .try_push(Unit {
                side: piece.side,
                role: piece.role,
                origin: sq,
            })
            .is_err()
        {
            return false;
        }
    }
    let n = units.len();
    let mut reach = [Bitboard::EMPTY; 32];
    let mut stuck = [true; 32];
    for (i, u) in units.iter().enumerate() {
        reach[i] = Bitboard::from_square(u.origin);
    }
    loop {
        // What the current estimate implies.
        let mut stuck_squares = [Bitboard::EMPTY; 2];
        let mut always_attacked = [Bitboard::EMPTY; 2];
        let mut any_reach = [Bitboard::EMPTY; 2];
        let mut unit_reach = [Bitboard::EMPTY; 2];
        // The squares each side may ever capture on: a pawn's diagonal steps from its
        // region, any other unit's region.
        let mut capture_span = [Bitboard::EMPTY; 2];
        for (i, u) in units.iter().enumerate() {
            let s = u.side.index();
            any_reach[s] |= reach[i];
            capture_span[s] |= if u.role == Role::Pawn {
                pawn_span(u.side, reach[i])
            } else {
                reach[i]
            };
            if u.role != Role::King {
                unit_reach[s] |= reach[i];
            }
            if stuck[i] {
                stuck_squares[s] = stuck_squares[s].with(u.origin);
                always_attacked[s] |= match u.role {
                    Role::Pawn => pawn_attacks(u.side, u.origin),
                    Role::Knight => knight_attacks(u.origin),
                    Role::King => king_attacks(u.origin),
                    _ => Bitboard::EMPTY,
                };
            }
        }
        let obstacles = stuck_squares[0] | stuck_squares[1];
        let mut changed = false;
        for i in 0..n {
            let u = units[i];
            let s = u.side.index();
            let them = (!u.side).index();
            let mut next = reach[i];
            match u.role {
                Role::Pawn => {
                    let forward = u.side.fold(8, -8);
                    let last = Bitboard::rank(u.side.fold(Rank::EIGHTH, Rank::FIRST));
                    let start = u
                        .side
                        .fold(Bitboard(0xFF00), Bitboard(0x00FF_0000_0000_0000));
                    let facing = facing_pawn(&units, &reach, i, &capture_span);
                    for from in reach[i] & !last {
                        let mut one = Bitboard::from_square(from).shift(forward) & !obstacles;
                        if let Some(q) = facing {
                            one = one.without(q);
                        }
                        next |= one;
                        if start.contains(from) && one.any() {
                            let mut two = one.shift(forward) & !obstacles;
                            if let Some(q) = facing {
                                two = two.without(q);
                            }
                            next |= two;
                        }
                        next |= pawn_attacks(u.side, from) & unit_reach[them];
                    }
                    if (next & last).any() {
                        // Promotion: it may become any piece, anywhere.
                        next = Bitboard::FULL;
                    }
                }
                Role::King => {
                    for from in reach[i] {
                        next |= king_attacks(from) & !stuck_squares[s] & !always_attacked[them];
                    }
                }
                role => {
                    for from in reach[i] {
                        next |= step(role, from, obstacles) & !stuck_squares[s];
                    }
                }
            }
            if next != reach[i] {
                reach[i] = next;
                changed = true;
            }
            let can_go = next != Bitboard::from_square(u.origin);
            let taken = u.role != Role::King && any_reach[them].contains(u.origin);
            if stuck[i] && (can_go || taken) {
                stuck[i] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    // The winner's check power against the loser king's region.
    let mut obstacles = Bitboard::EMPTY;
    for i in 0..n {
        if stuck[i] {
            obstacles = obstacles.with(units[i].origin);
        }
    }
    let mut loser_king = Bitboard::EMPTY;
    for i in 0..n {
        if units[i].role == Role::King && units[i].side != winner {
            loser_king = reach[i];
        }
    }
    // The squares of the loser king's region the winner's units can check on, and every
    // square they or the winner's king can ever attack.
    let mut checks = Bitboard::EMPTY;
    let mut guarded = Bitboard::EMPTY;
    for i in 0..n {
        let u = units[i];
        if u.side != winner {
            continue;
        }
        if reach[i] == Bitboard::FULL {
            // A pawn that may promote: anything could come of it.
            return false;
        }
        let mut span = Bitboard::EMPTY;
        for from in reach[i] {
            span |= match u.role {
                Role::Pawn => pawn_attacks(u.side, from),
                role => step(role, from, obstacles),
            };
        }
        guarded |= span;
        if u.role != Role::King {
            checks |= span & loser_king;
        }
    }
    if checks.is_empty() {
        return true;
    }
    no_mating_square(
        &units[..n],
        &reach[..n],
        winner,
        loser_king,
        guarded,
        checks,
    )
}

/// Whether the loser's king can be mated on none of the squares `checks` of its
/// region `loser_king` on which it can be checked.
///
/// A mated king on `s` cannot step to any neighbour `t`. If the king may never stand
/// on `t` at all (outside its region), fine; otherwise `t` must be attacked by a unit
/// of the winner (a winner's unit standing on `t` must be defended, so attacked, too)
/// or held by a unit of the loser. The squares the winner may ever attack are
/// `guarded` (every unit's attacks from every square of its region, sliding through
/// the stuck units only: more than any real position allows). The other neighbours
/// are flight squares that each need their own unit of the loser (one unit holds one
/// square), a unit whose region holds that square. If some flight square has no such
/// unit, or the units that can reach any of them are fewer than the flight squares,
/// no mate on `s` exists. With bishops of one colour as the only checkers, for
/// instance, the neighbours of the other colour can only be held by the loser or
/// guarded by the winner's king.
fn no_mating_square(
    units: &[Unit],
    reach: &[Bitboard],
    winner: Side,
    loser_king: Bitboard,
    guarded: Bitboard,
    checks: Bitboard,
) -> bool {
    let mut held = Bitboard::EMPTY;
    for (i, u) in units.iter().enumerate() {
        if u.side != winner && u.role != Role::King {
            held |= reach[i];
        }
    }
    for s in checks {
        let flights = king_attacks(s) & loser_king & !guarded;
        if (flights & !held).any() {
            continue;
        }
        let blockers = units
            .iter()
            .zip(reach)
            .filter(|(u, r)| u.side != winner && u.role != Role::King && (**r & flights).any())
            .count();
        if blockers >= flights.count() as usize {
            return false;
        }
    }
    true
}

/// Every square a pawn of `side` attacks from some square of `from`.
fn pawn_span(side: Side, from: Bitboard) -> Bitboard {
    let not_a = Bitboard(!0x0101_0101_0101_0101);
    let not_h = Bitboard(!0x8080_8080_8080_8080);
    let (left, right) = (from & not_a, from & not_h);
    match side {
        Side::White => left.shift(7) | right.shift(9),
        Side::Black => left.shift(-9) | right.shift(-7),
    }
}

/// Where a knight, bishop, rook or queen on `from` attacks, sliding through nothing
/// but `obstacles`.
fn step(role: Role, from: Square, obstacles: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(from),
        Role::Bishop => bishop_attacks(from, obstacles),
        Role::Rook => rook_attacks(from, obstacles),
        Role::Queen => queen_attacks(from, obstacles),
        Role::King => king_attacks(from),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// The square of the enemy pawn facing pawn `i` on its file that it can never pass:
/// neither can ever leave the file, and no unit of `i`'s side can ever capture on a
/// square the enemy pawn may stand on or pass over (`capture_span`: a pawn's diagonal
/// steps from its region, any other unit's region).
fn facing_pawn(
    units: &[Unit],
    reach: &[Bitboard; 32],
    i: usize,
    capture_span: &[Bitboard; 2],
) -> Option<Square> {
    let u = units[i];
    let file = Bitboard::file(u.origin.file());
    if (reach[i] & !file).any() {
        return None;
    }
    // The nearest enemy pawn ahead on the file.
    let mut best: Option<(usize, u32)> = None;
    for (j, v) in units.iter().enumerate() {
        if v.role != Role::Pawn || v.side == u.side || !file.contains(v.origin) {
            continue;
        }
        let ahead = match u.side {
            Side::White => v.origin.rank().index() > u.origin.rank().index(),
            Side::Black => v.origin.rank().index() < u.origin.rank().index(),
        };
        if !ahead {
            continue;
        }
        let distance = v.origin.rank().index().abs_diff(u.origin.rank().index());
        if best.is_none_or(|(_, d)| distance < d) {
            best = Some((j, distance));
        }
    }
    let (j, _) = best?;
    let q = units[j];
    let safe =
        (reach[j] & !file).is_empty() && (reach[j] & capture_span[u.side.index()]).is_empty();
    safe.then_some(q.origin)
}
