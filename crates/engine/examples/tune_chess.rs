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

pub(crate) mod texel;

use tablero_chess::{CastlingMode, Chess, Game};
use tablero_engine::{ChessEvaluator, Engine, EvalTrace, Limits};

pub(crate) struct ChessTuning;

impl texel::Tuning for ChessTuning {
    const GAME: &'static str = "chess";
    type Player = Engine<ChessEvaluator>;

    fn player() -> Self::Player {
        Engine::new(ChessEvaluator, 16)
    }

    fn self_play(player: &Self::Player, seed: u64, nodes: u64) -> Vec<String> {
        self_play(player, seed, nodes)
    }

    fn trace(fen: &str) -> Option<EvalTrace> {
        let pos = Chess::from_fen(fen, CastlingMode::Standard).ok()?;
        Some(ChessEvaluator::trace(&pos))
    }

    fn search(player: &Self::Player, fen: &str, nodes: u64) -> Option<i32> {
        let pos = Chess::from_fen(fen, CastlingMode::Standard).ok()?;
        Some(texel::searched_score(player, &pos, nodes))
    }

    fn weights() -> &'static [(i32, i32)] {
        ChessEvaluator::weights()
    }

    /// One, as rustfmt lays the file out.
    const PER_ROW: usize = 1;
}

fn main() {
    texel::main::<ChessTuning>();
}

fn self_play(engine: &Engine<ChessEvaluator>, seed: u64, nodes: u64) -> Vec<String> {
    let Some(pos) = texel::random_opening(Chess::new(), 8, seed, 0x0074_6578_656c) else {
        return Vec::new();
    };
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
    texel::labelled(quiet, outcome)
}
