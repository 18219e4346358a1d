//! Attack tables, computed at compile time.
//!
//! Sliding pieces use "fancy" magic bitboards: the relevant blockers of a square are
//! multiplied by a magic number and shifted to index a shared table. The magics in
//! `magics.rs` were found by `find_magics` below (deterministic, seeded SplitMix64);
//! the table builder asserts that none of them collides destructively, so a wrong
//! magic is a compile error, not a wrong move.

use tablero_core::{Side, SplitMix64};

use crate::magics::{BISHOP_MAGICS, ROOK_MAGICS};
use crate::{Bitboard, Square};

const ROOK_DELTAS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DELTAS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Squares reached by walking each direction from `sq` until (and including) a blocker.
const fn ray_attacks(sq: usize, occupied: u64, deltas: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = deltas[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while 0 <= f && f < 8 && 0 <= r && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

const fn step_attacks(sq: usize, deltas: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < deltas.len() {
        let f = (sq % 8) as i32 + deltas[d].0;
        let r = (sq / 8) as i32 + deltas[d].1;
        if 0 <= f && f < 8 && 0 <= r && r < 8 {
            attacks |= 1u64 << (r * 8 + f);
        }
        d += 1;
    }
    attacks
}

/// The blockers that matter for a slider on `sq`: its empty-board rays without the last
/// square of each ray (a piece on the edge blocks nothing further).
const fn relevant_mask(sq: usize, deltas: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = deltas[d];
        let mut f = (sq % 8) as i32 + df;
        let mut r = (sq / 8) as i32 + dr;
        while 0 <= f + df && f + df < 8 && 0 <= r + dr && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// One square's magic: the table slice starts at `offset`.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn build_magics(factors: &[u64; 64], deltas: &[(i32, i32); 4]) -> ([Magic; 64], usize) {
    let mut magics = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, deltas);
        let bits = mask.count_ones();
        magics[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    (magics, offset)
}

const ROOK_TABLE_SIZE: usize = build_magics(&ROOK_MAGICS, &ROOK_DELTAS).1;
const BISHOP_TABLE_SIZE: usize = build_magics(&BISHOP_MAGICS, &BISHOP_DELTAS).1;
static ROOK: [Magic; 64] = build_magics(&ROOK_MAGICS, &ROOK_DELTAS).0;
static BISHOP: [Magic; 64] = build_magics(&BISHOP_MAGICS, &BISHOP_DELTAS).0;

const fn build_table<const N: usize>(magics: &[Magic; 64], deltas: &[(i32, i32); 4]) -> [u64; N] {
    let mut table = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut subset: u64 = 0;
        loop {
            let attacks = ray_attacks(sq, subset, deltas);
            let index = m.offset + (subset.wrapping_mul(m.factor) >> m.shift) as usize;
            assert!(
                table[index] == 0 || table[index] == attacks,
                "magic collides"
            );
            table[index] = attacks;
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

#[allow(long_running_const_eval)]
static ROOK_TABLE: [u64; ROOK_TABLE_SIZE] = build_table(&ROOK, &ROOK_DELTAS);
#[allow(long_running_const_eval)]
static BISHOP_TABLE: [u64; BISHOP_TABLE_SIZE] = build_table(&BISHOP, &BISHOP_DELTAS);

const fn build_steps(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = step_attacks(sq, deltas);
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = build_steps(&KNIGHT_DELTAS);
static KING: [u64; 64] = build_steps(&KING_DELTAS);
static PAWN: [[u64; 64]; 2] = [
    build_steps(&[(-1, 1), (1, 1)]),
    build_steps(&[(-1, -1), (1, -1)]),
];

/// `LINE[a][b]`: the whole line (rank, file or diagonal) through `a` and `b`, edge to
/// edge, or empty if they are not aligned. `BETWEEN[a][b]`: the squares strictly between.
const fn build_lines() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut line = [[0u64; 64]; 64];
    let mut between = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            if a != b {
                let mut family = 0;
                while family < 2 {
                    let deltas = if family == 0 {
                        &ROOK_DELTAS
                    } else {
                        &BISHOP_DELTAS
                    };
                    let from_a = ray_attacks(a, 0, deltas);
                    if from_a & bb != 0 {
                        line[a][b] = (from_a & ray_attacks(b, 0, deltas)) | (1 << a) | bb;
                        between[a][b] = ray_attacks(a, bb, deltas) & ray_attacks(b, 1 << a, deltas);
                    }
                    family += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (line, between)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_lines();

/// Squares a rook on `sq` attacks, given the occupied squares.
#[must_use]
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &ROOK[sq.usize()];
    Bitboard(
        ROOK_TABLE[m.offset + ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize],
    )
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[must_use]
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &BISHOP[sq.usize()];
    Bitboard(
        BISHOP_TABLE[m.offset + ((occupied.0 & m.mask).wrapping_mul(m.factor) >> m.shift) as usize],
    )
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[must_use]
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a knight on `sq` attacks.
#[must_use]
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.usize()])
}

/// Squares a king on `sq` attacks.
#[must_use]
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.usize()])
}

/// Squares a pawn of `side` on `sq` attacks.
#[must_use]
#[inline]
pub fn pawn_attacks(side: Side, sq: Square) -> Bitboard {
    Bitboard(PAWN[side.index()][sq.usize()])
}

/// The full line through `a` and `b` (empty if they share no rank, file or diagonal).
#[must_use]
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.usize()][b.usize()])
}

