//! Trains a network for `tablero_engine::nnue` from labelled positions, on the CPU.
//!
//! ```text
//! train_nnue chess|xiangqi|draughts DATA OUT NAME EPOCHS K [--seed N] [--adds-to-hand]
//!            [--validation FILE] [--shrink S] [--init NETWORK] [--learning-rate LR]
//!            [--buckets N] [--hidden N] [--result-weight W]
//! train_nnue check chess|xiangqi|draughts DATA NETWORK K
//! ```
//!
//! DATA has `FEN;p` lines, p being White's (red's) expected score, as
//! `scripts/label-with-stockfish` and `scripts/label-with-fairy-stockfish` write them;
//! for draughts `RULES FEN;p` lines as `tune_draughts label` writes them, of which only
//! International draughts positions are read. A line may end in a third field, the
//! game's result for White (red): `FEN;p;result`. `--result-weight W` trains on
//! `(1 − W) × p + W × result` (the validation loss stays against p), so the network
//! also learns how the games from such positions ended, which a shallow teacher's
//! judgement misses; Stockfish's trainer calls W `1 − lambda`.
//! The network predicts `sigmoid(K × cp / 400)` of its centipawn output for the side to
//! move; K is the hand evaluation's fitted scale (`tune_<game> tune` prints it), so the
//! network's centipawns match the ones the search's margins were set for. Training is
//! mean squared error with Adam (batches of 16,384, learning rate 0.001, cut to a third
//! for the last third of the epochs and again for the last tenth), weights clipped to
//! ±1.98 so the quantised network stays within the engine's limits. Every 50th position
//! is held out to report a validation loss, unless `--validation FILE` names positions
//! to validate on instead (better: positions of other games, which a network cannot
//! have memorised). With `--adds-to-hand` the network learns only what the hand
//! evaluation misses: its prediction is `sigmoid(K × (hand + network) / 400)`, and the
//! engine adds the two in play; `--shrink S` adds `S × output²` to the loss, keeping
//! such a correction small where the data do not insist. `--init NETWORK` starts from
//! a network's weights instead of random ones (it must be of the same game and kind),
//! so that a network can be trained further on new positions, typically with a lower
//! `--learning-rate` (0.001 by default). `--buckets N` trains N output buckets chosen
//! by the number of pieces (`Network::output_bucket`); from a network of one bucket,
//! every bucket starts as a copy of its output. `--hidden N` sets the transformer's
//! width (a multiple of 32 up to 512; 256 unless given, or the `--init` network's);
//! a wider width than the `--init` network's widens it: the new values start with small
//! random transformer weights and no output weight, so the network starts from the
//! same evaluations and training gives them their say. With the same DATA, SEED and options
//! the result is the same file, byte for byte: threads only split batches, and their gradients are
//! summed in a fixed order.

use std::io::{BufRead, Write};
use std::time::Instant;

use tablero_chess::{CastlingMode, Chess};
use tablero_core::{Side, SplitMix64};
use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::nnue::{
    DEFAULT_HIDDEN, FloatWeights, HIDDEN_STEP, MAX_HIDDEN, MAX_OUTPUT_BUCKETS, NetworkInput, SCALE,
    output_bucket,
};
use tablero_engine::{
    ChessEvaluator, DraughtsEvaluator, Evaluator, Network, NnueEvaluator, XiangqiEvaluator,
};
use tablero_xiangqi::Xiangqi;

const BATCH: usize = 16_384;
const THREADS: usize = 2;
const CLIP: f32 = 1.98;
const LEARNING_RATE: f32 = 0.001;

/// `value` read as a `T` that is `valid`; else an error naming `what` and the value,
/// then `hint`.
fn parsed<T: std::str::FromStr>(
    value: &str,
    valid: impl Fn(&T) -> bool,
    what: &str,
    hint: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(valid)
        .ok_or_else(|| format!("bad {what} {value:?}{hint}"))
}

/// Reads the network a training run continues from, checking that it reads `P` and
/// is of the kind being trained.
fn initial_network<P: NetworkInput>(path: &str, adds_to_hand: bool) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
    network
        .check_input::<P>()
        .map_err(|e| format!("{path}: {e}"))?;
    if network.adds_to_hand() != adds_to_hand {
        return Err(format!(
            "{path}: {} adds to the hand evaluation: {}, but this run trains {}",
            network.name(),
            if network.adds_to_hand() { "yes" } else { "no" },
            if adds_to_hand {
                "a correction (--adds-to-hand)"
            } else {
                "a whole evaluation"
            }
        ));
    }
    Ok(network)
}

/// Positions as the network reads them: each one's inputs from the side to move's
/// view, then the other side's, and the side to move's expected score.
struct Dataset {
    inputs: Vec<u16>,
    /// `offsets[i]..offsets[i + 1]` are position i's inputs, the first half the side to
    /// move's view.
    offsets: Vec<u32>,
    targets: Vec<f32>,
    /// The hand evaluation for the side to move, in output units (centipawns / SCALE),
    /// when the network learns a correction to it; zero otherwise.
    base: Vec<f32>,
    /// The output bucket that reads the position.
    buckets: Vec<u8>,
    bucket_count: usize,
}

impl Dataset {
    fn new(bucket_count: usize) -> Dataset {
        Dataset {
            inputs: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            base: Vec::new(),
            buckets: Vec::new(),
            bucket_count,
        }
    }

