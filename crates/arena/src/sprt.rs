//! Game pairs and the sequential test that stops a match once it has decided.
//!
//! A match plays each opening twice with the colours swapped, so its games come in
//! pairs whose results are correlated (an opening that favours one side gives one win
//! each). Counting pairs by player A's points in them (the pentanomial model) measures
//! the variance of what the match estimates, which per-game counts overstate.
//!
//! The test is the generalised sequential probability ratio test under the normal
//! approximation (Van den Bergh, "A practical introduction to the GSPRT"): with x̄ and
//! s² the mean and variance of the pairs' scores (points / 2) and s₀, s₁ the expected
//! scores of the two hypotheses' logistic Elo differences,
//! `LLR = N·(s₁ − s₀)·(2x̄ − s₀ − s₁) / (2s²)` after N pairs. H1 is accepted once it
//! reaches `ln((1 − β)/α)`, H0 once it falls to `ln(β/(1 − α))`.

use std::collections::HashMap;
use std::fmt;

use crate::match_runner::{EloEstimate, Score, opening_of};

/// Pairs of games counted by player A's points in the pair: 0, ½, 1, 1½ and 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pentanomial {
    /// `counts[k]` pairs gave A k half-points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one more pair from A's two results.
    pub fn add(&mut self, first: Score, second: Score) {
        let half_points = |score| match score {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        };
        self.counts[half_points(first) + half_points(second)] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean and variance of a pair's score (points / 2, from 0 to 1); `None`
    /// before any pair.
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let score = |k: usize| k as f64 / 4.0;
        let weighted = |f: &dyn Fn(f64) -> f64| -> f64 {
            (0..5)
                .map(|k| f64::from(self.counts[k]) * f(score(k)))
                .sum::<f64>()
                / n
        };
        let mean = weighted(&|x| x);
        let variance = weighted(&|x| (x - mean).powi(2));
        Some((mean, variance))
    }

    /// The Elo difference of A over B with the 95% margin the pairs' variance gives;
    /// `None` before any pair.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mean, variance) = self.mean_and_variance()?;
        Some(EloEstimate::from_mean(
            mean,
            variance,
            f64::from(self.pairs()),
        ))
    }
}

impl fmt::Display for Pentanomial {
    /// `[LL, LD, DD+WL, WD, WW]`: pairs by A's points, from 0 to 2.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// Matches each game with the other game of its opening, as [`run_match`](crate::run_match)
/// pairs them. Games arrive in any order when several are played at once.
#[derive(Debug, Default)]
pub struct GamePairs {
    waiting: HashMap<u32, Score>,
    pairs: Pentanomial,
}

impl GamePairs {
    /// Records game `number`'s result for A; counts its pair once both are in.
    pub fn add(&mut self, number: u32, score: Score) {
        let opening = opening_of(number);
        match self.waiting.remove(&opening) {
            Some(other) => self.pairs.add(other, score),
            None => {
                self.waiting.insert(opening, score);
            }
        }
    }

    /// The pairs complete so far.
    #[must_use]
    pub fn pentanomial(&self) -> Pentanomial {
        self.pairs
    }
}

/// Which hypothesis a sequential test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A is not stronger by the lower bound: the change fails.
    H0,
    /// A is stronger by the upper bound: the change passes.
    H1,
}

/// A sequential test of H0: A is ELO0 stronger than B, against H1: ELO1 stronger
/// (logistic Elo), with false positive rate α and false negative rate β.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Why a sequential test's settings were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SprtError {
    /// Not `ELO0,ELO1` with two finite numbers.
    #[error("expected ELO0,ELO1 (two Elo differences, e.g. 0,25), got {0:?}")]
    Bounds(String),
    /// ELO1 not above ELO0.
    #[error("ELO1 must be above ELO0, got {0}")]
    Order(String),
    /// α or β outside (0, ½).
    #[error("{0} must be above 0 and below 0.5, got {1}")]
    Rate(&'static str, String),
}

