//! Texel tuning of the draughts evaluation, all six rule sets at once.
//!
//! ```text
//! tune_draughts generate GAMES NODES OUT   # self-play, writes "RULES FEN;result" lines
//! tune_draughts label IN OUT EVERY NODES K LAMBDA   # blends in a deeper search's verdict
//! tune_draughts tune DATA EPOCHS > crates/engine/src/eval/draughts_weights.rs
//! ```
//!
//! `generate` plays the engine against itself (NODES per move, two threads), game `n`
//! in the rule set `n mod 6` of [`RuleSet::ALL`], from openings of 4 to 7 random
//! plies, and keeps the quiet positions of each game (no capture to make) labelled
//! with the game's result for White. Each rule set has its own block of weights, so
//! the fit tunes six evaluations side by side. `TUNE_DRAUGHTS_RULES=international`
//! (any rule set's id) makes every game one of that rule set instead, as training a
//! network for it needs (docs/nnue.md). `tune` fits the weights so that
//! `sigmoid(K × eval)` predicts the labels (least squares, Adam), after choosing K for
//! the current weights, and prints the new weights file.
//!
//! No draughts engine stronger than tablero installs from the registries to label the
//! positions, so the labels come from the engine's own games: `label` (in `texel`)
//! keeps every EVERY-th position of IN, searches it for NODES nodes and writes the
//! blend `LAMBDA × sigmoid(K × score) + (1 − LAMBDA) × result` (K as `tune` prints it
//! for the game results), so that each label says something about its own position
//! rather than only about the game it came from (see docs/engine.md "Tuning").

pub(crate) mod texel;

use tablero_draughts::{Draughts, Game, Move, Outcome, RuleSet};
use tablero_engine::{DraughtsEvaluator, Engine, EvalTrace};

pub(crate) struct DraughtsTuning;

impl texel::Tuning for DraughtsTuning {
    const GAME: &'static str = "draughts";
    type Player = Engine<DraughtsEvaluator>;

    fn player() -> Self::Player {
        Engine::new(DraughtsEvaluator, 16)
    }

    fn self_play(player: &Self::Player, seed: u64, nodes: u64) -> Vec<String> {
        self_play(player, seed, nodes)
    }

    /// `fen` is a rule-set id and a PDN FEN, separated by a space.
    fn trace(fen: &str) -> Option<EvalTrace> {
        let (rules, fen) = fen.split_once(' ')?;
        let pos = Draughts::from_fen(fen, rules.parse().ok()?).ok()?;
        Some(DraughtsEvaluator::trace(&pos))
    }

    fn search(player: &Self::Player, fen: &str, nodes: u64) -> Option<i32> {
        let (rules, fen) = fen.split_once(' ')?;
        let pos = Draughts::from_fen(fen, rules.parse().ok()?).ok()?;
        Some(texel::searched_score(player, &pos, nodes))
    }

    /// A small table: `label` clears it before every position.
    fn labeller() -> Self::Player {
        Engine::new(DraughtsEvaluator, 2)
    }

    fn weights() -> &'static [(i32, i32)] {
        DraughtsEvaluator::weights()
    }

    /// One, as rustfmt lays the file out.
    const PER_ROW: usize = 1;

    /// Each rule set's block is scaled so that a man is worth 100 in the middlegame,
    /// the unit the search's margins are set in.
    fn anchor(weights: &mut [(f64, f64)]) {
        for block in weights.chunks_mut(DraughtsEvaluator::FEATURES_PER_RULE_SET) {
            let man = block[DraughtsEvaluator::MAN_FEATURE].0;
            if man > 1.0 {
                for w in block {
                    w.0 *= 100.0 / man;
                    w.1 *= 100.0 / man;
                }
            }
        }
    }
}

fn main() {
    // Checked before any game is played or any file written.
    if let Err(e) = chosen_rule_set() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    texel::main::<DraughtsTuning>();
}

/// Names the one rule set `generate` plays, if set.
const RULES_VARIABLE: &str = "TUNE_DRAUGHTS_RULES";

/// The rule set [`RULES_VARIABLE`] names, if it is set.
fn chosen_rule_set() -> Result<Option<RuleSet>, String> {
    match std::env::var(RULES_VARIABLE) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(id) => id
            .parse()
            .map(Some)
            .map_err(|e| format!("{RULES_VARIABLE}: {e}")),
        Err(e) => Err(format!("{RULES_VARIABLE}: {e}")),
    }
}

fn self_play(engine: &Engine<DraughtsEvaluator>, seed: u64, nodes: u64) -> Vec<String> {
    let rule_set = chosen_rule_set()
        .ok()
        .flatten()
        .unwrap_or(RuleSet::ALL[(seed % 6) as usize]);
    let plies = 4 + (seed / 6 % 4) as usize;
    let start = Draughts::new(rule_set);
    let Some(pos) = texel::random_opening(start, plies, seed, 0x6472_6175) else {
        return Vec::new();
    };
    // The game ends itself by a side without moves or by the rule set's draw rules.
    texel::self_play_game::<Game, _>(engine, pos, nodes, |pos, _| {
        (!pos.has_capture()).then(|| format!("{} {}", rule_set.id(), pos.fen()))
    })
}

impl texel::Record for Game {
    type Pos = Draughts;

    fn start(start: Draughts) -> Game {
        Game::new(start)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn position(&self) -> &Draughts {
        Game::position(self)
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn play(&mut self, m: Move) -> bool {
        Game::play(self, m).is_ok()
    }
}
