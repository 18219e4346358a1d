//! The search: iterative deepening over a principal-variation alpha-beta search with
//! quiescence, written once for every game.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tablero_core::Position;

use crate::evaluator::Terminal;
use crate::score::{INFINITE, MATE, MATE_BOUND, from_tt, to_tt};
use crate::tt::{Bound, TranspositionTable};
use crate::{Evaluator, Score};

/// The deepest ply a search reaches, quiescence included.
pub const MAX_PLY: usize = 128;

/// The deepest iteration.
pub(crate) const MAX_DEPTH: i32 = 100;

/// Moves picked one at a time before the rest of a move list is sorted.
const SELECTION_PICKS: usize = 3;

/// How often (in nodes) a search looks at the clock and the stop flag.
const CHECK_INTERVAL: u64 = 1024;

/// Entries of the correction table (a power of two).
const CORRECTION_ENTRIES: usize = 1 << 14;
/// Correction entries count in 1/`CORRECTION_GRAIN` of a score unit, so that small
/// steps of the running average are not lost to rounding.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in score units.
const CORRECTION_LIMIT: i32 = 128;

/// The moves a search looks at from the root.
#[derive(Debug, Clone, Default)]
pub(crate) struct RootFilter<M> {
    /// Only these, when not empty (UCI `searchmoves`).
    pub(crate) only: Vec<M>,
    /// Never these (the lines of earlier MultiPV passes).
    pub(crate) excluded: Vec<M>,
}

/// The switches a property test flips to compare pruning against plain alpha-beta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Transposition-table cutoffs.
    pub tt_cutoffs: bool,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub reductions: bool,
    /// Reverse futility pruning near the leaves.
    pub futility: bool,
    /// Quiescence search at the leaves (otherwise the static evaluation).
    pub quiescence: bool,
    /// Static evaluations corrected by what searches found in positions of the same
    /// structure ([`Evaluator::correction_key`]).
    pub correction: bool,
    /// Singular extensions: a hash move that alone holds the score is searched a ply
    /// deeper, and a node where other moves hold it too is cut off (multi-cut).
    pub singular: bool,
}

impl Features {
    /// Every shortcut on: how games are played.
    pub const ALL: Features = Features {
        tt_cutoffs: true,
        null_move: true,
        reductions: true,
        futility: true,
        quiescence: true,
        correction: true,
        singular: true,
    };

    /// Plain alpha-beta with quiescence: the reference the shortcuts are tested against.
    pub const PLAIN: Features = Features {
        tt_cutoffs: false,
        null_move: false,
        reductions: false,
        futility: false,
        quiescence: true,
        correction: false,
        singular: false,
    };
}

struct ScoredMove<M> {
    mv: M,
    order: i64,
    index: u16,
}

/// Per-ply working memory, allocated once per search.
struct Ply<P: Position, A> {
    moves: P::MoveList,
    scored: Vec<ScoredMove<P::Move>>,
    killers: [Option<P::Move>; 2],
    pv: Vec<P::Move>,
    /// The history and continuation slots of each quiet move searched here.
    quiets_tried: Vec<(usize, usize)>,
    /// The capture-history slot of each noisy move searched here.
    noisies_tried: Vec<usize>,
    /// The history and continuation slots of the move being searched from here
    /// (`None` for a null move): what the plies below answer.
    current: Option<(usize, usize)>,
    /// The static evaluation here (-INFINITE in check), to tell whether the side to
    /// move is improving on its position two plies before.
    static_eval: Score,
    /// The evaluation's accumulator for the position at this ply.
    accumulator: A,
    /// The move a singular-extension search leaves out here (its index).
    excluded: Option<u16>,
}

/// What searches learn about quiet moves, handed from one search to the next so that
/// a new move's search starts with the last one's move ordering.
#[derive(Debug, Default)]
pub(crate) struct Learnt {
    history: Vec<i32>,
    continuation: Vec<i32>,
    captures: Vec<i32>,
    correction: Vec<i32>,
}