    /// Adds `pos`, its inputs passed through `map` (the identity, or a mirror image).
    fn push<P: NetworkInput>(
        &mut self,
        pos: &P,
        white_expectation: f32,
        base: f32,
        map: impl Fn(usize) -> usize,
    ) {
        let mut views: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
        pos.active_features(&mut |[white, black]| {
            views[0].push(map(white) as u16);
            views[1].push(map(black) as u16);
        });
        let (us, them, target) = match pos.turn() {
            Side::White => (0, 1, white_expectation),
            Side::Black => (1, 0, 1.0 - white_expectation),
        };
        self.inputs.extend_from_slice(&views[us]);
        self.inputs.extend_from_slice(&views[them]);
        self.offsets.push(self.inputs.len() as u32);
        self.targets.push(target);
        self.base.push(base);
        let pieces = views[0].len();
        self.buckets
            .push(output_bucket(self.bucket_count, pieces, P::MAX_PIECES) as u8);
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    fn views(&self, i: usize) -> (&[u16], &[u16]) {
        let all = &self.inputs[self.offsets[i] as usize..self.offsets[i + 1] as usize];
        all.split_at(all.len() / 2)
    }
}

/// The float network being trained (also the shape of its gradients and of Adam's
/// moments).
type Weights = FloatWeights;

/// The shape of a network: inputs, transformer width and output buckets.
#[derive(Clone, Copy)]
struct Shape {
    features: usize,
    hidden: usize,
    buckets: usize,
}

fn zeros(shape: Shape) -> Weights {
    let Shape {
        features,
        hidden,
        buckets,
    } = shape;
    Weights {
        feature: vec![0.0; features * hidden],
        feature_bias: vec![0.0; hidden],
        output: vec![0.0; buckets * 2 * hidden],
        output_bias: vec![0.0; buckets],
    }
}

/// `±scale`, uniformly.
fn uniform(rng: &mut SplitMix64, scale: f32) -> f32 {
    (rng.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * scale - scale
}

fn random(shape: Shape, rng: &mut SplitMix64) -> Weights {
    let mut w = zeros(shape);
    w.feature.iter_mut().for_each(|x| *x = uniform(rng, 0.1));
    w.feature_bias
        .iter_mut()
        .for_each(|x| *x = uniform(rng, 0.1));
    let output_scale = 1.0 / (2.0 * shape.hidden as f32).sqrt();
    w.output
        .iter_mut()
        .for_each(|x| *x = uniform(rng, output_scale));
    w
}

/// `w` with its transformer widened to `hidden` values per side: the new values get
/// small random transformer weights and no output weight, so the wider network
/// evaluates exactly as `w` until training gives them a say.
fn widen(w: &Weights, hidden: usize, rng: &mut SplitMix64) -> Weights {
    let old = w.feature_bias.len();
    let extra = hidden - old;
    let mut wide = Weights {
        feature: Vec::with_capacity(w.feature.len() / old * hidden),
        feature_bias: w.feature_bias.clone(),
        output: Vec::with_capacity(w.output.len() / old * hidden),
        output_bias: w.output_bias.clone(),
    };
    for row in w.feature.chunks_exact(old) {
        wide.feature.extend_from_slice(row);
        wide.feature.extend((0..extra).map(|_| uniform(rng, 0.1)));
    }
    wide.feature_bias
        .extend((0..extra).map(|_| uniform(rng, 0.1)));
    for half in w.output.chunks_exact(old) {
        wide.output.extend_from_slice(half);
        wide.output.extend(std::iter::repeat_n(0.0, extra));
    }
    wide
}

fn clear(w: &mut Weights) {
    w.feature.fill(0.0);
    w.feature_bias.fill(0.0);
    w.output.fill(0.0);
    w.output_bias.fill(0.0);
}

fn add(sum: &mut Weights, other: &Weights) {
    for (a, b) in [
        (&mut sum.feature, &other.feature),
        (&mut sum.feature_bias, &other.feature_bias),
        (&mut sum.output, &other.output),
        (&mut sum.output_bias, &other.output_bias),
    ] {
        a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
    }
}

fn accumulate(w: &Weights, inputs: &[u16], out: &mut [f32]) {
    let hidden = w.feature_bias.len();
    out.copy_from_slice(&w.feature_bias);
    for &f in inputs {
        let row = &w.feature[f as usize * hidden..(f as usize + 1) * hidden];
        out.iter_mut().zip(row).for_each(|(o, r)| *o += r);
    }
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network's output (in units of [`tablero_engine::nnue::SCALE`] centipawns)
/// through output `bucket`.
fn forward(w: &Weights, us: &[f32], them: &[f32], bucket: usize) -> f32 {
    let hidden = us.len();
    let output = &w.output[bucket * 2 * hidden..(bucket + 1) * 2 * hidden];
    let (mine, theirs) = output.split_at(hidden);
    let a: f32 = us.iter().zip(mine).map(|(x, w)| screlu(*x) * w).sum();
    let b: f32 = them.iter().zip(theirs).map(|(x, w)| screlu(*x) * w).sum();
    a + b + w.output_bias[bucket]
}

/// Adds the batch's loss gradient to `grad`; returns the summed loss.
/// `shrink` adds `shrink × output²` to each position's loss: it pulls the network's
/// answer towards zero unless the labels keep asking for it, which keeps a correction
/// to the hand evaluation small where the data say little.
fn backward(
    w: &Weights,
    data: &Dataset,
    batch: &[u32],
    (k, shrink): (f32, f32),
    grad: &mut Weights,
) -> f64 {
    let mut loss = 0.0f64;
    let hidden = w.feature_bias.len();
    let (mut us, mut them) = (vec![0.0f32; hidden], vec![0.0f32; hidden]);
    let (mut d_us, mut d_them) = (vec![0.0f32; hidden], vec![0.0f32; hidden]);
    for &i in batch {
        let i = i as usize;
        let (mine, theirs) = data.views(i);
        accumulate(w, mine, &mut us);
        accumulate(w, theirs, &mut them);
        let bucket = usize::from(data.buckets[i]);
        let output = forward(w, &us, &them, bucket);
        let p = sigmoid(k * (output + data.base[i]));
        let error = p - data.targets[i];
        loss += f64::from(error * error + shrink * output * output);
        let g = 2.0 * error * p * (1.0 - p) * k + 2.0 * shrink * output;
        grad.output_bias[bucket] += g;
        let first = bucket * 2 * hidden;
        for (view, d, offset) in [
            (&us, &mut d_us, first),
            (&them, &mut d_them, first + hidden),
        ] {
            for j in 0..hidden {
                let x = view[j];
                grad.output[offset + j] += g * screlu(x);
                d[j] = if x > 0.0 && x < 1.0 {
                    g * w.output[offset + j] * 2.0 * x
                } else {
                    0.0
                };
            }
        }
        for (inputs, d) in [(mine, &d_us), (theirs, &d_them)] {
            grad.feature_bias
                .iter_mut()
                .zip(d.iter())
                .for_each(|(b, d)| *b += d);
            for &f in inputs {
                let row = &mut grad.feature[f as usize * hidden..(f as usize + 1) * hidden];
                row.iter_mut().zip(d.iter()).for_each(|(r, d)| *r += d);
            }
        }
    }
    loss
}

fn validation_loss(w: &Weights, data: &Dataset, k: f32) -> f64 {
    let hidden = w.feature_bias.len();
    let (mut us, mut them) = (vec![0.0f32; hidden], vec![0.0f32; hidden]);
    let mut loss = 0.0;
    for i in 0..data.len() {
        let (mine, theirs) = data.views(i);
        accumulate(w, mine, &mut us);
        accumulate(w, theirs, &mut them);
        let output = forward(w, &us, &them, usize::from(data.buckets[i]));
        let error = sigmoid(k * (output + data.base[i])) - data.targets[i];
        loss += f64::from(error * error);
    }
    loss / data.len().max(1) as f64
}

struct Adam {
    m: Weights,
    v: Weights,
    step: i32,
}

impl Adam {
    fn apply(&mut self, w: &mut Weights, grad: &Weights, lr: f32, scale: f32) {
        self.step += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(self.step);
        let c2 = 1.0 - b2.powi(self.step);
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *w = w.clamp(-CLIP, CLIP);
        };
        for (w, (g, (m, v))) in w.feature.iter_mut().zip(
            grad.feature
                .iter()
                .zip(self.m.feature.iter_mut().zip(&mut self.v.feature)),
        ) {
            update(w, *g, m, v);
        }
        for (w, (g, (m, v))) in w.feature_bias.iter_mut().zip(
            grad.feature_bias
                .iter()
                .zip(self.m.feature_bias.iter_mut().zip(&mut self.v.feature_bias)),
        ) {
            update(w, *g, m, v);
        }
        for (w, (g, (m, v))) in w.output.iter_mut().zip(
            grad.output
                .iter()
                .zip(self.m.output.iter_mut().zip(&mut self.v.output)),
        ) {
            update(w, *g, m, v);
        }
        for (w, (g, (m, v))) in w.output_bias.iter_mut().zip(
            grad.output_bias
                .iter()
                .zip(self.m.output_bias.iter_mut().zip(&mut self.v.output_bias)),
        ) {
            update(w, *g, m, v);
        }
    }
}

/// `fen` with the board turned left to right: each rank reversed, an en passant
/// file mirrored (a↔h; xiangqi has none). Castling rights are left as they are: only
/// positions without them are mirrored.
fn mirrored_fen(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    if let Some(board) = fields.first_mut() {
        *board = board
            .split('/')
            .map(|rank| rank.chars().rev().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
    }
    if let Some(ep) = fields.get_mut(3)
        && let Some(file @ 'a'..='h') = ep.chars().next()
    {
        let turned = char::from(b'h' - (file as u8 - b'a'));
        *ep = format!("{turned}{}", &ep[1..]);
    }
    fields.join(" ")
}

/// Splits a `FEN;p` or `FEN;p;result` line (FENs hold no `;`); p and the result
/// must be scores from 0 to 1 (a `nan` would poison every weight it reaches).
fn labelled_line(line: &str) -> Option<(&str, f32, Option<f32>)> {
    let score = |text: &str| {
        text.trim()
            .parse::<f32>()
            .ok()
            .filter(|x| (0.0..=1.0).contains(x))
    };
    let (fen, rest) = line.split_once(';')?;
    let (p, result) = match rest.split_once(';') {
        Some((p, result)) => (p, Some(score(result)?)),
        None => (rest, None),
    };
    Some((fen, score(p)?, result))
}

/// Reads `FEN;p[;result]` lines: every 50th into the validation set, the others (and,
/// where the rules allow, their mirror images) into the training set. With a
/// `result_weight` above 0 every line must hold its game's result, which is blended
/// into the training targets (validation keeps p: the teacher's judgement).
fn load<P: NetworkInput>(
    path: &str,
    parse: &impl Fn(&str) -> Option<P>,
    hand: Option<&dyn Fn(&P) -> i32>,
    (hold_out, buckets, result_weight): (bool, usize, f32),
) -> Result<(Dataset, Dataset), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let (mut train, mut validation) = (Dataset::new(buckets), Dataset::new(buckets));
    let mut skipped = 0usize;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{path}: {e}"))?;
        let Some((fen, p, result)) = labelled_line(&line) else {
            skipped += 1;
            continue;
        };
        let Some(pos) = parse(fen) else {
            skipped += 1;
            continue;
        };
        let target = match result {
            _ if result_weight == 0.0 => p,
            Some(result) => (1.0 - result_weight) * p + result_weight * result,
            None => {
                return Err(format!(
                    "{path}, line {}: no game result (`FEN;p;result`), which --result-weight needs",
                    n + 1
                ));
            }
        };
        let base = hand.map_or(0.0, |hand| hand(&pos) as f32 / SCALE as f32);
        if hold_out && n % 50 == 49 {
            validation.push(&pos, p, base, |i| i);
        } else {
            train.push(&pos, target, base, |i| i);
            if pos.is_mirror_symmetric()
                && let Some(turned) = parse(&mirrored_fen(fen))
            {
                let base = hand.map_or(0.0, |hand| hand(&turned) as f32 / SCALE as f32);
                train.push(&turned, target, base, |i| i);
            }
        }
    }
    if skipped > 0 {
        eprintln!("skipped {skipped} lines that are not `FEN;p` or `FEN;p;result`");
    }
    Ok((train, validation))
}

/// Trains and writes a network as `args` say; returns the validation loss before the
/// first epoch and after each.
#[allow(clippy::too_many_lines)]
fn train<P: NetworkInput>(
    args: &[String],
    parse: impl Fn(&str) -> Option<P>,
    hand: &dyn Fn(&P) -> i32,
) -> Result<Vec<f64>, String> {
    let [_, data, out, name, epochs, k, rest @ ..] = args else {
        return Err(usage());
    };
    let epochs: usize = epochs
        .parse()
        .map_err(|_| format!("bad EPOCHS {epochs:?}"))?;
    let k: f32 = k.parse().map_err(|_| format!("bad K {k:?}"))?;
    let (mut seed, mut adds_to_hand, mut validation_file) = (1u64, false, None);
    let mut shrink = 0.0f32;
    let (mut init, mut learning_rate, mut buckets) = (None, LEARNING_RATE, None);
    let mut hidden = None;
    let mut result_weight = 0.0f32;
    let mut options = rest.iter();
    while let Some(option) = options.next() {
        match option.as_str() {
            "--seed" => {
                let value = options.next().ok_or_else(usage)?;
                seed = value.parse().map_err(|_| format!("bad seed {value:?}"))?;
            }
            "--adds-to-hand" => adds_to_hand = true,
            "--validation" => validation_file = Some(options.next().ok_or_else(usage)?),
            "--shrink" => {
                let value = options.next().ok_or_else(usage)?;
                shrink = value.parse().map_err(|_| format!("bad shrink {value:?}"))?;
            }
            "--init" => init = Some(options.next().ok_or_else(usage)?),
            "--learning-rate" => {
                let value = options.next().ok_or_else(usage)?;
                let valid = |lr: &f32| lr.is_finite() && *lr > 0.0;
                learning_rate = parsed(value, valid, "learning rate", "")?;
            }
            "--buckets" => {
                let value = options.next().ok_or_else(usage)?;
                let valid = |n: &usize| (1..=MAX_OUTPUT_BUCKETS).contains(n);
                let hint = format!(" (1 to {MAX_OUTPUT_BUCKETS})");
                buckets = Some(parsed(value, valid, "bucket count", &hint)?);
            }
            "--hidden" => {
                let value = options.next().ok_or_else(usage)?;
                let valid =
                    |n: &usize| (1..=MAX_HIDDEN).contains(n) && n.is_multiple_of(HIDDEN_STEP);
                let hint = format!(" (a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN})");
                hidden = Some(parsed(value, valid, "hidden size", &hint)?);
            }
            "--result-weight" => {
                let value = options.next().ok_or_else(usage)?;
                let valid = |w: &f32| (0.0..=1.0).contains(w);
                result_weight = parsed(value, valid, "result weight", " (0 to 1)")?;
            }
            other => return Err(format!("unknown option {other:?}; {}", usage())),
        }
    }
    let init = init
        .map(|path| initial_network::<P>(path, adds_to_hand))
        .transpose()?;
    let init_buckets = init.as_ref().map(Network::output_buckets);
    let buckets = buckets.or(init_buckets).unwrap_or(1);
    if let Some(from) = init_buckets
        && from != 1
        && from != buckets
    {
        return Err(format!(
            "--init has {from} output buckets: it continues with {from}, or splits one into --buckets {buckets}"
        ));
    }
    let init_hidden = init.as_ref().map(Network::hidden);
    let hidden = hidden.or(init_hidden).unwrap_or(DEFAULT_HIDDEN);
    if let Some(from) = init_hidden
        && from > hidden
    {
        return Err(format!(
            "--init has {from} hidden values per side: it continues with {from}, or widens to more (--hidden {hidden} is fewer)"
        ));
    }
    let shape = Shape {
        features: P::FEATURES,
        hidden,
        buckets,
    };
    let started = Instant::now();
    let hand = adds_to_hand.then_some(hand);
    let (train, validation) = match validation_file {
        Some(file) => (
            load(data, &parse, hand, (false, buckets, result_weight))?.0,
            load(file, &parse, hand, (false, buckets, 0.0))?.0,
        ),
        None => load(data, &parse, hand, (true, buckets, result_weight))?,
    };
    eprintln!(
        "{} training and {} validation positions read in {:.1} s",
        train.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let mut rng = SplitMix64::new(seed);
    // Drawn even when a network is given, so that the shuffles are a fresh run's.
    let mut w = random(shape, &mut rng);
    if let Some(network) = &init {
        w = network.to_float();
        if w.output_bias.len() != buckets {
            // One output becomes every bucket's: the same network to begin with.
            w.output = w.output.repeat(buckets);
            w.output_bias = w.output_bias.repeat(buckets);
        }
        if network.hidden() != hidden {
            w = widen(&w, hidden, &mut rng);
        }
    }
    let mut losses = vec![validation_loss(&w, &validation, k)];
    if let Some(network) = &init {
        eprintln!(
            "starting from {}: validation {:.6}",
            network.name(),
            losses[0]
        );
    }
    let mut adam = Adam {
        m: zeros(shape),
        v: zeros(shape),
        step: 0,
    };
    let mut grads: Vec<Weights> = (0..THREADS).map(|_| zeros(shape)).collect();
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for epoch in 0..epochs {
        let lr = if epoch * 10 >= epochs * 9 {
            learning_rate / 9.0
        } else if epoch * 3 >= epochs * 2 {
            learning_rate / 3.0
        } else {
            learning_rate
        };
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut loss = 0.0;
        for batch in order.chunks(BATCH) {
            let share = batch.len().div_ceil(THREADS);
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(share))
                    .map(|(grad, part)| {
                        let (w, train) = (&w, &train);
                        scope.spawn(move || {
                            clear(grad);
                            backward(w, train, part, (k, shrink), grad)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(0.0))
                    .collect()
            });
            loss += losses.iter().sum::<f64>();
            let (first, others) = grads.split_at_mut(1);
            let used = batch.len().div_ceil(share);
            for other in &others[..used - 1] {
                add(&mut first[0], other);
            }
            adam.apply(&mut w, &first[0], lr, 1.0 / batch.len() as f32);
        }
        losses.push(validation_loss(&w, &validation, k));
        eprintln!(
            "epoch {:>3}: train {:.6} validation {:.6} ({:.0} s)",
            epoch + 1,
            loss / train.len() as f64,
            losses[epoch + 1],
            started.elapsed().as_secs_f64()
        );
    }
    let network = Network::from_float(name, P::GAME, adds_to_hand, P::FEATURES, &w)
        .map_err(|e| e.to_string())?;
    // How far integer rounding moves the evaluations, in centipawns.
    let mut drift = 0.0;
    let checked = validation.len().min(2000);
    for i in 0..checked {
        let (mine, theirs) = validation.views(i);
        let (mut us, mut them) = (vec![0.0f32; hidden], vec![0.0f32; hidden]);
        accumulate(&w, mine, &mut us);
        accumulate(&w, theirs, &mut them);
        let bucket = usize::from(validation.buckets[i]);
        let float_cp = forward(&w, &us, &them, bucket) * SCALE as f32;
        let quantised_cp = network.evaluate_inputs::<P>(mine, theirs).unwrap_or(0);
        drift += f64::from((float_cp - quantised_cp as f32).abs());
    }
    eprintln!(
        "quantisation moves evaluations by {:.2} cp on average",
        drift / checked.max(1) as f64
    );
    let bytes = network.to_bytes();
    std::fs::File::create(out)
        .and_then(|mut f| f.write_all(&bytes))
        .map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "wrote {out} ({} bytes) in {:.0} s",
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(losses)
}

/// `check GAME DATA NETWORK K`: the mean squared error of the hand evaluation and of
/// the network (as the engine evaluates with it) against DATA's labels. Run it on
/// positions from other games than the training data's: positions held out of the same
/// games flatter a network that learnt those games.
fn check<P: NetworkInput>(
    args: &[String],
    parse: impl Fn(&str) -> Option<P>,
    evaluate: &dyn Fn(&P, &'static Network) -> (i32, i32),
) -> Result<(), String> {
    let [_, _, data, network, k] = args else {
        return Err(usage());
    };
    let k: f32 = k.parse().map_err(|_| format!("bad K {k:?}"))?;
    let bytes = std::fs::read(network).map_err(|e| format!("{network}: {e}"))?;
    let network: &'static Network = Box::leak(Box::new(
        Network::from_bytes(&bytes).map_err(|e| format!("{network}: {e}"))?,
    ));
    network
        .check_input::<P>()
        .map_err(|e| format!("{}: {e}", network.name()))?;
    let file = std::fs::File::open(data).map_err(|e| format!("{data}: {e}"))?;
    let (mut hand_loss, mut network_loss, mut count) = (0.0f64, 0.0f64, 0usize);
    let mut moved = 0.0f64;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("{data}: {e}"))?;
        let Some((fen, p, _)) = labelled_line(&line) else {
            continue;
        };
        let Some(pos) = parse(fen) else {
            continue;
        };
        let target = if pos.turn() == Side::White {
            p
        } else {
            1.0 - p
        };
        let (hand, with_network) = evaluate(&pos, network);
        let error = |cp: i32| f64::from(sigmoid(k * cp as f32 / SCALE as f32) - target);
        hand_loss += error(hand).powi(2);
        network_loss += error(with_network).powi(2);
        moved += f64::from((with_network - hand).abs());
        count += 1;
    }
    let n = count.max(1) as f64;
    println!(
        "{count} positions: hand {:.6}, {} {:.6}; the network moves evaluations by {:.1} cp on average",
        hand_loss / n,
        network.name(),
        network_loss / n,
        moved / n
    );
    Ok(())
}

