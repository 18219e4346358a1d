//! Texel tuning of the xiangqi evaluation.
//!
//! ```text
//! tune_xiangqi generate GAMES NODES OUT     # self-play, writes "FEN;result" lines
//! tune_xiangqi tune DATA EPOCHS > crates/engine/src/eval/xiangqi_weights.rs
//! ```
//!
//! `generate` plays the engine against itself (NODES per move, two threads) from
//! openings of 6 random plies, and keeps the quiet positions of each game (not in
//! check, and the engine's move there is not a capture) labelled with the game's
//! result for red. `tune` fits the weights so that `sigmoid(K × eval)` predicts the
//! labels (least squares, Adam), after choosing K for the current weights, and prints
//! the new weights file.
//!
//! A label may be any expected score in 0..=1 for red: `scripts/label-with-fairy-stockfish`
//! replaces the game results with Fairy-Stockfish's judgement (see docs/engine.md
//! "Tuning").

pub(crate) mod texel;

use tablero_engine::{Engine, EvalTrace, XiangqiEvaluator};
use tablero_xiangqi::{Game, Move, Outcome, Xiangqi};

pub(crate) struct XiangqiTuning;

impl texel::Tuning for XiangqiTuning {
    const GAME: &'static str = "xiangqi";
    type Player = Engine<XiangqiEvaluator>;

    fn player() -> Self::Player {
        Engine::new(XiangqiEvaluator, 16)
    }

    fn self_play(player: &Self::Player, seed: u64, nodes: u64) -> Vec<String> {
        self_play(player, seed, nodes)
    }

    fn trace(fen: &str) -> Option<EvalTrace> {
        let pos = Xiangqi::from_fen(fen).ok()?;
        Some(XiangqiEvaluator::trace(&pos))
    }

    fn search(player: &Self::Player, fen: &str, nodes: u64) -> Option<i32> {
        let pos = Xiangqi::from_fen(fen).ok()?;
        Some(texel::searched_score(player, &pos, nodes))
    }

    fn weights() -> &'static [(i32, i32)] {
        XiangqiEvaluator::weights()
    }

    /// Nine, so that each row of a piece-square block is a rank.
    const PER_ROW: usize = 9;
}

fn main() {
    texel::main::<XiangqiTuning>();
}

fn self_play(engine: &Engine<XiangqiEvaluator>, seed: u64, nodes: u64) -> Vec<String> {
    let Some(pos) = texel::random_opening(Xiangqi::new(), 6, seed, 0x0078_7167) else {
        return Vec::new();
    };
    // The game ends itself by mate, stalemate, repetition or the move limit.
    texel::self_play_game::<Game, _>(engine, pos, nodes, |pos, result| {
        let best = result.best?;
        (!pos.is_check() && !pos.is_capture(best)).then(|| pos.fen())
    })
}

impl texel::Record for Game {
    type Pos = Xiangqi;

    fn start(start: Xiangqi) -> Game {
        Game::new(start)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn position(&self) -> &Xiangqi {
        Game::position(self)
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn play(&mut self, m: Move) -> bool {
        Game::play(self, m).is_ok()
    }
}
