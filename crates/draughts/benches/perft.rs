//! Move generation benchmarks: perft from the start of each board size (8×8 English,
//! 10×10 International), perft from a king-and-capture position, and legal-move lists.
//!
//! Every benchmark asserts its answer, so a faster but wrong generator fails here
//! instead of looking like a win. Run with `cargo bench -p tablero-draughts`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablero_draughts::{Draughts, RuleSet, perft};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));

    let english = Draughts::new(RuleSet::English);
    group.throughput(Throughput::Elements(18_391_564));
    group.bench_function("english start depth 10", |b| {
        b.iter(|| assert_eq!(perft(black_box(&english), 10), 18_391_564));
    });

    let international = Draughts::new(RuleSet::International);
    group.throughput(Throughput::Elements(41_022_423));
    group.bench_function("international start depth 9", |b| {
        b.iter(|| assert_eq!(perft(black_box(&international), 9), 41_022_423));
    });

    let russian = Draughts::from_fen("W:WK1,23,27,28:B4,8,9,11,16,K18", RuleSet::Russian)
        .expect("benchmark position is legal");
    group.throughput(Throughput::Elements(2_422_581));
    group.bench_function("russian kings depth 11", |b| {
        b.iter(|| assert_eq!(perft(black_box(&russian), 11), 2_422_581));
    });

    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, rule_set, fen, count) in [
        ("english start", RuleSet::English, "B:W21-32:B1-12", 7),
        (
            "international start",
            RuleSet::International,
            "W:W31-50:B1-20",
            9,
        ),
        (
            "international king captures",
            RuleSet::International,
            "W:WK11:B24,28,42",
            3,
        ),
        (
            "italian precedence",
            RuleSet::Italian,
            "W:WK31:BK27,18,28,K20",
            1,
        ),
    ] {
        let pos = Draughts::from_fen(fen, rule_set).expect("benchmark position is legal");
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(black_box(&pos).legal_moves().len(), count));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_legal_moves);
criterion_main!(benches);
