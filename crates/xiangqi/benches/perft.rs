//! Move generation benchmarks: perft and legal move lists.
//!
//! Every benchmark asserts its answer, so a faster but wrong move generator fails
//! here instead of looking like a win. Run with `cargo bench -p tablero-xiangqi`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tablero_xiangqi::{Xiangqi, perft};

/// A crowded tactical middlegame from the perft suite (50 legal moves).
const MIDDLEGAME: &str =
    "r1bak1b2/4a3r/1cn3nc1/p3p1p1p/2p4R1/2P6/P3C1P1P/1CN3N2/9/R1BAKAB2 w - - 0 1";

/// Its perft(4), from the suite (Fairy-Stockfish's count).
const MIDDLEGAME_PERFT_4: u64 = 3_123_134;

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
    c.bench_function("xiangqi legal moves middlegame", |b| {
        b.iter(|| assert_eq!(black_box(&middlegame).legal_moves().len(), 50));
    });
    c.bench_function("xiangqi perft middlegame depth 4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&middlegame), 4), MIDDLEGAME_PERFT_4));
    });
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
