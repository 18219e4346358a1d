//! A Fischer time control, as matches (`--tc`), `tablero play --clock` and PGN's
//! `TimeControl` tag write it: `SECS+INC`.

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

/// A time control that does not read as `SECS+INC`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "time control {0:?}: expected SECS+INC, e.g. 60+0.5 (seconds per game, a positive number, plus a non-negative increment per move)"
)]
pub struct TimeControlError(pub String);

/// A Fischer time control: `base` per game plus `increment` per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `SECS+INC` (`60+0.5`), or `SECS` alone for no increment.
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let bad = || TimeControlError(s.to_owned());
        let (base, increment) = s.split_once('+').unwrap_or((s, "0"));
        let seconds = |text: &str| {
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 1e7)
                .map(Duration::from_secs_f64)
        };
        let base = seconds(base).filter(|b| !b.is_zero()).ok_or_else(bad)?;
        let increment = seconds(increment).ok_or_else(bad)?;
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// PGN's `TimeControl` form: `60+0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            "60+0.5".parse(),
            Ok(TimeControl {
                base: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            })
        );
        assert_eq!(
            "2".parse::<TimeControl>().map(|t| t.increment),
            Ok(Duration::ZERO)
        );
        for bad in ["", "0+1", "-1+0", "1+-1", "a+b", "1+2+3", "inf+0", "NaN"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let tc: TimeControl = "1+0.05".parse().expect("valid in this test");
        assert_eq!(tc.to_string(), "1+0.05");
    }
}
