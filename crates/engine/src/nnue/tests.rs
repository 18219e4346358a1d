use super::*;
use tablero_chess::Chess;
use tablero_core::{Position, SplitMix64};
use tablero_draughts::{Draughts, RuleSet};
use tablero_xiangqi::Xiangqi;

use crate::{
    ChessEvaluator, DraughtsEvaluator, Engine, Evaluator, Limits, NnueEvaluator, XiangqiEvaluator,
};

/// A network of small random weights: not trained, but every input and hidden value
/// matters, so any bookkeeping slip changes its answers.
fn random_network<P: NetworkInput>(seed: u64) -> Network {
    random_network_with_buckets::<P>(seed, 1)
}

fn random_network_with_buckets<P: NetworkInput>(seed: u64, buckets: usize) -> Network {
    random_network_of::<P>(seed, buckets, DEFAULT_HIDDEN)
}

fn random_network_of<P: NetworkInput>(seed: u64, buckets: usize, hidden: usize) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut weights = |n: usize, limit: u64| -> Vec<i16> {
        (0..n)
            .map(|_| (rng.below(2 * limit + 1) as i64 - limit as i64) as i16)
            .collect()
    };
    let feature_weights = weights(P::FEATURES * hidden, 120);
    let feature_bias = weights(hidden, 200);
    let output_weights = weights(buckets * 2 * hidden, 127);
    let output_bias = (0..buckets as i32).map(|b| 1234 - 300 * b).collect();
    Network::new(
        "random",
        P::GAME,
        false,
        P::FEATURES,
        feature_weights,
        feature_bias,
        output_weights,
        output_bias,
    )
    .expect("weights within the limits")
}

/// A chess network of zeros, `hidden` wide, with one output of two sides' weights
/// whatever the number of `output_bias` buckets.
fn zero_chess_network(hidden: usize, output_bias: Vec<i32>) -> Result<Network, NetworkError> {
    Network::new(
        "x",
        "chess",
        false,
        768,
        vec![0; 768 * hidden],
        vec![0; hidden],
        vec![0; 2 * hidden],
        output_bias,
    )
}

fn playout<P: Position>(start: P, plies: usize, seed: u64) -> Vec<P> {
    let mut rng = SplitMix64::new(seed);
    let mut line = vec![start];
    for _ in 0..plies {
        let pos = line.last().expect("the start").clone();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mut next = pos;
        next.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        line.push(next);
    }
    line
}

fn updates_match_refreshes<P: NetworkInput>(start: P) {
    for (buckets, hidden) in [
        (1, DEFAULT_HIDDEN),
        (8, DEFAULT_HIDDEN),
        (1, MAX_HIDDEN),
        (2, 96),
    ] {
        let network = random_network_of::<P>(7, buckets, hidden);
        assert_eq!(network.hidden(), hidden);
        updates_match_refreshes_with(&network, &start);
    }
}

fn updates_match_refreshes_with<P: NetworkInput>(network: &Network, start: &P) {
    for seed in 0..20 {
        let line = playout(start.clone(), 200, seed);
        let mut acc = Accumulator::default();
        network.refresh(&line[0], &mut acc);
        for pair in line.windows(2) {
            let mut next = Accumulator::default();
            network.update(&pair[0], &pair[1], &acc, &mut next);
            let mut fresh = Accumulator::default();
            network.refresh(&pair[1], &mut fresh);
            assert_eq!(next, fresh, "seed {seed}");
            assert_eq!(
                network.evaluate(&pair[1], &next),
                network.evaluate_scalar(&pair[1], &next)
            );
            acc = next;
        }
    }
}

#[test]
fn chess_updates_match_refreshes_along_random_games() {
    updates_match_refreshes(Chess::new());
}

#[test]
fn xiangqi_updates_match_refreshes_along_random_games() {
    updates_match_refreshes(Xiangqi::new());
}

#[test]
fn draughts_updates_match_refreshes_along_random_games() {
    // A multi-capture changes many inputs at once, a crowning a man into a king.
    updates_match_refreshes(Draughts::new(RuleSet::International));
}

#[test]
fn draughts_networks_read_international_positions_only() {
    let network: &'static Network = Box::leak(Box::new(random_network::<Draughts>(13)));
    let evaluator = NnueEvaluator::new(DraughtsEvaluator, Some(network));
    let international = playout(Draughts::new(RuleSet::International), 30, 3);
    let pos = international.last().expect("a position");
    assert_ne!(evaluator.evaluate(pos), DraughtsEvaluator.evaluate(pos));
    for rules in RuleSet::ALL
        .into_iter()
        .filter(|r| *r != RuleSet::International)
    {
        for pos in playout(Draughts::new(rules), 40, 1) {
            assert!(!pos.has_network_inputs());
            assert_eq!(evaluator.evaluate(&pos), DraughtsEvaluator.evaluate(&pos));
        }
        let start = Draughts::new(rules);
        let limits = Limits::depth(5);
        let hand = Engine::new(DraughtsEvaluator, 1).go(&start, &[], &limits);
        let wrapped = Engine::new(evaluator, 1).go(&start, &[], &limits);
        assert_eq!((hand.nodes, hand.best), (wrapped.nodes, wrapped.best));
    }
}

