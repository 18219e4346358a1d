//! Search speed per game: a fixed-depth search from a fixed position, one thread.
//! The figures go in docs/performance.md (nodes per second = nodes / time).

use criterion::{Criterion, criterion_group, criterion_main};
use tablero_chess::Chess;
use tablero_chess3d::Chess3d;
use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::{
    Chess3dEvaluator, ChessEvaluator, DraughtsEvaluator, Engine, Limits, XiangqiEvaluator,
};
use tablero_xiangqi::Xiangqi;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("chess start depth 9", |b| {
        b.iter(|| {
            let result = Engine::new(ChessEvaluator, 16).go(&Chess::new(), &[], &Limits::depth(9));
            assert!(result.best.is_some());
            result.nodes
        });
    });
    group.bench_function("xiangqi start depth 7", |b| {
        b.iter(|| {
            let result =
                Engine::new(XiangqiEvaluator, 16).go(&Xiangqi::new(), &[], &Limits::depth(7));
            assert!(result.best.is_some());
            result.nodes
        });
    });
    group.bench_function("draughts international depth 9", |b| {
        b.iter(|| {
            let pos = Draughts::new(RuleSet::International);
            let result = Engine::new(DraughtsEvaluator, 16).go(&pos, &[], &Limits::depth(9));
            assert!(result.best.is_some());
            result.nodes
        });
    });
    group.bench_function("chess3d start depth 4", |b| {
        b.iter(|| {
            let result =
                Engine::new(Chess3dEvaluator, 16).go(&Chess3d::start(0), &[], &Limits::depth(4));
            assert!(result.best.is_some());
            result.nodes
        });
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
