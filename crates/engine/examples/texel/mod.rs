//! Texel tuning, shared by `tune_chess`, `tune_xiangqi`, `tune_draughts` and
//! `tune_chess3d`: the self-play driver, labels from a deeper search, the fit of K,
//! least squares with Adam and a pull towards the starting weights, and the weights
//! file.
//!
//! The evaluations are linear in their weights: an [`EvalTrace`] holds a position's
//! feature counts, and `scale × taper(counts) + taper(unscaled)` with the weights is
//! its evaluation, the very function the engine plays with.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use tablero_core::{Outcome, Position, Side, SplitMix64};
use tablero_engine::{Engine, EvalTrace, Evaluator, Limits, SearchResult};

/// What a game's tuner supplies.
pub(crate) trait Tuning {
    /// The game's name in file and example names (`chess`, `xiangqi`, `draughts`).
    const GAME: &'static str;
    /// A searcher, made once per thread and reused from game to game.
    type Player;
    /// A new searcher.
    fn player() -> Self::Player;
    /// One self-play game from `seed` at `nodes` a move: its quiet positions, each as
    /// `FEN;result` with White's (red's) result, 1, 0.5 or 0.
    fn self_play(player: &Self::Player, seed: u64, nodes: u64) -> Vec<String>;
    /// The feature counts of the position `fen`, or `None` if it does not parse (or
    /// its evaluation is not the weighted sum).
    fn trace(fen: &str) -> Option<EvalTrace>;
    /// The score of the position `fen` for White (red) after a search of `nodes`
    /// nodes from a cleared table (see [`searched_score`]), or `None` if it does not
    /// parse.
    fn search(player: &Self::Player, fen: &str, nodes: u64) -> Option<i32>;
    /// The searcher `label` uses on each thread. Its table is cleared before every
    /// position, so a small one saves the clearing time.
    fn labeller() -> Self::Player {
        Self::player()
    }
    /// The weights in use.
    fn weights() -> &'static [(i32, i32)];
    /// How many weights the weights file puts on a row; above one, the rows are kept
    /// from rustfmt.
    const PER_ROW: usize;
    /// Puts fitted weights back on the game's scale before they are written. The fit
    /// keeps K and may stretch every weight instead; the search's margins are set in
    /// the game's units, so a game whose unit is a weight (draughts' man) rescales.
    fn anchor(_weights: &mut [(f64, f64)]) {}
}

/// Runs `generate GAMES NODES OUT`, `label IN OUT EVERY NODES K LAMBDA` or
/// `tune DATA EPOCHS` from the command line.
pub(crate) fn main<T: Tuning>() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") if args.len() == 4 => generate::<T>(&args[1], &args[2], &args[3], "0"),
        Some("generate") if args.len() == 5 => {
            generate::<T>(&args[1], &args[2], &args[3], &args[4])
        }
        Some("label") if args.len() == 7 => label::<T>(&args[1..]),
        Some("tune") if args.len() == 3 => tune::<T>(&args[1], &args[2]),
        _ => Err(format!(
            "usage: tune_{} generate GAMES NODES OUT [FIRST] | label IN OUT EVERY NODES K LAMBDA \
             | tune DATA EPOCHS",
            T::GAME
        )),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// Plays GAMES self-play games on two threads and writes their quiet positions to OUT.
/// Game n opens with the random plies of seed FIRST + n, so runs with disjoint ranges
/// add new games. The games are written in game order, whichever thread finishes first,
/// so that a batch (and a sample drawn from it) is the same file on every run.
pub(crate) fn generate<T: Tuning>(
    games: &str,
    nodes: &str,
    out: &str,
    first: &str,
) -> Result<(), String> {
    let first: usize = first
        .parse()
        .map_err(|_| format!("bad first game number {first:?}"))?;
    let games: usize = games
        .parse()
        .map_err(|_| format!("bad game count {games:?}"))?;
    let nodes: u64 = nodes
        .parse()
        .map_err(|_| format!("bad node count {nodes:?}"))?;
    let file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let writer = std::sync::Mutex::new(InOrder {
        out: std::io::BufWriter::new(file),
        next: 0,
        finished: std::collections::BTreeMap::new(),
        error: None,
    });
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let player = T::player();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= games {
                        break;
                    }
                    let lines = T::self_play(&player, (first + n) as u64, nodes);
                    let Ok(mut w) = writer.lock() else { break };
                    w.finished.insert(n, lines);
                    w.write_ready();
                    if n % 100 == 99 {
                        eprintln!("{} games", n + 1);
                    }
                }
            });
        }
    });
    let mut writer = writer
        .into_inner()
        .map_err(|_| "a writer thread panicked".to_owned())?;
    if let Some(e) = writer.error {
        return Err(format!("{out}: {e}"));
    }
    writer.out.flush().map_err(|e| format!("{out}: {e}"))
}

