//! The network evaluation's cost next to the hand evaluation's: one static evaluation
//! (from scratch and as the search does it, by updating the parent's accumulator) and
//! whole searches. The figures go in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tablero_chess::Chess;
use tablero_core::{Position, SplitMix64};
use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::nnue::{
    Accumulator, NetworkInput, chess_network, draughts_network, xiangqi_network,
};
use tablero_engine::{
    ChessEvaluator, DraughtsEvaluator, Engine, Evaluator, Limits, Network, NnueEvaluator,
    XiangqiEvaluator,
};
use tablero_xiangqi::Xiangqi;

/// Consecutive positions of a random game, as the search meets them.
fn line<P: Position>(start: P, plies: usize) -> Vec<P> {
    let mut rng = SplitMix64::new(2026);
    let mut line = vec![start];
    while line.len() <= plies {
        let mut next = line[line.len() - 1].clone();
        let moves = next.legal_moves();
        if moves.is_empty() {
            break;
        }
        next.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        line.push(next);
    }
    line
}

fn evaluations<P: NetworkInput, E: Evaluator<P>>(
    c: &mut Criterion,
    game: &str,
    start: P,
    hand: &E,
    network: &Network,
) {
    let positions = line(start, 60);
    let mut group = c.benchmark_group(format!("{game} evaluation"));
    group.bench_function("hand", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| hand.evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
    group.bench_function("network from scratch", |b| {
        let mut acc = Accumulator::default();
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    network.refresh(black_box(p), &mut acc);
                    network.evaluate(p, &acc)
                })
                .sum::<i32>()
        });
    });
    group.bench_function("network updated", |b| {
        let mut accs = vec![Accumulator::default(); 2];
        b.iter(|| {
            network.refresh(&positions[0], &mut accs[0]);
            let mut sum = 0;
            for (i, pair) in positions.windows(2).enumerate() {
                let (from, to) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
                let parent = accs[from].clone();
                network.update(&pair[0], black_box(&pair[1]), &parent, &mut accs[to]);
                sum += network.evaluate(&pair[1], &accs[to]);
            }
            sum
        });
    });
    group.finish();
}

fn nnue(c: &mut Criterion) {
    let (Some(chess), Some(xiangqi), Some(draughts)) =
        (chess_network(), xiangqi_network(), draughts_network())
    else {
        panic!("the built-in networks load (a unit test checks them)");
    };
    evaluations(c, "chess", Chess::new(), &ChessEvaluator, chess);
    evaluations(c, "xiangqi", Xiangqi::new(), &XiangqiEvaluator, xiangqi);
    let international = Draughts::new(RuleSet::International);
    evaluations(c, "draughts", international, &DraughtsEvaluator, draughts);

    let mut group = c.benchmark_group("search with network");
    group.sample_size(10);
    group.bench_function("chess start depth 9", |b| {
        b.iter(|| {
            let engine = Engine::new(NnueEvaluator::new(ChessEvaluator, Some(chess)), 16);
            engine.go(&Chess::new(), &[], &Limits::depth(9)).nodes
        });
    });
    group.bench_function("xiangqi start depth 7", |b| {
        b.iter(|| {
            let engine = Engine::new(NnueEvaluator::new(XiangqiEvaluator, Some(xiangqi)), 16);
            engine.go(&Xiangqi::new(), &[], &Limits::depth(7)).nodes
        });
    });
    group.finish();
}

criterion_group!(benches, nnue);
criterion_main!(benches);