impl Sprt {
    /// The test of `bounds` (`ELO0,ELO1`) at rates α and β.
    ///
    /// # Errors
    ///
    /// [`SprtError`] names a bound that is not a number, bounds out of order, or a rate
    /// outside (0, ½).
    pub fn new(bounds: &str, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        let parse = |text: &str| text.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        let (elo0, elo1) = bounds
            .split_once(',')
            .and_then(|(low, high)| Some((parse(low)?, parse(high)?)))
            .ok_or_else(|| SprtError::Bounds(bounds.to_owned()))?;
        if elo1 <= elo0 {
            return Err(SprtError::Order(bounds.to_owned()));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::Rate(name, rate.to_string()));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratios at which H0 and H1 are accepted.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 after `pairs`; 0 until the pairs have
    /// a variance (no pair, or every pair the same).
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let Some((mean, variance)) = pairs.mean_and_variance() else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let expected = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        f64::from(pairs.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The hypothesis accepted after `pairs`, if the ratio has reached a bound.
    #[must_use]
    pub fn verdict(&self, pairs: &Pentanomial) -> Option<Verdict> {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    /// `[ELO0, ELO1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.elo0, self.elo1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(counts: [u32; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn games_pair_up_by_opening_in_any_order() {
        let mut games = GamePairs::default();
        games.add(4, Score::Win);
        games.add(1, Score::Draw);
        assert_eq!(games.pentanomial().pairs(), 0);
        games.add(3, Score::Win);
        games.add(2, Score::Loss);
        games.add(5, Score::Win);
        // Games 3 and 4: two wins; games 1 and 2: a draw and a loss; 5 waits.
        assert_eq!(games.pentanomial(), pairs([0, 1, 0, 0, 1]));
    }

    #[test]
    fn pair_variance_is_below_the_per_game_one_when_openings_decide() {
        // Each opening won by whoever has the favoured side: +100 =0 −100 in games,
        // but every pair is 1–1, so the pairs show no difference and no spread.
        let split = pairs([0, 0, 100, 0, 0]);
        let estimate = split.elo().expect("pairs were played");
        assert_eq!(estimate.diff, 0.0);
        assert_eq!(estimate.margin, 0.0);
        let games = EloEstimate::from_score(100, 0, 100).expect("games were played");
        assert!(games.margin > 40.0, "{games:?}");
    }

    #[test]
    fn the_ratio_follows_the_formula() {
        let sprt = Sprt::new("0,10", 0.05, 0.05).expect("valid");
        let p = pairs([0, 20, 60, 20, 0]);
        // Mean ½ and variance 20·2·(¼)²/100 = 1/40: LLR = 100·(s1 − ½)·(1 − ½ − s1)/(2/40).
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        let expected = 100.0 * (s1 - 0.5) * (0.5 - s1) * 20.0;
        assert!((sprt.llr(&p) - expected).abs() < 1e-9, "{}", sprt.llr(&p));
        assert!(sprt.llr(&p) < 0.0, "a level match leans to H0");
    }

    #[test]
    fn strong_evidence_decides_and_weak_does_not() {
        let sprt = Sprt::new("0,25", 0.05, 0.05).expect("valid");
        let (lower, upper) = sprt.bounds();
        assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
        assert_eq!(sprt.verdict(&pairs([0, 2, 6, 2, 0])), None);
        // About +70 Elo over 200 pairs.
        assert_eq!(sprt.verdict(&pairs([4, 26, 90, 50, 30])), Some(Verdict::H1));
        // About −70.
        assert_eq!(sprt.verdict(&pairs([30, 50, 90, 26, 4])), Some(Verdict::H0));
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.llr(&pairs([0, 0, 7, 0, 0])), 0.0, "no spread yet");
    }

    #[test]
    fn bad_settings_are_named() {
        assert_eq!(
            Sprt::new("0;25", 0.05, 0.05),
            Err(SprtError::Bounds("0;25".into()))
        );
        assert_eq!(
            Sprt::new("zero,25", 0.05, 0.05),
            Err(SprtError::Bounds("zero,25".into()))
        );
        assert_eq!(
            Sprt::new("25,0", 0.05, 0.05),
            Err(SprtError::Order("25,0".into()))
        );
        assert!(matches!(
            Sprt::new("0,25", 0.0, 0.05),
            Err(SprtError::Rate("alpha", _))
        ));
        assert!(matches!(
            Sprt::new("0,25", 0.05, 0.7),
            Err(SprtError::Rate("beta", _))
        ));
        assert!(Sprt::new(" -5 , 5 ", 0.05, 0.1).is_ok());
    }
}
