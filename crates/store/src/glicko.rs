//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its
//! deviation and its volatility, updated after each rating period.
//!
//! tablero rates each finished game between two named people as one rating period
//! of its own, for the game kind played, with τ = 0.5. Deviations do not grow with
//! time away: there are no empty periods.

use std::f64::consts::PI;

use tablero_core::Side;

/// Converts between the Glicko scale (1500-centred) and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much volatility may change in one period.
const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration.
const EPSILON: f64 = 1e-6;

/// A player's Glicko-2 rating in one game kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (Glicko scale; a new player has 1500).
    pub rating: f64,
    /// The rating deviation (a new player has 350).
    pub deviation: f64,
    /// The volatility (a new player has 0.06).
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

impl Rating {
    /// White's and Black's ratings after one game between them (`before`, by
    /// [`Side::index`]) that `winner` won, or drawn.
    #[must_use]
    pub fn after_game(before: [Rating; 2], winner: Option<Side>) -> [Rating; 2] {
        [Side::White, Side::Black].map(|side| {
            let score = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            let i = side.index();
            before[i].updated(&[(before[1 - i], score)])
        })
    }

    /// The rating after one period with `results`: each opponent's rating before the
    /// period and the score against them (1 win, 0.5 draw, 0 loss).
    #[must_use]
    pub fn updated(self, results: &[(Rating, f64)]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if results.is_empty() {
            let phi_star = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating {
                deviation: phi_star * SCALE,
                ..self
            };
        }
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in results {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let g_j = g(opponent.deviation / SCALE);
            let expected = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            inverse_v += g_j * g_j * expected * (1.0 - expected);
            sum += g_j * (score - expected);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let sigma = self.volatility(phi, v, delta);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        let next = Rating {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility: sigma,
        };
        if next.rating.is_finite() && next.deviation.is_finite() && next.volatility.is_finite() {
            next
        } else {
            self
        }
    }

    /// The new volatility σ′ by the Illinois algorithm (step 5 of the paper).
    fn volatility(self, phi: f64, v: f64, delta: f64) -> f64 {
        let a = (self.volatility * self.volatility).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 1000.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        let mut steps = 0;
        while (big_b - big_a).abs() > EPSILON && steps < 100 {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
            steps += 1;
        }
        (big_a / 2.0).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// The worked example of Glickman's paper.
    #[test]
    fn the_papers_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let next = player.updated(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        assert!(close(next.rating, 1464.06, 0.01), "{next:?}");
        assert!(close(next.deviation, 151.52, 0.01), "{next:?}");
        assert!(close(next.volatility, 0.05999, 0.00001), "{next:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_a_draw_between_equals_keeps() {
        let new = Rating::default();
        let won = new.updated(&[(new, 1.0)]);
        let lost = new.updated(&[(new, 0.0)]);
        let drawn = new.updated(&[(new, 0.5)]);
        assert!(
            won.rating > 1600.0 && lost.rating < 1400.0,
            "{won:?} {lost:?}"
        );
        assert!(close(won.rating - 1500.0, 1500.0 - lost.rating, 1e-9));
        assert!(close(drawn.rating, 1500.0, 1e-9));
        assert!(won.deviation < 350.0 && drawn.deviation < 350.0);
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let r = Rating {
            rating: 1700.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let next = r.updated(&[]);
        assert!(close(next.rating, 1700.0, 1e-9));
        assert!(next.deviation > 50.0);
    }
}
