//! The Texel tuner of `examples/`: the weights files are exactly what it writes, and
//! a fit moves a weight to the value that produced the labels.
#![allow(clippy::unwrap_used)]
// Each tuner is its own crate with its own `texel` module; included here side by
// side, the two copies are two modules of one crate.
#![allow(clippy::duplicate_mod)]

#[allow(dead_code)]
#[path = "../examples/tune_chess.rs"]
mod tune_chess;
#[allow(dead_code)]
#[path = "../examples/tune_chess3d.rs"]
mod tune_chess3d;
#[allow(dead_code)]
#[path = "../examples/tune_draughts.rs"]
mod tune_draughts;
#[allow(dead_code)]
#[path = "../examples/tune_xiangqi.rs"]
mod tune_xiangqi;

use tablero_chess::Chess;
use tablero_chess3d::{Chess3d, Side};
use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::{Chess3dEvaluator, ChessEvaluator, DraughtsEvaluator, XiangqiEvaluator};
use tablero_xiangqi::Xiangqi;

// Each example includes its own copy of `texel`, so each game's tests go through the
// copy its tuner uses; a macro writes them once.
macro_rules! tuner_tests {
    ($tests:ident, $module:ident, $tuning:ty, $trace:expr, $start:expr, $file:literal) => {
        mod $tests {
            use super::*;
            use $module::texel;

            #[test]
            fn the_weights_file_is_what_the_tuner_writes() {
                // `tune DATA 0` must give back the file in use byte for byte, so that
                // a fit's diff shows only changed weights.
                let mut out = Vec::new();
                texel::write_weights::<$tuning>(&mut out, &texel::current_weights::<$tuning>())
                    .unwrap();
                assert_eq!(String::from_utf8(out).unwrap(), include_str!($file));
            }

            /// Labels positions with the evaluation of weights whose last weight (the
            /// tempo in every game; in draughts Italian's) is 100 higher, fits from the
            /// weights in use, and checks that the fit finds the difference.
            #[test]
            fn a_fit_finds_the_weight_behind_its_labels() {
                let start = texel::current_weights::<$tuning>();
                let tempo = start.len() - 1;
                let mut teacher = start.clone();
                teacher[tempo].0 += 100.0;
                teacher[tempo].1 += 100.0;
                let samples: Vec<texel::Sample> = (0..600)
                    .filter_map(|seed| {
                        texel::random_opening($start, 4 + seed as usize % 30, seed, 1)
                    })
                    .filter_map(|pos| $trace(&pos))
                    .map(|trace| {
                        let sample = texel::Sample::new(trace, 0.5);
                        let label = texel::sigmoid(1.0, texel::evaluate(&sample, &teacher));
                        sample.relabelled(label)
                    })
                    .collect();
                let fit = texel::fit(&samples, &start, 400, |_| {});
                assert!(
                    fit.final_error < fit.initial_error / 100.0,
                    "error {} -> {} (K = {})",
                    fit.initial_error,
                    fit.final_error,
                    fit.k
                );
                // Features that go with the side to move in these short openings
                // may take a share of the change; most of it must land on the tempo.
                let found = fit.weights[tempo].0 - start[tempo].0;
                assert!((50.0..150.0).contains(&found), "tempo moved by {found}");
            }
        }
    };
}

tuner_tests!(
    chess,
    tune_chess,
    tune_chess::ChessTuning,
    |p: &Chess| Some(ChessEvaluator::trace(p)),
    Chess::new(),
    "../src/eval/chess_weights.rs"
);
tuner_tests!(
    xiangqi,
    tune_xiangqi,
    tune_xiangqi::XiangqiTuning,
    |p: &Xiangqi| Some(XiangqiEvaluator::trace(p)),
    Xiangqi::new(),
    "../src/eval/xiangqi_weights.rs"
);
tuner_tests!(
    draughts,
    tune_draughts,
    tune_draughts::DraughtsTuning,
    |p: &Draughts| Some(DraughtsEvaluator::trace(p)),
    Draughts::new(RuleSet::Italian),
    "../src/eval/draughts_weights.rs"
);
tuner_tests!(
    chess3d,
    tune_chess3d,
    tune_chess3d::Chess3dTuning,
    Chess3dEvaluator::trace,
    Chess3d::start(7),
    "../src/eval/chess3d_weights.rs"
);

/// `label`: LAMBDA 0 keeps the game's result, LAMBDA 1 gives the search's verdict,
/// which favours the side a man ahead; lines that do not parse are dropped.
#[test]
fn draughts_labels_blend_the_result_with_a_search() {
    use tune_draughts::{DraughtsTuning, texel::relabel};
    let engine = tablero_engine::Engine::new(DraughtsEvaluator, 1);
    let label =
        |line: &str, lambda: f64| relabel::<DraughtsTuning>(&engine, line, 500, 2.0, lambda);
    let line = "english W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11;0";
    let kept = label(line, 0.0).unwrap();
    assert!(kept.ends_with(";0.0000"), "{kept}");
    let searched = label(line, 1.0).unwrap();
    let verdict: f64 = searched.rsplit_once(';').unwrap().1.parse().unwrap();
    assert!(verdict > 0.6 && verdict < 1.0, "{searched}");
    assert!(label("english W:W99:B1;1", 1.0).is_none());
    assert!(label("klingon W:W21:B1;1", 1.0).is_none());
    assert!(label("english W:W21:B1;win", 1.0).is_none());
}

/// The chess3d tuner's traces add up to the evaluation the engine plays with, and a
/// position where the dama can be taken has none (its score is fixed, not weighed).
#[test]
fn chess3d_traces_are_the_evaluation() {
    use tablero_engine::Evaluator;
    let mut checked = 0;
    for seed in 0..200 {
        let Some(pos) = tune_chess3d::texel::random_opening(
            Chess3d::start(seed),
            2 + seed as usize % 40,
            seed,
            3,
        ) else {
            continue;
        };
        let Some(trace) = Chess3dEvaluator::trace(&pos) else {
            continue;
        };
        let white = trace.score(Chess3dEvaluator::weights());
        let expected = match pos.turn() {
            Side::White => white,
            Side::Black => -white,
        };
        assert_eq!(Chess3dEvaluator.evaluate(&pos), expected, "{pos}");
        checked += 1;
    }
    assert!(checked > 150, "{checked}");
    // Black's alfil on 1F1 attacks White's only dama on 1C1 with Black to move.
    let capturable = Chess3d::from_position_string(
        "8/8/8/8/8/8/8/R7|d7/8/a7/8/8/D7/8/8|8/8/8/8/8/8/8/8 b 0 1 0000000000000000",
    )
    .unwrap();
    assert!(Chess3dEvaluator::trace(&capturable).is_none());
}

/// `generate` writes the games in game order whichever of its two threads finishes
/// first, so a batch and any sample drawn from it are the same file on every run.
#[test]
fn generate_writes_the_games_in_order() {
    use texel::Tuning;
    use tune_draughts::{DraughtsTuning, texel};
    let out = std::env::temp_dir().join(format!("tablero-generate-{}.txt", std::process::id()));
    texel::generate::<DraughtsTuning>("8", "300", out.to_str().unwrap(), "40").unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    let player = DraughtsTuning::player();
    let expected: String = (40..48)
        .flat_map(|seed| DraughtsTuning::self_play(&player, seed, 300))
        .map(|line| line + "\n")
        .collect();
    assert!(expected.lines().count() > 100, "{expected}");
    assert_eq!(written, expected);
}