/// One thread's search state.
pub(crate) struct Searcher<'a, P: Position, E: Evaluator<P>> {
    evaluator: &'a E,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    total_nodes: &'a AtomicU64,
    pub(crate) features: Features,
    start: Instant,
    hard_deadline: Option<Duration>,
    node_limit: Option<u64>,
    pub(crate) nodes: u64,
    unreported_nodes: u64,
    pub(crate) seldepth: usize,
    plies: Vec<Ply<P, E::Accumulator>>,
    history: Vec<i32>,
    /// The quiet move that last refuted each move (by the refuted move's history slot).
    countermoves: Vec<Option<P::Move>>,
    /// How well a quiet move (continuation slot) did as the reply to a move one or two
    /// plies earlier: `CONTINUATION_SLOTS²` entries, indexed earlier × later.
    continuation: Vec<i32>,
    /// How well each noisy move (capture slot) did beyond what ordering expected.
    captures: Vec<i32>,
    /// How far searches found the static evaluation off, by structure key: a running
    /// average in 1/[`CORRECTION_GRAIN`] units.
    correction: Vec<i32>,
    /// Keys of the game's earlier positions and of the path from the root.
    keys: Vec<u64>,
    /// The positions themselves, kept only for games that judge a repetition by its
    /// cycle ([`Evaluator::JUDGES_CYCLES`]).
    positions: Vec<P>,
    /// For each key, the first index a repetition of it can be found at.
    reversible_from: Vec<usize>,
    root_index: usize,
    pub(crate) root_filter: RootFilter<P::Move>,
    /// The depth of the root search under way: extensions stop at twice it.
    root_depth: i32,
    /// How many hash moves were extended as singular, and how many nodes cut off
    /// because other moves held beta too.
    pub(crate) singular_counts: (u64, u64),
    pub(crate) aborted: bool,
}

