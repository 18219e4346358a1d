//! Level bitboards: one `u64` per 8×8 level, bit `row * 8 + column` (row A = 0,
//! column 1 = 0). Shifts, sliding rays and the small per-square tables
//! move generation uses. Everything here is geometry; the rules live in `movegen.rs`.

/// Column `1`.
pub(crate) const COLUMN_1: u64 = 0x0101_0101_0101_0101;
/// Column `8`.
pub(crate) const COLUMN_8: u64 = COLUMN_1 << 7;
/// Row `A`.
pub(crate) const ROW_A: u64 = 0xFF;
/// Row `H`.
pub(crate) const ROW_H: u64 = ROW_A << 56;
/// Row `B` (White's pawn start row).
pub(crate) const ROW_B: u64 = ROW_A << 8;
/// Row `G` (Black's pawn start row).
pub(crate) const ROW_G: u64 = ROW_A << 48;

const NOT_1: u64 = !COLUMN_1;
const NOT_8: u64 = !COLUMN_8;

/// One step in each direction; bits leaving the level disappear.
#[inline(always)]
pub(crate) const fn north(b: u64) -> u64 {
    b << 8
}
#[inline(always)]
pub(crate) const fn south(b: u64) -> u64 {
    b >> 8
}
#[inline(always)]
pub(crate) const fn east(b: u64) -> u64 {
    (b << 1) & NOT_1
}
#[inline(always)]
pub(crate) const fn west(b: u64) -> u64 {
    (b >> 1) & NOT_8
}
#[inline(always)]
pub(crate) const fn north_east(b: u64) -> u64 {
    (b << 9) & NOT_1
}
#[inline(always)]
pub(crate) const fn north_west(b: u64) -> u64 {
    (b << 7) & NOT_8
}
#[inline(always)]
pub(crate) const fn south_east(b: u64) -> u64 {
    (b >> 7) & NOT_1
}
#[inline(always)]
pub(crate) const fn south_west(b: u64) -> u64 {
    (b >> 9) & NOT_8
}

/// Per direction and square: the squares a slider on it would cross on an empty
/// level. Directions 0..4 (north, east, north-east, north-west) go towards higher bits,
/// 4..8 (south, west, south-west, south-east) towards lower bits.
static RAYS: [[u64; 64]; 8] = {
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (1, -1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (-1, 1),
    ];
    let mut table = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            let mut ray = 0;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            table[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    table
};

/// The squares a slider on `sq` attacks towards higher bits in direction `d` (0..4):
/// the ray up to and including the first occupied square. Bit 63 is a sentinel: its
/// rays in these directions are empty, so an unblocked ray stays whole.
#[inline(always)]
fn ray_up(d: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][sq];
    let first = ((ray & occupied) | (1 << 63)).trailing_zeros();
    ray ^ RAYS[d][first as usize]
}

/// [`ray_up`] towards lower bits (directions 4..8), with bit 0 as the sentinel.
#[inline(always)]
fn ray_down(d: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[d][sq];
    let first = 63 - ((ray & occupied) | 1).leading_zeros();
    ray ^ RAYS[d][first as usize]
}

/// Every square an orthogonal slider on `sq` (0..64) attacks.
#[inline(always)]
pub(crate) fn orthogonal_attacks(sq: usize, occupied: u64) -> u64 {
    ray_up(0, sq, occupied)
        | ray_up(1, sq, occupied)
        | ray_down(4, sq, occupied)
        | ray_down(5, sq, occupied)
}

/// Every square a diagonal slider on `sq` (0..64) attacks.
#[inline(always)]
pub(crate) fn diagonal_attacks(sq: usize, occupied: u64) -> u64 {
    ray_up(2, sq, occupied)
        | ray_up(3, sq, occupied)
        | ray_down(6, sq, occupied)
        | ray_down(7, sq, occupied)
}

/// The eight neighbours of every square of `b`.
#[inline(always)]
pub(crate) const fn ring(b: u64) -> u64 {
    north(b)
        | south(b)
        | east(b)
        | west(b)
        | north_east(b)
        | north_west(b)
        | south_east(b)
        | south_west(b)
}

/// Per square: the squares one or two steps away in the eight directions (the dama's
/// jumping targets).
pub(crate) static DAMA_TARGETS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        table[sq] = ring(b)
            | north(north(b))
            | south(south(b))
            | east(east(b))
            | west(west(b))
            | north_east(north_east(b))
            | north_west(north_west(b))
            | south_east(south_east(b))
            | south_west(south_west(b));
        sq += 1;
    }
    table
};

/// Per square: its eight neighbours.
pub(crate) static NEIGHBOURS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = ring(1 << sq);
        sq += 1;
    }
    table
};

/// Per square: the rest of its row and of its column (torre level-move partners).
pub(crate) static ROW_OR_COLUMN: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        table[sq] = ((ROW_A << (8 * r)) | (COLUMN_1 << c)) & !(1 << sq);
        sq += 1;
    }
    table
};

/// Per square: the rest of both diagonals through it (alfil level-move partners).
pub(crate) static DIAGONALS: [u64; 64] = {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut mask = 0;
        let mut other = 0;
        while other < 64 {
            let (r2, c2) = ((other / 8) as i32, (other % 8) as i32);
            if other != sq && (r2 - r == c2 - c || r2 - r == c - c2) {
                mask |= 1u64 << other;
            }
            other += 1;
        }
        table[sq] = mask;
        sq += 1;
    }
    table
};

