//! The engine for any game: searches an [`AnyPosition`] and answers in the game's move
//! format, so the command line, UCI/Hub front ends and the server never dispatch by
//! game themselves.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tablero_core::{Side, SplitMix64};
use tablero_engine::nnue::{NetworkInput, chess_network, draughts_network, xiangqi_network};
use tablero_engine::{
    Chess3dEvaluator, ChessEvaluator, DraughtsEvaluator, Engine, Evaluator, Level, Limits,
    NnueEvaluator, SearchInfo, SearchOptions, SearchResult, XiangqiEvaluator,
};

use crate::AnyPosition;
use crate::any::TextPosition;

/// What to search for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// When to stop.
    pub limits: Limits,
    /// Play at this skill level (its own limits apply too); `None` is full strength.
    pub level: Option<Level>,
    /// Lines to report (UCI `MultiPV`); ignored with a level, which sets its own.
    pub multipv: usize,
    /// Search threads.
    pub threads: usize,
    /// Only these root moves (in the game's move format), when not empty.
    pub root_moves: Vec<String>,
    /// Seed of a level's move choice: the same seed, position and limits give the
    /// same move.
    pub seed: u64,
}

/// One line of a report, with moves in the game's move format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLine {
    /// 1 for the best line.
    pub multipv: usize,
    /// Centipawns for the side to move; see [`tablero_engine::score`] for mates.
    pub score: i32,
    /// The principal variation.
    pub pv: Vec<String>,
}

/// A progress report or a final answer, with moves in the game's move format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Per mille of the hash table in use.
    pub hashfull: u32,
    /// The lines, best first.
    pub lines: Vec<TextLine>,
}

/// The answer of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<String>,
    /// The expected reply.
    pub ponder: Option<String>,
    /// The last report.
    pub info: TextInfo,
}

/// How far below even (in centipawns, for itself) the computer's evaluation must be
/// for it to accept a draw offer: it takes a draw when it stands a pawn worse.
pub const DRAW_ACCEPT_MARGIN: i32 = 100;

/// After this many plies the computer also takes a draw in a level position (its
/// evaluation within [`DRAW_LEVEL_WINDOW`] of even): nothing is left to play for.
pub const DRAW_LEVEL_AFTER_PLIES: usize = 60;

/// See [`DRAW_LEVEL_AFTER_PLIES`].
pub const DRAW_LEVEL_WINDOW: i32 = 15;

/// The computer's answer to a draw offer, from its evaluation `score` of the
/// position for itself (centipawns; mate scores as [`tablero_engine::score`]) after
/// `plies` moves of the game: it accepts when it stands worse by at least
/// [`DRAW_ACCEPT_MARGIN`] (or is mated), or when the position is level late in the
/// game, and declines otherwise. The one rule for every front end.
///
/// ```
/// use tablero_games::accepts_draw;
///
/// assert!(accepts_draw(-300, 10));
/// assert!(!accepts_draw(0, 10));
/// assert!(accepts_draw(5, 80));
/// assert!(!accepts_draw(200, 80));
/// ```
#[must_use]
pub fn accepts_draw(score: i32, plies: usize) -> bool {
    score <= -DRAW_ACCEPT_MARGIN
        || (plies >= DRAW_LEVEL_AFTER_PLIES && score.abs() <= DRAW_LEVEL_WINDOW)
}

/// A computer's decision on a draw offer, with the evaluation it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawDecision {
    /// Whether it accepts.
    pub accept: bool,
    /// Its evaluation of the position for itself, in centipawns.
    pub score: i32,
}

/// How the engine judges a position at the end of a line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// The hand-written evaluation with fitted weights alone (every game).
    Hand,
    /// The default: the built-in neural network where the game has one (chess,
    /// xiangqi, International draughts), a correction on top of the hand evaluation;
    /// the hand evaluation elsewhere.
    #[default]
    Network,
}

impl Evaluation {
    /// The name of the network `game` is evaluated with, if any.
    #[must_use]
    pub fn network_name(self, game: &AnyPosition) -> Option<&'static str> {
        if self != Evaluation::Network {
            return None;
        }
        let network = match game {
            AnyPosition::Chess(_) => chess_network(),
            AnyPosition::Xiangqi(_) => xiangqi_network(),
            AnyPosition::Draughts(p) => draughts_network().filter(|_| p.has_network_inputs()),
            AnyPosition::Chess3d(_) => None,
        };
        network.map(tablero_engine::Network::name)
    }
}

impl std::str::FromStr for Evaluation {
    type Err = String;

