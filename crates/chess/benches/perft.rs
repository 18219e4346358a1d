//! Move generation benchmarks: perft and legal move lists on well-known positions.
//!
//! Every benchmark asserts its answer, so a faster but wrong move generator fails
//! here instead of looking like a win. Run with `cargo bench -p tablero-chess`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tablero_chess::{CastlingMode, Chess, perft};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// `(name, FEN, castling mode, number of legal moves)`.
const MOVEGEN_POSITIONS: [(&str, &str, CastlingMode, usize); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
        20,
    ),
    ("kiwipete", KIWIPETE, CastlingMode::Standard, 48),
    (
        "endgame",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        CastlingMode::Standard,
        14,
    ),
    (
        "promotions",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        CastlingMode::Standard,
        6,
    ),
    (
        "middlegame",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        CastlingMode::Standard,
        46,
    ),
    (
        "chess960",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        CastlingMode::Chess960,
        21,
    ),
];

fn position(fen: &str, mode: CastlingMode) -> Chess {
    Chess::from_fen(fen, mode).expect("benchmark positions are legal")
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));

    let start = Chess::new();
    group.bench_function("start depth 5", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 5), 4_865_609));
    });

    let kiwipete = position(KIWIPETE, CastlingMode::Standard);
    group.bench_function("kiwipete depth 4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&kiwipete), 4), 4_085_603));
    });

    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    for (name, fen, mode, count) in MOVEGEN_POSITIONS {
        let pos = position(fen, mode);
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(black_box(&pos).legal_moves().len(), count));
        });
    }

    group.finish();
}

criterion_group!(benches, bench_perft, bench_legal_moves);
criterion_main!(benches);
