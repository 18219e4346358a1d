/// The SplitMix64 generator (Steele, Lea and Flood, 2014).
///
/// Small, fast and fully determined by its 64-bit state, which games that draw random
/// numbers (chess3d promotions) keep inside their position so that a saved game
/// replays exactly. Also used for Zobrist keys and reproducible tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state is `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The current state (what a position string stores).
    #[must_use]
    pub const fn state(self) -> u64 {
        self.state
    }

    /// Advances the state and returns the next output.
    #[allow(clippy::should_implement_trait)] // not an iterator: it never ends
    pub const fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` as `next() % n` (the rule chess3d fixes; `n` must not be 0).
    pub const fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // First outputs for seed 0 as published with the reference implementation
        // (Vigna's splitmix64.c) and reproduced by many ports.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next(), 0x06C4_5D18_8009_454F);
        assert_eq!(rng.state(), 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(3));
    }
}