    fn from_str(s: &str) -> Result<Evaluation, String> {
        match s {
            "hand" => Ok(Evaluation::Hand),
            "nnue" | "network" => Ok(Evaluation::Network),
            _ => Err(format!("evaluation {s:?}: expected hand or nnue")),
        }
    }
}

impl std::fmt::Display for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Evaluation::Hand => "hand",
            Evaluation::Network => "nnue",
        })
    }
}

#[derive(Debug)]
enum Inner {
    Chess(Engine<NnueEvaluator<ChessEvaluator>>),
    Xiangqi(Engine<NnueEvaluator<XiangqiEvaluator>>),
    Draughts(Engine<NnueEvaluator<DraughtsEvaluator>>),
    Chess3d(Engine<Chess3dEvaluator>),
}

/// An engine for one game kind, keeping its hash table from search to search.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tablero_engine::Limits;
/// use tablero_games::{AnyEngine, AnyPosition, SearchRequest};
///
/// let game = AnyPosition::new("chess", None, None).unwrap();
/// let engine = AnyEngine::for_game(&game, 16);
/// let request = SearchRequest { limits: Limits::depth(3), ..SearchRequest::default() };
/// let result = engine.search(&game, &[], &request, &AtomicBool::new(false), |_| {});
/// assert!(game.legal_moves_text().contains(&result.best.unwrap()));
/// ```
#[derive(Debug)]
pub struct AnyEngine {
    inner: Inner,
}

impl AnyEngine {
    /// An engine for the kind of `game`, with about `hash_mb` MiB of hash table and
    /// the default [`Evaluation`].
    #[must_use]
    pub fn for_game(game: &AnyPosition, hash_mb: usize) -> AnyEngine {
        AnyEngine::with_evaluation(game, hash_mb, Evaluation::default())
    }

    /// An engine for the kind of `game` that evaluates positions by `evaluation`.
    #[must_use]
    pub fn with_evaluation(
        game: &AnyPosition,
        hash_mb: usize,
        evaluation: Evaluation,
    ) -> AnyEngine {
        let network = evaluation == Evaluation::Network;
        let inner = match game {
            AnyPosition::Chess(_) => Inner::Chess(Engine::new(
                NnueEvaluator::new(ChessEvaluator, chess_network().filter(|_| network)),
                hash_mb,
            )),
            AnyPosition::Xiangqi(_) => Inner::Xiangqi(Engine::new(
                NnueEvaluator::new(XiangqiEvaluator, xiangqi_network().filter(|_| network)),
                hash_mb,
            )),
            AnyPosition::Draughts(_) => Inner::Draughts(Engine::new(
                NnueEvaluator::new(DraughtsEvaluator, draughts_network().filter(|_| network)),
                hash_mb,
            )),
            AnyPosition::Chess3d(_) => Inner::Chess3d(Engine::new(Chess3dEvaluator, hash_mb)),
        };
        AnyEngine { inner }
    }

    /// Whether this engine searches positions of `game`'s kind.
    #[must_use]
    pub fn plays(&self, game: &AnyPosition) -> bool {
        matches!(
            (&self.inner, game),
            (Inner::Chess(_), AnyPosition::Chess(_))
                | (Inner::Xiangqi(_), AnyPosition::Xiangqi(_))
                | (Inner::Draughts(_), AnyPosition::Draughts(_))
                | (Inner::Chess3d(_), AnyPosition::Chess3d(_))
        )
    }

    /// Replaces the hash table with one of `hash_mb` MiB.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        match &mut self.inner {
            Inner::Chess(e) => e.resize_hash(hash_mb),
            Inner::Xiangqi(e) => e.resize_hash(hash_mb),
            Inner::Draughts(e) => e.resize_hash(hash_mb),
            Inner::Chess3d(e) => e.resize_hash(hash_mb),
        }
    }

    /// Forgets earlier searches (a new game).
    pub fn new_game(&self) {
        match &self.inner {
            Inner::Chess(e) => e.new_game(),
            Inner::Xiangqi(e) => e.new_game(),
            Inner::Draughts(e) => e.new_game(),
            Inner::Chess3d(e) => e.new_game(),
        }
    }

    /// Searches `game`, reached through `history` (earlier positions, oldest first;
    /// positions of another game kind are ignored), reporting each iteration.
    ///
    /// An engine made for another game kind answers with a fresh engine of the right
    /// kind (and a small table), so a mix-up costs speed, never correctness.
    pub fn search(
        &self,
        game: &AnyPosition,
        history: &[AnyPosition],
        request: &SearchRequest,
        stop: &AtomicBool,
        mut on_info: impl FnMut(&TextInfo),
    ) -> TextResult {
        macro_rules! run {
            ($engine:expr, $pos:expr, $variant:path) => {{
                let earlier: Vec<_> = history
                    .iter()
                    .filter_map(|g| match g {
                        $variant(p) => Some(p.clone()),
                        _ => None,
                    })
                    .collect();
                run_search($engine, $pos, &earlier, request, stop, &mut on_info)
            }};
        }
        match (&self.inner, game) {
            (Inner::Chess(e), AnyPosition::Chess(p)) => run!(e, p, AnyPosition::Chess),
            (Inner::Xiangqi(e), AnyPosition::Xiangqi(p)) => run!(e, p, AnyPosition::Xiangqi),
            (Inner::Draughts(e), AnyPosition::Draughts(p)) => run!(e, p, AnyPosition::Draughts),
            (Inner::Chess3d(e), AnyPosition::Chess3d(p)) => run!(e, p, AnyPosition::Chess3d),
            _ => AnyEngine::for_game(game, 1).search(game, history, request, stop, on_info),
        }
    }
}