/// The squares strictly between `a` and `b` on their line (empty if not aligned).
#[must_use]
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.usize()][b.usize()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[must_use]
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Searches magic factors for every square, deterministically. Returns `None` for a
/// square if `tries` candidates all collided.
#[must_use]
pub fn find_magics(rook: bool, seed: u64, tries: u32) -> [Option<u64>; 64] {
    let deltas = if rook { &ROOK_DELTAS } else { &BISHOP_DELTAS };
    let mut rng = SplitMix64::new(seed);
    let mut found = [None; 64];
    for (sq, slot) in found.iter_mut().enumerate() {
        let mask = relevant_mask(sq, deltas);
        let bits = mask.count_ones();
        let mut subsets = Vec::new();
        let mut subset: u64 = 0;
        loop {
            subsets.push((subset, ray_attacks(sq, subset, deltas)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let mut used = vec![(0u64, 0u32); 1 << bits];
        for attempt in 1..=tries {
            let factor = rng.next() & rng.next() & rng.next();
            if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = subsets.iter().all(|&(occ, attacks)| {
                let index = (occ.wrapping_mul(factor) >> (64 - bits)) as usize;
                let entry = &mut used[index];
                if entry.1 != attempt {
                    *entry = (attacks, attempt);
                    true
                } else {
                    entry.0 == attacks
                }
            });
            if ok {
                *slot = Some(factor);
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_ray_walks() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..20_000 {
            let occupied = rng.next() & rng.next();
            let sq = Square::from_index((rng.next() % 64) as u32);
            assert_eq!(
                rook_attacks(sq, Bitboard(occupied)).0,
                ray_attacks(sq.usize(), occupied, &ROOK_DELTAS)
            );
            assert_eq!(
                bishop_attacks(sq, Bitboard(occupied)).0,
                ray_attacks(sq.usize(), occupied, &BISHOP_DELTAS)
            );
        }
    }

    #[test]
    fn lines_and_between() {
        let sq = |s: &str| s.parse::<Square>().expect("square");
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from_iter([sq("b2"), sq("c3")])
        );
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert!(line(sq("b2"), sq("g7")).contains(sq("h8")));
        assert!(aligned(sq("e1"), sq("e4"), sq("e8")));
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(
            pawn_attacks(Side::Black, sq("e4")),
            Bitboard::from_iter([sq("d3"), sq("f3")])
        );
    }

    /// Prints fresh magic tables: `cargo test -p tablero-chess --lib print_magics -- --ignored --nocapture`.
    #[test]
    #[ignore = "generator for magics.rs, not a check"]
    fn print_magics() {
        for rook in [true, false] {
            let found = find_magics(rook, 0x7AB1_E500, 10_000_000);
            println!("{}:", if rook { "ROOK" } else { "BISHOP" });
            for m in found {
                println!("    {:#018x},", m.expect("magic found"));
            }
        }
    }
}
