use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tablero_core::{Position, SplitMix64};

use crate::level::Level;
use crate::limits::Limits;
use crate::score::{INFINITE, is_mate_score};
use crate::search::{Features, Learnt, MAX_DEPTH, Searcher};
use crate::tt::TranspositionTable;
use crate::{Evaluator, Score};

/// A line the search has finished, reported after each iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<M> {
    /// Its rank among the lines searched (1 is the best; more with MultiPV).
    pub multipv: usize,
    /// The score for the side to move at the root.
    pub score: Score,
    /// The principal variation, starting with the move to play.
    pub pv: Vec<M>,
}

/// A progress report after each completed iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchInfo<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Per mille of the transposition table used by this search.
    pub hashfull: u32,
    /// The lines, best first.
    pub lines: Vec<Line<M>>,
}

impl<M> SearchInfo<M> {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// What a search settled on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    /// The last completed iteration's lines, best first.
    pub lines: Vec<Line<M>>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl<M: Copy> SearchResult<M> {
    /// The score of the best line (0 when there was none).
    #[must_use]
    pub fn score(&self) -> Score {
        self.lines.first().map_or(0, |l| l.score)
    }
}

/// Options that stay the same from one search to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions<M> {
    /// Lines to report (UCI `MultiPV`); the best move is always the first line's.
    pub multipv: usize,
    /// Search only these root moves, when not empty (UCI `searchmoves`).
    pub root_moves: Vec<M>,
    /// Threads (Lazy SMP): 1 is deterministic under a node or depth limit.
    pub threads: usize,
    /// Search shortcuts; anything but [`Features::ALL`] is for tests.
    pub features: Features,
}

impl<M> Default for SearchOptions<M> {
    fn default() -> SearchOptions<M> {
        SearchOptions {
            multipv: 1,
            root_moves: Vec::new(),
            threads: 1,
            features: Features::ALL,
        }
    }
}

/// The engine of one game: its evaluator, and a transposition table and move-ordering
/// statistics that live from move to move (clear them with [`Engine::new_game`]).
///
/// ```
/// use tablero_chess::Chess;
/// use tablero_engine::{ChessEvaluator, Engine, Limits};
///
/// let engine = Engine::new(ChessEvaluator::default(), 16);
/// let result = engine.go(&Chess::new(), &[], &Limits::depth(4));
/// assert!(result.best.is_some());
/// ```
#[derive(Debug)]
pub struct Engine<E> {
    evaluator: E,
    tt: TranspositionTable,
    learnt: Mutex<Learnt>,
}

