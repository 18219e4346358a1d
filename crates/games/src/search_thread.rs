//! A search on its own thread, steered the way the UCI and Hub protocols steer one:
//! stop, ponder, ponder hit, and an answer that may have to wait. The protocol
//! sessions keep their own wording; this is the threading they share.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tablero_engine::Limits;

use crate::{AnyEngine, AnyPosition, SearchRequest, TextInfo, TextResult};

/// When the answer of a search that has returned may go out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Hold {
    /// As soon as the search returns (Hub).
    #[default]
    Never,
    /// Not before [`SearchThread::ponder_hit`] or a stop (UCI `go ponder`).
    UntilPonderHit,
    /// Not before a stop (UCI `go infinite`).
    UntilStop,
}

/// How a threaded search starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchMode {
    /// The search starts pondering (thinking on the opponent's time) until
    /// [`SearchThread::ponder_hit`].
    pub ponder: bool,
    /// After a ponder hit, the search is stopped once this much time has passed;
    /// `None`: it ends by its own limits or when stopped.
    pub after_ponder_hit: Option<Duration>,
    /// When the answer may go out.
    pub hold: Hold,
}

impl SearchMode {
    /// A pondering start: takes the move time and the clock off `limits` (while
    /// pondering, only a stop or the other limits end the search) and keeps, for
    /// after the ponder hit, the time the engine's own time control would plan for
    /// one move: a move time less the overhead, or a share of the clock. What is
    /// found while pondering is a bonus.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tablero_games::{Limits, SearchMode};
    ///
    /// let mut limits = Limits { movetime: Some(Duration::from_millis(500)), ..Limits::default() };
    /// let mode = SearchMode::ponder(&mut limits);
    /// assert_eq!(limits.movetime, None);
    /// assert_eq!(mode.after_ponder_hit, Some(Duration::from_millis(500) - limits.overhead));
    /// ```
    #[must_use]
    pub fn ponder(limits: &mut Limits) -> SearchMode {
        let after_ponder_hit = limits.time_budget().map(|(soft, _)| soft);
        limits.movetime = None;
        limits.clock = None;
        SearchMode {
            ponder: true,
            after_ponder_hit,
            hold: Hold::Never,
        }
    }
}

/// A search running on its own thread, and the handles to steer it.
///
/// Dropping it stops the search and waits until the answer has been given.
///
/// ```
/// use std::ops::ControlFlow;
/// use std::sync::{Arc, mpsc::channel};
/// use tablero_games::{AnyEngine, AnyPosition, Limits, SearchMode, SearchRequest, SearchThread};
///
/// let game = AnyPosition::new("chess", None, None).unwrap();
/// let engine = Arc::new(AnyEngine::for_game(&game, 1));
/// let request = SearchRequest { limits: Limits::depth(2), ..SearchRequest::default() };
/// let (out, answers) = channel();
/// let search = SearchThread::spawn(
///     engine, game.clone(), Vec::new(), request, SearchMode::default(),
///     |_| ControlFlow::Continue(()),
///     move |result| out.send(result.best).unwrap(),
/// );
/// search.finish();
/// let best = answers.recv().unwrap().unwrap();
/// assert!(game.legal_moves_text().contains(&best));
/// ```
#[derive(Debug)]
pub struct SearchThread {
    handle: Option<JoinHandle<()>>,
    control: Arc<Control>,
    after_ponder_hit: Option<Duration>,
    hold: Hold,
    /// The search ends by itself (a depth, node, time or strength limit).
    bounded: bool,
}

/// Shared between the owner and its search thread.
#[derive(Debug, Default)]
struct Control {
    stop: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// The answer must wait, even when the search is over.
    hold: bool,
    /// Between the start of a pondering search and the ponder hit.
    pondering: bool,
    /// The search has returned.
    finished: bool,
}

impl Control {
    fn state(&self) -> MutexGuard<'_, State> {
        // A panic in another thread holding the lock leaves plain flags behind,
        // still meaningful.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ends the search now and lets it answer.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let mut state = self.state();
        state.hold = false;
        state.pondering = false;
        self.changed.notify_all();
    }
}

impl SearchThread {
    /// Starts searching `game`, reached through `history`, on a new thread.
    /// `on_info` gets every progress report and may end the search by answering
    /// [`ControlFlow::Break`]; `answer` gets the result once the search has
    /// returned and `mode.hold` allows.
    pub fn spawn(
        engine: Arc<AnyEngine>,
        game: AnyPosition,
        history: Vec<AnyPosition>,
        request: SearchRequest,
        mode: SearchMode,
        mut on_info: impl FnMut(&TextInfo) -> ControlFlow<()> + Send + 'static,
        answer: impl FnOnce(TextResult) + Send + 'static,
    ) -> SearchThread {
        let bounded = request.limits
            != Limits {
                overhead: request.limits.overhead,
                ..Limits::default()
            }
            || request.level.is_some();
        let control = Arc::new(Control {
            state: Mutex::new(State {
                hold: mode.hold != Hold::Never,
                pondering: mode.ponder,
                finished: false,
            }),
            ..Control::default()
        });
        let shared = Arc::clone(&control);
        let handle = std::thread::spawn(move || {
            let control = shared;
            let result = engine.search(&game, &history, &request, &control.stop, |info| {
                if on_info(info).is_break() {
                    control.stop.store(true, Ordering::Relaxed);
                }
            });
            let mut state = control.state();
            state.finished = true;
            control.changed.notify_all();
            while state.hold {
                state = control
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            drop(state);
            answer(result);
        });
        SearchThread {
            handle: Some(handle),
            control,
            after_ponder_hit: mode.after_ponder_hit,
            hold: mode.hold,
            bounded,
        }
    }

    /// Whether the search has returned (its answer may still be held).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.control.state().finished
    }

