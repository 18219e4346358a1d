//! Texel tuning of the chess evaluation.
//!
//! ```text
//! tune_chess generate GAMES NODES OUT     # self-play, writes "FEN;result" lines
//! tune_chess tune DATA EPOCHS > crates/engine/src/eval/chess_weights.rs
//! ```
//!
//! `generate` plays the engine against itself (NODES per move, two threads) from
//! openings of 8 random plies, and keeps the quiet positions of each game (not in
//! check, and the engine's move there is not a capture) labelled with the game's
//! result. `tune` fits the weights so that `sigmoid(K × eval)` predicts those results
//! (least squares, Adam), after choosing K for the current weights, and prints the new
//! weights file.
//!
//! A label may be any expected score in 0..=1 for White, not only 0, ½ or 1: the
//! weights in use were fitted to Stockfish's expected score for each position
//! (`scripts/label-with-stockfish`, see docs/engine.md "Tuning").

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use tablero_chess::{CastlingMode, Chess, Game, Outcome, Side};
use tablero_core::SplitMix64;
use tablero_engine::{ChessEvaluator, Engine, Limits};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") if args.len() == 4 => generate(&args[1], &args[2], &args[3]),
        Some("tune") if args.len() == 3 => tune(&args[1], &args[2]),
        _ => Err("usage: tune_chess generate GAMES NODES OUT | tune DATA EPOCHS".to_owned()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn generate(games: &str, nodes: &str, out: &str) -> Result<(), String> {
    let games: usize = games
        .parse()
        .map_err(|_| format!("bad game count {games:?}"))?;
    let nodes: u64 = nodes
        .parse()
        .map_err(|_| format!("bad node count {nodes:?}"))?;
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let writer = std::sync::Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let engine = Engine::new(ChessEvaluator, 16);
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= games {
                        break;
                    }
                    let lines = self_play(&engine, n as u64, nodes);
                    let Ok(mut w) = writer.lock() else { break };
                    for line in lines {
                        let _ = writeln!(w, "{line}");
                    }
                    if n % 100 == 99 {
                        eprintln!("{} games", n + 1);
                    }
                }
            });
        }
    });
    writer
        .into_inner()
        .map_err(|_| "a writer thread panicked".to_owned())?
        .flush()
        .map_err(|e| e.to_string())
}

fn self_play(engine: &Engine<ChessEvaluator>, seed: u64, nodes: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x0074_6578_656c);
    let mut pos = Chess::new();
    for _ in 0..8 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Vec::new();
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    engine.new_game();
    let mut game = Game::new(pos);
    let mut history: Vec<Chess> = Vec::new();
    let mut quiet: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break Some(outcome);
        }
        if game.claimable_draw().is_some() || game.moves().len() > 300 {
            break None;
        }
        let pos = game.position().clone();
        let result = engine.go(&pos, &history, &Limits::nodes(nodes));
        let Some(best) = result.best else { break None };
        if !pos.is_check() && !pos.is_capture(best) && result.score().abs() < 2000 {
            quiet.push(pos.fen());
        }
        if game.play(best).is_err() {
            break None;
        }
        history.push(pos);
    };
    let result = match outcome {
        Some(Outcome::Win {
            winner: Side::White,
            ..
        }) => "1",
        Some(Outcome::Win { .. }) => "0",
        _ => "0.5",
    };
    quiet
        .into_iter()
        .map(|fen| format!("{fen};{result}"))
        .collect()
}

/// Strength of the pull towards the starting weights, per position and per
/// centipawn squared.
const REGULARISATION: f64 = 2e-7;

