//! The clock of a terminal game: Fischer (each side its own time plus an increment
//! per move, as `tablero match --tc` and the server's `fischer` clocks) or chess3d's
//! timed mode (one clock for the whole game, the server's `game` clock). As on the
//! server, no clock runs before the first move.

use std::time::{Duration, Instant};

use tablero_core::Side;
use tablero_games::{Clock, Limits};

/// Which clock, and its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClockSettings {
    /// `base` per side, `increment` added after each of its moves.
    Fischer {
        /// Each side's time at the start.
        base: Duration,
        /// Added after each move of a side.
        increment: Duration,
    },
    /// Chess3d's timed mode: `total` for the whole game; when it runs out the side
    /// with more pieces wins.
    Game {
        /// The game's time.
        total: Duration,
    },
}

/// A running clock.
#[derive(Debug, Clone)]
pub(crate) struct GameClock {
    pub(crate) settings: ClockSettings,
    /// Remaining time when the current turn started, white first (both equal for a
    /// game clock).
    remaining: [Duration; 2],
    /// When the current turn started; `None` before the first move and after the end.
    turn_started: Option<Instant>,
    /// The remaining times after each move, the start first: restored by `undo`.
    history: Vec<[Duration; 2]>,
}

impl GameClock {
    /// A clock at its start, not running.
    pub(crate) fn new(settings: ClockSettings) -> GameClock {
        let initial = match settings {
            ClockSettings::Fischer { base, .. } => base,
            ClockSettings::Game { total } => total,
        };
        GameClock {
            settings,
            remaining: [initial; 2],
            turn_started: None,
            history: vec![[initial; 2]],
        }
    }

    /// The remaining times at `now`, white first.
    pub(crate) fn remaining_at(&self, turn: Side, now: Instant) -> [Duration; 2] {
        let mut remaining = self.remaining;
        if let Some(started) = self.turn_started {
            let elapsed = now.saturating_duration_since(started);
            match self.settings {
                ClockSettings::Fischer { .. } => {
                    let i = turn.index();
                    remaining[i] = remaining[i].saturating_sub(elapsed);
                }
                ClockSettings::Game { .. } => {
                    remaining = remaining.map(|r| r.saturating_sub(elapsed));
                }
            }
        }
        remaining
    }

    /// When the side to move's time (or the game's) runs out, if the clock runs.
    pub(crate) fn deadline(&self, turn: Side) -> Option<Instant> {
        Some(self.turn_started? + self.remaining[turn.index()])
    }

    /// Whether the time of `turn` (or the game's) has run out at `now`.
    pub(crate) fn flagged(&self, turn: Side, now: Instant) -> bool {
        self.deadline(turn).is_some_and(|d| d <= now)
    }

    /// `mover` has just moved at `now`: its time is charged, its increment added,
    /// and the other side's time starts (the first move starts the clock).
    pub(crate) fn moved(&mut self, mover: Side, now: Instant) {
        let elapsed = self
            .turn_started
            .map_or(Duration::ZERO, |s| now.saturating_duration_since(s));
        match self.settings {
            ClockSettings::Fischer { increment, .. } => {
                let i = mover.index();
                self.remaining[i] = self.remaining[i].saturating_sub(elapsed) + increment;
            }
            ClockSettings::Game { .. } => {
                self.remaining = self.remaining.map(|r| r.saturating_sub(elapsed));
            }
        }
        self.turn_started = Some(now);
        self.history.push(self.remaining);
    }

    /// Stops the clock at `now` (the game is over), keeping the times it shows.
    pub(crate) fn stop(&mut self, turn: Side, now: Instant) {
        self.remaining = self.remaining_at(turn, now);
        self.turn_started = None;
    }

    /// Moves were taken back so that `plies` remain: the times after that move come
    /// back and run from `now` (unless no move remains).
    pub(crate) fn took_back(&mut self, plies: usize, now: Instant) {
        self.history.truncate(plies + 1);
        if let Some(last) = self.history.last() {
            self.remaining = *last;
        }
        self.turn_started = (plies > 0).then_some(now);
    }

    /// A game over again from the start (or one loaded with `plies` moves, which
    /// starts running at `now` if it goes on).
    pub(crate) fn restart(&mut self, plies: usize, running: bool, now: Instant) {
        *self = GameClock::new(self.settings);
        for _ in 0..plies {
            self.history.push(self.remaining);
        }
        self.turn_started = (running && plies > 0).then_some(now);
    }