    /// The opponent played the move pondered on: the search goes on with what it
    /// has found, and from now on the time of [`SearchMode::after_ponder_hit`]
    /// applies, through a timer that stops it. An answer held until the ponder hit
    /// may go out. Nothing happens when the search is not pondering.
    pub fn ponder_hit(&self) {
        let control = &self.control;
        let mut state = control.state();
        if !state.pondering {
            return;
        }
        state.pondering = false;
        state.hold = self.hold == Hold::UntilStop;
        control.changed.notify_all();
        if state.finished {
            return;
        }
        drop(state);
        if let Some(budget) = self.after_ponder_hit {
            let control = Arc::clone(control);
            std::thread::spawn(move || {
                let deadline = Instant::now() + budget;
                let mut state = control.state();
                while !state.finished {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        control.stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    state = control
                        .changed
                        .wait_timeout(state, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            });
        }
    }

    /// Stops the search, releases a held answer, and waits until the answer has
    /// been given.
    pub fn stop(self) {
        drop(self);
    }

    /// Waits for the answer of a search that ends by itself (a script piping
    /// commands gets its answer); a search without limits, pondering or holding its
    /// answer is stopped first.
    pub fn finish(mut self) {
        let state = self.control.state();
        let stop = !self.bounded || state.hold || state.pondering;
        drop(state);
        if stop {
            self.control.stop();
        }
        self.join();
    }

    fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            // A search thread that panicked has nothing more to say; its owner goes on.
            let _ = handle.join();
        }
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        if self.handle.is_some() {
            self.control.stop();
            self.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::{Receiver, channel};

    use tablero_engine::Clock;

    use super::*;

    #[test]
    fn ponder_budget_follows_the_clock() {
        let mut limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(10_030),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            overhead: Duration::from_millis(30),
            ..Limits::default()
        };
        let mode = SearchMode::ponder(&mut limits);
        assert!(mode.ponder);
        assert_eq!(mode.after_ponder_hit, Some(Duration::from_millis(400 + 75)));
        assert_eq!(limits.clock, None);
        let mut movetime = Limits {
            movetime: Some(Duration::from_millis(500)),
            overhead: Duration::from_millis(30),
            ..Limits::default()
        };
        let mode = SearchMode::ponder(&mut movetime);
        assert_eq!(mode.after_ponder_hit, Some(Duration::from_millis(470)));
        assert_eq!(
            SearchMode::ponder(&mut Limits::depth(5)).after_ponder_hit,
            None
        );
    }

    /// A chess search with `limits` and `mode` whose answers (the best move) and
    /// progress reports (`info`) arrive on the receiver.
    fn chess_search(limits: Limits, mode: SearchMode) -> (SearchThread, Receiver<String>) {
        let game = AnyPosition::new("chess", None, None).expect("chess is in the catalog");
        let engine = Arc::new(AnyEngine::for_game(&game, 1));
        let request = SearchRequest {
            limits,
            ..SearchRequest::default()
        };
        let (out, answers) = channel();
        let info_out = out.clone();
        let search = SearchThread::spawn(
            engine,
            game,
            Vec::new(),
            request,
            mode,
            move |_| {
                let _ = info_out.send("info".to_owned());
                ControlFlow::Continue(())
            },
            move |result| {
                let _ = out.send(result.best.unwrap_or_default());
            },
        );
        (search, answers)
    }

    fn next_answer(answers: &Receiver<String>, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match answers.recv_timeout(left) {
                Ok(line) if line == "info" => {}
                Ok(line) => return Some(line),
                Err(_) => return None,
            }
        }
    }

    #[test]
    fn a_held_answer_waits_for_stop() {
        let mode = SearchMode {
            hold: Hold::UntilStop,
            ..SearchMode::default()
        };
        let (search, answers) = chess_search(Limits::depth(1), mode);
        while !search.is_finished() {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(next_answer(&answers, Duration::from_millis(100)), None);
        search.ponder_hit();
        assert_eq!(next_answer(&answers, Duration::from_millis(100)), None);
        search.stop();
        assert!(next_answer(&answers, Duration::ZERO).is_some());
    }

    #[test]
    fn a_ponder_hit_releases_the_answer_and_starts_the_clock() {
        let mut limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let mut mode = SearchMode::ponder(&mut limits);
        mode.hold = Hold::UntilPonderHit;
        let (search, answers) = chess_search(limits, mode);
        assert_eq!(next_answer(&answers, Duration::from_millis(300)), None);
        search.ponder_hit();
        assert!(next_answer(&answers, Duration::from_secs(10)).is_some());
        assert!(search.is_finished());
    }

    #[test]
    fn finish_lets_a_bounded_search_end_and_stops_an_unbounded_one() {
        let (search, answers) = chess_search(Limits::depth(2), SearchMode::default());
        search.finish();
        assert!(next_answer(&answers, Duration::ZERO).is_some());
        let (search, answers) = chess_search(Limits::default(), SearchMode::default());
        assert_eq!(next_answer(&answers, Duration::from_millis(100)), None);
        search.finish();
        assert!(next_answer(&answers, Duration::ZERO).is_some());
    }
}
