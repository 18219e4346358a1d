//! Skill levels 1–10: how deep the engine looks and how it picks among the moves
//! it found.
//!
//! A weak human player does not play the best move with a random delay; they see a
//! little, misjudge by a margin and now and then overlook something. Each level is
//! therefore a search limit (depth or nodes), a number of candidate moves searched
//! side by side (MultiPV), an evaluation noise added when choosing among them and a
//! chance of a plain blunder (any candidate). Level 10 is the full engine.

use core::fmt;
use core::str::FromStr;

use tablero_core::SplitMix64;

use crate::Score;

/// A skill level from 1 (beginner) to 10 (full strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level outside 1–10.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {0:?}: expected a whole number from 1 to 10")]
pub struct LevelError(pub String);

/// How one level searches and chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSettings {
    /// Deepest iteration, if the level caps depth.
    pub depth: Option<u32>,
    /// Node budget, if the level caps nodes.
    pub nodes: Option<u64>,
    /// Candidate moves searched side by side (1: just the best).
    pub candidates: usize,
    /// Largest evaluation error, in centipawns, when choosing among candidates.
    pub noise: Score,
    /// Chance in 1000 of playing a random candidate instead.
    pub blunder_per_mille: u32,
    /// Share of the time the clock would allow that the level uses, in percent, so
    /// that the strong levels stay apart at any time control.
    pub time_percent: u32,
}

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// Full strength.
    pub const MAX: Level = Level(10);

    /// The level `n`, if it is between 1 and 10.
    #[must_use]
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 10 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The number 1–10.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// What the level does.
    #[must_use]
    pub const fn settings(self) -> LevelSettings {
        let (depth, nodes, candidates, noise, blunder_per_mille, time_percent) = match self.0 {
            1 => (Some(1), None, 12, 350, 250, 100),
            2 => (Some(2), None, 10, 250, 150, 100),
            3 => (Some(3), None, 8, 160, 80, 100),
            4 => (Some(4), None, 6, 100, 40, 100),
            5 => (Some(5), None, 5, 60, 20, 100),
            6 => (Some(6), None, 4, 35, 10, 100),
            7 => (None, Some(60_000), 3, 20, 0, 25),
            8 => (None, Some(250_000), 2, 8, 0, 40),
            9 => (None, Some(1_000_000), 1, 0, 0, 60),
            _ => (None, None, 1, 0, 0, 100),
        };
        LevelSettings {
            depth,
            nodes,
            candidates,
            noise,
            blunder_per_mille,
            time_percent,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| LevelError(s.to_owned()))
    }
}

impl LevelSettings {
    /// Picks a line among `scores` (best first, as the search returned them): the best
    /// after adding noise to each, or now and then any of them.
    #[must_use]
    pub fn choose(&self, scores: &[Score], rng: &mut SplitMix64) -> usize {
        if scores.len() <= 1 {
            return 0;
        }
        if self.blunder_per_mille > 0 && (rng.next() % 1000) < u64::from(self.blunder_per_mille) {
            return (rng.next() % scores.len() as u64) as usize;
        }
        if self.noise == 0 {
            return 0;
        }
        let span = 2 * self.noise as u64 + 1;
        let mut best = 0;
        let mut best_value = Score::MIN;
        for (i, &score) in scores.iter().enumerate() {
            // A forced mate is seen for what it is at every level.
            let noise = if crate::score::is_mate_score(score) {
                0
            } else {
                (rng.next() % span) as Score - self.noise
            };
            let value = score.saturating_add(noise);
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_reject() {
        assert_eq!("7".parse::<Level>(), Ok(Level(7)));
        assert!("0".parse::<Level>().is_err());
        assert!("11".parse::<Level>().is_err());
        assert!("x".parse::<Level>().is_err());
    }

    #[test]
    fn full_strength_always_takes_the_best_line() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..100 {
            assert_eq!(Level::MAX.settings().choose(&[50, 40, -300], &mut rng), 0);
        }
    }

    #[test]
    fn beginners_sometimes_play_a_worse_move() {
        let mut rng = SplitMix64::new(1);
        let settings = Level::MIN.settings();
        let worse = (0..200)
            .filter(|_| settings.choose(&[50, 0, -100, -500], &mut rng) != 0)
            .count();
        assert!(worse > 40, "{worse}");
    }

    #[test]
    fn every_level_sees_a_mate() {
        let mut rng = SplitMix64::new(3);
        for n in 2..=10 {
            let settings = Level(n).settings();
            let picks = (0..100)
                .filter(|_| settings.choose(&[crate::MATE - 3, 20, 10], &mut rng) == 0)
                .count();
            assert!(
                picks >= 100 - settings.blunder_per_mille as usize / 5,
                "level {n}: {picks}"
            );
        }
    }
}