/// Finished games waiting for the games before them.
struct InOrder<W: Write> {
    out: W,
    /// The next game to write.
    next: usize,
    finished: std::collections::BTreeMap<usize, Vec<String>>,
    /// The first write that failed (a full disk): the run reports it at the end.
    error: Option<std::io::Error>,
}

impl<W: Write> InOrder<W> {
    fn write_ready(&mut self) {
        while let Some(lines) = self.finished.remove(&self.next) {
            for line in lines {
                if let Err(e) = writeln!(self.out, "{line}")
                    && self.error.is_none()
                {
                    self.error = Some(e);
                }
            }
            self.next += 1;
        }
    }
}

/// `label IN OUT EVERY NODES K LAMBDA`: keeps every EVERY-th line of IN, searches its
/// position for NODES nodes and writes it to OUT with the label
/// `LAMBDA × sigmoid(K × score) + (1 − LAMBDA) × result`, so that each label says
/// something about its own position rather than only about the game it came from
/// (K as `tune` prints it for the game results; see docs/engine.md "Tuning").
fn label<T: Tuning>(args: &[String]) -> Result<(), String> {
    let [input, output, every, nodes, k, lambda] = args else {
        return Err(format!(
            "usage: tune_{} label IN OUT EVERY NODES K LAMBDA",
            T::GAME
        ));
    };
    let every: usize = match every.parse() {
        Ok(n) if n >= 1 => n,
        _ => return Err(format!("bad EVERY {every:?} (a whole number from 1)")),
    };
    let nodes: u64 = match nodes.parse() {
        Ok(n) if n >= 1 => n,
        _ => return Err(format!("bad NODES {nodes:?} (a whole number from 1)")),
    };
    let k: f64 = match k.parse() {
        Ok(k) if k > 0.0 && f64::is_finite(k) => k,
        _ => return Err(format!("bad K {k:?} (a positive number)")),
    };
    let lambda: f64 = match lambda.parse() {
        Ok(l) if (0.0..=1.0).contains(&l) => l,
        _ => return Err(format!("bad LAMBDA {lambda:?} (from 0 to 1)")),
    };
    let file = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
    let lines: Vec<String> = std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .step_by(every)
        .collect();
    let labelled: Vec<Option<String>> = std::thread::scope(|scope| {
        let half = lines.len().div_ceil(2);
        let workers: Vec<_> = lines
            .chunks(half.max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    let player = T::labeller();
                    chunk
                        .iter()
                        .map(|line| relabel::<T>(&player, line, nodes, k, lambda))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let file = std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    for line in labelled.into_iter().flatten() {
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// One `FEN;result` line with its label blended with a search's verdict, or `None`
/// if it does not parse.
pub(crate) fn relabel<T: Tuning>(
    player: &T::Player,
    line: &str,
    nodes: u64,
    k: f64,
    lambda: f64,
) -> Option<String> {
    let (position, result) = line.split_once(';')?;
    let result: f64 = result.trim().parse().ok()?;
    let score = T::search(player, position, nodes)?;
    let verdict = sigmoid(k, f64::from(score));
    Some(format!(
        "{position};{:.4}",
        lambda * verdict + (1.0 - lambda) * result
    ))
}

/// The score of `pos` for White (red) after a search of `nodes` nodes, the table
/// cleared first so that each label depends on its position alone.
pub(crate) fn searched_score<P, E>(engine: &Engine<E>, pos: &P, nodes: u64) -> i32
where
    P: Position + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P>,
{
    engine.new_game();
    let found = engine.go(pos, &[], &Limits::nodes(nodes));
    match pos.turn() {
        Side::White => found.score(),
        Side::Black => -found.score(),
    }
}

/// `start` after `plies` random moves drawn from `seed` (and a per-game `salt`), or
/// `None` if the game ended on the way.
pub(crate) fn random_opening<P: Position>(
    start: P,
    plies: usize,
    seed: u64,
    salt: u64,
) -> Option<P> {
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt);
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// A rules crate's game record as the self-play loop drives it (each tuner
/// implements it for its game's `Game`).
pub(crate) trait Record {
    /// The position type.
    type Pos: Position + Clone + Send + Sync;

    /// A game from `start`.
    fn start(start: Self::Pos) -> Self;
    /// The result, once the rules end the game.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the game stops without a result the rules decide (chess: a draw
    /// that could be claimed); the game counts as drawn.
    fn stops(&self) -> bool {
        false
    }
    /// The position now.
    fn position(&self) -> &Self::Pos;
    /// Moves played.
    fn plies(&self) -> usize;
    /// Plays `m`; false if the rules refuse it.
    fn play(&mut self, m: <Self::Pos as Position>::Move) -> bool;
}

/// Plies after which a self-play game is abandoned (its positions labelled as a draw).
const MAX_PLIES: usize = 300;

/// One self-play game from `start` at `nodes` a move: the `quiet` text of each
/// position where the engine's choice passes it (`None` to skip the position),
/// labelled with the game's result for White.
pub(crate) fn self_play_game<R, E>(
    engine: &Engine<E>,
    start: R::Pos,
    nodes: u64,
    quiet: impl Fn(&R::Pos, &SearchResult<<R::Pos as Position>::Move>) -> Option<String>,
) -> Vec<String>
where
    R: Record,
    <R::Pos as Position>::Move: Send + Sync,
    E: Evaluator<R::Pos>,
{
    engine.new_game();
    let mut game = R::start(start);
    let mut history: Vec<R::Pos> = Vec::new();
    let mut positions: Vec<String> = Vec::new();
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break Some(outcome);
        }
        if game.stops() || game.plies() > MAX_PLIES {
            break None;
        }
        let pos = game.position().clone();
        let result = engine.go(&pos, &history, &Limits::nodes(nodes));
        let Some(best) = result.best else { break None };
        if result.score().abs() < 2000
            && let Some(text) = quiet(&pos, &result)
        {
            positions.push(text);
        }
        if !game.play(best) {
            break None;
        }
        history.push(pos);
    };
    labelled(positions, outcome)
}

/// A game's quiet positions as `FEN;result` lines, the result White's (red's): 1, 0.5
/// for a draw or an unfinished game, or 0.
pub(crate) fn labelled(quiet: Vec<String>, outcome: Option<Outcome>) -> Vec<String> {
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

/// One labelled position: its feature counts and the label to predict.
pub(crate) struct Sample {
    counts: Vec<(u16, i16)>,
    unscaled: Vec<(u16, i16)>,
    /// The middlegame weights' share, phase / max phase.
    mg: f64,
    scale: f64,
    result: f64,
}

impl Sample {
    /// A position's trace with its label, White's (red's) expected score.
    pub(crate) fn new(trace: EvalTrace, result: f64) -> Self {
        Sample {
            counts: trace.counts,
            unscaled: trace.unscaled,
            mg: f64::from(trace.phase) / f64::from(trace.max_phase),
            scale: f64::from(trace.scale) / 16.0,
            result,
        }
    }

    /// The same position with another label (for `tests/tuning.rs`, which labels
    /// positions with known weights).
    #[allow(dead_code)]
    pub(crate) fn relabelled(self, result: f64) -> Self {
        Sample { result, ..self }
    }
}

pub(crate) fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

fn taper(counts: &[(u16, i16)], weights: &[(f64, f64)], mg: f64) -> f64 {
    let (mut m, mut e) = (0.0, 0.0);
    for &(i, c) in counts {
        let (wm, we) = weights[usize::from(i)];
        m += wm * f64::from(c);
        e += we * f64::from(c);
    }
    m * mg + e * (1.0 - mg)
}

/// The evaluation `weights` give the sample, the engine's own formula in floats.
pub(crate) fn evaluate(sample: &Sample, weights: &[(f64, f64)]) -> f64 {
    taper(&sample.counts, weights, sample.mg) * sample.scale
        + taper(&sample.unscaled, weights, sample.mg)
}

fn error(samples: &[Sample], weights: &[(f64, f64)], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k, evaluate(s, weights))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// Reads `FEN;label` lines, skipping any that do not parse.
fn load<T: Tuning>(data: &str) -> Result<Vec<Sample>, String> {
    let file = std::fs::File::open(data).map_err(|e| format!("{data}: {e}"))?;
    let mut samples = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        let Some((fen, result)) = line.split_once(';') else {
            continue;
        };
        let Ok(result) = result.trim().parse::<f64>() else {
            continue;
        };
        let Some(trace) = T::trace(fen) else {
            continue;
        };
        samples.push(Sample::new(trace, result));
    }
    Ok(samples)
}

/// The weights in use, as floats: where a fit starts.
pub(crate) fn current_weights<T: Tuning>() -> Vec<(f64, f64)> {
    T::weights()
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect()
}

/// What a fit found.
pub(crate) struct Fit {
    /// The scale chosen for the starting weights.
    pub(crate) k: f64,
    /// The mean squared error with the starting weights, and at the end.
    pub(crate) initial_error: f64,
    pub(crate) final_error: f64,
    pub(crate) weights: Vec<(f64, f64)>,
}

/// Fits `start` to the samples' labels over `epochs` passes, reporting progress
/// lines to `progress`.
pub(crate) fn fit(
    samples: &[Sample],
    start: &[(f64, f64)],
    epochs: usize,
    mut progress: impl FnMut(String),
) -> Fit {
    let mut weights = start.to_vec();
    // K: the scale that makes the starting evaluation predict best.
    let mut k = 1.0;
    let mut step = 0.5;
    for _ in 0..20 {
        let here = error(samples, &weights, k);
        let up = error(samples, &weights, k + step);
        let down = error(samples, &weights, k - step);
        if up < here {
            k += step;
        } else if down < here {
            k -= step;
        } else {
            step /= 2.0;
        }
    }
    let initial_error = error(samples, &weights, k);
    progress(format!("K = {k:.3}, error {initial_error:.6}"));
    let n = weights.len();
    let (mut m1, mut v1) = (vec![(0.0, 0.0); n], vec![(0.0, 0.0); n]);
    let (beta1, beta2, rate) = (0.9, 0.999, 1.0);
    for epoch in 0..epochs {
        let mut grad = vec![(0.0f64, 0.0f64); n];
        for s in samples {
            let eval = evaluate(s, &weights);
            let p = sigmoid(k, eval);
            // d(error)/d(eval), up to a constant factor.
            let g = (p - s.result) * p * (1.0 - p);
            for (counts, scale) in [(&s.counts, s.scale), (&s.unscaled, 1.0)] {
                for &(i, c) in counts {
                    let c = g * scale * f64::from(c);
                    let entry = &mut grad[usize::from(i)];
                    entry.0 += c * s.mg;
                    entry.1 += c * (1.0 - s.mg);
                }
            }
        }
        // A weak pull towards the starting weights keeps features that the data
        // rarely shows (a king on the sixth rank in the middlegame) from drifting.
        for (g, (w, w0)) in grad.iter_mut().zip(weights.iter().zip(start)) {
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
            progress(format!(
                "epoch {}: error {:.6}",
                epoch + 1,
                error(samples, &weights, k)
            ));
        }
    }
    Fit {
        k,
        initial_error,
        final_error: error(samples, &weights, k),
        weights,
    }
}

/// Fits the weights to DATA's labels over EPOCHS passes and prints the weights file.
fn tune<T: Tuning>(data: &str, epochs: &str) -> Result<(), String> {
    let epochs: usize = epochs
        .parse()
        .map_err(|_| format!("bad epochs {epochs:?}"))?;
    let samples = load::<T>(data)?;
    eprintln!("{} positions", samples.len());
    if samples.is_empty() {
        return Err(format!("{data}: no FEN;label lines"));
    }
    let fit = fit(&samples, &current_weights::<T>(), epochs, |line| {
        eprintln!("{line}");
    });
    eprintln!(
        "K = {:.3}: error {:.6} -> {:.6}",
        fit.k, fit.initial_error, fit.final_error
    );
    let mut weights = fit.weights;
    T::anchor(&mut weights);
    write_weights::<T>(&mut std::io::stdout().lock(), &weights).map_err(|e| e.to_string())
}

/// Writes `crates/engine/src/eval/<game>_weights.rs`.
pub(crate) fn write_weights<T: Tuning>(
    out: &mut impl Write,
    weights: &[(f64, f64)],
) -> std::io::Result<()> {
    let game = T::GAME;
    writeln!(
        out,
        "//! The {game} evaluation's weights, one middlegame/endgame pair per feature of"
    )?;
    writeln!(
        out,
        "//! `{game}.rs` (see `feature` there for the layout). Written by"
    )?;
    writeln!(
        out,
        "//! `cargo run --release -p tablero-engine --example tune_{game}`; edit by hand only to"
    )?;
    writeln!(out, "//! seed a new feature.")?;
    writeln!(out)?;
    // The file imports nothing from its evaluator (which checks the length against
    // its feature count), so generated data and code do not depend on each other.
    writeln!(out, "/// The weights, indexed by feature.")?;
    if T::PER_ROW > 1 {
        writeln!(out, "#[rustfmt::skip]")?;
    }
    writeln!(
        out,
        "pub(crate) const WEIGHTS: [(i32, i32); {}] = [",
        weights.len()
    )?;
    for row in weights.chunks(T::PER_ROW) {
        let items: Vec<String> = row
            .iter()
            .map(|&(m, e)| format!("({}, {}),", m.round() as i32, e.round() as i32))
            .collect();
        writeln!(out, "    {}", items.join(" "))?;
    }
    writeln!(out, "];")
}
