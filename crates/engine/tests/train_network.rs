//! `scripts/train-network` end to end on a tiny chess recipe (a few games at 100 nodes
//! a move, Stockfish labels, one epoch, then a refinement on a sample labelled deeper,
//! one on the whole batch at that depth and one that widens the network on two batches
//! together): it writes a network by the recipe's name, the refinement trains on the
//! sample it drew from its batch, the whole-batch one on the sample's labels followed
//! by the rest's, the widening on both batches' labels, a second run resumes
//! from the files already made, and a run in another directory gives the same network
//! byte for byte; a malformed recipe is refused before anything is made.
//!
//! `scripts/test` installs Stockfish and python-chess (into `target/pyenv`); without
//! them the test says it was skipped, except under CI.
#![allow(clippy::unwrap_used)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use tablero_engine::nnue::Network;

mod reference;

use reference::{python_with, root};

/// The debug builds of the examples the script runs, built (or found up to date) here
/// so that the script need not build them in release.
fn examples() -> PathBuf {
    let built = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["build", "-p", "tablero-engine", "--example", "tune_chess"])
        .args(["--example", "train_nnue"])
        .status()
        .unwrap();
    assert!(built.success());
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(root().join("target"), PathBuf::from);
    target.join("debug/examples")
}

fn run(dir: &Path, examples: &Path, refinements: &str) -> std::process::Output {
    Command::new(root().join("scripts/train-network"))
        .args(["chess", dir.to_str().unwrap(), "tablero-chess-test"])
        .env("TRAIN_NETWORK_EXAMPLES", examples)
        .env("TRAIN_NETWORK_BATCHES", "0:3:100")
        .env("TRAIN_NETWORK_VALIDATION", "900000:1:100")
        .env("TRAIN_NETWORK_REFINEMENTS", refinements)
        .env("TRAIN_NETWORK_EPOCHS", "1")
        .output()
        .unwrap()
}

fn train(dir: &Path, examples: &Path) {
    let out = run(
        dir,
        examples,
        "300000:3:100:1:0.0003:40:4 300000+:3:100:1:0.0003:40:4 0,300000:3:100:1:0.0003:::288",
    );
    let messages = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{messages}");
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn train_network_runs_a_recipe_with_a_sampled_refinement() {
    if python_with("chess", "/usr/games/stockfish").is_none() {
        return;
    }
    let examples = examples();
    let base = std::env::temp_dir().join(format!("tablero-train-network-{}", std::process::id()));
    let (first, second) = (base.join("first"), base.join("second"));
    train(&first, &examples);

    let network = std::fs::read(first.join("chess.tbnn")).unwrap();
    let refined = Network::from_bytes(&network).unwrap();
    assert_eq!(refined.name(), "tablero-chess-test");
    assert_eq!(refined.game(), "chess");
    let trained = Network::from_bytes(&std::fs::read(first.join("chess-base.tbnn")).unwrap());
    assert_eq!(
        trained.unwrap().name(),
        "tablero-chess-2",
        "the recipe's base network"
    );
    assert_eq!(
        std::fs::read(first.join("chess-0,300000.tbnn")).unwrap(),
        network
    );
    assert_eq!(refined.hidden(), 288, "widened by the last refinement");
    let sampled = Network::from_bytes(&std::fs::read(first.join("chess-300000.tbnn")).unwrap());
    assert_eq!(sampled.unwrap().hidden(), 256);
    // The widening trained on both batches' labels, in the order listed.
    let both = [
        lines(&first.join("chess-0-labelled.txt")),
        lines(&first.join("chess-300000-labelled.txt")),
    ]
    .concat();
    assert_eq!(lines(&first.join("chess-0,300000-labelled.txt")), both);

    // The refinement labels a sample of its batch, to its depth.
    let batch: HashSet<String> = lines(&first.join("chess-300000-positions.txt"))
        .into_iter()
        .collect();
    assert!(batch.len() > 40, "{} positions", batch.len());
    let sample = lines(&first.join("chess-300000-sample40-positions.txt"));
    assert_eq!(sample.len(), 40);
    assert!(sample.iter().all(|line| batch.contains(line)));
    let labelled = lines(&first.join("chess-300000-sample40-d4-labelled.txt"));
    let fens: Vec<&str> = labelled
        .iter()
        .map(|l| l.split(';').next().unwrap())
        .collect();
    let sampled: Vec<&str> = sample
        .iter()
        .map(|l| l.split(';').next().unwrap())
        .collect();
    assert_eq!(fens, sampled);

    // The whole batch to that depth: the sample's labels as they were, then the
    // batch's other positions in batch order.
    let rest = lines(&first.join("chess-300000-rest40-positions.txt"));
    let in_sample: HashSet<&String> = sample.iter().collect();
    let expected_rest: Vec<String> = lines(&first.join("chess-300000-positions.txt"))
        .into_iter()
        .filter(|line| !in_sample.contains(line))
        .collect();
    assert_eq!(rest, expected_rest);
    let whole = lines(&first.join("chess-300000-whole40-d4-labelled.txt"));
    assert_eq!(whole.len(), labelled.len() + rest.len());
    assert_eq!(whole[..labelled.len()], labelled[..]);
    let rest_fens: Vec<&str> = whole[labelled.len()..]
        .iter()
        .map(|l| l.split(';').next().unwrap())
        .collect();
    let expected_fens: Vec<&str> = rest.iter().map(|l| l.split(';').next().unwrap()).collect();
    assert_eq!(rest_fens, expected_fens);
    assert!(first.join("chess-300000+.tbnn").exists());

    // A second run resumes: it plays and labels nothing again, and trains the same.
    let batch_file = first.join("chess-0-positions.txt");
    let made = std::fs::metadata(&batch_file).unwrap().modified().unwrap();
    train(&first, &examples);
    assert_eq!(
        std::fs::metadata(&batch_file).unwrap().modified().unwrap(),
        made
    );
    assert_eq!(std::fs::read(first.join("chess.tbnn")).unwrap(), network);

    // From nothing in another directory: the same games, labels and network.
    train(&second, &examples);
    for file in [
        "chess-0-positions.txt",
        "chess-0-labelled.txt",
        "chess-300000-sample40-d4-labelled.txt",
        "chess-300000-whole40-d4-labelled.txt",
        "chess.tbnn",
    ] {
        assert_eq!(
            std::fs::read(first.join(file)).unwrap(),
            std::fs::read(second.join(file)).unwrap(),
            "{file}"
        );
    }

    // A malformed refinement (a sample but no depth, a width or a batch that is not a
    // number, a missing rate, a whole batch without a sample) is refused by name
    // before anything is played.
    let refused = base.join("refused");
    for bad in [
        "300000:3:100:1:0.0003:40",
        "300000:3:100:1:0.0003:::wide",
        "300000,x:3:100:1:0.0003",
        "300000:3:100:1",
        "300000+:3:100:1:0.0003",
    ] {
        let out = run(&refused, &examples, &format!("300000:3:100:1:0.0003 {bad}"));
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let messages = String::from_utf8_lossy(&out.stderr);
        assert!(
            messages.contains(&format!("refinement '{bad}' is not")),
            "{messages}"
        );
        assert_eq!(std::fs::read_dir(&refused).unwrap().count(), 0);
    }
    std::fs::remove_dir_all(&base).unwrap();
}
