//! The middlegame/endgame value pair of the tapered evaluations (xiangqi, draughts,
//! chess3d), blended by each game's own phase.

/// A middlegame and an endgame value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pair(pub(crate) i32, pub(crate) i32);

impl core::ops::AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl core::ops::SubAssign for Pair {
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl core::ops::Mul<i32> for Pair {
    type Output = Pair;
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}