    /// The remaining times after each move, white first (the store keeps them).
    pub(crate) fn after_each_move(&self) -> &[[Duration; 2]] {
        self.history.get(1..).unwrap_or(&[])
    }

    /// The computer's limits for `turn` at `now`, as the server budgets a clock.
    pub(crate) fn limits(&self, turn: Side, now: Instant) -> Limits {
        let remaining = self.remaining_at(turn, now);
        let (remaining, increment, moves_to_go) = match self.settings {
            ClockSettings::Fischer { increment, .. } => (remaining[turn.index()], increment, None),
            // One clock for both: budget as if half of it were ours, over a long game.
            ClockSettings::Game { .. } => (remaining[0] / 2, Duration::ZERO, Some(40)),
        };
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go,
            }),
            overhead: Duration::from_millis(50),
            ..Limits::default()
        }
    }

    /// The clock line shown under the board: `Clock: White 4:59.8 · Black 5:00.0`,
    /// or the whole game's time in timed mode. `names` are the sides' names.
    pub(crate) fn describe(&self, turn: Side, now: Instant, names: [&str; 2]) -> String {
        let remaining = self.remaining_at(turn, now);
        let running = self.turn_started.is_some();
        match self.settings {
            ClockSettings::Fischer { .. } => {
                let side = |s: Side| {
                    let arrow = if running && s == turn { " ◂" } else { "" };
                    format!(
                        "{} {}{arrow}",
                        capital(names[s.index()]),
                        time_text(remaining[s.index()])
                    )
                };
                format!("Clock: {} · {}", side(Side::White), side(Side::Black))
            }
            ClockSettings::Game { .. } => {
                let state = if running { "" } else { " (not running)" };
                format!(
                    "Game clock: {} left for the game{state}",
                    time_text(remaining[0])
                )
            }
        }
    }
}

/// `m:ss.t`, or `h:mm:ss` from an hour.
pub(crate) fn time_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let seconds = tenths / 10;
    if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            (seconds / 60) % 60,
            seconds % 60
        )
    } else {
        format!("{}:{:02}.{}", seconds / 60, seconds % 60, tenths % 10)
    }
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fischer(base_ms: u64, inc_ms: u64) -> GameClock {
        GameClock::new(ClockSettings::Fischer {
            base: Duration::from_millis(base_ms),
            increment: Duration::from_millis(inc_ms),
        })
    }

    #[test]
    fn fischer_charges_the_mover_and_adds_its_increment() {
        let t0 = Instant::now();
        let mut clock = fischer(10_000, 1_000);
        assert_eq!(
            clock.deadline(Side::White),
            None,
            "not running before a move"
        );
        clock.moved(Side::White, t0 + Duration::from_secs(3));
        // The first move is not charged; it starts black's time.
        assert_eq!(
            clock.remaining,
            [Duration::from_secs(11), Duration::from_secs(10)]
        );
        clock.moved(Side::Black, t0 + Duration::from_secs(7));
        assert_eq!(clock.remaining[1], Duration::from_secs(7));
        assert!(!clock.flagged(Side::White, t0 + Duration::from_secs(17)));
        assert!(clock.flagged(Side::White, t0 + Duration::from_secs(18)));
        clock.took_back(1, t0 + Duration::from_secs(20));
        assert_eq!(clock.remaining[1], Duration::from_secs(10));
        assert_eq!(clock.after_each_move().len(), 1);
    }

    #[test]
    fn a_game_clock_runs_for_both() {
        let t0 = Instant::now();
        let mut clock = GameClock::new(ClockSettings::Game {
            total: Duration::from_secs(60),
        });
        clock.moved(Side::Black, t0);
        clock.moved(Side::White, t0 + Duration::from_secs(10));
        assert_eq!(clock.remaining, [Duration::from_secs(50); 2]);
        assert_eq!(
            clock.describe(
                Side::Black,
                t0 + Duration::from_secs(20),
                ["white", "black"]
            ),
            "Game clock: 0:40.0 left for the game"
        );
    }

    #[test]
    fn times_read_as_minutes_and_seconds() {
        assert_eq!(time_text(Duration::from_millis(299_950)), "4:59.9");
        assert_eq!(time_text(Duration::from_millis(500)), "0:00.5");
        assert_eq!(time_text(Duration::from_secs(3_725)), "1:02:05");
    }
}