impl<E> Engine<E> {
    /// An engine with a transposition table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(evaluator: E, hash_mb: usize) -> Engine<E> {
        Engine {
            evaluator,
            tt: TranspositionTable::new(hash_mb),
            learnt: Mutex::new(Learnt::default()),
        }
    }

    /// Replaces the transposition table with one of `hash_mb` MiB.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&self) {
        self.tt.clear();
        if let Ok(mut learnt) = self.learnt.lock() {
            *learnt = Learnt::default();
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// A search within `limits`, without progress reports or outside stop.
    pub fn go<P>(&self, root: &P, history: &[P], limits: &Limits) -> SearchResult<P::Move>
    where
        P: Position + Send + Sync,
        P::Move: Send + Sync,
        E: Evaluator<P>,
    {
        let stop = AtomicBool::new(false);
        self.search(
            root,
            history,
            limits,
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
    }

    /// Searches `root` (reached through the positions in `history`, oldest first, for
    /// repetitions) until a limit is reached or `stop` is raised, reporting each
    /// completed iteration to `on_info`.
    pub fn search<P>(
        &self,
        root: &P,
        history: &[P],
        limits: &Limits,
        options: &SearchOptions<P::Move>,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move>
    where
        P: Position + Send + Sync,
        P::Move: Send + Sync,
        E: Evaluator<P>,
    {
        let start = Instant::now();
        self.tt.new_search();
        let budget = limits.time_budget();
        let max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let total_nodes = AtomicU64::new(0);
        let helpers_done = AtomicBool::new(false);
        let helper_count = options.threads.max(1) - 1;
        let legal = root.legal_moves();
        let mut root_moves: Vec<P::Move> = legal
            .iter()
            .copied()
            .filter(|m| options.root_moves.is_empty() || options.root_moves.contains(m))
            .collect();
        if root_moves.is_empty() {
            root_moves = legal.to_vec();
        }
        let multipv = options.multipv.clamp(1, root_moves.len().max(1));

        std::thread::scope(|scope| {
            for helper in 0..helper_count {
                let total_nodes = &total_nodes;
                let helpers_done = &helpers_done;
                let root_moves = &root_moves;
                scope.spawn(move || {
                    let mut searcher = Searcher::new(
                        &self.evaluator,
                        &self.tt,
                        helpers_done,
                        total_nodes,
                        start,
                        None,
                        None,
                        history,
                        root,
                    );
                    searcher.features = options.features;
                    searcher.root_filter.only.clone_from(root_moves);
                    // Helpers start one ply apart so that threads fill the table with
                    // different depths rather than repeat each other.
                    let mut depth = 1 + (helper as i32 % 2);
                    while depth <= max_depth && !helpers_done.load(Ordering::Relaxed) {
                        searcher.clear_for_iteration();
                        searcher.search(root, depth, -INFINITE, INFINITE, 0);
                        depth += 1;
                    }
                    searcher.flush_nodes();
                });
            }

            let mut searcher = Searcher::new(
                &self.evaluator,
                &self.tt,
                stop,
                &total_nodes,
                start,
                budget.map(|b| b.1),
                limits.nodes,
                history,
                root,
            );
            searcher.features = options.features;
            searcher.root_filter.only.clone_from(&root_moves);
            if let Ok(mut learnt) = self.learnt.lock() {
                searcher.adopt(std::mem::take(&mut *learnt));
            }
            let result = self.iterate(
                &mut searcher,
                root,
                &legal,
                max_depth,
                multipv,
                budget.map(|(soft, _)| SoftStop {
                    deadline: soft,
                    // A clock's budget is a guess to refine; a movetime is an order.
                    adapt: limits.clock.is_some() && limits.movetime.is_none(),
                }),
                start,
                &total_nodes,
                &mut on_info,
            );
            helpers_done.store(true, Ordering::Relaxed);
            if let Ok(mut learnt) = self.learnt.lock() {
                *learnt = searcher.take_learnt();
            }
            result
        })
        .finish(&total_nodes, start)
    }

    /// A search at a skill level: the level's own limits (whichever of them and
    /// `limits` comes first), then a choice among its candidate lines with `rng`.
    #[allow(clippy::too_many_arguments)]
    pub fn search_level<P>(
        &self,
        root: &P,
        history: &[P],
        level: Level,
        limits: &Limits,
        stop: &AtomicBool,
        rng: &mut SplitMix64,
        on_info: impl FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move>
    where
        P: Position + Send + Sync,
        P::Move: Send + Sync,
        E: Evaluator<P>,
    {
        let settings = level.settings_in(E::LEVELS);
        let mut limits = limits.clone();
        limits.depth = min_option(limits.depth, settings.depth);
        limits.nodes = min_option(limits.nodes, settings.nodes);
        let share = |t: Duration| t * settings.time_percent / 100;
        limits.movetime = limits.movetime.map(share);
        if let Some(clock) = &mut limits.clock {
            clock.remaining = share(clock.remaining);
            clock.increment = share(clock.increment);
        }
        let options = SearchOptions {
            multipv: settings.candidates,
            ..SearchOptions::default()
        };
        let mut result = self.search(root, history, &limits, &options, stop, on_info);
        let scores: Vec<Score> = result.lines.iter().map(|l| l.score).collect();
        let pick = settings.choose(&scores, rng);
        if pick > 0 {
            let line = result.lines.remove(pick);
            result.best = line.pv.first().copied().or(result.best);
            result.ponder = line.pv.get(1).copied();
            result.lines.insert(0, line);
        }
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn iterate<P>(
        &self,
        searcher: &mut Searcher<'_, P, E>,
        root: &P,
        legal: &[P::Move],
        max_depth: i32,
        multipv: usize,
        soft_stop: Option<SoftStop>,
        start: Instant,
        total_nodes: &AtomicU64,
        on_info: &mut impl FnMut(&SearchInfo<P::Move>),
    ) -> Partial<P::Move>
    where
        P: Position,
        E: Evaluator<P>,
    {
        let mut partial = Partial {
            lines: Vec::new(),
            depth: 0,
            fallback: legal.first().copied(),
        };
        if legal.is_empty() {
            return partial;
        }
        let mut best_move = None;
        let mut stable_iterations = 0;
        for depth in 1..=max_depth {
            let mut lines: Vec<Line<P::Move>> = Vec::with_capacity(multipv);
            searcher.root_filter.excluded.clear();
            searcher.seldepth = 0;
            for rank in 1..=multipv {
                let previous = partial.lines.get(rank - 1).map(|l| l.score);
                let Some((score, pv)) = self.aspiration(searcher, root, depth, previous) else {
                    break;
                };
                let Some(&first) = pv.first() else {
                    break;
                };
                searcher.root_filter.excluded.push(first);
                lines.push(Line {
                    multipv: rank,
                    score,
                    pv,
                });
            }
            if searcher.aborted {
                // Keep what the unfinished iteration proved better than the last one.
                if let (Some(new), Some(old)) = (lines.first(), partial.lines.first())
                    && new.score > old.score
                {
                    partial.lines[0] = new.clone();
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            for (i, line) in lines.iter_mut().enumerate() {
                line.multipv = i + 1;
            }
            partial.lines = lines;
            partial.depth = depth as u32;
            searcher.flush_nodes();
            on_info(&SearchInfo {
                depth: depth as u32,
                seldepth: searcher.seldepth as u32,
                nodes: total_nodes.load(Ordering::Relaxed),
                elapsed: start.elapsed(),
                hashfull: self.tt.hashfull(),
                lines: partial.lines.clone(),
            });
            let best = partial.lines.first().map_or(0, |l| l.score);
            let new_best = partial.lines.first().and_then(|l| l.pv.first().copied());
            if new_best == best_move {
                stable_iterations += 1;
            } else {
                best_move = new_best;
                stable_iterations = 0;
            }
            if soft_stop.is_some_and(|stop| start.elapsed() >= stop.after(depth, stable_iterations))
                || (is_mate_score(best) && depth > 2 * (crate::score::MATE - best.abs()) + 4)
            {
                break;
            }
        }
        searcher.flush_nodes();
        partial
    }

    /// One root search of `depth`, in a window around the previous iteration's score.
    fn aspiration<P>(
        &self,
        searcher: &mut Searcher<'_, P, E>,
        root: &P,
        depth: i32,
        previous: Option<Score>,
    ) -> Option<(Score, Vec<P::Move>)>
    where
        P: Position,
        E: Evaluator<P>,
    {
        let mut delta = 30;
        let (mut alpha, mut beta) = match previous {
            Some(score) if depth >= 5 && !is_mate_score(score) => (score - delta, score + delta),
            _ => (-INFINITE, INFINITE),
        };
        loop {
            let score = searcher.search(root, depth, alpha, beta, 0);
            if searcher.aborted {
                return None;
            }
            if score <= alpha && alpha > -INFINITE {
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
            } else {
                let pv = searcher.root_pv().to_vec();
                return (!pv.is_empty()).then_some((score, pv));
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }
}

fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

struct Partial<M> {
    lines: Vec<Line<M>>,
    depth: u32,
    fallback: Option<M>,
}

impl<M: Copy> Partial<M> {
    fn finish(self, total_nodes: &AtomicU64, start: Instant) -> SearchResult<M> {
        let best = self
            .lines
            .first()
            .and_then(|l| l.pv.first().copied())
            .or(self.fallback);
        let ponder = self.lines.first().and_then(|l| l.pv.get(1).copied());
        SearchResult {
            best,
            ponder,
            lines: self.lines,
            depth: self.depth,
            nodes: total_nodes.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
        }
    }
}

/// When iterative deepening starts no further iteration.
#[derive(Debug, Clone, Copy)]
struct SoftStop {
    /// The planned time for the move.
    deadline: Duration,
    /// Whether the plan bends to the search: spend less while the best move holds,
    /// more when it has just changed.
    adapt: bool,
}

impl SoftStop {
    /// The time after which an iteration of `depth`, whose best move has held for
    /// `stable` iterations, is the last: a settled search stops before the plan and
    /// keeps the time for the moves where the choice is still moving (the hard limit
    /// still caps those).
    fn after(self, depth: i32, stable: u32) -> Duration {
        if !self.adapt || depth < 6 {
            return self.deadline;
        }
        let factor = match stable {
            0 => 1.4,
            1 => 1.1,
            2 => 0.9,
            _ => 0.7,
        };
        self.deadline.mul_f64(factor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_search_stops_early_and_an_unsettled_one_late() {
        let stop = SoftStop {
            deadline: Duration::from_millis(1000),
            adapt: true,
        };
        assert!(stop.after(8, 3) < stop.deadline);
        assert!(stop.after(8, 0) > stop.deadline);
        assert_eq!(stop.after(5, 0), stop.deadline);
        let fixed = SoftStop {
            adapt: false,
            ..stop
        };
        assert_eq!(fixed.after(8, 3), fixed.deadline);
    }
}
