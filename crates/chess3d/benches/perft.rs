//! Move generation benchmarks: perft from the start position and legal move lists.
//!
//! Every benchmark asserts its answer, so a faster but wrong move generator fails
//! here instead of looking like a win. Run with `cargo bench -p tablero-chess3d`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablero_chess3d::{Chess3d, MoveList, Position, perft};

/// `(name, position string, number of legal moves)`.
const MOVEGEN_POSITIONS: [(&str, &str, usize); 3] = [
    ("start", tablero_chess3d::START_POSITION, 43),
    (
        "middle game",
        "1ca1a1ct/1pp4p/p4pp1/8/2r1A3/5P2/PP1C2PP/T4ACT|8/3pp1d1/R7/8/4t3/4P3/3P3D/8|tc4ct/ppp2A2/6pp/8/1a6/P7/1PPa2PP/1C1A2CT b 0 31 0000000000000000",
        101,
    ),
    (
        "promotions",
        "8/p3t1PA/c7/2a5/1Pp5/P1P2PP1/5C2/6CA|6t1/a4d2/2p1p3/2t5/7T/8/1D6/8|6c1/8/1pp3p1/P1aaA3/2P4P/7t/P2A1CP1/6CT w 1 123 f35acf758b592cff",
        63,
    ),
];

fn position(text: &str) -> Chess3d {
    Chess3d::from_position_string(text).expect("benchmark positions are valid")
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess3d perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));

    let start = Chess3d::start(0);
    group.throughput(Throughput::Elements(4_080_418));
    group.bench_function("start depth 4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 4), 4_080_418));
    });
    group.throughput(Throughput::Elements(207_282_539));
    group.bench_function("start depth 5", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 5), 207_282_539));
    });

    let promotions = position(MOVEGEN_POSITIONS[2].1);
    group.throughput(Throughput::Elements(22_201_690));
    group.bench_function("promotions depth 4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&promotions), 4), 22_201_690));
    });
    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess3d legal_moves");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, text, count) in MOVEGEN_POSITIONS {
        let pos = position(text);
        group.bench_function(name, |b| {
            let mut moves = MoveList::new();
            b.iter(|| {
                black_box(&pos).legal_moves_into(&mut moves);
                assert_eq!(moves.len(), count);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_legal_moves);
criterion_main!(benches);
