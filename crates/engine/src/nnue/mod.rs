//! Efficiently updatable neural network evaluation (NNUE) for chess, xiangqi and
//! International draughts.
//!
//! The network is `(FEATURES → hidden) × 2 → 1`: one input per piece kind and square,
//! seen from each side (the board turned for Black), a shared feature transformer
//! into the network's `hidden` values per side (a multiple of [`HIDDEN_STEP`] up to
//! [`MAX_HIDDEN`]; [`DEFAULT_HIDDEN`] unless it was trained wider), a clipped square
//! (`clamp(x, 0, 1)²`), and one output neuron over the side to move's half followed
//! by the other side's. A network may hold several output neurons, *buckets*, of
//! which the number of pieces on the board picks one ([`Network::output_bucket`]): an
//! endgame is then read by other weights than an opening, at no cost to the
//! transformer. The transformer's sums, the *accumulator*, change by a few rows per
//! move, so the search keeps one per ply and updates it from the parent's
//! ([`Network::update`]) instead of summing every piece again.
//!
//! Weights are quantised as in most engines that use such networks: the transformer
//! in `i16` at scale [`QA`], the output weights at [`QB`], so an evaluation is integer
//! arithmetic throughout and the same on every machine. The file format and its
//! checks are in [`Network::from_bytes`]; `examples/train_nnue.rs` trains and writes
//! networks, `docs/nnue.md` tells how.

mod embedded;
mod evaluator;
mod features;
mod kernels;

use std::fmt;

use tablero_core::Side;

pub use embedded::{
    CHESS_NETWORK_VARIABLE, DRAUGHTS_NETWORK_VARIABLE, XIANGQI_NETWORK_VARIABLE, chess_network,
    draughts_network, xiangqi_network,
};
pub use evaluator::NnueEvaluator;
pub use features::NetworkInput;

/// Values per side after the feature transformer of a network trained with no other
/// width asked for.
pub const DEFAULT_HIDDEN: usize = 256;
/// The widest transformer a network may have: what an [`Accumulator`] holds room for.
pub const MAX_HIDDEN: usize = 512;
/// A transformer's width is a multiple of this: the output loop's lanes (see
/// `kernels`).
pub const HIDDEN_STEP: usize = 32;
/// The transformer's quantisation: 1.0 is stored as 255, so the clipped range is
/// `0..=QA`.
pub const QA: i32 = 255;
/// The output weights' quantisation: 1.0 is stored as 64.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's (unquantised) output.
pub const SCALE: i32 = 400;
/// The largest transformer weight or bias magnitude a file may hold, so that a
/// position's accumulator (a bias plus one row per piece) stays within `i16`.
pub const MAX_FEATURE_WEIGHT: i16 = 512;
/// The largest output weight magnitude a file may hold, so that the output's lane
/// sums stay within `i32` (see `kernels`).
pub const MAX_OUTPUT_WEIGHT: i16 = 1000;

/// The most output buckets a file may hold.
pub const MAX_OUTPUT_BUCKETS: usize = 16;

const MAGIC: &[u8; 4] = b"TBNN";
/// Files of one output bucket, which have no bucket count.
const VERSION_ONE_BUCKET: u32 = 1;
/// Files with a bucket count after the hidden size.
const VERSION_BUCKETS: u32 = 2;

/// Why bytes are not a usable network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file does not start with `TBNN` and a version this build reads.
    #[error(
        "not a tablero network file (expected magic TBNN, version {VERSION_ONE_BUCKET} or {VERSION_BUCKETS})"
    )]
    NotANetwork,
    /// The file ends before the part named.
    #[error("network file truncated: {0} missing")]
    Truncated(&'static str),
    /// The file holds more bytes than its header announces.
    #[error("network file has {0} bytes after its checksum")]
    TrailingBytes(usize),
    /// The checksum over the contents does not match.
    #[error("network file corrupt: checksum mismatch")]
    Checksum,
    /// The network is for another game or input layout.
    #[error("network is for {found} with {features} inputs, expected {expected}")]
    WrongGame {
        /// The game the file names.
        found: String,
        /// Its input count.
        features: usize,
        /// What the caller needs.
        expected: String,
    },
    /// The transformer's width is not one an [`Accumulator`] can hold.
    #[error(
        "network has {0} hidden values per side, expected a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}"
    )]
    HiddenSize(usize),
    /// The output bucket count is zero or above [`MAX_OUTPUT_BUCKETS`].
    #[error("network has {0} output buckets, expected 1 to {MAX_OUTPUT_BUCKETS}")]
    OutputBuckets(usize),
    /// A weight is outside the range the integer arithmetic relies on.
    #[error("network weight {value} in {part} exceeds ±{limit}")]
    WeightRange {
        /// Which layer.
        part: &'static str,
        /// The offending value.
        value: i16,
        /// The bound.
        limit: i16,
    },
    /// The name is not UTF-8.
    #[error("network name is not UTF-8")]
    Name,
}