#[test]
fn the_views_are_mirror_images() {
    // The start is symmetric: each side's view of it is the same, so the network scores
    // it identically whoever is to move.
    let network = random_network::<Chess>(3);
    let mut acc = Accumulator::default();
    network.refresh(&Chess::new(), &mut acc);
    assert_eq!(acc.views[0], acc.views[1]);
    let network = random_network::<Xiangqi>(3);
    network.refresh(&Xiangqi::new(), &mut acc);
    assert_eq!(acc.views[0], acc.views[1]);
    let network = random_network::<Draughts>(3);
    network.refresh(&Draughts::new(RuleSet::International), &mut acc);
    assert_eq!(acc.views[0], acc.views[1]);
}

#[test]
fn files_round_trip_and_damage_is_named() {
    let network = random_network::<Chess>(11);
    let bytes = network.to_bytes();
    assert_eq!(Network::from_bytes(&bytes), Ok(network.clone()));
    assert_eq!(network.check_input::<Chess>(), Ok(()));
    assert!(matches!(
        network.check_input::<Xiangqi>(),
        Err(NetworkError::WrongGame { .. })
    ));

    let mut flipped = bytes.clone();
    flipped[100] ^= 1;
    assert_eq!(Network::from_bytes(&flipped), Err(NetworkError::Checksum));
    assert_eq!(
        Network::from_bytes(&bytes[..3]),
        Err(NetworkError::NotANetwork)
    );
    assert_eq!(
        Network::from_bytes(b"not a network at all"),
        Err(NetworkError::NotANetwork)
    );
    let mut cut = bytes[..bytes.len() - 5000].to_vec();
    let checksum = fnv1a(&cut);
    cut.extend_from_slice(&checksum.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&cut),
        Err(NetworkError::Truncated("feature weights"))
    );

    let mut weights = vec![0; 768 * DEFAULT_HIDDEN];
    weights[5] = MAX_FEATURE_WEIGHT + 1;
    let too_big = Network::new(
        "x",
        "chess",
        false,
        768,
        weights,
        vec![0; DEFAULT_HIDDEN],
        vec![0; 2 * DEFAULT_HIDDEN],
        vec![0],
    );
    assert!(matches!(
        too_big,
        Err(NetworkError::WeightRange {
            part: "feature weights",
            ..
        })
    ));
}

#[test]
fn without_a_network_the_wrapper_is_the_hand_evaluation() {
    let pos = playout(Chess::new(), 30, 5).pop().expect("a position");
    let wrapped = NnueEvaluator::new(ChessEvaluator, None);
    assert_eq!(wrapped.evaluate(&pos), ChessEvaluator.evaluate(&pos));
    let limits = Limits::depth(6);
    let hand = Engine::new(ChessEvaluator, 1).go(&pos, &[], &limits);
    let plain = Engine::new(wrapped, 1).go(&pos, &[], &limits);
    assert_eq!(hand.nodes, plain.nodes);
    assert_eq!(hand.best, plain.best);
}

#[test]
fn searches_with_a_network_use_its_scores() {
    let network: &'static Network = Box::leak(Box::new(random_network::<Xiangqi>(9)));
    let evaluator = NnueEvaluator::new(XiangqiEvaluator, Some(network));
    let pos = Xiangqi::new();
    let mut acc = Accumulator::default();
    network.refresh(&pos, &mut acc);
    assert_eq!(evaluator.evaluate(&pos), network.evaluate(&pos, &acc));
    assert_ne!(evaluator.evaluate(&pos), XiangqiEvaluator.evaluate(&pos));
    let result = Engine::new(evaluator, 1).go(&pos, &[], &Limits::depth(4));
    assert!(result.best.is_some());
}

#[test]
fn only_positions_without_castling_rights_mirror() {
    assert!(!Chess::new().is_mirror_symmetric());
    let late = Chess::from_fen(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        tablero_chess::CastlingMode::Standard,
    )
    .expect("a position");
    assert!(late.is_mirror_symmetric());
    assert!(Xiangqi::new().is_mirror_symmetric());
}