impl AnyEngine {
    /// Whether the computer playing `computer` accepts a draw offered in `game`
    /// (reached through `history`, after `plies` moves): a full-strength search under
    /// `limits`, then [`accepts_draw`] on its score for `computer`.
    pub fn decide_draw(
        &self,
        game: &AnyPosition,
        history: &[AnyPosition],
        computer: Side,
        plies: usize,
        limits: Limits,
    ) -> DrawDecision {
        let request = SearchRequest {
            limits,
            ..SearchRequest::default()
        };
        let result = self.search(game, history, &request, &AtomicBool::new(false), |_| {});
        let to_move = result.info.lines.first().map_or(0, |line| line.score);
        let score = if game.turn() == computer {
            to_move
        } else {
            -to_move
        };
        DrawDecision {
            accept: accepts_draw(score, plies),
            score,
        }
    }
}

fn run_search<P, E>(
    engine: &Engine<E>,
    pos: &P,
    history: &[P],
    request: &SearchRequest,
    stop: &AtomicBool,
    on_info: &mut impl FnMut(&TextInfo),
) -> TextResult
where
    P: TextPosition + Send + Sync,
    P::Move: Send + Sync,
    E: Evaluator<P>,
{
    let root_moves: Vec<P::Move> = request
        .root_moves
        .iter()
        .filter_map(|text| pos.parse_move_text(text).ok())
        .collect();
    let mut report = |info: &SearchInfo<P::Move>| on_info(&text_info(pos, info));
    let result: SearchResult<P::Move> = match request.level {
        Some(level) => {
            let mut rng = SplitMix64::new(request.seed ^ pos.zobrist());
            engine.search_level(
                pos,
                history,
                level,
                &request.limits,
                stop,
                &mut rng,
                &mut report,
            )
        }
        None => {
            let options = SearchOptions {
                multipv: request.multipv.max(1),
                root_moves,
                threads: request.threads.max(1),
                ..SearchOptions::default()
            };
            engine.search(pos, history, &request.limits, &options, stop, &mut report)
        }
    };
    let info = SearchInfo {
        depth: result.depth,
        seldepth: result.depth,
        nodes: result.nodes,
        elapsed: result.elapsed,
        hashfull: 0,
        lines: result.lines.clone(),
    };
    TextResult {
        best: result.best.map(|m| pos.move_text(m)),
        ponder: result.best.zip(result.ponder).and_then(|(best, reply)| {
            let mut next = pos.clone();
            next.play_unchecked(best);
            next.is_legal(reply).then(|| next.move_text(reply))
        }),
        info: text_info(pos, &info),
    }
}

/// The report with each principal variation written move by move in the position
/// it is played from.
fn text_info<P: TextPosition>(pos: &P, info: &SearchInfo<P::Move>) -> TextInfo {
    TextInfo {
        depth: info.depth,
        seldepth: info.seldepth,
        nodes: info.nodes,
        nps: info.nps(),
        elapsed: info.elapsed,
        hashfull: info.hashfull,
        lines: info
            .lines
            .iter()
            .map(|line| {
                let mut at = pos.clone();
                let mut pv = Vec::with_capacity(line.pv.len());
                for &m in &line.pv {
                    if !at.is_legal(m) {
                        break;
                    }
                    pv.push(at.move_text(m));
                    at.play_unchecked(m);
                }
                TextLine {
                    multipv: line.multipv,
                    score: line.score,
                    pv,
                }
            })
            .collect(),
    }
}
