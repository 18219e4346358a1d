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

use tablero_chess::{CastlingMode, Chess, Game, Move, Outcome};
use tablero_engine::{ChessEvaluator, Engine, EvalTrace};

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
    texel::self_play_game::<Game, _>(engine, pos, nodes, |pos, result| {
        let best = result.best?;
        (!pos.is_check() && !pos.is_capture(best)).then(|| pos.fen())
    })
}

impl texel::Record for Game {
    type Pos = Chess;

    fn start(start: Chess) -> Game {
        Game::new(start)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    /// A claimable draw ends the game: self-play would only shuffle on.
    fn stops(&self) -> bool {
        self.claimable_draw().is_some()
    }
    fn position(&self) -> &Chess {
        Game::position(self)
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn play(&mut self, m: Move) -> bool {
        Game::play(self, m).is_ok()
    }
}
