//! Attack sets as bitboards, for the queries that answer in [`Bitboard`]s
//! ([`crate::Xiangqi::attackers`], [`crate::Xiangqi::attacks_from`], pseudo-legality)
//! and for the repetition rules. Move generation does not use them (see
//! `movegen.rs`).
//!
//! Chariot and cannon lines: a table indexed by the piece's place on its rank or file
//! and that line's occupancy answers both the chariot's targets and the cannon's
//! capture (the second piece on each side) in one load.

use tablero_core::Side;

use crate::{Bitboard, Square};

/// `LINE` entry bits 0–15: slide targets up to and including the first piece each
/// way; bits 16–31: cannon capture targets (the second piece each way).
const fn line_entry(pos: u32, len: u32, occ: u32) -> u32 {
    let mut entry = 0;
    let mut dir = 0;
    while dir < 2 {
        let mut x = pos as i32;
        let mut screens = 0;
        loop {
            x += if dir == 0 { 1 } else { -1 };
            if x < 0 || x >= len as i32 {
                break;
            }
            let occupied = occ >> x & 1 != 0;
            if screens == 0 {
                entry |= 1 << x;
                if occupied {
                    screens = 1;
                }
            } else if occupied {
                entry |= 1 << (x + 16);
                break;
            }
        }
        dir += 1;
    }
    entry
}

const fn rank_lines() -> [[u32; 512]; 9] {
    let mut t = [[0; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = line_entry(f as u32, 9, occ as u32);
            occ += 1;
        }
        f += 1;
    }
    t
}

const fn file_lines() -> [[u32; 1024]; 10] {
    let mut t = [[0; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = line_entry(r as u32, 10, occ as u32);
            occ += 1;
        }
        r += 1;
    }
    t
}

const fn file_spread() -> [u128; 1024] {
    let mut t = [0; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 != 0 {
                t[m] |= 1 << (9 * r);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

static RANK_LINE: [[u32; 512]; 9] = rank_lines();
static FILE_LINE: [[u32; 1024]; 10] = file_lines();
static FILE_SPREAD: [u128; 1024] = file_spread();

const fn bit(file: i32, rank: i32) -> u128 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        1 << (rank * 9 + file)
    } else {
        0
    }
}

const fn in_palace(side: usize, file: i32, rank: i32) -> bool {
    file >= 3
        && file <= 5
        && if side == 0 {
            rank >= 0 && rank <= 2
        } else {
            rank >= 7 && rank <= 9
        }
}

const fn on_own_half(side: usize, rank: i32) -> bool {
    if side == 0 {
        rank >= 0 && rank <= 4
    } else {
        rank >= 5 && rank <= 9
    }
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Per-square leaper data for both sides.
struct Leapers {
    general: [[u128; 90]; 2],
    advisor: [[u128; 90]; 2],
    elephant_eye: [[[u128; 4]; 90]; 2],
    elephant_target: [[[u128; 4]; 90]; 2],
    horse_leg: [[u128; 4]; 90],
    horse_target: [[u128; 4]; 90],
    horse_attacker_leg: [[u128; 4]; 90],
    horse_attacker: [[u128; 4]; 90],
    soldier: [[u128; 90]; 2],
    soldier_attacker: [[u128; 90]; 2],
}

const fn soldier_targets(side: usize, file: i32, rank: i32) -> u128 {
    let forward = if side == 0 { 1 } else { -1 };
    let mut t = bit(file, rank + forward);
    if !on_own_half(side, rank) {
        t |= bit(file - 1, rank) | bit(file + 1, rank);
    }
    t
}

const fn leapers() -> Leapers {
    let mut l = Leapers {
        general: [[0; 90]; 2],
        advisor: [[0; 90]; 2],
        elephant_eye: [[[0; 4]; 90]; 2],
        elephant_target: [[[0; 4]; 90]; 2],
        horse_leg: [[0; 4]; 90],
        horse_target: [[0; 4]; 90],
        horse_attacker_leg: [[0; 4]; 90],
        horse_attacker: [[0; 4]; 90],
        soldier: [[0; 90]; 2],
        soldier_attacker: [[0; 90]; 2],
    };
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut side = 0;
        while side < 2 {
            let mut i = 0;
            while i < 4 {
                let (df, dr) = ORTHOGONAL[i];
                if in_palace(side, f + df, r + dr) {
                    l.general[side][sq] |= bit(f + df, r + dr);
                }
                let (df, dr) = DIAGONAL[i];
                if in_palace(side, f + df, r + dr) {
                    l.advisor[side][sq] |= bit(f + df, r + dr);
                }
                let target = bit(f + 2 * df, r + 2 * dr);
                if target != 0 && on_own_half(side, r + 2 * dr) {
                    l.elephant_eye[side][sq][i] = bit(f + df, r + dr);
                    l.elephant_target[side][sq][i] = target;
                }
                i += 1;
            }
            l.soldier[side][sq] = soldier_targets(side, f, r);
            side += 1;
        }
        let mut i = 0;
        while i < 4 {
            // Horse moves: leg one step orthogonally, then one diagonal step outwards.
            let (df, dr) = ORTHOGONAL[i];
            let leg = bit(f + df, r + dr);
            if leg != 0 {
                l.horse_leg[sq][i] = leg;
                l.horse_target[sq][i] = if df == 0 {
                    bit(f - 1, r + 2 * dr) | bit(f + 1, r + 2 * dr)
                } else {
                    bit(f + 2 * df, r - 1) | bit(f + 2 * df, r + 1)
                };
            }
            // Horses attacking `sq`: their leg is the diagonal neighbour of `sq` that
            // lies between them and `sq`.
            let (df, dr) = DIAGONAL[i];
            let leg = bit(f + df, r + dr);
            if leg != 0 {
                l.horse_attacker_leg[sq][i] = leg;
                l.horse_attacker[sq][i] = bit(f + 2 * df, r + dr) | bit(f + df, r + 2 * dr);
            }
            i += 1;
        }
        sq += 1;
    }
    // Soldier attackers: the inverse relation of soldier targets.
    let mut side = 0;
    while side < 2 {
        let mut from = 0;
        while from < 90 {
            let mut t = l.soldier[side][from];
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                l.soldier_attacker[side][to] |= 1 << from;
                t &= t - 1;
            }
            from += 1;
        }
        side += 1;
    }
    l
}

