//! What the linear evaluations (all four games) share: the accumulator their feature
//! counting is generic over, and the feature counts of one position for the tuners.

/// A middlegame and an endgame value.
pub(crate) type Pair = (i32, i32);

/// Receives feature counts, for White/red (+) or Black (-).
pub(crate) trait Accumulator {
    fn add(&mut self, feature: usize, count: i32);
}

/// Adds each feature's weights: the accumulator of play.
pub(crate) struct WeightSum {
    weights: &'static [(i32, i32)],
    /// The middlegame and endgame sums so far.
    pub(crate) total: (i32, i32),
}

impl WeightSum {
    pub(crate) fn new(weights: &'static [(i32, i32)]) -> WeightSum {
        WeightSum {
            weights,
            total: (0, 0),
        }
    }
}

impl Accumulator for WeightSum {
    #[inline]
    fn add(&mut self, feature: usize, count: i32) {
        let (mg, eg) = self.weights[feature];
        self.total.0 += mg * count;
        self.total.1 += eg * count;
    }
}

/// Records each feature's count: the accumulator of [`EvalTrace`]s.
pub(crate) struct Tally {
    pub(crate) counts: Vec<i32>,
}

impl Tally {
    pub(crate) fn new(features: usize) -> Tally {
        Tally {
            counts: vec![0; features],
        }
    }

    /// The features present, as `(feature, count)`.
    pub(crate) fn sparse(&self) -> Vec<(u16, i16)> {
        self.counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(-32_000, 32_000) as i16))
            .collect()
    }
}

impl Accumulator for Tally {
    fn add(&mut self, feature: usize, count: i32) {
        self.counts[feature] += count;
    }
}

/// Feature counts of one position, for tuning an evaluation's weights (see
/// `examples/tune_chess.rs` and its siblings for the other games).
///
/// With one `(mg, eg)` weight pair per feature, the evaluation from White's (red's)
/// side is `scale/16 × taper(counts) + taper(unscaled)`, where
/// `taper(x) = (Σ mg·count × phase + Σ eg·count × (max_phase − phase)) / max_phase`
/// (in integers, each division rounding toward zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalTrace {
    /// `(feature, White's count minus Black's)` for every feature present.
    pub counts: Vec<(u16, i16)>,
    /// Features counted outside the scale (xiangqi's tempo), in the same form.
    pub unscaled: Vec<(u16, i16)>,
    /// Game phase, 0 to `max_phase` (`max_phase` weighs the middlegame weight fully).
    pub phase: i32,
    /// The phase of the full set of pieces.
    pub max_phase: i32,
    /// Sixteenths of the blended score kept.
    pub scale: i32,
}

impl EvalTrace {
    /// The evaluation `weights` give this trace, in the engines' integer arithmetic:
    /// the formula above, what the evaluator computed when it made the trace.
    #[must_use]
    pub fn score(&self, weights: &[(i32, i32)]) -> i32 {
        let taper = |counts: &[(u16, i16)]| {
            let (mut mg, mut eg) = (0, 0);
            for &(i, c) in counts {
                let (wm, we) = weights[usize::from(i)];
                mg += wm * i32::from(c);
                eg += we * i32::from(c);
            }
            (mg * self.phase + eg * (self.max_phase - self.phase)) / self.max_phase
        };
        taper(&self.counts) * self.scale / 16 + taper(&self.unscaled)
    }

    /// A feature's count, scaled or not; 0 if the position lacks it.
    #[must_use]
    pub fn count(&self, feature: usize) -> i32 {
        self.counts
            .iter()
            .chain(&self.unscaled)
            .find(|&&(i, _)| usize::from(i) == feature)
            .map_or(0, |&(_, c)| i32::from(c))
    }
}