fn usage() -> String {
    "usage: train_nnue chess|xiangqi|draughts DATA OUT NAME EPOCHS K [--seed N] \
     [--adds-to-hand] [--validation FILE] [--shrink S] [--init NETWORK] [--learning-rate LR] \
     [--buckets N] [--hidden N] [--result-weight W]\n\
     \x20      train_nnue check chess|xiangqi|draughts DATA NETWORK K"
        .to_owned()
}

fn chess(fen: &str) -> Option<Chess> {
    Chess::from_fen(fen, CastlingMode::Standard).ok()
}

/// An International draughts position from a `RULES FEN` text (other rule sets: none).
fn international(text: &str) -> Option<Draughts> {
    let (rules, fen) = text.split_once(' ')?;
    let rules: RuleSet = rules.parse().ok()?;
    let pos = Draughts::from_fen(fen, rules).ok()?;
    pos.has_network_inputs().then_some(pos)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("check") => match args.get(1).map(String::as_str) {
            Some("chess") => check::<Chess>(&args, chess, &|pos, network| {
                let with = NnueEvaluator::new(ChessEvaluator, Some(network));
                (ChessEvaluator.evaluate(pos), with.evaluate(pos))
            }),
            Some("xiangqi") => {
                check::<Xiangqi>(&args, |fen| Xiangqi::from_fen(fen).ok(), &|pos, network| {
                    let with = NnueEvaluator::new(XiangqiEvaluator, Some(network));
                    (XiangqiEvaluator.evaluate(pos), with.evaluate(pos))
                })
            }
            Some("draughts") => check::<Draughts>(&args, international, &|pos, network| {
                let with = NnueEvaluator::new(DraughtsEvaluator, Some(network));
                (DraughtsEvaluator.evaluate(pos), with.evaluate(pos))
            }),
            _ => Err(usage()),
        },
        Some("chess") => {
            train::<Chess>(&args, chess, &|pos| ChessEvaluator.evaluate(pos)).map(drop)
        }
        Some("xiangqi") => train::<Xiangqi>(&args, |fen| Xiangqi::from_fen(fen).ok(), &|pos| {
            XiangqiEvaluator.evaluate(pos)
        })
        .map(drop),
        Some("draughts") => {
            train::<Draughts>(&args, international, &|pos| DraughtsEvaluator.evaluate(pos))
                .map(drop)
        }
        _ => Err(usage()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of random games from the start, a few from each.
    fn random_positions(count: usize, seed: u64) -> Vec<Chess> {
        let mut rng = SplitMix64::new(seed);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut pos = Chess::new();
            for _ in 0..40 + rng.below(60) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                if rng.below(8) == 0 {
                    positions.push(pos.clone());
                }
            }
        }
        positions.truncate(count);
        positions
    }

    /// White's expected score as the hand evaluation sees it: a label a network can learn.
    fn label(pos: &Chess) -> f32 {
        let cp = ChessEvaluator.evaluate(pos) as f32;
        let mover = sigmoid(2.0 * cp / 400.0);
        if pos.turn() == Side::White {
            mover
        } else {
            1.0 - mover
        }
    }

    fn write_data(dir: &std::path::Path, name: &str, positions: &[Chess]) -> String {
        let path = dir.join(name);
        let text: String = positions
            .iter()
            .map(|pos| format!("{};{:.4}\n", pos.fen(), label(pos)))
            .collect();
        std::fs::write(&path, text).expect("a temporary file");
        path.to_string_lossy().into_owned()
    }

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn run(list: &[&str]) -> Result<Vec<f64>, String> {
        train::<Chess>(&args(list), chess, &|pos| ChessEvaluator.evaluate(pos))
    }

    fn dataset(positions: &[Chess], buckets: usize, adds_to_hand: bool) -> Dataset {
        let mut data = Dataset::new(buckets);
        for pos in positions {
            let base = if adds_to_hand {
                ChessEvaluator.evaluate(pos) as f32 / SCALE as f32
            } else {
                0.0
            };
            data.push(pos, label(pos), base, |i| i);
        }
        data
    }

    /// One kind of weight of a network.
    type Field = fn(&mut Weights) -> &mut Vec<f32>;

    /// The gradient `backward` sums is the loss's, as finite differences measure it,
    /// for every kind of weight, with several buckets, a hand evaluation and `shrink`.
    #[test]
    fn gradients_match_finite_differences() {
        let positions = random_positions(12, 3);
        let data = dataset(&positions, 3, true);
        let batch: Vec<u32> = (0..data.len() as u32).collect();
        let mut rng = SplitMix64::new(11);
        const HIDDEN: usize = DEFAULT_HIDDEN;
        let shape = Shape {
            features: Chess::FEATURES,
            hidden: HIDDEN,
            buckets: 3,
        };
        let mut w = random(shape, &mut rng);
        w.output_bias = vec![0.3, -0.2, 0.1];
        let (k, shrink) = (2.0, 0.05);
        let mut grad = zeros(shape);
        backward(&w, &data, &batch, (k, shrink), &mut grad);
        let mut scratch = zeros(shape);
        let mut loss_with = |w: &Weights| backward(w, &data, &batch, (k, shrink), &mut scratch);
        // Weights the batch uses: rows of features present in its positions.
        let (first, _) = data.views(0);
        let used_feature = usize::from(first[0]) * HIDDEN;
        let picks: [(&str, Field, Vec<usize>); 4] = [
            (
                "feature",
                |w| &mut w.feature,
                (0..HIDDEN).step_by(37).map(|j| used_feature + j).collect(),
            ),
            (
                "feature bias",
                |w| &mut w.feature_bias,
                (0..HIDDEN).step_by(29).collect(),
            ),
            (
                "output",
                |w| &mut w.output,
                (0..6 * HIDDEN).step_by(97).collect(),
            ),
            ("output bias", |w| &mut w.output_bias, vec![0, 1, 2]),
        ];
        let mut checked = 0;
        for (what, field, indices) in picks {
            for i in indices {
                let eps = 1e-3f32;
                let mut plus = w.clone();
                field(&mut plus)[i] += eps;
                let mut minus = w.clone();
                field(&mut minus)[i] -= eps;
                let numeric = (loss_with(&plus) - loss_with(&minus)) / f64::from(2.0 * eps);
                let analytic = f64::from(field(&mut grad.clone())[i]);
                assert!(
                    (numeric - analytic).abs() <= 1e-5 + 0.01 * analytic.abs(),
                    "{what}[{i}]: numeric {numeric}, backward {analytic}"
                );
                checked += usize::from(analytic != 0.0);
            }
        }
        assert!(checked > 20, "only {checked} nonzero gradients checked");
    }

    #[test]
    fn training_learns_and_is_reproducible() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let data = write_data(dir.path(), "data.txt", &random_positions(400, 1));
        let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let (a, b, c) = (out("a.tbnn"), out("b.tbnn"), out("c.tbnn"));
        let train_to = |out: &str, extra: &[&str]| {
            let options = ["--validation", &data, "--learning-rate", "0.01"];
            let list = [
                &["chess", &data, out, "NAME", "8", "2.0"][..],
                &options,
                extra,
            ]
            .concat();
            run(&list).expect("trains")
        };
        let losses = train_to(&a, &[]);
        assert_eq!(losses.len(), 9);
        assert!(losses[8] < losses[0] * 0.8, "validation losses {losses:?}");
        train_to(&b, &[]);
        let read = |path: &str| std::fs::read(path).expect("a written network");
        assert_eq!(read(&a), read(&b), "the same run twice");
        train_to(&c, &["--seed", "2"]);
        assert_ne!(read(&a), read(&c), "another seed");
        let network = Network::from_bytes(&read(&a)).expect("a valid network");
        assert_eq!(network.name(), "NAME");
        assert!(!network.adds_to_hand());
    }

    /// `--init` continues from a network: it starts at that network's loss, and a split
    /// into buckets or a widening starts at the same loss as the network it copies.
    #[test]
    fn init_continues_and_splits_into_buckets() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let data = write_data(dir.path(), "data.txt", &random_positions(300, 4));
        let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let (base, one, split) = (out("base.tbnn"), out("one.tbnn"), out("split.tbnn"));
        let wide = out("wide.tbnn");
        let first = [
            "chess",
            &data,
            &base,
            "base",
            "4",
            "1.6",
            "--adds-to-hand",
            "--validation",
            &data,
        ];
        let trained = run(&first).expect("trains");
        let more = |out: &str, extra: &[&str]| {
            let list = [
                &["chess", &data, out, "more", "2", "1.6", "--adds-to-hand"][..],
                &["--validation", &data, "--init", &base],
                extra,
            ]
            .concat();
            run(&list).expect("continues")
        };
        let continued = more(&one, &[]);
        let split_losses = more(&split, &["--buckets", "4"]);
        // The file holds the quantised network: close to where training ended. (The
        // labels are the hand evaluation at K = 2, so there is a correction to learn at 1.6.)
        assert!(
            (continued[0] - trained[4]).abs() < 0.05 * trained[4],
            "{continued:?} after {trained:?}"
        );
        assert!(
            (split_losses[0] - continued[0]).abs() < 1e-9,
            "{split_losses:?} vs {continued:?}"
        );
        let split = Network::from_bytes(&std::fs::read(&split).expect("written")).expect("valid");
        assert_eq!(split.output_buckets(), 4);
        assert!(split.adds_to_hand());
        let wide_losses = more(&wide, &["--hidden", "320", "--learning-rate", "0.05"]);
        assert!(
            (wide_losses[0] - continued[0]).abs() < 1e-9,
            "{wide_losses:?} vs {continued:?}"
        );
        let wide = Network::from_bytes(&std::fs::read(&wide).expect("written")).expect("valid");
        assert_eq!((wide.hidden(), wide.name()), (320, "more"));
        // Training gave the new values a say.
        let output = wide.to_float().output;
        assert!(output[256..320].iter().any(|w| *w != 0.0), "{output:?}");
    }

    #[test]
    fn bad_runs_are_refused_by_name() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let data = write_data(dir.path(), "data.txt", &random_positions(60, 5));
        let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        let (whole, four, refused) = (out("whole.tbnn"), out("four.tbnn"), out("x.tbnn"));
        run(&["chess", &data, &whole, "whole", "1", "2.0"]).expect("trains");
        run(&["chess", &data, &four, "four", "1", "2.0", "--buckets", "4"]).expect("trains");
        let error = |extra: &[&str]| {
            let list = [&["chess", &data, &refused, "x", "1", "2.0"][..], extra].concat();
            run(&list).expect_err("refused")
        };
        assert!(error(&["--buckets", "0"]).contains("bad bucket count"));
        assert!(error(&["--buckets", "17"]).contains("bad bucket count"));
        assert!(error(&["--learning-rate", "-1"]).contains("bad learning rate"));
        for width in ["0", "100", "544"] {
            assert!(error(&["--hidden", width]).contains("bad hidden size"));
        }
        assert!(error(&["--init", &whole, "--hidden", "64"]).contains("--init has 256 hidden"));
        assert!(error(&["--frobnicate"]).contains("unknown option"));
        assert!(error(&["--init", &whole, "--adds-to-hand"]).contains("adds to the hand"));
        assert!(
            error(&["--init", &four, "--buckets", "2"]).contains("--init has 4 output buckets")
        );
        let missing = out("missing.txt");
        assert!(error(&["--validation", &missing]).contains("missing.txt"));
        let xiangqi = train::<Xiangqi>(
            &args(&[
                "xiangqi",
                &data,
                &out("y.tbnn"),
                "y",
                "1",
                "1.0",
                "--init",
                &whole,
            ]),
            |fen| Xiangqi::from_fen(fen).ok(),
            &|pos| XiangqiEvaluator.evaluate(pos),
        );
        assert!(xiangqi.is_err(), "a chess network read as a xiangqi one");
        assert!(
            !std::path::Path::new(&out("x.tbnn")).exists(),
            "nothing written"
        );
    }

    /// `--result-weight` blends a line's game result into its training target, never
    /// into the validation target, and names a line that lacks the result.
    #[test]
    fn result_weight_blends_game_results_into_training_targets() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // White to move, with castling rights: no mirror image is added.
        let white = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        let mut text = String::new();
        for n in 0..100 {
            let fen = if n % 2 == 0 { white } else { black };
            text.push_str(&format!("{fen};0.2;1\n"));
        }
        let path = dir.path().join("blend.txt");
        std::fs::write(&path, &text).expect("a temporary file");
        let path = path.to_string_lossy().into_owned();
        let load_with = |weight: f32| load(&path, &chess, None, (true, 1, weight)).expect("reads");
        let (train, validation) = load_with(0.25);
        assert_eq!((train.len(), validation.len()), (98, 2));
        let near = |targets: &[f32], expected: &[f32]| {
            targets.len() == expected.len()
                && targets
                    .iter()
                    .zip(expected)
                    .all(|(t, e)| (t - e).abs() < 1e-6)
        };
        // Targets are the side to move's: 0.75 × 0.2 + 0.25 × 1 = 0.4 for White.
        assert!(
            near(&train.targets[..2], &[0.4, 0.6]),
            "{:?}",
            &train.targets[..2]
        );
        assert!(
            near(&validation.targets, &[0.8, 0.8]),
            "{:?}",
            validation.targets
        );
        let (plain, _) = load_with(0.0);
        assert!(
            near(&plain.targets[..2], &[0.2, 0.8]),
            "{:?}",
            &plain.targets[..2]
        );

        let two_fields = dir.path().join("two.txt");
        std::fs::write(&two_fields, format!("{white};0.2\n")).expect("a temporary file");
        let two_fields = two_fields.to_string_lossy().into_owned();
        let Err(error) = load(&two_fields, &chess, None, (true, 1, 0.5)) else {
            panic!("a line without a result was read");
        };
        assert!(
            error.contains("line 1") && error.contains("--result-weight"),
            "{error}"
        );
        let out = dir.path().join("x.tbnn").to_string_lossy().into_owned();
        for bad in ["1.5", "-0.1", "x"] {
            let refused = run(&[
                "chess",
                &path,
                &out,
                "x",
                "1",
                "2.0",
                "--result-weight",
                bad,
            ]);
            assert!(refused.expect_err("refused").contains("bad result weight"));
        }
    }

    #[test]
    fn labelled_lines_hold_scores_from_0_to_1() {
        assert_eq!(labelled_line("F;0.25"), Some(("F", 0.25, None)));
        assert_eq!(labelled_line("F; 1 ;0.5"), Some(("F", 1.0, Some(0.5))));
        for bad in [
            "F",
            "F;",
            "F;x",
            "F;nan",
            "F;1.5",
            "F;-0.1",
            "F;0.5;2",
            "F;0.5;inf",
        ] {
            assert_eq!(labelled_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn mirrored_fen_turns_the_board_and_en_passant_file() {
        let fen = "rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b - e3 0 3";
        let turned = mirrored_fen(fen);
        assert_eq!(
            turned,
            "rnbkqbnr/pppp1ppp/8/8/3Pp3/2N5/PPP1PPPP/R1BKQBNR b - d3 0 3"
        );
        assert_eq!(mirrored_fen(&turned), fen);
        let pos = chess(&turned).expect("a legal position");
        let mut count = 0;
        pos.active_features(&mut |_| count += 1);
        assert_eq!(count, 32);
    }
}
