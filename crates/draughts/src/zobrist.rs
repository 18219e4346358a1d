//! Zobrist keys: one per (side, role, bit) and one for Black to move, drawn at compile
//! time from a fixed-seed SplitMix64.

use tablero_core::SplitMix64;

/// `PIECE[side * 2 + king][bit]`.
pub(crate) static PIECE: [[u64; 64]; 4] = {
    let mut rng = SplitMix64::new(0x0D7A_0C47_5EED_0001);
    let mut keys = [[0u64; 64]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 64 {
            keys[kind][bit] = rng.next();
            bit += 1;
        }
        kind += 1;
    }
    keys
};

/// Toggled when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = {
    let mut rng = SplitMix64::new(0x0D7A_0C47_5EED_0002);
    rng.next()
};

/// The key of one piece.
#[inline(always)]
pub(crate) fn piece(side: usize, king: bool, bit: u32) -> u64 {
    PIECE[(side & 1) * 2 + usize::from(king)][(bit & 63) as usize]
}