/// A network's weights before quantisation, as a trainer holds them (1.0 is 1.0):
/// `examples/train_nnue.rs` trains these and turns them into a [`Network`] with
/// [`Network::from_float`].
#[derive(Debug, Clone, PartialEq)]
pub struct FloatWeights {
    /// The transformer's weights, `features × hidden`, input by input.
    pub feature: Vec<f32>,
    /// The transformer's bias, one per hidden value: its length is the network's
    /// width.
    pub feature_bias: Vec<f32>,
    /// The output weights, bucket by bucket: `hidden` for the side to move's values,
    /// then as many for the other side's.
    pub output: Vec<f32>,
    /// The output biases, one per bucket.
    pub output_bias: Vec<f32>,
}

/// A quantised network, read from a `.tbnn` file.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    name: String,
    game: String,
    /// Whether the network's output is a correction added to the game's hand
    /// evaluation rather than an evaluation of its own.
    adds_to_hand: bool,
    features: usize,
    /// The transformer's width: values per side.
    hidden: usize,
    /// `features × hidden`, row by row.
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// Bucket by bucket, the side to move's `hidden` weights, then the other side's.
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("name", &self.name)
            .field("game", &self.game)
            .field("adds_to_hand", &self.adds_to_hand)
            .field("features", &self.features)
            .field("hidden", &self.hidden)
            .field("output_buckets", &self.output_bias.len())
            .finish_non_exhaustive()
    }
}

/// The transformer's sums for both sides' views of one position. It has room for the
/// widest network; a narrower one uses the start of each view (the rest is never
/// read, so it costs no cache).
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(align(64))]
pub struct Accumulator {
    /// Indexed by [`Side::index`]: White's view, then Black's.
    views: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            views: [[0; MAX_HIDDEN]; 2],
        }
    }
}

/// The most feature changes one update handles before it recomputes instead.
const MAX_CHANGES: usize = 8;