#[test]
fn a_correcting_network_adds_to_the_hand_evaluation() {
    let whole = random_network::<Chess>(21);
    let bytes = whole.to_bytes();
    // The kind byte follows the name and the game.
    let at = 4 + 4 + 2 + "random".len() + 2 + "chess".len();
    let mut correcting = bytes[..bytes.len() - 8].to_vec();
    correcting[at] = 1;
    let checksum = fnv1a(&correcting);
    correcting.extend_from_slice(&checksum.to_le_bytes());
    let correcting: &'static Network = Box::leak(Box::new(
        Network::from_bytes(&correcting).expect("a valid file"),
    ));
    assert!(correcting.adds_to_hand() && !whole.adds_to_hand());
    let pos = playout(Chess::new(), 20, 4).pop().expect("a position");
    let mut acc = Accumulator::default();
    correcting.refresh(&pos, &mut acc);
    let evaluator = NnueEvaluator::new(ChessEvaluator, Some(correcting));
    assert_eq!(
        evaluator.evaluate(&pos),
        ChessEvaluator.evaluate(&pos) + correcting.evaluate(&pos, &acc)
    );
    let mut bad_kind = bytes[..bytes.len() - 8].to_vec();
    bad_kind[at] = 7;
    let checksum = fnv1a(&bad_kind);
    bad_kind.extend_from_slice(&checksum.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad_kind),
        Err(NetworkError::NotANetwork)
    );
}

#[test]
fn a_network_for_another_game_reads_nothing_outside_its_weights() {
    let chess: &'static Network = Box::leak(Box::new(random_network::<Chess>(5)));
    let evaluator = NnueEvaluator::new(XiangqiEvaluator, Some(chess));
    let line = playout(Xiangqi::new(), 30, 2);
    let mut acc = Accumulator::default();
    chess.refresh(&line[0], &mut acc);
    let mut next = Accumulator::default();
    chess.update(&line[0], &line[1], &acc, &mut next);
    assert_eq!(next, acc, "only the bias");
    assert!(evaluator.evaluate(&line[1]).abs() <= 20_000);
}

#[test]
fn float_weights_round_trip_and_out_of_range_ones_are_refused() {
    let network = random_network::<Xiangqi>(5);
    let mut float = network.to_float();
    let rebuilt = Network::from_float(
        network.name(),
        network.game(),
        network.adds_to_hand(),
        Xiangqi::FEATURES,
        &float,
    );
    assert_eq!(rebuilt, Ok(network.clone()));

    float.output[3] = 100.0;
    assert!(matches!(
        Network::from_float("big", "xiangqi", false, Xiangqi::FEATURES, &float),
        Err(NetworkError::WeightRange {
            part: "output weights",
            ..
        })
    ));
    float.output.pop();
    assert_eq!(
        Network::from_float("short", "xiangqi", false, Xiangqi::FEATURES, &float),
        Err(NetworkError::Truncated("output weights"))
    );
}

#[test]
fn the_piece_count_picks_the_output_bucket() {
    let network = random_network_with_buckets::<Chess>(17, 8);
    assert_eq!(network.output_buckets(), 8);
    // Chess: 1-4 pieces read bucket 0, 5-8 bucket 1, ... 29-32 bucket 7.
    let buckets: Vec<usize> = [2, 4, 5, 8, 9, 16, 17, 28, 29, 32]
        .iter()
        .map(|&pieces| network.output_bucket::<Chess>(pieces))
        .collect();
    assert_eq!(buckets, [0, 0, 1, 1, 2, 3, 4, 6, 7, 7]);
    assert_eq!(random_network::<Chess>(17).output_bucket::<Chess>(32), 0);
    assert_eq!(network.output_bucket::<Draughts>(40), 7);
    assert_eq!(network.output_bucket::<Draughts>(5), 0);

    // Each bucket is its own output: the start (32 pieces) reads the last one, and
    // an endgame (3 pieces) the first.
    let mut acc = Accumulator::default();
    let start = Chess::new();
    network.refresh(&start, &mut acc);
    assert_eq!(
        network.evaluate(&start, &acc),
        network.evaluate_bucket(&acc, start.turn(), 7)
    );
    assert_ne!(
        network.evaluate(&start, &acc),
        network.evaluate_bucket(&acc, start.turn(), 0)
    );
    let late = Chess::from_fen(
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        tablero_chess::CastlingMode::Standard,
    )
    .expect("a position");
    network.refresh(&late, &mut acc);
    assert_eq!(
        network.evaluate(&late, &acc),
        network.evaluate_bucket(&acc, late.turn(), 0)
    );
    // A trainer's inputs pick the same bucket: white to move, so White's view first.
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    late.active_features(&mut |[white, black]| {
        mine.push(white as u16);
        theirs.push(black as u16);
    });
    assert_eq!(
        network.evaluate_inputs::<Chess>(&mine, &theirs),
        Some(network.evaluate(&late, &acc))
    );
}

