//! Every search shortcut against plain negamax at fixed depth, on positions reached by
//! random playouts.
//!
//! Alpha-beta with move ordering, principal-variation windows, aspiration windows,
//! mate-distance pruning and iterative deepening must return exactly the negamax
//! value. The pruning shortcuts (transposition cutoffs, null move, reductions,
//! futility) trade exactness for speed, so each of them is held to staying close to
//! the plain value and to claiming no mate the full search does not see.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use tablero_chess::Chess;
use tablero_chess3d::Chess3d;
use tablero_core::{Position, SplitMix64};
use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::score::is_mate_score;
use tablero_engine::{
    Chess3dEvaluator, ChessEvaluator, DraughtsEvaluator, Engine, Evaluator, Features, Limits, MATE,
    MAX_PLY, Score, SearchOptions, Terminal, XiangqiEvaluator,
};
use tablero_xiangqi::Xiangqi;

/// Negamax without any pruning, with the same rules of the tree as the engine:
/// extensions where the side to move must resolve, repetitions along the path, the
/// game's terminal results and the static evaluation at the horizon.
fn negamax<P: Position, E: Evaluator<P>>(
    evaluator: &E,
    pos: &P,
    depth: i32,
    ply: usize,
    path: &mut Vec<P>,
) -> Score {
    if ply >= MAX_PLY {
        return evaluator.evaluate(pos);
    }
    if ply > 0 {
        if evaluator.is_rule_draw(pos) {
            return 0;
        }
        let current = path.len() - 1;
        let key = path[current].zobrist();
        let mut j = current;
        while j >= 2 {
            j -= 2;
            if path[j].zobrist() == key {
                return if E::JUDGES_CYCLES {
                    evaluator.repetition_score(&path[j..=current], path[0].turn())
                } else {
                    0
                };
            }
        }
    }
    let depth = if evaluator.must_resolve(pos) {
        depth + 1
    } else {
        depth
    };
    if depth <= 0 {
        return evaluator.evaluate(pos);
    }
    let moves = pos.legal_moves();
    if let Some(terminal) = evaluator.terminal(pos, !moves.is_empty()) {
        return match terminal {
            Terminal::Win => MATE - ply as Score,
            Terminal::Loss => -MATE + ply as Score,
            Terminal::Draw => 0,
        };
    }
    if moves.is_empty() {
        return -MATE + ply as Score;
    }
    let mut best = -MATE - 1;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        path.push(child.clone());
        best = best.max(-negamax(evaluator, &child, depth - 1, ply + 1, path));
        path.pop();
    }
    best
}

fn engine_score<P, E>(evaluator: E, pos: &P, depth: u32, features: Features) -> Score
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P>,
{
    let engine = Engine::new(evaluator, 4);
    let options = SearchOptions {
        features,
        ..SearchOptions::default()
    };
    engine
        .search(
            pos,
            &[],
            &Limits::depth(depth),
            &options,
            &AtomicBool::new(false),
            |_| {},
        )
        .score()
}

/// A position after up to `plies` random moves, stopping before any move that would
/// end the game: a search needs a root with moves.
fn playout<P: Position>(start: P, plies: u32, seed: u64) -> P {
    let mut rng = SplitMix64::new(seed);
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        let mut next = pos.clone();
        next.play_unchecked(m);
        if next.legal_moves().is_empty() || next.outcome().is_some() {
            break;
        }
        pos = next;
    }
    pos
}

const NO_QUIESCENCE: Features = Features {
    quiescence: false,
    ..Features::PLAIN
};

/// The shortcuts, one at a time and all together, with quiescence on.
const SHORTCUTS: [Features; 6] = [
    Features {
        tt_cutoffs: true,
        ..Features::PLAIN
    },
    Features {
        null_move: true,
        ..Features::PLAIN
    },
    Features {
        reductions: true,
        ..Features::PLAIN
    },
    Features {
        futility: true,
        ..Features::PLAIN
    },
    Features {
        correction: true,
        ..Features::PLAIN
    },
    Features::ALL,
];

fn check_exact<P, E>(evaluator: &E, pos: &P, depth: u32)
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P> + Clone,
{
    let mut path = vec![pos.clone()];
    let reference = negamax(evaluator, pos, depth as i32, 0, &mut path);
    let searched = engine_score(evaluator.clone(), pos, depth, NO_QUIESCENCE);
    assert_eq!(searched, reference, "depth {depth} on {pos:?}");
}

