//! Texel tuning of the Ajedrez 3D evaluation.
//!
//! ```text
//! tune_chess3d generate GAMES NODES OUT   # self-play, writes "POSITION;result" lines
//! tune_chess3d label IN OUT EVERY NODES K LAMBDA   # blends in a deeper search's verdict
//! tune_chess3d tune DATA EPOCHS > crates/engine/src/eval/chess3d_weights.rs
//! ```
//!
//! `generate` plays the engine against itself (NODES per move, two threads) from the
//! start with a per-game random seed and 2 to 5 random plies, and keeps the quiet
//! positions of each game (the engine's move is no capture and the side to move's
//! dama is not trapped: attacked with no safe square) labelled with the game's result for White. `label` replaces
//! or blends the results with the engine's own deeper search, the only chess3d judge
//! there is. `tune` fits the weights so that `sigmoid(K × eval)` predicts the labels
//! (least squares, Adam), after choosing K for the current weights, and prints the
//! new weights file.

pub(crate) mod texel;

use tablero_chess3d::{Chess3d, Game, Move, Outcome};
use tablero_engine::{Chess3dEvaluator, Engine, EvalTrace, Evaluator};

pub(crate) struct Chess3dTuning;

impl texel::Tuning for Chess3dTuning {
    const GAME: &'static str = "chess3d";
    type Player = Engine<Chess3dEvaluator>;

    fn player() -> Self::Player {
        Engine::new(Chess3dEvaluator, 16)
    }

    fn self_play(player: &Self::Player, seed: u64, nodes: u64) -> Vec<String> {
        self_play(player, seed, nodes)
    }

    fn trace(fen: &str) -> Option<EvalTrace> {
        Chess3dEvaluator::trace(&Chess3d::from_position_string(fen).ok()?)
    }

    fn search(player: &Self::Player, fen: &str, nodes: u64) -> Option<i32> {
        let pos = Chess3d::from_position_string(fen).ok()?;
        Some(texel::searched_score(player, &pos, nodes))
    }

    /// A small table: `label` clears it before every position.
    fn labeller() -> Self::Player {
        Engine::new(Chess3dEvaluator, 2)
    }

    fn weights() -> &'static [(i32, i32)] {
        Chess3dEvaluator::weights()
    }

    /// One, as rustfmt lays the file out.
    const PER_ROW: usize = 1;
}

fn main() {
    texel::main::<Chess3dTuning>();
}

fn self_play(engine: &Engine<Chess3dEvaluator>, seed: u64, nodes: u64) -> Vec<String> {
    let start = Chess3d::start(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let plies = 2 + (seed % 4) as usize;
    let Some(pos) = texel::random_opening(start, plies, seed, 0x0033_6463) else {
        return Vec::new();
    };
    // The game ends itself by a dama capture, no moves, repetition or the 100-ply rule.
    texel::self_play_game::<Game, _>(engine, pos, nodes, |pos, result| {
        let best = result.best?;
        let capture = pos.board().side_at(best.to()).is_some();
        let harassed = engine.evaluator().must_resolve(pos);
        (!capture && !harassed).then(|| pos.position_string())
    })
}

impl texel::Record for Game {
    type Pos = Chess3d;

    fn start(start: Chess3d) -> Game {
        Game::new(start)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn position(&self) -> &Chess3d {
        Game::position(self)
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn play(&mut self, m: Move) -> bool {
        Game::play(self, m).is_ok()
    }
}
