use std::time::Duration;

/// A player's clock when the search starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Added after each move (Fischer).
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// When a search stops. Unset limits do not apply; with none set the search runs
/// until [`crate::Engine::search`]'s stop flag is raised (UCI `go infinite`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes to search; with one thread the result is then deterministic.
    pub nodes: Option<u64>,
    /// Time to spend on this move.
    pub movetime: Option<Duration>,
    /// The mover's clock: the search budgets its time from it.
    pub clock: Option<Clock>,
    /// Time kept back for transmission and overhead (UCI `Move Overhead`).
    pub overhead: Duration,
}

impl Limits {
    /// A search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search of `time`.
    #[must_use]
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// A search that budgets its time from `clock`.
    #[must_use]
    pub fn clock(clock: Clock) -> Limits {
        Limits {
            clock: Some(clock),
            ..Limits::default()
        }
    }

    /// The soft budget (do not start another iteration after it) and the hard one
    /// (abort the iteration), or `None` when time does not limit the search.
    #[must_use]
    pub fn time_budget(&self) -> Option<(Duration, Duration)> {
        let by_movetime = self.movetime.map(|t| {
            let t = t
                .saturating_sub(self.overhead)
                .max(Duration::from_millis(1));
            (t, t)
        });
        let by_clock = self.clock.map(|clock| {
            let left = clock.remaining.saturating_sub(self.overhead);
            let moves = clock.moves_to_go.map_or(25, |m| m.clamp(1, 50) + 1);
            let share = left / moves + clock.increment * 3 / 4;
            let soft = share.min(left / 2);
            let hard = (share * 3).min(left * 2 / 5).max(soft);
            (
                soft.max(Duration::from_millis(1)),
                hard.max(Duration::from_millis(1)),
            )
        });
        match (by_movetime, by_clock) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1))),
            (a, b) => a.or(b),
        }
    }
}