/// Returns the largest distance of a shortcut's score from the plain score, less a
/// quarter of the plain score.
fn shortcut_distance<P, E>(evaluator: &E, pos: &P, depth: u32) -> Score
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P> + Clone,
{
    let plain = engine_score(evaluator.clone(), pos, depth, Features::PLAIN);
    let mut worst = 0;
    for features in SHORTCUTS {
        let score = engine_score(evaluator.clone(), pos, depth, features);
        // A reduced line may push a mate past the horizon, but a shortcut must never
        // claim a mate that the full search does not see, or mate the wrong side.
        if is_mate_score(score) {
            assert!(
                is_mate_score(plain) && score.signum() == plain.signum(),
                "{features:?} claims {score} where plain search says {plain} on {pos:?}"
            );
        }
        if !is_mate_score(plain) {
            // Margins are set for scores near the window: how far a won position is
            // won may move more (a quarter of the score) without changing a move.
            let excess = (score - plain).abs() - plain.abs() / 4;
            worst = worst.max(excess);
        }
    }
    worst
}

proptest! {
    // A fixed seed: the same positions every run, so a change in search shows as a
    // change here and never as a flaky failure.
    #![proptest_config(ProptestConfig {
        cases: 40,
        rng_seed: RngSeed::Fixed(2026),
        ..ProptestConfig::default()
    })]

    #[test]
    fn chess_alpha_beta_equals_negamax(seed in any::<u64>(), plies in 0u32..60, depth in 1u32..4) {
        let pos = playout(Chess::new(), plies, seed);
        check_exact(&ChessEvaluator, &pos, depth);
    }

    #[test]
    fn chess_shortcuts_stay_near_negamax(seed in any::<u64>(), plies in 0u32..60) {
        let pos = playout(Chess::new(), plies, seed);
        let distance = shortcut_distance(&ChessEvaluator, &pos, 4);
        prop_assert!(distance <= 350, "shortcuts moved the score by {distance} beyond a quarter of it on {pos:?}");
    }

    #[test]
    fn xiangqi_alpha_beta_equals_negamax(seed in any::<u64>(), plies in 0u32..60, depth in 1u32..4) {
        let pos = playout(Xiangqi::new(), plies, seed);
        check_exact(&XiangqiEvaluator, &pos, depth);
    }

    #[test]
    fn xiangqi_shortcuts_stay_near_negamax(seed in any::<u64>(), plies in 0u32..60) {
        let pos = playout(Xiangqi::new(), plies, seed);
        let distance = shortcut_distance(&XiangqiEvaluator, &pos, 4);
        prop_assert!(distance <= 350, "shortcuts moved the score by {distance} beyond a quarter of it on {pos:?}");
    }

    #[test]
    fn draughts_alpha_beta_equals_negamax(seed in any::<u64>(), plies in 0u32..60, depth in 1u32..4, rules in 0usize..6) {
        let pos = playout(Draughts::new(RuleSet::ALL[rules]), plies, seed);
        check_exact(&DraughtsEvaluator, &pos, depth);
    }

    #[test]
    fn draughts_shortcuts_stay_near_negamax(seed in any::<u64>(), plies in 0u32..60, rules in 0usize..6) {
        let pos = playout(Draughts::new(RuleSet::ALL[rules]), plies, seed);
        let distance = shortcut_distance(&DraughtsEvaluator, &pos, 5);
        prop_assert!(distance <= 350, "shortcuts moved the score by {distance} beyond a quarter of it on {pos:?}");
    }

    #[test]
    fn chess3d_alpha_beta_equals_negamax(seed in any::<u64>(), plies in 0u32..40, depth in 1u32..3) {
        let pos = playout(Chess3d::start(seed), plies, seed);
        check_exact(&Chess3dEvaluator, &pos, depth);
    }

    #[test]
    fn chess3d_shortcuts_stay_near_negamax(seed in any::<u64>(), plies in 0u32..40) {
        let pos = playout(Chess3d::start(seed), plies, seed);
        // The dama-safety terms swing by thousands when a line stops one ply short.
        let distance = shortcut_distance(&Chess3dEvaluator, &pos, 3);
        prop_assert!(distance <= 1000, "shortcuts moved the score by {distance} beyond a quarter of it on {pos:?}");
    }
}