static LEAPERS: Leapers = leapers();

/// The occupancy of `file` as 10 bits (bit = rank).
fn file_occupancy(occupied: Bitboard, file: u32) -> usize {
    (0..10).fold(0, |bits, rank| {
        bits | ((occupied.0 >> (9 * rank + file)) as usize & 1) << rank
    })
}

/// The squares a chariot on `sq` reaches: empty points up to and including the first
/// piece in each direction.
pub(crate) fn chariot(sq: Square, occupied: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let rank_occ = (occupied.0 >> (9 * rank)) as usize & 0x1FF;
    let file_occ = file_occupancy(occupied, file);
    let along_rank = u128::from(RANK_LINE[file as usize][rank_occ] & 0xFFFF) << (9 * rank);
    let along_file = FILE_SPREAD[(FILE_LINE[rank as usize][file_occ] & 0xFFFF) as usize] << file;
    Bitboard(along_rank | along_file)
}

/// The pieces a cannon on `sq` may capture (of either side): the second piece in each
/// direction, with exactly one screen between.
pub(crate) fn cannon_captures(sq: Square, occupied: Bitboard) -> Bitboard {
    let (file, rank) = (sq.file(), sq.rank());
    let rank_occ = (occupied.0 >> (9 * rank)) as usize & 0x1FF;
    let file_occ = file_occupancy(occupied, file);
    let along_rank = u128::from(RANK_LINE[file as usize][rank_occ] >> 16) << (9 * rank);
    let along_file = FILE_SPREAD[(FILE_LINE[rank as usize][file_occ] >> 16) as usize] << file;
    Bitboard(along_rank | along_file)
}

/// The points of the general of `side` next to `sq`, inside its palace.
#[inline]
pub(crate) fn general(side: Side, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.general[side.index()][sq.index()])
}

/// The diagonal neighbours of `sq` inside `side`'s palace.
#[inline]
pub(crate) fn advisor(side: Side, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.advisor[side.index()][sq.index()])
}

/// An elephant's targets from `sq`: two points diagonally, where the eye between is
/// empty, on `side`'s own half.
#[inline]
pub(crate) fn elephant(side: Side, sq: Square, occupied: Bitboard) -> Bitboard {
    let eyes = &LEAPERS.elephant_eye[side.index()][sq.index()];
    let targets = &LEAPERS.elephant_target[side.index()][sq.index()];
    let mut t = 0;
    for i in 0..4 {
        if eyes[i] & occupied.0 == 0 {
            t |= targets[i];
        }
    }
    Bitboard(t)
}

/// A horse's targets from `sq`, skipping the pairs whose leg is occupied.
#[inline]
pub(crate) fn horse(sq: Square, occupied: Bitboard) -> Bitboard {
    let legs = &LEAPERS.horse_leg[sq.index()];
    let targets = &LEAPERS.horse_target[sq.index()];
    let mut t = 0;
    for i in 0..4 {
        if legs[i] & occupied.0 == 0 {
            t |= targets[i];
        }
    }
    Bitboard(t)
}

/// The squares from which a horse would attack `sq` given the occupancy (the leg of
/// such a horse is a diagonal neighbour of `sq`).
#[inline]
pub(crate) fn horse_attackers(sq: Square, occupied: Bitboard) -> Bitboard {
    let legs = &LEAPERS.horse_attacker_leg[sq.index()];
    let from = &LEAPERS.horse_attacker[sq.index()];
    let mut t = 0;
    for i in 0..4 {
        if legs[i] & occupied.0 == 0 {
            t |= from[i];
        }
    }
    Bitboard(t)
}

/// The four `(leg, horse squares)` pairs of horses that would attack `sq`: the leg
/// is a diagonal neighbour of `sq` (empty for points off the board).
#[inline]
pub(crate) fn horse_legs_of(sq: Square) -> impl Iterator<Item = (Bitboard, Bitboard)> {
    let legs = &LEAPERS.horse_attacker_leg[sq.index()];
    let from = &LEAPERS.horse_attacker[sq.index()];
    (0..4).map(move |i| (Bitboard(legs[i]), Bitboard(from[i])))
}

/// A soldier of `side` on `sq` attacks these: forward, and sideways once across.
#[inline]
pub(crate) fn soldier(side: Side, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.soldier[side.index()][sq.index()])
}

/// The squares from which a soldier of `side` attacks `sq`.
#[inline]
pub(crate) fn soldier_attackers(side: Side, sq: Square) -> Bitboard {
    Bitboard(LEAPERS.soldier_attacker[side.index()][sq.index()])
}

/// Whether `sq` is a point of `side`'s palace.
#[must_use]
pub(crate) const fn in_palace_of(side: Side, sq: Square) -> bool {
    in_palace(side.index(), sq.file() as i32, sq.rank() as i32)
}

/// Whether `sq` lies on `side`'s half of the board (before the river for it).
#[must_use]
pub(crate) const fn on_own_half_of(side: Side, sq: Square) -> bool {
    on_own_half(side.index(), sq.rank() as i32)
}