impl Network {
    /// A network with the given weights (as a trainer produces them), checked like a
    /// file: the transformer's width is the bias's length (a multiple of
    /// [`HIDDEN_STEP`] up to [`MAX_HIDDEN`]), the other sizes must fit it and
    /// `features`, the weights the limits. With `adds_to_hand` its output is a
    /// correction to the hand evaluation. There are as many output buckets as output
    /// biases, each with `2 × hidden` weights.
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first part out of shape or range.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        game: &str,
        adds_to_hand: bool,
        features: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        let hidden = feature_bias.len();
        check_hidden(hidden)?;
        if Some(feature_weights.len()) != features.checked_mul(hidden) {
            return Err(NetworkError::Truncated("feature weights"));
        }
        let buckets = output_bias.len();
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(NetworkError::OutputBuckets(buckets));
        }
        if output_weights.len() != buckets * 2 * hidden {
            return Err(NetworkError::Truncated("output weights"));
        }
        check_range("feature weights", &feature_weights, MAX_FEATURE_WEIGHT)?;
        check_range("feature bias", &feature_bias, MAX_FEATURE_WEIGHT)?;
        check_range("output weights", &output_weights, MAX_OUTPUT_WEIGHT)?;
        Ok(Network {
            name: name.to_owned(),
            game: game.to_owned(),
            adds_to_hand,
            features,
            hidden,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// Reads a network file: `TBNN`, version (u32), the name and the game (each a
    /// u16 length and UTF-8), whether it adds to the hand evaluation (u8), input count
    /// and hidden size (u32 each), in version 2 the output bucket count (u32; version
    /// 1 has one bucket), the transformer weights and bias and the output weights
    /// (i16 each), the output biases (i32 each), and an FNV-1a checksum (u64) of
    /// everything before it; all little-endian.
    ///
    /// # Errors
    /// A [`NetworkError`] naming what is wrong; nothing is half-read.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (body, checksum) = bytes
            .len()
            .checked_sub(8)
            .map(|at| bytes.split_at(at))
            .ok_or(NetworkError::NotANetwork)?;
        let mut reader = Reader { bytes: body };
        if reader.take(4, "magic")? != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let version = reader.u32("version")?;
        if version != VERSION_ONE_BUCKET && version != VERSION_BUCKETS {
            return Err(NetworkError::NotANetwork);
        }
        let stored = u64::from_le_bytes(checksum.try_into().map_err(|_| NetworkError::Checksum)?);
        if fnv1a(body) != stored {
            return Err(NetworkError::Checksum);
        }
        let name = reader.text("name")?;
        let game = reader.text("game")?;
        let adds_to_hand = match reader.take(1, "kind")? {
            [0] => false,
            [1] => true,
            _ => return Err(NetworkError::NotANetwork),
        };
        let features = reader.u32("input count")? as usize;
        let hidden = reader.u32("hidden size")? as usize;
        check_hidden(hidden)?;
        let buckets = if version == VERSION_BUCKETS {
            reader.u32("output bucket count")? as usize
        } else {
            1
        };
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
            return Err(NetworkError::OutputBuckets(buckets));
        }
        let feature_weights = reader.i16s(features.saturating_mul(hidden), "feature weights")?;
        let feature_bias = reader.i16s(hidden, "feature bias")?;
        let output_weights = reader.i16s(buckets * 2 * hidden, "output weights")?;
        let output_bias = reader
            .take(4 * buckets, "output bias")?
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if !reader.bytes.is_empty() {
            return Err(NetworkError::TrailingBytes(reader.bytes.len()));
        }
        Network::new(
            &name,
            &game,
            adds_to_hand,
            features,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        )
    }

    /// The file [`Network::from_bytes`] reads back as this network: version 1 for
    /// one output bucket (so such files stay as they were), else version 2.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 2 * self.feature_weights.len());
        out.extend_from_slice(MAGIC);
        let buckets = self.output_buckets();
        let version = if buckets == 1 {
            VERSION_ONE_BUCKET
        } else {
            VERSION_BUCKETS
        };
        out.extend_from_slice(&version.to_le_bytes());
        for text in [&self.name, &self.game] {
            let bytes = text.as_bytes();
            out.extend_from_slice(&(bytes.len().min(usize::from(u16::MAX)) as u16).to_le_bytes());
            out.extend_from_slice(&bytes[..bytes.len().min(usize::from(u16::MAX))]);
        }
        out.push(u8::from(self.adds_to_hand));
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if version == VERSION_BUCKETS {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        for part in [
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
        ] {
            for w in part.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// The network's name, which says what it was trained on (`tablero bench` and the
    /// engine's `id` report it).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the network's output is a correction added to the game's hand
    /// evaluation (trained on what the hand evaluation misses) rather than a whole
    /// evaluation.
    #[must_use]
    pub fn adds_to_hand(&self) -> bool {
        self.adds_to_hand
    }

    /// The game the network evaluates.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The transformer's width: hidden values per side.
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// How many output buckets the network holds.
    #[must_use]
    pub fn output_buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// The output bucket that reads a position of `P` with `pieces` pieces on the
    /// board: the buckets split `1..=P::MAX_PIECES` into equal ranges, fewest pieces
    /// first (eight buckets in chess: 1–4 pieces, 5–8, … 29–32).
    #[must_use]
    pub fn output_bucket<P: NetworkInput>(&self, pieces: usize) -> usize {
        output_bucket(self.output_buckets(), pieces, P::MAX_PIECES)
    }

    /// A network from a trainer's float weights, rounded to the integer scales
    /// ([`QA`] for the transformer, [`QB`] for the output weights, `QA × QB` for the
    /// output bias) and checked as [`Network::new`] checks them.
    ///
    /// # Errors
    /// A [`NetworkError`] naming the first part out of shape or range.
    pub fn from_float(
        name: &str,
        game: &str,
        adds_to_hand: bool,
        features: usize,
        weights: &FloatWeights,
    ) -> Result<Network, NetworkError> {
        let quantise = |values: &[f32], scale: i32| -> Vec<i16> {
            values
                .iter()
                .map(|x| (x * scale as f32).round() as i16)
                .collect()
        };
        Network::new(
            name,
            game,
            adds_to_hand,
            features,
            quantise(&weights.feature, QA),
            quantise(&weights.feature_bias, QA),
            quantise(&weights.output, QB),
            weights
                .output_bias
                .iter()
                .map(|b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        )
    }

    /// The weights as floats, which [`Network::from_float`] turns back into this
    /// network: where a trainer that continues from it starts.
    #[must_use]
    pub fn to_float(&self) -> FloatWeights {
        let float = |values: &[i16], scale: i32| -> Vec<f32> {
            values
                .iter()
                .map(|&x| f32::from(x) / scale as f32)
                .collect()
        };
        FloatWeights {
            feature: float(&self.feature_weights, QA),
            feature_bias: float(&self.feature_bias, QA),
            output: float(&self.output_weights, QB),
            output_bias: self
                .output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// Checks that this network reads positions of `P`.
    ///
    /// # Errors
    /// [`NetworkError::WrongGame`] when it was trained for another game or layout.
    pub fn check_input<P: NetworkInput>(&self) -> Result<(), NetworkError> {
        if self.game == P::GAME && self.features == P::FEATURES {
            Ok(())
        } else {
            Err(NetworkError::WrongGame {
                found: self.game.clone(),
                features: self.features,
                expected: format!("{} with {} inputs", P::GAME, P::FEATURES),
            })
        }
    }

    fn row(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The part of `acc` this network uses: both views, `hidden` values each.
    fn views_mut<'a>(&self, acc: &'a mut Accumulator) -> [&'a mut [i16]; 2] {
        let [white, black] = &mut acc.views;
        [&mut white[..self.hidden], &mut black[..self.hidden]]
    }

    fn view<'a>(&self, acc: &'a Accumulator, side: Side) -> &'a [i16] {
        &acc.views[side.index()][..self.hidden]
    }

    /// Sums `pos`'s pieces into `acc` from scratch. A network for another input layout
    /// ([`Network::check_input`] says so) sees no pieces: its answers mean nothing, but
    /// nothing reads outside its weights.
    pub fn refresh<P: NetworkInput>(&self, pos: &P, acc: &mut Accumulator) {
        let [white_view, black_view] = self.views_mut(acc);
        white_view.copy_from_slice(&self.feature_bias);
        black_view.copy_from_slice(&self.feature_bias);
        if self.features != P::FEATURES {
            return;
        }
        pos.active_features(&mut |[white, black]| {
            kernels::add_row(white_view, self.row(white));
            kernels::add_row(black_view, self.row(black));
        });
    }

    /// Sets `child_acc` for `child`, one move (or a pass) after `parent`, from the
    /// parent's accumulator: only the pieces that changed are added or taken away.
    pub fn update<P: NetworkInput>(
        &self,
        parent: &P,
        child: &P,
        parent_acc: &Accumulator,
        child_acc: &mut Accumulator,
    ) {
        if self.features != P::FEATURES {
            self.refresh(child, child_acc);
            return;
        }
        let mut added = [[0usize; 2]; MAX_CHANGES];
        let mut removed = [[0usize; 2]; MAX_CHANGES];
        let (mut adds, mut removes) = (0, 0);
        let mut overflow = false;
        parent.changed_features(child, &mut |is_added, features| {
            let (list, count) = if is_added {
                (&mut added, &mut adds)
            } else {
                (&mut removed, &mut removes)
            };
            match list.get_mut(*count) {
                Some(slot) => {
                    *slot = features;
                    *count += 1;
                }
                None => overflow = true,
            }
        });
        if overflow {
            self.refresh(child, child_acc);
            return;
        }
        for (view, (target, source)) in self
            .views_mut(child_acc)
            .into_iter()
            .zip([Side::White, Side::Black].map(|side| self.view(parent_acc, side)))
            .enumerate()
        {
            let row = |features: &[usize; 2]| self.row(features[view]);
            // Most moves change two or three pieces: one pass then reads each row once.
            match (&added[..adds], &removed[..removes]) {
                ([added], [removed]) => kernels::add_sub(target, source, row(added), row(removed)),
                ([added], [removed, taken]) => {
                    kernels::add_sub_sub(target, source, row(added), [row(removed), row(taken)]);
                }
                (added, removed) => {
                    target.copy_from_slice(source);
                    for features in added {
                        kernels::add_row(target, row(features));
                    }
                    for features in removed {
                        kernels::sub_row(target, row(features));
                    }
                }
            }
        }
    }

    /// The evaluation in centipawns of `pos` for its side to move, from its
    /// accumulator.
    #[must_use]
    pub fn evaluate<P: NetworkInput>(&self, pos: &P, acc: &Accumulator) -> i32 {
        // Most networks have one bucket: no need to count the pieces then.
        let bucket = if self.output_buckets() == 1 {
            0
        } else {
            self.output_bucket::<P>(pos.piece_count())
        };
        self.evaluate_bucket(acc, pos.turn(), bucket)
    }

    /// The evaluation in centipawns for `turn`, the side to move, read by output
    /// `bucket` (the last one if there are fewer).
    #[must_use]
    pub fn evaluate_bucket(&self, acc: &Accumulator, turn: Side, bucket: usize) -> i32 {
        let us = self.view(acc, turn);
        let them = self.view(acc, turn.other());
        let bucket = bucket.min(self.output_buckets() - 1);
        let sum = kernels::output(us, them, self.bucket_weights(bucket));
        self.finish(sum, bucket)
    }

    fn bucket_weights(&self, bucket: usize) -> &[i16] {
        let width = 2 * self.hidden;
        &self.output_weights[bucket * width..(bucket + 1) * width]
    }

    /// The evaluation for the side to move of a position of `P` given by its inputs:
    /// `mine` as the side to move sees the board, `theirs` as the other side does
    /// (what a trainer stores; one input per piece). `None` if an input is outside
    /// the network.
    #[must_use]
    pub fn evaluate_inputs<P: NetworkInput>(&self, mine: &[u16], theirs: &[u16]) -> Option<i32> {
        let mut acc = Accumulator::default();
        for (view, inputs) in self.views_mut(&mut acc).into_iter().zip([mine, theirs]) {
            view.copy_from_slice(&self.feature_bias);
            for &input in inputs {
                let input = usize::from(input);
                if input >= self.features {
                    return None;
                }
                kernels::add_row(view, self.row(input));
            }
        }
        let bucket = self.output_bucket::<P>(mine.len());
        Some(self.evaluate_bucket(&acc, Side::White, bucket))
    }

    /// [`Network::evaluate`] through the one-element-at-a-time output loop.
    #[must_use]
    pub fn evaluate_scalar<P: NetworkInput>(&self, pos: &P, acc: &Accumulator) -> i32 {
        let turn = pos.turn();
        let us = self.view(acc, turn);
        let them = self.view(acc, turn.other());
        let bucket = self.output_bucket::<P>(pos.piece_count());
        let sum = kernels::output_scalar(us, them, self.bucket_weights(bucket));
        self.finish(sum, bucket)
    }

    fn finish(&self, sum: i64, bucket: usize) -> i32 {
        let raw = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        let centipawns = raw * i64::from(SCALE) / i64::from(QA * QB);
        // A network's output is bounded by its weights; the clamp keeps any file well
        // inside the search's mate scores.
        centipawns.clamp(-20_000, 20_000) as i32
    }
}

/// Of `buckets` output buckets, the one for a position with `pieces` of a game's
/// `max_pieces`: what [`Network::output_bucket`] answers, for a trainer that holds no
/// [`Network`] yet.
#[must_use]
pub fn output_bucket(buckets: usize, pieces: usize, max_pieces: usize) -> usize {
    (pieces.saturating_sub(1) * buckets / max_pieces.max(1)).min(buckets.max(1) - 1)
}

fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(NetworkError::HiddenSize(hidden));
    }
    Ok(())
}

fn check_range(part: &'static str, values: &[i16], limit: i16) -> Result<(), NetworkError> {
    match values
        .iter()
        .find(|v| v.unsigned_abs() > limit.unsigned_abs())
    {
        Some(&value) => Err(NetworkError::WeightRange { part, value, limit }),
        None => Ok(()),
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], NetworkError> {
        if self.bytes.len() < n {
            return Err(NetworkError::Truncated(part));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, NetworkError> {
        let bytes = self.take(4, part)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    fn text(&mut self, part: &'static str) -> Result<String, NetworkError> {
        let len = self.take(2, part)?;
        let len = usize::from(u16::from_le_bytes([len[0], len[1]]));
        let bytes = self.take(len, part)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| NetworkError::Name)
    }

    fn i16s(&mut self, n: usize, part: &'static str) -> Result<Vec<i16>, NetworkError> {
        let bytes = self.take(n.checked_mul(2).ok_or(NetworkError::Truncated(part))?, part)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect())
    }
}

#[cfg(test)]
mod tests;
