//! Unwinnability benchmarks over positions from real games: every position of the
//! games in `tests/data/pgn` and every position of the perft suites.
//!
//! `dead position check` is what a game runs after every move
//! ([`Chess::is_dead_position_analysed`]); `can_checkmate` is the full analysis a flag
//! fall or a resignation runs once. Both assert their answers. Before Criterion runs,
//! the per-position cost distribution (median, 99th percentile, maximum) is printed.
//! Run with `cargo bench -p tablero-chess --bench unwinnable`.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::Criterion;
use tablero_chess::{CastlingMode, Chess, Side, Verdict, pgn};

/// Positions proved dead among the set: one, a stalemate from the perft suite
/// (`7k/5K1b/8/p7/P7/8/8/7R b - - 0 1`), where nobody can mate either.
const DEAD: usize = 1;

/// Every position along the main lines of the repository's PGN games, and the perft
/// suites' positions.
fn positions() -> Vec<Chess> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out = Vec::new();
    for name in ["famous.pgn", "chess960.pgn", "black_to_move.pgn"] {
        let text = std::fs::read_to_string(data.join("pgn").join(name)).expect("PGN data");
        for game in pgn::read_str(&text).into_iter().flatten() {
            let Ok(game) = game.to_game() else { continue };
            let mut pos = game.start().clone();
            out.push(pos.clone());
            for &m in game.moves() {
                pos.play_unchecked(m);
                out.push(pos.clone());
            }
        }
    }
    for (name, mode) in [
        ("standard.perft", CastlingMode::Standard),
        ("chess960.perft", CastlingMode::Chess960),
    ] {
        let text = std::fs::read_to_string(data.join(name)).expect("perft data");
        for fen in text.lines().filter_map(|l| l.strip_prefix("epd ")) {
            out.push(Chess::from_fen(fen.trim(), mode).expect("perft positions are legal"));
        }
    }
    out
}

/// Nanoseconds per call of `f` on each position, averaged over enough calls to be
/// measurable.
fn per_position(positions: &[Chess], f: impl Fn(&Chess) -> bool) -> Vec<f64> {
    positions
        .iter()
        .map(|pos| {
            let mut calls = 1u32;
            loop {
                let start = Instant::now();
                for _ in 0..calls {
                    black_box(f(black_box(pos)));
                }
                let elapsed = start.elapsed();
                if elapsed >= Duration::from_micros(200) || calls >= 1 << 16 {
                    return elapsed.as_nanos() as f64 / f64::from(calls);
                }
                calls *= 4;
            }
        })
        .collect()
}

fn print_distribution(name: &str, mut nanos: Vec<f64>) {
    nanos.sort_by(f64::total_cmp);
    let at = |q: f64| nanos[((nanos.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name}: {} positions, median {:.3} µs, p99 {:.1} µs, max {:.1} µs",
        nanos.len(),
        at(0.5) / 1000.0,
        at(0.99) / 1000.0,
        at(1.0) / 1000.0
    );
}

fn main() {
    let positions = positions();
    assert!(positions.len() > 250, "{} positions", positions.len());
    let dead: Vec<String> = positions
        .iter()
        .filter(|p| p.is_dead_position_analysed())
        .map(Chess::fen)
        .collect();
    assert_eq!(dead.len(), DEAD, "{dead:?}");
    print_distribution(
        "dead position check",
        per_position(&positions, Chess::is_dead_position_analysed),
    );
    // The flag-fall question, for the side not to move.
    let verdicts: Vec<Verdict> = positions
        .iter()
        .map(|p| p.can_checkmate(!p.turn()))
        .collect();
    let count = |v| verdicts.iter().filter(|&&x| x == v).count();
    println!(
        "can_checkmate verdicts: {} winnable, {} unwinnable, {} undetermined",
        count(Verdict::Winnable),
        count(Verdict::Unwinnable),
        count(Verdict::Undetermined)
    );
    print_distribution(
        "can_checkmate (opponent of the side to move)",
        per_position(&positions, |p| {
            p.can_checkmate(!p.turn()) == Verdict::Winnable
        }),
    );

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    c.bench_function("dead position check, every position", |b| {
        b.iter(|| {
            let dead = positions
                .iter()
                .filter(|p| black_box(p).is_dead_position_analysed())
                .count();
            assert_eq!(dead, DEAD);
        });
    });
    let wall = Chess::from_fen(
        "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1",
        CastlingMode::Standard,
    )
    .expect("legal");
    c.bench_function("can_checkmate, locked pawns", |b| {
        b.iter(|| {
            assert_eq!(
                black_box(&wall).can_checkmate(Side::White),
                Verdict::Unwinnable
            )
        });
    });
    c.final_summary();
}