impl<'a, P: Position, E: Evaluator<P>> Searcher<'a, P, E> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        evaluator: &'a E,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        total_nodes: &'a AtomicU64,
        start: Instant,
        hard_deadline: Option<Duration>,
        node_limit: Option<u64>,
        history: &[P],
        root: &P,
    ) -> Searcher<'a, P, E> {
        let mut plies = Vec::with_capacity(MAX_PLY + 1);
        plies.resize_with(MAX_PLY + 1, || Ply {
            moves: P::MoveList::default(),
            scored: Vec::with_capacity(64),
            killers: [None, None],
            pv: Vec::with_capacity(MAX_PLY),
            quiets_tried: Vec::with_capacity(64),
            noisies_tried: Vec::with_capacity(32),
            current: None,
            static_eval: -INFINITE,
            accumulator: E::Accumulator::default(),
            excluded: None,
        });
        evaluator.refresh(root, &mut plies[0].accumulator);
        let mut searcher = Searcher {
            evaluator,
            tt,
            stop,
            total_nodes,
            features: Features::ALL,
            start,
            hard_deadline,
            node_limit,
            nodes: 0,
            unreported_nodes: 0,
            seldepth: 0,
            plies,
            history: vec![0; E::HISTORY_SLOTS],
            countermoves: vec![None; E::HISTORY_SLOTS],
            continuation: vec![0; E::CONTINUATION_SLOTS * E::CONTINUATION_SLOTS],
            captures: vec![0; E::CAPTURE_SLOTS],
            correction: vec![0; CORRECTION_ENTRIES],
            keys: Vec::with_capacity(history.len() + MAX_PLY + 1),
            positions: if E::JUDGES_CYCLES {
                Vec::with_capacity(history.len() + MAX_PLY + 1)
            } else {
                Vec::new()
            },
            reversible_from: Vec::with_capacity(history.len() + MAX_PLY + 1),
            root_index: 0,
            root_filter: RootFilter {
                only: Vec::new(),
                excluded: Vec::new(),
            },
            root_depth: 0,
            singular_counts: (0, 0),
            aborted: false,
        };
        // The game's history: each position followed by the next, so whether the
        // move between them was irreversible shows in the key chain's reset points.
        // Without the moves themselves, a position is taken to start a new
        // reversible stretch when its rule counter would have reset; the evaluator
        // cannot tell, so history before the root is scanned in full.
        for pos in history {
            searcher.push_position(pos, false);
        }
        searcher.push_position(root, false);
        searcher.root_index = searcher.keys.len() - 1;
        searcher
    }

    /// Starts from what an earlier search learnt (tables of another size, from another
    /// game, are ignored).
    pub(crate) fn adopt(&mut self, learnt: Learnt) {
        if learnt.history.len() == self.history.len() {
            self.history = learnt.history;
        }
        if learnt.continuation.len() == self.continuation.len() {
            self.continuation = learnt.continuation;
        }
        if learnt.captures.len() == self.captures.len() {
            self.captures = learnt.captures;
        }
        if learnt.correction.len() == self.correction.len() {
            self.correction = learnt.correction;
        }
    }

    /// What this search learnt, for the next one.
    pub(crate) fn take_learnt(&mut self) -> Learnt {
        Learnt {
            history: std::mem::take(&mut self.history),
            continuation: std::mem::take(&mut self.continuation),
            captures: std::mem::take(&mut self.captures),
            correction: std::mem::take(&mut self.correction),
        }
    }

    /// The static evaluation of `pos`, the position at `ply`.
    fn evaluate(&self, pos: &P, ply: usize) -> Score {
        self.evaluator
            .evaluate_from(pos, &self.plies[ply].accumulator)
    }

    /// Derives the accumulator of `child`, one move after `parent` at `ply`.
    fn advance(&mut self, ply: usize, parent: &P, child: &P) {
        let (lower, upper) = self.plies.split_at_mut(ply + 1);
        self.evaluator.advance(
            parent,
            child,
            &lower[ply].accumulator,
            &mut upper[0].accumulator,
        );
    }

    /// The correction slot of `pos`, if the evaluator gives positions a structure key
    /// and corrections are on.
    fn correction_slot(&self, pos: &P) -> Option<usize> {
        if !self.features.correction {
            return None;
        }
        let key = self.evaluator.correction_key(pos)?;
        // Multiply-shift: the key's high bits, well mixed, pick the entry.
        Some((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize % CORRECTION_ENTRIES)
    }

    /// `raw` moved by what searches learnt about positions in `slot`.
    fn corrected(&self, raw: Score, slot: Option<usize>) -> Score {
        match slot {
            Some(slot) => (raw + self.correction[slot] / CORRECTION_GRAIN)
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            None => raw,
        }
    }

    /// Moves the slot's running average towards the error `score - raw` found by a
    /// search of `depth`: deeper searches weigh more.
    fn learn_correction(&mut self, slot: usize, raw: Score, score: Score, depth: i32) {
        let weight = i64::from((depth + 1).min(16));
        let error = i64::from((score - raw).clamp(-4 * CORRECTION_LIMIT, 4 * CORRECTION_LIMIT))
            * i64::from(CORRECTION_GRAIN);
        let entry = &mut self.correction[slot];
        let limit = i64::from(CORRECTION_LIMIT * CORRECTION_GRAIN);
        let average = (i64::from(*entry) * (256 - weight) + error * weight) / 256;
        *entry = average.clamp(-limit, limit) as i32;
    }

    fn push_position(&mut self, pos: &P, irreversible: bool) {
        let index = self.keys.len();
        let from = if irreversible || index == 0 {
            index
        } else {
            self.reversible_from[index - 1]
        };
        self.keys.push(pos.zobrist());
        if E::JUDGES_CYCLES {
            self.positions.push(pos.clone());
        }
        self.reversible_from.push(from);
    }

    fn pop_position(&mut self) {
        self.keys.pop();
        if E::JUDGES_CYCLES {
            self.positions.pop();
        }
        self.reversible_from.pop();
    }

    /// The score of the current node if it repeats an earlier position.
    fn repetition(&self) -> Option<Score> {
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let first = self.reversible_from[current];
        let mut j = current.checked_sub(2)?;
        while j >= first {
            if self.keys[j] == key {
                return Some(if E::JUDGES_CYCLES {
                    let searching = self.positions[self.root_index].turn();
                    self.evaluator
                        .repetition_score(&self.positions[j..=current], searching)
                } else {
                    0
                });
            }
            j = j.checked_sub(2)?;
        }
        None
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.aborted = true;
        }
        if self.unreported_nodes >= CHECK_INTERVAL {
            self.total_nodes
                .fetch_add(self.unreported_nodes, Ordering::Relaxed);
            self.unreported_nodes = 0;
            if self.stop.load(Ordering::Relaxed)
                || self
                    .hard_deadline
                    .is_some_and(|deadline| self.start.elapsed() >= deadline)
            {
                self.aborted = true;
            }
        }
    }

    pub(crate) fn flush_nodes(&mut self) {
        self.total_nodes
            .fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    pub(crate) fn clear_for_iteration(&mut self) {
        self.aborted = false;
    }

    /// The principal variation found by the last completed root search.
    pub(crate) fn root_pv(&self) -> &[P::Move] {
        &self.plies[0].pv
    }

    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Alpha-beta search of `pos` to `depth` plies (negamax, principal variation).
    #[allow(clippy::too_many_lines)]
    pub(crate) fn search(
        &mut self,
        pos: &P,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if root {
            self.root_depth = depth;
        }
        // A search of this node without its hash move, for a singular extension.
        let excluded = self.plies[ply].excluded;
        self.plies[ply].pv.clear();
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        if !root {
            if self.evaluator.is_rule_draw(pos) {
                return 0;
            }
            if let Some(score) = self.repetition() {
                return score;
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer.
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.evaluator.in_check(pos);
        let must_resolve = in_check || self.evaluator.must_resolve(pos);
        let depth = if must_resolve { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let key = pos.zobrist();
        let entry = self.tt.probe(key);
        let mut tt_move = None;
        let mut tt_score = None;
        if let Some(entry) = entry {
            tt_move = entry.move_index;
            let score = from_tt(entry.score, ply);
            tt_score = Some((score, entry.bound));
            if self.features.tt_cutoffs
                && !pv_node
                && excluded.is_none()
                && entry.depth >= depth
                && match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                }
            {
                return score;
            }
        }
        let correction_slot = if in_check {
            None
        } else {
            self.correction_slot(pos)
        };
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(entry) = entry {
            entry.eval
        } else {
            self.evaluate(pos, ply)
        };
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.corrected(raw_eval, correction_slot)
        };
        self.plies[ply].static_eval = static_eval;
        // A bound from an earlier search of this position says more than the static
        // evaluation where it points past it.
        let eval = match tt_score {
            Some((score, bound))
                if self.features.tt_cutoffs
                    && !in_check
                    && score.abs() < MATE_BOUND
                    && match bound {
                        Bound::Exact => true,
                        Bound::Lower => score > static_eval,
                        Bound::Upper => score < static_eval,
                    } =>
            {
                score
            }
            _ => static_eval,
        };
        // Better than two plies ago: prune less, reduce less.
        let improving = ply >= 2
            && !in_check
            && self.plies[ply - 2].static_eval > -INFINITE
            && static_eval > self.plies[ply - 2].static_eval;

        if !pv_node && !in_check && !must_resolve && excluded.is_none() {
            // Reverse futility: far enough above beta that a shallow search won't fall back.
            if self.features.futility
                && depth <= 6
                && eval - 90 * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            if self.features.null_move
                && depth >= 3
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && let Some(passed) = self.evaluator.null_move(pos)
            {
                // Further above beta, the pass is tried shallower.
                let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.plies[ply].current = None;
                self.advance(ply, pos, &passed);
                self.push_position(&passed, true);
                let score = -self.search(&passed, depth - 1 - reduction, -beta, -beta + 1, ply + 1);
                self.pop_position();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a hash move, ordering is poor and a
        // shallower search here fills the table for the next iteration.
        let depth = if self.features.reductions && depth >= 4 && tt_move.is_none() && !in_check {
            depth - 1
        } else {
            depth
        };

        // Singular extension: when every other move falls well short of the hash
        // move's score, that move carries the position and is searched a ply deeper;
        // when another also reaches beta, the node is cut off.
        let mut singular_extension = 0;
        if E::SINGULAR_EXTENSIONS
            && self.features.singular
            && !root
            && excluded.is_none()
            && !must_resolve
            && depth >= 8
            && (ply as i32) < 2 * self.root_depth
            && let (Some(tt_index), Some(entry), Some((tt_value, bound))) =
                (tt_move, entry, tt_score)
            && bound != Bound::Upper
            && entry.depth >= depth - 3
            && tt_value.abs() < MATE_BOUND
        {
            let singular_beta = tt_value - 2 * depth;
            self.plies[ply].excluded = Some(tt_index);
            let value = self.search(pos, (depth - 1) / 2, singular_beta - 1, singular_beta, ply);
            self.plies[ply].excluded = None;
            self.plies[ply].pv.clear();
            if self.aborted {
                return 0;
            }
            if value < singular_beta {
                singular_extension = 1;
                self.singular_counts.0 += 1;
            } else if singular_beta >= beta {
                self.singular_counts.1 += 1;
                return singular_beta;
            }
        }

        // Generate and order the moves.
        {
            let ply_data = &mut self.plies[ply];
            pos.legal_moves_into(&mut ply_data.moves);
        }
        if let Some(terminal) = self
            .evaluator
            .terminal(pos, !self.plies[ply].moves.is_empty())
        {
            return terminal_score(terminal, ply);
        }
        if self.plies[ply].moves.is_empty() {
            // A game whose rules end with no moves but give no outcome: count it lost.
            return -MATE + ply as Score;
        }
        self.order_moves(pos, ply, tt_move, root);
        if self.plies[ply].scored.is_empty() {
            // Every root move was filtered out.
            return alpha;
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_index = None;
        let mut best_noisy = false;
        self.plies[ply].quiets_tried.clear();
        self.plies[ply].noisies_tried.clear();
        let count = self.plies[ply].scored.len();
        let mut searched = 0usize;
        for n in 0..count {
            let (mv, index) = self.pick(ply, n);
            if excluded == Some(index) {
                continue;
            }
            let noisy = self.evaluator.is_noisy(pos, mv);
            let prunable = self.features.futility
                && !pv_node
                && !in_check
                && !must_resolve
                && depth <= 4
                && best_score > -MATE_BOUND;
            if prunable && noisy && !self.evaluator.see_at_least(pos, mv, -100 * depth) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let gives_check = self.evaluator.in_check(&child);
            if prunable && !noisy && !gives_check {
                // Late-move pruning: this far down the list a quiet move rarely matters.
                let late =
                    searched >= (3 + (depth * depth) as usize) / (2 - usize::from(improving));
                // Futility: even a good quiet move won't lift a hopeless eval to alpha.
                let futile = static_eval + 60 + 110 * depth <= alpha;
                if late || futile {
                    continue;
                }
            }
            let irreversible = self.evaluator.is_irreversible(pos, mv);
            let slots = (
                self.evaluator.history_slot(pos, mv),
                self.evaluator.continuation_slot(pos, mv),
            );
            self.plies[ply].current = Some(slots);
            // Only now, past the pruning: a skipped move needs no accumulator.
            self.advance(ply, pos, &child);
            self.push_position(&child, irreversible);

            let new_depth = if tt_move == Some(index) {
                depth - 1 + singular_extension
            } else {
                depth - 1
            };
            let mut score;
            if searched == 0 {
                score = -self.search(&child, new_depth, -beta, -alpha, ply + 1);
            } else {
                let mut reduction = 0;
                if self.features.reductions
                    && depth >= 3
                    && searched >= 2
                    && !noisy
                    && !in_check
                    && !gives_check
                {
                    reduction = late_move_reduction(depth, searched);
                    if pv_node {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    // A killer refuted a sibling: it is likelier than most to matter here.
                    if self.plies[ply].killers.contains(&Some(mv)) {
                        reduction -= 1;
                    }
                    // Moves that often cut off elsewhere deserve a closer look.
                    reduction -= self.history[self.evaluator.history_slot(pos, mv)] / 8192;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                score = -self.search(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if score > alpha && reduction > 0 {
                    score = -self.search(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(&child, new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.pop_position();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if !noisy {
                self.plies[ply].quiets_tried.push(slots);
            } else if E::CAPTURE_SLOTS > 0 {
                let slot = self.evaluator.capture_slot(pos, mv);
                self.plies[ply].noisies_tried.push(slot);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_index = Some(index as usize);
                    best_noisy = noisy;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if !noisy {
                            self.reward_quiet(pos, ply, mv, depth);
                        }
                        self.reward_noisy(ply, noisy, depth);
                        break;
                    }
                }
            }
        }

        if excluded.is_some() {
            // Nothing to store: this was not the node's real search. With no other
            // move at all, the hash move is as singular as can be.
            return if searched == 0 { alpha } else { best_score };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_index.is_some() && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.root_filter.excluded.is_empty() {
            self.tt.store(
                key,
                best_index,
                to_tt(best_score, ply),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
            // Learn from scores that say where the evaluation stands: not a capture's
            // gain, not a bound on the wrong side of it.
            if let Some(slot) = correction_slot
                && !best_noisy
                && best_score.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best_score <= static_eval)
                && !(bound == Bound::Upper && best_score >= static_eval)
            {
                self.learn_correction(slot, raw_eval, best_score, depth);
            }
        }
        best_score
    }

    fn reward_quiet(&mut self, pos: &P, ply: usize, mv: P::Move, depth: i32) {
        let killers = &mut self.plies[ply].killers;
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let [before, before_that] = self.earlier_moves(ply);
        if let Some((slot, _)) = before {
            self.countermoves[slot] = Some(mv);
        }
        // Large enough that a few cut-offs at moderate depth move a quiet move up the
        // list and out of the reductions; gravity keeps the sum within ±16384.
        let bonus = history_bonus(depth);
        let best_slot = self.evaluator.history_slot(pos, mv);
        let tried = std::mem::take(&mut self.plies[ply].quiets_tried);
        let n = E::CONTINUATION_SLOTS;
        for &(slot, follow) in &tried {
            let delta = if slot == best_slot { bonus } else { -bonus };
            gravity(&mut self.history[slot], delta);
            if n > 0 {
                for (_, earlier) in [before, before_that].into_iter().flatten() {
                    gravity(&mut self.continuation[earlier * n + follow], delta);
                }
            }
        }
        self.plies[ply].quiets_tried = tried;
    }

    /// After a cut-off: the noisy move that made it (the last one tried, if `noisy`)
    /// gains capture history, the noisy moves tried before it lose some.
    fn reward_noisy(&mut self, ply: usize, noisy: bool, depth: i32) {
        let bonus = history_bonus(depth);
        let tried = &self.plies[ply].noisies_tried;
        let earlier = if noisy {
            tried.len().saturating_sub(1)
        } else {
            tried.len()
        };
        for (n, &slot) in tried.iter().enumerate() {
            let delta = if n < earlier { -bonus } else { bonus };
            gravity(&mut self.captures[slot], delta);
        }
    }

    /// The slots of the moves one and two plies before `ply`, where there were real
    /// moves (not the root's history, not a null move).
    fn earlier_moves(&self, ply: usize) -> [Option<(usize, usize)>; 2] {
        let at = |back: usize| ply.checked_sub(back).and_then(|p| self.plies[p].current);
        [at(1), at(2)]
    }

    /// Fills the ply's scored list from its move list: TT move, then noisy moves by
    /// their order, killers, and quiet moves by history.
    fn order_moves(&mut self, pos: &P, ply: usize, tt_move: Option<u16>, root: bool) {
        let evaluator = self.evaluator;
        let earlier = self.earlier_moves(ply);
        let countermove = earlier[0].and_then(|(slot, _)| self.countermoves[slot]);
        let Ply {
            moves,
            scored,
            killers,
            ..
        } = &mut self.plies[ply];
        scored.clear();
        for (index, &mv) in moves.iter().enumerate() {
            if root
                && (self.root_filter.excluded.contains(&mv)
                    || (!self.root_filter.only.is_empty() && !self.root_filter.only.contains(&mv)))
            {
                continue;
            }
            let order = if tt_move == Some(index as u16) {
                1 << 40
            } else if evaluator.is_noisy(pos, mv) {
                let base = if evaluator.see_at_least(pos, mv, 0) {
                    1 << 32
                } else {
                    -(1 << 32)
                };
                // Capture history only reorders captures of about the same value.
                let learnt = if E::CAPTURE_SLOTS > 0 {
                    i64::from(self.captures[evaluator.capture_slot(pos, mv)]) / 16
                } else {
                    0
                };
                base + i64::from(evaluator.noisy_order(pos, mv)) + learnt
            } else if killers[0] == Some(mv) {
                (1 << 31) + 1
            } else if killers[1] == Some(mv) {
                1 << 31
            } else if countermove == Some(mv) {
                (1 << 31) - 1
            } else {
                let slots = (
                    evaluator.history_slot(pos, mv),
                    evaluator.continuation_slot(pos, mv),
                );
                i64::from(quiet_history(
                    &self.history,
                    &self.continuation,
                    E::CONTINUATION_SLOTS,
                    slots,
                    earlier,
                ))
            };
            scored.push(ScoredMove {
                mv,
                order,
                index: index as u16,
            });
        }
    }

    /// Selection sort, one step at a time, for the first few moves: most nodes cut
    /// off after a move or two. A node that gets further sorts the rest at once,
    /// which costs far less than a selection step per move.
    fn pick(&mut self, ply: usize, n: usize) -> (P::Move, u16) {
        let scored = &mut self.plies[ply].scored;
        if n >= SELECTION_PICKS {
            if n == SELECTION_PICKS {
                scored[n..].sort_by_key(|m| std::cmp::Reverse(m.order));
            }
            return (scored[n].mv, scored[n].index);
        }
        let mut best = n;
        for i in n + 1..scored.len() {
            if scored[i].order > scored[best].order {
                best = i;
            }
        }
        scored.swap(n, best);
        (scored[n].mv, scored[n].index)
    }

    /// Searches noisy moves until the position is quiet; a side that may not stand
    /// pat (in check, or forced to capture) searches every move.
    fn quiescence(&mut self, pos: &P, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.plies[ply].pv.clear();
        self.count_node();
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        if !self.features.quiescence {
            return self.evaluate(pos, ply);
        }
        let key = pos.zobrist();
        let entry = self.tt.probe(key);
        if let Some(entry) = entry
            && self.features.tt_cutoffs
        {
            let score = from_tt(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let original_alpha = alpha;
        let must_resolve = self.evaluator.must_resolve(pos);
        let mut best_score = -INFINITE;
        let mut static_eval = 0;
        if !must_resolve {
            static_eval = match entry {
                Some(entry) => entry.eval,
                None => self.evaluate(pos, ply),
            };
            let stand_pat = self.corrected(static_eval, self.correction_slot(pos));
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }
        let evaluator = self.evaluator;
        let only_noisy = if must_resolve {
            pos.legal_moves_into(&mut self.plies[ply].moves);
            false
        } else {
            evaluator.noisy_moves_into(pos, &mut self.plies[ply].moves)
        };
        if !only_noisy {
            let has_moves = !self.plies[ply].moves.is_empty();
            if let Some(terminal) = evaluator.terminal(pos, has_moves) {
                return terminal_score(terminal, ply);
            }
            if !has_moves {
                return -MATE + ply as Score;
            }
        }
        {
            let Ply { moves, scored, .. } = &mut self.plies[ply];
            scored.clear();
            for (index, &mv) in moves.iter().enumerate() {
                let noisy = evaluator.is_noisy(pos, mv);
                if !noisy && !must_resolve {
                    continue;
                }
                // Captures that lose material cannot raise a stand-pat score.
                if !must_resolve && self.features.quiescence && !evaluator.see_at_least(pos, mv, 0)
                {
                    continue;
                }
                let order = if noisy {
                    (1 << 32) + i64::from(evaluator.noisy_order(pos, mv))
                } else {
                    0
                };
                scored.push(ScoredMove {
                    mv,
                    order,
                    index: index as u16,
                });
            }
        }
        let count = self.plies[ply].scored.len();
        for n in 0..count {
            let (mv, _) = self.pick(ply, n);
            let mut child = pos.clone();
            child.play_unchecked(mv);
            self.advance(ply, pos, &child);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, None, to_tt(best_score, ply), static_eval, 0, bound);
        best_score
    }
}

fn terminal_score(terminal: Terminal, ply: usize) -> Score {
    match terminal {
        Terminal::Win => MATE - ply as Score,
        Terminal::Loss => -MATE + ply as Score,
        Terminal::Draw => 0,
    }
}

/// Moves a history entry by `delta`; the pull back towards zero keeps it within
/// ±16384 and lets old results fade.
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / 16_384;
}

/// How far one cut-off moves a quiet move's history, by the depth it was found at.
fn history_bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth + 16).min(1200)
}

/// How well a quiet move has done: its history (`slots.0`) plus its continuation
/// history (`slots.1`) as the reply to each of the `earlier` moves, all within
/// ±16384 by gravity. Games without continuation slots count history alone.
/// `continuation` has `n × n` entries, indexed earlier × later.
fn quiet_history(
    history: &[i32],
    continuation: &[i32],
    n: usize,
    slots: (usize, usize),
    earlier: [Option<(usize, usize)>; 2],
) -> i32 {
    let mut sum = history[slots.0];
    if n > 0 {
        for (_, before) in earlier.into_iter().flatten() {
            sum += continuation[before * n + slots.1];
        }
    }
    sum
}

/// Late-move reduction in plies: grows with depth and with how late the move comes.
fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    static TABLE: LazyLock<[[i32; 64]; 64]> = LazyLock::new(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (searched, cell) in row.iter_mut().enumerate().skip(1) {
                let d = (depth as f64).ln();
                let m = (searched as f64).ln();
                *cell = (0.75 + d * m / 2.25) as i32;
            }
        }
        table
    });
    TABLE[depth.clamp(0, 63) as usize][searched.min(63)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ChessEvaluator;
    use tablero_chess::Chess;

    fn with_searcher(check: impl FnOnce(&mut Searcher<'_, Chess, ChessEvaluator>)) {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let root = Chess::new();
        let mut searcher = Searcher::new(
            &ChessEvaluator,
            &tt,
            &stop,
            &nodes,
            Instant::now(),
            None,
            None,
            &[],
            &root,
        );
        check(&mut searcher);
    }

    #[test]
    fn the_capture_that_cuts_off_gains_history_and_the_ones_before_it_lose() {
        with_searcher(|searcher| {
            searcher.plies[3].noisies_tried.extend([10, 11, 12]);
            searcher.reward_noisy(3, true, 6);
            assert!(searcher.captures[10] < 0 && searcher.captures[11] < 0);
            assert_eq!(searcher.captures[12], history_bonus(6));
            // A quiet move cut off: every capture tried before it missed.
            searcher.plies[4].noisies_tried.push(20);
            searcher.reward_noisy(4, false, 6);
            assert_eq!(searcher.captures[20], -history_bonus(6));
            // However often rewarded, an entry stays within gravity's bounds.
            for _ in 0..1000 {
                searcher.reward_noisy(3, true, 30);
            }
            assert!((16_000..=16_384).contains(&searcher.captures[12]));
        });
    }

    #[test]
    fn quiet_history_adds_the_replies_to_the_moves_before() {
        let n = 4;
        let history = [0, 300, 0, 0];
        let mut continuation = vec![0; n * n];
        // Slot 2 as the reply to earlier slot 1 and to earlier slot 3.
        continuation[n + 2] = 40;
        continuation[3 * n + 2] = -7;
        let both = [Some((9, 1)), Some((9, 3))];
        assert_eq!(quiet_history(&history, &continuation, n, (1, 2), both), 333);
        assert_eq!(
            quiet_history(&history, &continuation, n, (1, 2), [None, Some((9, 3))]),
            293
        );
        // After a null move, or in a game without continuation history: history alone.
        assert_eq!(
            quiet_history(&history, &continuation, n, (1, 2), [None, None]),
            300
        );
        assert_eq!(quiet_history(&history, &[], 0, (1, 0), both), 300);
    }

    /// Deepens a search of `pos` to `depth` and returns what singular extensions did
    /// and the best move found.
    fn deepen<P: Position, E: Evaluator<P>>(
        evaluator: &E,
        pos: &P,
        depth: i32,
        features: Features,
    ) -> ((u64, u64), P::Move) {
        let tt = TranspositionTable::new(16);
        let (stop, nodes) = (AtomicBool::new(false), AtomicU64::new(0));
        let mut searcher = Searcher::new(
            evaluator,
            &tt,
            &stop,
            &nodes,
            Instant::now(),
            None,
            None,
            &[],
            pos,
        );
        searcher.features = features;
        for d in 1..=depth {
            searcher.search(pos, d, -INFINITE, INFINITE, 0);
        }
        (searcher.singular_counts, searcher.root_pv()[0])
    }

    #[test]
    fn singular_extensions_fire_in_chess_only_when_switched_on() {
        // A middlegame of the Italian game with tactics on both wings.
        let fen = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7";
        let pos = Chess::from_fen(fen, tablero_chess::CastlingMode::Standard).expect("a FEN");
        let ((extended, cut), best) = deepen(&ChessEvaluator, &pos, 11, Features::ALL);
        assert!(extended > 0 && cut > 0, "extended {extended}, cut {cut}");
        assert!(pos.legal_moves().contains(&best));
        let off = Features {
            singular: false,
            ..Features::ALL
        };
        assert_eq!(deepen(&ChessEvaluator, &pos, 11, off).0, (0, 0));
        // Other games keep the search their levels were measured with.
        let xiangqi = tablero_xiangqi::Xiangqi::new();
        let evaluator = crate::XiangqiEvaluator;
        assert_eq!(deepen(&evaluator, &xiangqi, 9, Features::ALL).0, (0, 0));
    }

    #[test]
    fn corrections_average_the_errors_found_and_stay_bounded() {
        with_searcher(|searcher| {
            let slot = searcher
                .correction_slot(&Chess::new())
                .expect("chess has a key");
            assert_eq!(searcher.corrected(20, Some(slot)), 20);
            for _ in 0..200 {
                searcher.learn_correction(slot, 20, 70, 12);
            }
            // 50 above the evaluation, learnt to within rounding.
            assert!((69..=70).contains(&searcher.corrected(20, Some(slot))));
            // One shallow search says little.
            searcher.learn_correction(slot, 20, -500, 1);
            assert!(searcher.corrected(20, Some(slot)) > 60);
            for _ in 0..500 {
                searcher.learn_correction(slot, 0, 10_000, 20);
            }
            assert_eq!(searcher.corrected(0, Some(slot)), CORRECTION_LIMIT);
            // Without a slot, or with corrections off, the evaluation stands.
            assert_eq!(searcher.corrected(0, None), 0);
            searcher.features.correction = false;
            assert_eq!(searcher.correction_slot(&Chess::new()), None);
        });
    }
}
