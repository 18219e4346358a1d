//! Move generation benchmarks: perft and legal move lists.
//!
//! Every benchmark asserts its answer, so a faster but wrong move generator fails
//! here instead of looking like a win. Run with `cargo bench -p tablero-xiangqi`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tablero_xiangqi::{Xiangqi, perft};

/// A middlegame after a central-cannon opening (many captures and screens).
const MIDDLEGAME: &str = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3";

fn perft_benches(c: &mut Criterion) {
    let start = Xiangqi::new();
    let mut group = c.benchmark_group("xiangqi perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("start depth 4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 4), 3_290_240));
    });
    group.bench_function("start depth 5", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 5), 133_312_995));
    });
    group.finish();

    let middlegame = Xiangqi::from_fen(MIDDLEGAME).expect("valid FEN");
    let expected = middlegame.legal_moves().len();
    c.bench_function("xiangqi legal moves middlegame", |b| {
        b.iter(|| assert_eq!(black_box(&middlegame).legal_moves().len(), expected));
    });
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