#[test]
fn bucketed_files_round_trip_and_one_bucket_files_keep_version_one() {
    let one = random_network::<Chess>(11).to_bytes();
    assert_eq!(one[4..8], 1u32.to_le_bytes());
    let network = random_network_with_buckets::<Xiangqi>(11, 8);
    let bytes = network.to_bytes();
    assert_eq!(bytes[4..8], 2u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bytes), Ok(network.clone()));
    assert_eq!(
        Network::from_float(
            network.name(),
            network.game(),
            false,
            Xiangqi::FEATURES,
            &network.to_float()
        ),
        Ok(network.clone())
    );

    // The bucket count follows the hidden size.
    let at = 4 + 4 + 2 + "random".len() + 2 + "xiangqi".len() + 1 + 4 + 4;
    for count in [0u32, 17] {
        let mut bad = bytes[..bytes.len() - 8].to_vec();
        bad[at..at + 4].copy_from_slice(&count.to_le_bytes());
        let checksum = fnv1a(&bad);
        bad.extend_from_slice(&checksum.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bad),
            Err(NetworkError::OutputBuckets(count as usize))
        );
    }
    let mut nine = bytes[..bytes.len() - 8].to_vec();
    nine[at..at + 4].copy_from_slice(&9u32.to_le_bytes());
    let checksum = fnv1a(&nine);
    nine.extend_from_slice(&checksum.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&nine),
        Err(NetworkError::Truncated("output weights"))
    );
    assert_eq!(
        zero_chess_network(DEFAULT_HIDDEN, vec![0, 0]),
        Err(NetworkError::Truncated("output weights"))
    );
}

/// Networks of any width the format allows are read back as written; other widths are
/// named, from a file or from weights.
#[test]
fn widths_round_trip_and_bad_widths_are_refused() {
    for hidden in [HIDDEN_STEP, DEFAULT_HIDDEN, MAX_HIDDEN] {
        let network = random_network_of::<Chess>(3, 2, hidden);
        assert_eq!(
            Network::from_bytes(&network.to_bytes()),
            Ok(network.clone())
        );
        let float = network.to_float();
        assert_eq!(float.feature_bias.len(), hidden);
        let back = Network::from_float("random", "chess", false, 768, &float);
        assert_eq!(back, Ok(network));
    }
    for hidden in [0, 48, MAX_HIDDEN + HIDDEN_STEP] {
        assert_eq!(
            zero_chess_network(hidden, vec![0]),
            Err(NetworkError::HiddenSize(hidden))
        );
    }
    // A file announcing a width this build cannot hold is refused before its weights
    // are read.
    let mut bytes = random_network::<Chess>(3).to_bytes();
    let at = bytes.len() - 8;
    let header = 4 + 4 + 2 + "random".len() + 2 + "chess".len() + 1 + 4;
    bytes[header..header + 4].copy_from_slice(&1024u32.to_le_bytes());
    let checksum = fnv1a(&bytes[..at]);
    bytes[at..].copy_from_slice(&checksum.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bytes),
        Err(NetworkError::HiddenSize(1024))
    );
}

/// A wider network whose extra values have no output weight evaluates exactly as the
/// narrower one: what `train_nnue --hidden` relies on when it widens a network.
#[test]
fn padding_a_network_with_silent_values_changes_no_evaluation() {
    let narrow = random_network_of::<Chess>(5, 2, DEFAULT_HIDDEN);
    let float = narrow.to_float();
    let wide = MAX_HIDDEN;
    let mut padded = float.clone();
    padded.feature = float
        .feature
        .chunks_exact(DEFAULT_HIDDEN)
        .flat_map(|row| {
            let extra = (0..wide - DEFAULT_HIDDEN).map(|j| ((j % 7) as f32 - 3.0) * 0.05);
            row.iter().copied().chain(extra)
        })
        .collect();
    padded.feature_bias.resize(wide, 0.25);
    padded.output = float
        .output
        .chunks_exact(DEFAULT_HIDDEN)
        .flat_map(|half| {
            half.iter()
                .copied()
                .chain(std::iter::repeat_n(0.0, wide - DEFAULT_HIDDEN))
        })
        .collect();
    let wide = Network::from_float("wide", "chess", false, 768, &padded).expect("in range");
    for pos in playout(Chess::new(), 120, 9) {
        let (mut a, mut b) = (Accumulator::default(), Accumulator::default());
        narrow.refresh(&pos, &mut a);
        wide.refresh(&pos, &mut b);
        assert_eq!(narrow.evaluate(&pos, &a), wide.evaluate(&pos, &b));
    }
}
