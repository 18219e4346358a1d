//! Property tests on random playouts: the fast generator against a slow reference
//! written from the rules, counting against listing, keys against recomputation, FEN
//! round-trips.

use proptest::prelude::*;
use tablero_core::Side;
use tablero_xiangqi::{Move, Piece, Role, Square, Xiangqi};

mod common;
use common::{playout, random_setup};

/// Every move the rules allow, found the slow way: walk each piece's movement rule
/// point by point, play the move, and reject it if the own general is then attacked
/// or faces the other general on an open file.
fn reference_moves(pos: &Xiangqi) -> Vec<Move> {
    let us = pos.turn();
    let mut moves = Vec::new();
    for from in Square::all() {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        if piece.side != us {
            continue;
        }
        for to in reference_targets(pos, from, piece) {
            if pos.piece_at(to).is_some_and(|p| p.side == us) {
                continue;
            }
            let m = Move::new(from, to);
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !general_exposed(&after, us) {
                moves.push(m);
            }
        }
    }
    moves.sort();
    moves
}

fn in_palace(side: Side, sq: Square) -> bool {
    let ranks = if side == Side::White { 0..=2 } else { 7..=9 };
    (3..=5).contains(&sq.file()) && ranks.contains(&sq.rank())
}

fn own_half(side: Side, sq: Square) -> bool {
    if side == Side::White {
        sq.rank() <= 4
    } else {
        sq.rank() >= 5
    }
}

fn reference_targets(pos: &Xiangqi, from: Square, piece: Piece) -> Vec<Square> {
    let side = piece.side;
    let forward = if side == Side::White { 1 } else { -1 };
    let step = |df: i32, dr: i32| from.offset(df, dr);
    let empty = |sq: Square| pos.piece_at(sq).is_none();
    let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let mut out = Vec::new();
    match piece.role {
        Role::General => out.extend(
            orth.iter()
                .filter_map(|&(f, r)| step(f, r))
                .filter(|&s| in_palace(side, s)),
        ),
        Role::Advisor => out.extend(
            diag.iter()
                .filter_map(|&(f, r)| step(f, r))
                .filter(|&s| in_palace(side, s)),
        ),
        Role::Elephant => {
            for (f, r) in diag {
                if let (Some(eye), Some(to)) = (step(f, r), step(2 * f, 2 * r))
                    && empty(eye)
                    && own_half(side, to)
                {
                    out.push(to);
                }
            }
        }
        Role::Horse => {
            for (f, r) in orth {
                let Some(leg) = step(f, r) else { continue };
                if !empty(leg) {
                    continue;
                }
                let targets = if f == 0 {
                    [step(-1, 2 * r), step(1, 2 * r)]
                } else {
                    [step(2 * f, -1), step(2 * f, 1)]
                };
                out.extend(targets.into_iter().flatten());
            }
        }
        Role::Chariot | Role::Cannon => {
            for (f, r) in orth {
                let mut screens = 0;
                let mut cur = from;
                while let Some(next) = cur.offset(f, r) {
                    cur = next;
                    let occupied = !empty(cur);
                    match (piece.role, screens, occupied) {
                        (Role::Chariot, _, true) => {
                            out.push(cur);
                            break;
                        }
                        (_, 0, false) => out.push(cur),
                        (Role::Cannon, 0, true) => screens = 1,
                        (Role::Cannon, _, true) => {
                            if pos.piece_at(cur).is_some_and(|p| p.side != side) {
                                out.push(cur);
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
        }
        Role::Soldier => {
            out.extend(step(0, forward));
            if !own_half(side, from) {
                out.extend(step(-1, 0));
                out.extend(step(1, 0));
            }
        }
    }
    out
}

/// Whether `side`'s general can be captured by the side to move in `after`, or the
/// generals face each other.
fn general_exposed(after: &Xiangqi, side: Side) -> bool {
    let general = after.general_of(side);
    let enemy = after.general_of(side.other());
    if general.file() == enemy.file() {
        let (lo, hi) = (
            general.rank().min(enemy.rank()),
            general.rank().max(enemy.rank()),
        );
        let between = (lo + 1..hi).filter_map(|r| Square::from_coords(general.file(), r));
        if between.clone().all(|sq| after.piece_at(sq).is_none()) {
            return true;
        }
    }
    Square::all().any(|from| {
        after.piece_at(from).is_some_and(|p| {
            p.side != side
                && p.role != Role::General
                && reference_targets(after, from, p).contains(&general)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn generator_matches_reference_on_playouts(seed in any::<u64>(), plies in 0u64..200) {
        for pos in playout(seed, plies) {
            let mut fast: Vec<Move> = pos.legal_moves().to_vec();
            fast.sort();
            let slow = reference_moves(&pos);
            prop_assert_eq!(&fast, &slow, "at {}", pos.fen());
            prop_assert_eq!(pos.count_legal_moves(), slow.len() as u64, "count at {}", pos.fen());
            prop_assert_eq!(pos.key(), pos.compute_key());
            let back = Xiangqi::from_fen(&pos.fen());
            prop_assert_eq!(back.as_ref(), Ok(&pos));
            for m in fast.iter().take(8) {
                prop_assert!(pos.is_legal(*m));
            }
            let flying = Move::new(pos.general_of(pos.turn()), pos.general_of(pos.turn().other()));
            prop_assert!(!pos.is_legal(flying));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random sparse setups reach line-up patterns that playouts rarely do (two
    /// cannons on one line, pins through an enemy piece).
    #[test]
    fn generator_matches_reference_on_random_setups(seed in any::<u64>()) {
        if let Some(pos) = random_setup(seed) {
            let mut fast: Vec<Move> = pos.legal_moves().to_vec();
            fast.sort();
            prop_assert_eq!(&fast, &reference_moves(&pos), "at {}", pos.fen());
            prop_assert_eq!(pos.count_legal_moves(), fast.len() as u64, "count at {}", pos.fen());
            for m in fast {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let mut moves: Vec<Move> = child.legal_moves().to_vec();
                moves.sort();
                prop_assert_eq!(&moves, &reference_moves(&child), "after {} at {}", m, pos.fen());
            }
        }
    }
}