/// A caballo move seen from its source: the two squares of the long leg (which must
/// be empty) and the destination.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaballoMove {
    pub(crate) legs: u64,
    pub(crate) to: u64,
}

/// Per square: its caballo moves that stay on the board (up to eight), in ascending
/// order of destination.
pub(crate) static CABALLO_MOVES: [([CaballoMove; 8], usize); 64] = {
    const NONE: CaballoMove = CaballoMove { legs: 0, to: 0 };
    let mut table = [([NONE; 8], 0); 64];
    // (row step, column step) sorted by destination offset (-17 .. 17).
    const OFFSETS: [(i32, i32); 8] = [
        (-2, -1),
        (-2, 1),
        (-1, -2),
        (-1, 2),
        (1, -2),
        (1, 2),
        (2, -1),
        (2, 1),
    ];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            let (dr, dc) = OFFSETS[i];
            let (tr, tc) = (r + dr, c + dc);
            if tr >= 0 && tr < 8 && tc >= 0 && tc < 8 {
                // The long leg: the square next to the caballo along the long side,
                // then the corner.
                let (l1, l2) = if dr == 2 || dr == -2 {
                    ((r + dr / 2, c), (r + dr, c))
                } else {
                    ((r, c + dc / 2), (r, c + dc))
                };
                table[sq].0[n] = CaballoMove {
                    legs: (1u64 << (l1.0 * 8 + l1.1)) | (1u64 << (l2.0 * 8 + l2.1)),
                    to: 1u64 << (tr * 8 + tc),
                };
                n += 1;
            }
            i += 1;
        }
        table[sq].1 = n;
        sq += 1;
    }
    table
};

/// Caballo targets of every caballo in `caballos` set-wise, one set per L-direction
/// (each set maps sources to targets one to one, so popcounts add up to move counts).
#[inline(always)]
pub(crate) const fn caballo_rays(caballos: u64, empty: u64) -> [u64; 8] {
    let up = north(north(caballos) & empty) & empty;
    let down = south(south(caballos) & empty) & empty;
    let right = east(east(caballos) & empty) & empty;
    let left = west(west(caballos) & empty) & empty;
    [
        east(up),
        west(up),
        east(down),
        west(down),
        north(right),
        south(right),
        north(left),
        south(left),
    ]
}

/// The `n`-th (0-based) set bit of `b` in ascending order; `n` must be below the
/// popcount (promotion draws guarantee it).
#[inline]
pub(crate) fn nth_bit(mut b: u64, n: u32) -> u32 {
    for _ in 0..n {
        b &= b.wrapping_sub(1);
    }
    b.trailing_zeros()
}

/// Iterates the set bits of `b` in ascending order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(r: u32, c: u32) -> u64 {
        1 << (r * 8 + c)
    }

    #[test]
    fn slides_stop_at_the_first_piece() {
        // Slider on D4 (row 3, column 3), blocker on D6 and F4.
        let from = bit(3, 3);
        let occupied = from | bit(5, 3) | bit(3, 5);
        let att = orthogonal_attacks(27, occupied);
        assert_eq!(
            att & (COLUMN_1 << 3),
            (COLUMN_1 << 3) & !from & !(bit(6, 3) | bit(7, 3))
        );
        assert_ne!(att & bit(3, 5), 0);
        assert_eq!(att & bit(3, 6), 0);
        assert_eq!(att.count_ones(), 3 + 2 + 3 + 2);
        assert_eq!(diagonal_attacks(0, 1).count_ones(), 7);
        assert_eq!(orthogonal_attacks(7, 1 << 7).count_ones(), 14);
        assert_eq!(orthogonal_attacks(63, 0).count_ones(), 14);
        assert_eq!(diagonal_attacks(63, 1 << 63).count_ones(), 7);
        // Blocked right next to it in every direction.
        assert_eq!(orthogonal_attacks(27, !0).count_ones(), 4);
        assert_eq!(diagonal_attacks(27, !0).count_ones(), 4);
    }

    #[test]
    fn caballo_legs() {
        // From D4 (3,3) to B3 (1,2) passes C4 (2,3) and B4 (1,3).
        let (moves, n) = CABALLO_MOVES[27];
        assert_eq!(n, 8);
        let to_b3 = moves.iter().find(|m| m.to == bit(1, 2)).expect("listed");
        assert_eq!(to_b3.legs, bit(2, 3) | bit(1, 3));
        let to_c2 = moves.iter().find(|m| m.to == bit(2, 1)).expect("listed");
        assert_eq!(to_c2.legs, bit(3, 2) | bit(3, 1));
        assert_eq!(CABALLO_MOVES[0].1, 2);
    }

    #[test]
    fn tables() {
        assert_eq!(DAMA_TARGETS[27].count_ones(), 16);
        assert_eq!(DAMA_TARGETS[0].count_ones(), 6);
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(ROW_OR_COLUMN[9].count_ones(), 14);
        assert_eq!(DIAGONALS[0].count_ones(), 7);
        assert_eq!(DIAGONALS[27].count_ones(), 13);
        assert_eq!(nth_bit(0b1011_0000, 2), 7);
        assert_eq!(Bits(0b101).collect::<Vec<_>>(), vec![0, 2]);
    }
}