struct Sample {
    counts: Vec<(u16, i16)>,
    phase: f64,
    scale: f64,
    result: f64,
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

fn evaluate(sample: &Sample, weights: &[(f64, f64)]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &sample.counts {
        let (wm, we) = weights[usize::from(i)];
        mg += wm * f64::from(c);
        eg += we * f64::from(c);
    }
    (mg * sample.phase + eg * (24.0 - sample.phase)) / 24.0 * sample.scale
}

fn error(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k, evaluate(s, weights))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

fn tune(data: &str, epochs: &str) -> Result<(), String> {
    let epochs: usize = epochs
        .parse()
        .map_err(|_| format!("bad epochs {epochs:?}"))?;
    let file = std::fs::File::open(data).map_err(|e| format!("{data}: {e}"))?;
    let mut samples = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let Some((fen, result)) = line.split_once(';') else {
            continue;
        };
        let Ok(pos) = Chess::from_fen(fen, CastlingMode::Standard) else {
            continue;
        };
        let Ok(result) = result.trim().parse::<f64>() else {
            continue;
        };
        let trace = ChessEvaluator::trace(&pos);
        samples.push(Sample {
            counts: trace.counts,
            phase: f64::from(trace.phase),
            scale: f64::from(trace.scale) / 16.0,
            result,
        });
    }
    eprintln!("{} positions", samples.len());
    let mut weights: Vec<(f64, f64)> = ChessEvaluator::weights()
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect();
    // K: the scale that makes the current evaluation predict best.
    let mut k = 1.0;
    let mut step = 0.5;
    for _ in 0..20 {
        let here = error(&samples, &weights, k);
        let up = error(&samples, &weights, k + step);
        let down = error(&samples, &weights, k - step);
        if up < here {
            k += step;
        } else if down < here {
            k -= step;
        } else {
            step /= 2.0;
        }
    }
    eprintln!("K = {k:.3}, error {:.6}", error(&samples, &weights, k));
    let initial = weights.clone();
    let n = weights.len();
    let (mut m1, mut v1) = (vec![(0.0, 0.0); n], vec![(0.0, 0.0); n]);
    let (beta1, beta2, rate) = (0.9, 0.999, 1.0);
    for epoch in 0..epochs {
        let mut grad = vec![(0.0f64, 0.0f64); n];
        for s in &samples {
            let eval = evaluate(s, &weights);
            let p = sigmoid(k, eval);
            // d(error)/d(eval), up to a constant factor.
            let g = (p - s.result) * p * (1.0 - p) * s.scale;
            for &(i, c) in &s.counts {
                let c = f64::from(c);
                let entry = &mut grad[usize::from(i)];
                entry.0 += g * c * s.phase / 24.0;
                entry.1 += g * c * (24.0 - s.phase) / 24.0;
            }
        }
        // A weak pull towards the starting weights keeps features that the data
        // rarely shows (a king on the sixth rank in the middlegame) from drifting.
        for (g, (w, w0)) in grad.iter_mut().zip(weights.iter().zip(&initial)) {
            g.0 += REGULARISATION * (w.0 - w0.0) * samples.len() as f64;
            g.1 += REGULARISATION * (w.1 - w0.1) * samples.len() as f64;
        }
        let t = (epoch + 1) as i32;
        let adam = |w: &mut f64, g: f64, m: &mut f64, v: &mut f64| {
            *m = beta1 * *m + (1.0 - beta1) * g;
            *v = beta2 * *v + (1.0 - beta2) * g * g;
            let m_hat = *m / (1.0 - beta1.powi(t));
            let v_hat = *v / (1.0 - beta2.powi(t));
            *w -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        };
        for i in 0..n {
            let (w, g, m, v) = (&mut weights[i], grad[i], &mut m1[i], &mut v1[i]);
            adam(&mut w.0, g.0, &mut m.0, &mut v.0);
            adam(&mut w.1, g.1, &mut m.1, &mut v.1);
        }
        if epoch % 50 == 49 || epoch + 1 == epochs {
            eprintln!(
                "epoch {}: error {:.6}",
                epoch + 1,
                error(&samples, &weights, k)
            );
        }
    }
    print_weights(&weights);
    Ok(())
}

fn print_weights(weights: &[(f64, f64)]) {
    println!("//! The chess evaluation's weights, one middlegame/endgame pair per feature of");
    println!("//! `chess.rs` (see `feature` there for the layout). Written by");
    println!(
        "//! `cargo run --release -p tablero-engine --example tune_chess`; edit by hand only to"
    );
    println!("//! seed a new feature.");
    println!();
    println!("use super::chess::{{Pair, feature::COUNT}};");
    println!();
    println!("/// The weights, indexed by feature.");
    println!("pub(crate) const WEIGHTS: [Pair; COUNT] = [");
    for row in weights.chunks(6) {
        let items: Vec<String> = row
            .iter()
            .map(|&(m, e)| format!("({}, {}),", m.round() as i32, e.round() as i32))
            .collect();
        println!("    {}", items.join(" "));
    }
    println!("];");
}
