//! Engine-against-engine matches in any game: players, fair openings, Fischer
//! clocks, adjudication and the Elo estimate.
//!
//! Each opening is a few random legal plies from the start (a random Chess960
//! start, a random chess3d generator seed), kept only if a quick search finds it
//! balanced, and played twice with the colours swapped, so that neither player
//! profits from a lucky opening or from moving first.

use core::fmt;
use core::str::FromStr;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{SyncSender, channel, sync_channel};
use std::time::{Duration, Instant};

use tablero_core::{Outcome, Reason, Side, SplitMix64};
use tablero_engine::{Clock, Level, Limits};

use tablero_games::{
    AnyEngine, AnyPosition, AnyRecord, EngineProtocol, Evaluation, GameKind, SearchRequest,
    TimeControl, TimeControlError, Variant,
};

use crate::{HubEngine, UciClock, UciEngine, UciError};

/// Why a match could not be set up or had to stop.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// A player spec is malformed.
    #[error(
        "player {0:?}: expected level:N or hand:N (N from 1 to 10), nodes:N or hand-nodes:N, uci:<command>, uci-nodes:N:<command> or hub:<command>"
    )]
    BadPlayer(String),
    /// A time control is malformed.
    #[error(transparent)]
    BadTimeControl(#[from] TimeControlError),
    /// The game or variant is unknown.
    #[error("{0}")]
    Game(String),
    /// A Hub player was given for a game other than draughts.
    #[error("player {player:?}: Hub engines play draughts only, not {game}")]
    HubGame {
        /// The player spec.
        player: String,
        /// The game id.
        game: String,
    },
    /// A UCI player was given for a game UCI does not cover.
    #[error("player {player:?}: UCI engines play chess, xiangqi and chess3d only, not {game}")]
    UciGame {
        /// The player spec.
        player: String,
        /// The game id.
        game: String,
    },
    /// A player could not be started.
    #[error("player {player:?}: {reason}")]
    Player {
        /// The player spec.
        player: String,
        /// What went wrong.
        reason: String,
    },
    /// A match needs at least one game.
    #[error("--games must be at least 1")]
    NoGames,
}

/// Who plays: an engine level of tablero, or an external engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayerSpec {
    /// `level:N` (or `nnue:N`): tablero's engine at level N (10 is full strength),
    /// evaluating with its built-in network in chess, xiangqi and International draughts.
    Level(Level),
    /// `hand:N`: tablero's engine at level N with the hand evaluation alone.
    Hand(Level),
    /// `nodes:N` (or `nnue-nodes:N`: network) or `hand-nodes:N` (hand evaluation):
    /// tablero's engine at full strength searching N nodes a move (the clock still
    /// applies). With one thread a search of N nodes is deterministic, so such
    /// matches compare evaluations without the noise of timing; only the openings vary.
    Nodes {
        /// Nodes per move.
        nodes: u64,
        /// How positions are judged.
        evaluation: Evaluation,
    },
    /// `uci:<command>`: a UCI engine (chess, xiangqi, chess3d) on the match's clock;
    /// `uci-nodes:N:<command>`: the same engine told `go nodes N` alone (the clock still
    /// applies). One-threaded engines such as Stockfish then play the same moves under
    /// any machine load, as `nodes:N` players do.
    Uci {
        /// The program and its arguments.
        command: String,
        /// Nodes per move instead of the clock, if given.
        nodes: Option<u64>,
    },
    /// `hub:<command>`: a Hub engine (draughts).
    Hub(String),
}

impl FromStr for PlayerSpec {
    type Err = ArenaError;

    fn from_str(s: &str) -> Result<PlayerSpec, ArenaError> {
        let bad = || ArenaError::BadPlayer(s.to_owned());
        let (kind, rest) = s.split_once(':').ok_or_else(bad)?;
        let rest = rest.trim();
        match kind {
            "level" | "nnue" => rest.parse().map(PlayerSpec::Level).map_err(|_| bad()),
            "hand" => rest.parse().map(PlayerSpec::Hand).map_err(|_| bad()),
            "nodes" | "nnue-nodes" | "hand-nodes" => match rest.parse::<u64>() {
                Ok(nodes) if nodes > 0 => Ok(PlayerSpec::Nodes {
                    nodes,
                    evaluation: if kind == "hand-nodes" {
                        Evaluation::Hand
                    } else {
                        Evaluation::Network
                    },
                }),
                _ => Err(bad()),
            },
            "uci" if !rest.is_empty() => Ok(PlayerSpec::Uci {
                command: rest.to_owned(),
                nodes: None,
            }),
            "uci-nodes" => {
                let (nodes, command) = rest.split_once(':').ok_or_else(bad)?;
                match (nodes.trim().parse::<u64>(), command.trim()) {
                    (Ok(nodes), command) if nodes > 0 && !command.is_empty() => {
                        Ok(PlayerSpec::Uci {
                            command: command.to_owned(),
                            nodes: Some(nodes),
                        })
                    }
                    _ => Err(bad()),
                }
            }
            "hub" if !rest.is_empty() => Ok(PlayerSpec::Hub(rest.to_owned())),
            _ => Err(bad()),
        }
    }
}

impl PlayerSpec {
    /// The network this player evaluates `game`'s positions with, if it uses one.
    #[must_use]
    pub fn network_name(&self, game: &AnyPosition) -> Option<&'static str> {
        match self {
            PlayerSpec::Level(_)
            | PlayerSpec::Nodes {
                evaluation: Evaluation::Network,
                ..
            } => Evaluation::Network.network_name(game),
            _ => None,
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Level(level) => write!(f, "level:{level}"),
            PlayerSpec::Hand(level) => write!(f, "hand:{level}"),
            PlayerSpec::Nodes {
                nodes,
                evaluation: Evaluation::Hand,
            } => write!(f, "hand-nodes:{nodes}"),
            PlayerSpec::Nodes {
                nodes,
                evaluation: Evaluation::Network,
            } => write!(f, "nodes:{nodes}"),
            PlayerSpec::Uci {
                command,
                nodes: None,
            } => write!(f, "uci:{command}"),
            PlayerSpec::Uci {
                command,
                nodes: Some(nodes),
            } => write!(f, "uci-nodes:{nodes}:{command}"),
            PlayerSpec::Hub(command) => write!(f, "hub:{command}"),
        }
    }
}

/// What to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchConfig {
    /// The game.
    pub game: GameKind,
    /// Its variant.
    pub variant: Variant,
    /// Player A: first mover in the odd-numbered games.
    pub a: PlayerSpec,
    /// Player B.
    pub b: PlayerSpec,
    /// Games to play: each opening twice, colours swapped; an odd last game once.
    pub games: u32,
    /// Each side's clock, or player A's when B has its own.
    pub time_control: TimeControl,
    /// Player B's clock when it differs from A's: time odds, e.g. a stronger engine
    /// given a tenth of the other's time.
    pub b_time_control: Option<TimeControl>,
    /// Seed of the openings and of the levels' choices: the same seed, the same
    /// openings.
    pub seed: u64,
    /// Games played at once, each in its own thread with its own players.
    pub concurrency: usize,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// Hash table of each level player, in MiB.
    pub hash_mb: usize,
}

impl MatchConfig {
    /// Checks what can be checked before any engine starts: the game, at least one
    /// game to play, and each external player speaking the game's protocol. Returns the
    /// game's start position.
    ///
    /// # Errors
    ///
    /// [`ArenaError`] naming the first problem.
    pub fn check(&self) -> Result<AnyPosition, ArenaError> {
        let start = AnyPosition::of(self.game, self.variant, None)
            .map_err(|e| ArenaError::Game(e.to_string()))?;
        if self.games == 0 {
            return Err(ArenaError::NoGames);
        }
        let protocol = self.game.info().engine_protocol;
        for spec in [&self.a, &self.b] {
            match spec {
                PlayerSpec::Hub(_) if protocol != EngineProtocol::Hub => {
                    return Err(ArenaError::HubGame {
                        player: spec.to_string(),
                        game: self.game.id().to_owned(),
                    });
                }
                PlayerSpec::Uci { .. } if !matches!(protocol, EngineProtocol::Uci { .. }) => {
                    return Err(ArenaError::UciGame {
                        player: spec.to_string(),
                        game: self.game.id().to_owned(),
                    });
                }
                _ => {}
            }
        }
        Ok(start)
    }

    /// A match with the default seed, one game at a time, 400 plies at most and
    /// 32 MiB of hash per engine.
    #[must_use]
    pub fn new(
        game: GameKind,
        variant: Variant,
        a: PlayerSpec,
        b: PlayerSpec,
        games: u32,
        time_control: TimeControl,
    ) -> MatchConfig {
        MatchConfig {
            game,
            variant,
            a,
            b,
            games,
            time_control,
            b_time_control: None,
            seed: DEFAULT_SEED,
            concurrency: 1,
            max_plies: DEFAULT_MAX_PLIES,
            hash_mb: 32,
        }
    }

    /// The clocks of players A and B.
    #[must_use]
    pub fn time_controls(&self) -> [TimeControl; 2] {
        [
            self.time_control,
            self.b_time_control.unwrap_or(self.time_control),
        ]
    }
}

/// The seed used when none is given, so that matches are reproducible.
pub const DEFAULT_SEED: u64 = 0x7AB1_E80A_u64;

/// Plies after which a game is adjudicated a draw by default.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// How a game ended, as far as player A is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// A won.
    Win,
    /// Drawn.
    Draw,
    /// A lost.
    Loss,
}

/// One finished game of a match.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// 1-based number of the game in the match.
    pub number: u32,
    /// The side player A had.
    pub a_side: Side,
    /// How it ended.
    pub outcome: Outcome,
    /// Why, when the rules alone do not say (a ply-limit adjudication, an illegal
    /// move or a crash of a player).
    pub note: Option<String>,
    /// The game, from the start position through the opening.
    pub record: AnyRecord,
    /// Plies of the opening (played before the players took over).
    pub opening_plies: usize,
}

impl GameReport {
    /// The result for player A.
    #[must_use]
    pub fn score(&self) -> Score {
        match self.outcome.winner() {
            None => Score::Draw,
            Some(side) if side == self.a_side => Score::Win,
            Some(_) => Score::Loss,
        }
    }

    /// The game in its file format (see [`AnyRecord::export`]) with the players'
    /// names, the event, round, time control and result. `time_controls` are A's and
    /// B's ([`MatchConfig::time_controls`]); with time odds a tag per side, the side's
    /// player tag followed by `TimeControl` (`WhiteTimeControl`, `BlackTimeControl` as
    /// cutechess writes them; `RedTimeControl` in xiangqi), replaces `TimeControl`.
    #[must_use]
    pub fn export(&self, a_name: &str, b_name: &str, time_controls: [TimeControl; 2]) -> String {
        let ((white, white_tc), (black, black_tc)) = if self.a_side == Side::White {
            ((a_name, time_controls[0]), (b_name, time_controls[1]))
        } else {
            ((b_name, time_controls[1]), (a_name, time_controls[0]))
        };
        let mut tags = vec![
            ("Event".to_owned(), "tablero match".to_owned()),
            ("Round".to_owned(), self.number.to_string()),
            (
                self.record.player_tag(Side::White).to_owned(),
                white.to_owned(),
            ),
            (
                self.record.player_tag(Side::Black).to_owned(),
                black.to_owned(),
            ),
        ];
        if white_tc == black_tc {
            tags.push(("TimeControl".to_owned(), white_tc.to_string()));
        } else {
            for (side, tc) in [(Side::White, white_tc), (Side::Black, black_tc)] {
                let tag = format!("{}TimeControl", self.record.player_tag(side));
                tags.push((tag, tc.to_string()));
            }
        }
        if let Some(note) = &self.note {
            tags.push(("Annotator".to_owned(), note.clone()));
        }
        self.record.export(&tags, Some(self.outcome))
    }

    /// A one-line summary: `game 3: level:1 (white) vs level:10 (black): 0-1 (checkmate), 57 plies`.
    #[must_use]
    pub fn summary(&self, a_name: &str, b_name: &str) -> String {
        let (a_side, b_side) = (self.a_side, self.a_side.other());
        let side = |s: Side| self.record.kind().side_name(s);
        let (first, first_side, second, second_side) = if a_side == Side::White {
            (a_name, a_side, b_name, b_side)
        } else {
            (b_name, b_side, a_name, a_side)
        };
        let why = match &self.note {
            Some(note) => format!("{}: {note}", self.outcome.reason()),
            None => self.outcome.reason().to_string(),
        };
        format!(
            "game {}: {first} ({}) vs {second} ({}): {} ({why}), {} plies",
            self.number,
            side(first_side),
            side(second_side),
            self.outcome.result_str(),
            self.record.plies(),
        )
    }
}

/// Wins, draws and losses of player A.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl MatchScore {
    /// Counts one more game.
    pub fn add(&mut self, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
    }

    /// The Elo difference of A over B with its 95% margin; `None` before any game.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_score(self.wins, self.draws, self.losses)
    }
}

impl fmt::Display for MatchScore {
    /// `+W =D -L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// An Elo difference and the half-width of its 95% confidence interval; either may
/// be infinite (a match won or lost in every game, or too few games to bound).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// The difference: positive when A is stronger.
    pub diff: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

/// The normal quantile of a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

impl EloEstimate {
    /// The estimate from A's wins, draws and losses: the score fraction
    /// p = (W + D/2)/N gives the difference −400·log10(1/p − 1); the per-game
    /// (trinomial) variance of the score gives p's 95% interval, mapped through the
    /// same formula. `None` when no game was played.
    #[must_use]
    pub fn from_score(wins: u32, draws: u32, losses: u32) -> Option<EloEstimate> {
        let n = f64::from(wins) + f64::from(draws) + f64::from(losses);
        if n == 0.0 {
            return None;
        }
        let p = (f64::from(wins) + f64::from(draws) / 2.0) / n;
        let variance = (f64::from(wins) * (1.0 - p).powi(2)
            + f64::from(draws) * (0.5 - p).powi(2)
            + f64::from(losses) * p.powi(2))
            / n;
        Some(EloEstimate::from_mean(p, variance, n))
    }

    /// The estimate from a mean score `p` of `n` samples (games or pairs) whose
    /// scores have `variance`.
    pub(crate) fn from_mean(p: f64, variance: f64, n: f64) -> EloEstimate {
        let deviation = Z_95 * (variance / n).sqrt();
        let (low, high) = (p - deviation, p + deviation);
        let margin = if low <= 0.0 || high >= 1.0 {
            f64::INFINITY
        } else {
            (elo_of(high) - elo_of(low)) / 2.0
        };
        EloEstimate {
            diff: elo_of(p),
            margin,
        }
    }
}

/// The Elo difference that makes `p` the expected score: ±∞ at 1 and 0.
fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

impl fmt::Display for EloEstimate {
    /// `+12.3 ± 45.6`, `-inf ± inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = |x: f64, signed: bool| {
            if x.is_infinite() {
                if x > 0.0 && signed {
                    "+inf"
                } else if x > 0.0 {
                    "inf"
                } else {
                    "-inf"
                }
                .to_owned()
            } else if signed {
                // Rounded first so that a tiny negative difference prints "+0.0".
                let rounded = (x * 10.0).round() / 10.0;
                format!("{:+.1}", rounded + 0.0)
            } else {
                format!("{x:.1}")
            }
        };
        write!(
            f,
            "{} ± {}",
            number(self.diff, true),
            number(self.margin, false)
        )
    }
}

/// One opening: a start position and the plies played from it.
#[derive(Debug, Clone)]
struct Opening {
    start: AnyPosition,
    moves: Vec<String>,
}

/// The score beyond which an opening counts as lopsided.
const BALANCE_LIMIT: i32 = 150;

/// Openings tried before the most balanced one found is taken anyway.
const OPENING_TRIES: usize = 60;

/// Node budget of the balance check of an opening.
const BALANCE_NODES: u64 = 6_000;

/// Plays a match, calling `on_game` with each finished game (in the order they
/// finish; `number` says which it is), and returns every game by number.
///
/// # Errors
///
/// [`ArenaError`] for an unknown game, no games, a UCI or Hub player in a game its
/// protocol does not cover, or a player that cannot be started.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameReport) -> ControlFlow<()>,
) -> Result<Vec<GameReport>, ArenaError> {
    let start = config.check()?;
    let openings = make_openings(&start, config);
    let threads = config.concurrency.clamp(1, config.games as usize);
    let next = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let first_error: Mutex<Option<ArenaError>> = Mutex::new(None);
    let mut reports: Vec<GameReport> = Vec::with_capacity(config.games as usize);
    std::thread::scope(|scope| {
        let (sender, receiver) = channel::<(GameReport, SyncSender<bool>)>();
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, cancel, first_error, openings) = (&next, &cancel, &first_error, &openings);
            let start = &start;
            scope.spawn(move || {
                let players = Player::start(&config.a, start, config.hash_mb)
                    .and_then(|a| Player::start(&config.b, start, config.hash_mb).map(|b| [a, b]));
                let mut players = match players {
                    Ok(players) => players,
                    Err(e) => {
                        cancel.store(true, Ordering::Relaxed);
                        if let Ok(mut slot) = first_error.lock() {
                            slot.get_or_insert(e);
                        }
                        return;
                    }
                };
                // Each report waits for the caller's answer before the next game
                // starts, so a break is seen by this thread before it takes another.
                let (answer_sender, answers) = sync_channel::<bool>(1);
                while !cancel.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games as usize {
                        break;
                    }
                    let opening = &openings[opening_of(index as u32 + 1) as usize];
                    let report = play_game(config, index, opening, &mut players);
                    if sender.send((report, answer_sender.clone())).is_err() {
                        break;
                    }
                    if answers.recv() != Ok(true) {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (report, answer) in receiver {
            // A break starts no more games; those being played still finish and count.
            if on_game(&report).is_break() {
                cancel.store(true, Ordering::Relaxed);
            }
            // The worker may have gone if it failed; nothing is waiting then.
            let _ = answer.send(!cancel.load(Ordering::Relaxed));
            reports.push(report);
        }
    });
    if let Some(e) = first_error.into_inner().ok().flatten() {
        return Err(e);
    }
    reports.sort_by_key(|r| r.number);
    Ok(reports)
}

/// The opening game `number` (from 1) plays: games 2k − 1 and 2k share opening k − 1,
/// A with either colour.
pub(crate) fn opening_of(number: u32) -> u32 {
    number.saturating_sub(1) / 2
}

/// One opening per pair of games, from the match seed.
fn make_openings(start: &AnyPosition, config: &MatchConfig) -> Vec<Opening> {
    let mut rng = SplitMix64::new(config.seed);
    let engine = AnyEngine::for_game(start, 4);
    (0..config.games.div_ceil(2))
        .map(|_| make_opening(start, &engine, &mut rng))
        .collect()
}

/// Random plies from a (possibly random) start, retried until a quick search finds
/// the position within [`BALANCE_LIMIT`]; after [`OPENING_TRIES`] the most balanced
/// one found.
fn make_opening(start: &AnyPosition, engine: &AnyEngine, rng: &mut SplitMix64) -> Opening {
    let mut best: Option<(i32, Opening)> = None;
    let (low, high) = start.kind().info().opening_plies;
    let (low, high) = (u64::from(low), u64::from(high));
    for _ in 0..OPENING_TRIES {
        // A new start for the games that have several (Chess960, chess3d's seeds).
        let several_starts = start.chess960_number().is_some() || start.generator_state().is_some();
        let base = if several_starts {
            AnyPosition::of_seeded(start.kind(), start.variant(), None, rng.next())
                .unwrap_or_else(|_| start.clone())
        } else {
            start.clone()
        };
        let plies = (low + rng.below(high - low + 1)) as usize;
        let mut record = AnyRecord::new(base.clone());
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = record.position().legal_moves_text();
            if legal.is_empty() || record.outcome().is_some() {
                break;
            }
            let m = &legal[rng.below(legal.len() as u64) as usize];
            if record.play_text(m).is_err() {
                break;
            }
            moves.push(m.clone());
        }
        if record.outcome().is_some() || moves.len() < plies {
            continue;
        }
        let request = SearchRequest {
            limits: Limits::nodes(BALANCE_NODES),
            ..SearchRequest::default()
        };
        engine.new_game();
        let result = engine.search(
            record.position(),
            record.history(),
            &request,
            &AtomicBool::new(false),
            |_| {},
        );
        let score = result
            .info
            .lines
            .first()
            .map_or(i32::MAX, |line| line.score.saturating_abs());
        let opening = Opening { start: base, moves };
        if score <= BALANCE_LIMIT {
            return opening;
        }
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, opening));
        }
    }
    best.map_or_else(
        || Opening {
            start: start.clone(),
            moves: Vec::new(),
        },
        |(_, opening)| opening,
    )
}

/// A player with its engine, kept from game to game.
enum Player {
    /// Tablero's engine at a level, or at full strength with `nodes` per move.
    Level {
        engine: AnyEngine,
        level: Option<Level>,
        nodes: Option<u64>,
    },
    Uci(Box<UciEngine>),
    Hub(Box<HubEngine>),
}

impl Player {
    fn start(spec: &PlayerSpec, game: &AnyPosition, hash_mb: usize) -> Result<Player, ArenaError> {
        let failed = |e: &dyn std::error::Error| ArenaError::Player {
            player: spec.to_string(),
            reason: e.to_string(),
        };
        match spec {
            PlayerSpec::Level(level) => Ok(Player::Level {
                engine: AnyEngine::with_evaluation(game, hash_mb.max(1), Evaluation::Network),
                level: Some(*level),
                nodes: None,
            }),
            PlayerSpec::Hand(level) => Ok(Player::Level {
                engine: AnyEngine::with_evaluation(game, hash_mb.max(1), Evaluation::Hand),
                level: Some(*level),
                nodes: None,
            }),
            PlayerSpec::Nodes { nodes, evaluation } => Ok(Player::Level {
                engine: AnyEngine::with_evaluation(game, hash_mb.max(1), *evaluation),
                level: None,
                nodes: Some(*nodes),
            }),
            PlayerSpec::Uci { command, nodes } => {
                let mut engine = UciEngine::start(command).map_err(|e: UciError| failed(&e))?;
                engine.set_nodes_per_move(*nodes);
                engine.configure(game).map_err(|e| failed(&e))?;
                Ok(Player::Uci(Box::new(engine)))
            }
            PlayerSpec::Hub(command) => {
                let mut engine = HubEngine::start(command).map_err(|e| failed(&e))?;
                engine.configure(game).map_err(|e| failed(&e))?;
                Ok(Player::Hub(Box::new(engine)))
            }
        }
    }

    fn new_game(&mut self) -> Result<(), String> {
        match self {
            Player::Level { engine, .. } => {
                engine.new_game();
                Ok(())
            }
            Player::Uci(engine) => engine.new_game().map_err(|e| e.to_string()),
            Player::Hub(engine) => engine.new_game().map_err(|e| e.to_string()),
        }
    }

    /// The move to play, or `None` if the player has none; an error if the player
    /// failed (crashed, hung past `timeout`).
    fn choose(
        &mut self,
        record: &AnyRecord,
        clocks: &[Duration; 2],
        increments: [Duration; 2],
        seed: u64,
        timeout: Duration,
    ) -> Result<Option<String>, String> {
        match self {
            Player::Level {
                engine,
                level,
                nodes,
            } => {
                let side = record.turn();
                let request = SearchRequest {
                    limits: Limits {
                        clock: Some(Clock {
                            remaining: clocks[side.index()],
                            increment: increments[side.index()],
                            moves_to_go: None,
                        }),
                        overhead: MOVE_OVERHEAD,
                        nodes: *nodes,
                        ..Limits::default()
                    },
                    level: *level,
                    seed,
                    ..SearchRequest::default()
                };
                let result = engine.search(
                    record.position(),
                    record.history(),
                    &request,
                    &AtomicBool::new(false),
                    |_| {},
                );
                Ok(result.best)
            }
            Player::Uci(engine) => {
                let moves: Vec<String> = record.moves().iter().map(|m| m.text.clone()).collect();
                let clock = UciClock {
                    remaining: *clocks,
                    increment: increments,
                };
                engine
                    .best_move(record.start(), &moves, &clock, timeout)
                    .map_err(|e| e.to_string())
            }
            Player::Hub(engine) => {
                let moves: Vec<String> = record.moves().iter().map(|m| m.text.clone()).collect();
                let side = record.turn();
                engine
                    .best_move(
                        record.start(),
                        &moves,
                        clocks[side.index()],
                        increments[side.index()],
                        timeout,
                    )
                    .map_err(|e| e.to_string())
            }
        }
    }
}

/// Time a level player keeps back for the move to reach the board.
const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// How long past its flag an external engine is waited for before it is given up.
const FLAG_GRACE: Duration = Duration::from_millis(1_000);

/// Plays game `index` (0-based) of the match: A takes the first-moving side in even
/// indices.
fn play_game(
    config: &MatchConfig,
    index: usize,
    opening: &Opening,
    players: &mut [Player; 2],
) -> GameReport {
    let mut record = AnyRecord::new(opening.start.clone());
    for m in &opening.moves {
        // The opening was played through the same rules when it was made.
        let _ = record.play_text(m);
    }
    let first = record.first_side();
    let a_side = if index.is_multiple_of(2) {
        first
    } else {
        first.other()
    };
    // players[0] is A: the player of `side` is at `usize::from(side != a_side)`.
    let player_of = |side: Side| usize::from(side != a_side);
    let mut note = None;
    let mut ended = None;
    for (i, player) in players.iter_mut().enumerate() {
        if let Err(e) = player.new_game() {
            let side = if i == 0 { a_side } else { a_side.other() };
            note = Some(format!("{} failed: {e}", spec_of(config, i)));
            ended = Some(Outcome::Win {
                winner: side.other(),
                reason: Reason::EngineFailure,
            });
        }
    }
    let (mut clocks, increments) = start_clocks(config, a_side);
    let mut rng =
        SplitMix64::new(config.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    while ended.is_none() {
        if let Some(outcome) = record.outcome() {
            ended = Some(outcome);
            break;
        }
        if let Some(reason) = record.claimable_draw() {
            ended = Some(Outcome::Draw { reason });
            break;
        }
        if record.plies() >= config.max_plies {
            note = Some(format!(
                "adjudicated a draw after {} plies",
                config.max_plies
            ));
            ended = Some(Outcome::Draw {
                reason: Reason::MoveLimit,
            });
            break;
        }
        let side = record.turn();
        let who = player_of(side);
        let started = Instant::now();
        let chosen = players[who].choose(
            &record,
            &clocks,
            increments,
            rng.next(),
            clocks[side.index()] + FLAG_GRACE,
        );
        let spent = started.elapsed();
        let loses = |reason| Outcome::Win {
            winner: side.other(),
            reason,
        };
        if spent > clocks[side.index()] {
            // Which move overran, and by how much, is what tells a slow engine from
            // a starved machine.
            note = Some(format!(
                "{} took {:.3} s with {:.3} s on its clock at ply {}",
                spec_of(config, who),
                spent.as_secs_f64(),
                clocks[side.index()].as_secs_f64(),
                record.plies() + 1,
            ));
            ended = Some(record.flag_outcome(side));
            break;
        }
        clocks[side.index()] = clocks[side.index()] - spent + increments[side.index()];
        match chosen {
            Ok(Some(m)) => {
                if let Err(e) = record.play_text(&m) {
                    note = Some(format!("{} played {e}", spec_of(config, who)));
                    ended = Some(loses(Reason::IllegalMove));
                }
            }
            Ok(None) => {
                note = Some(format!("{} gave no move", spec_of(config, who)));
                ended = Some(loses(Reason::EngineFailure));
            }
            Err(e) => {
                note = Some(format!("{} failed: {e}", spec_of(config, who)));
                ended = Some(loses(Reason::EngineFailure));
            }
        }
    }
    GameReport {
        number: index as u32 + 1,
        a_side,
        outcome: ended.expect("the loop ends only with an outcome"),
        note,
        record,
        opening_plies: opening.moves.len(),
    }
}

/// Each side's starting clock and increment (indexed by [`Side::index`]) when player
/// A has `a_side`.
fn start_clocks(config: &MatchConfig, a_side: Side) -> ([Duration; 2], [Duration; 2]) {
    let [a, b] = config.time_controls();
    let mut clocks = [Duration::ZERO; 2];
    let mut increments = [Duration::ZERO; 2];
    for side in [Side::White, Side::Black] {
        let tc = if side == a_side { a } else { b };
        clocks[side.index()] = tc.base;
        increments[side.index()] = tc.increment;
    }
    (clocks, increments)
}

fn spec_of(config: &MatchConfig, player: usize) -> &PlayerSpec {
    if player == 0 { &config.a } else { &config.b }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn elo_of_known_scores() {
        let even = EloEstimate::from_score(10, 0, 10).expect("valid in this test");
        assert!(close(even.diff, 0.0));
        // p = 0.75: 400·log10(3).
        let three_to_one = EloEstimate::from_score(3, 0, 1).expect("valid in this test");
        assert!(close(three_to_one.diff, 190.85), "{three_to_one:?}");
        // 60 wins, 20 draws, 20 losses: p = 0.7, per-game variance 0.16, standard
        // error 0.04, interval 0.7 ± 0.0784.
        let e = EloEstimate::from_score(60, 20, 20).expect("valid in this test");
        assert!(close(e.diff, 147.19), "{e:?}");
        let (low, high) = (0.7 - Z_95 * 0.04, 0.7 + Z_95 * 0.04);
        let expected = 200.0 * ((high / (1.0 - high)).log10() - (low / (1.0 - low)).log10());
        assert!(close(e.margin, expected), "{e:?} {expected}");
        assert!(close(e.margin, 66.0), "{e:?}");
        // Mirrored score, mirrored difference.
        let m = EloEstimate::from_score(20, 20, 60).expect("valid in this test");
        assert!(close(m.diff, -147.19) && close(m.margin, e.margin));
        assert_eq!(e.to_string(), "+147.2 ± 66.0");
        assert_eq!(EloEstimate::from_score(0, 0, 0), None);
    }

    #[test]
    fn elo_is_infinite_for_perfect_scores() {
        let all = EloEstimate::from_score(4, 0, 0).expect("valid in this test");
        assert_eq!(all.to_string(), "+inf ± inf");
        assert_eq!(
            EloEstimate::from_score(0, 0, 2)
                .expect("valid in this test")
                .to_string(),
            "-inf ± inf"
        );
        assert_eq!(
            EloEstimate::from_score(0, 2, 0)
                .expect("valid in this test")
                .to_string(),
            "+0.0 ± 0.0"
        );
        // Two games are too few to bound the interval.
        assert_eq!(
            EloEstimate::from_score(1, 0, 1)
                .expect("valid in this test")
                .to_string(),
            "+0.0 ± inf"
        );
    }

    #[test]
    fn player_specs() {
        assert_eq!(
            "level:3".parse(),
            Ok(PlayerSpec::Level(
                Level::new(3).expect("valid in this test")
            ))
        );
        assert_eq!(
            "uci:/usr/games/stockfish --x".parse(),
            Ok(PlayerSpec::Uci {
                command: "/usr/games/stockfish --x".to_owned(),
                nodes: None
            })
        );
        let fixed = PlayerSpec::Uci {
            command: "/usr/games/fairy-stockfish".to_owned(),
            nodes: Some(20_000),
        };
        assert_eq!(
            "uci-nodes:20000:/usr/games/fairy-stockfish".parse(),
            Ok(fixed.clone())
        );
        assert_eq!(
            fixed.to_string(),
            "uci-nodes:20000:/usr/games/fairy-stockfish"
        );
        assert_eq!(
            "hub:scan hub".parse(),
            Ok(PlayerSpec::Hub("scan hub".to_owned()))
        );
        for bad in [
            "level:0",
            "level:11",
            "level:x",
            "uci:",
            "stockfish",
            "gnu:x",
            "",
        ] {
            assert_eq!(
                bad.parse::<PlayerSpec>(),
                Err(ArenaError::BadPlayer(bad.to_owned())),
                "{bad}"
            );
        }
        assert_eq!(PlayerSpec::Level(Level::MAX).to_string(), "level:10");
        // `nnue:` and `nnue-nodes:` name the default evaluation, as older scripts do.
        assert_eq!("nnue:10".parse(), Ok(PlayerSpec::Level(Level::MAX)));
        assert_eq!("hand:10".parse(), Ok(PlayerSpec::Hand(Level::MAX)));
        assert_eq!(PlayerSpec::Hand(Level::MAX).to_string(), "hand:10");
        assert_eq!(
            "nnue-nodes:20000".parse(),
            Ok(PlayerSpec::Nodes {
                nodes: 20_000,
                evaluation: Evaluation::Network
            })
        );
        for (text, evaluation) in [
            ("hand-nodes:20000", Evaluation::Hand),
            ("nodes:20000", Evaluation::Network),
        ] {
            let spec = PlayerSpec::Nodes {
                nodes: 20_000,
                evaluation,
            };
            assert_eq!(text.parse(), Ok(spec.clone()));
            assert_eq!(spec.to_string(), text);
        }
        for bad in [
            "nodes:0",
            "nodes:",
            "nnue-nodes:-5",
            "hand-nodes:many",
            "hand:11",
            "uci-nodes:0:stockfish",
            "uci-nodes:20000:",
            "uci-nodes:20000",
            "uci-nodes:x:stockfish",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn openings_are_reproducible_and_balanced() {
        let config = MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            PlayerSpec::Level(Level::MIN),
            PlayerSpec::Level(Level::MAX),
            4,
            "1+0".parse().expect("valid in this test"),
        );
        let start = AnyPosition::new("chess", None, None).expect("valid in this test");
        let first = make_openings(&start, &config);
        let again = make_openings(&start, &config);
        assert_eq!(first.len(), 2);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!(a.moves, b.moves);
            assert!((4..=8).contains(&a.moves.len()), "{:?}", a.moves);
        }
        assert_ne!(first[0].moves, first[1].moves);
    }

    /// A break from the callback starts no more games; a game already started by the
    /// other player pair still finishes and is reported.
    #[test]
    fn a_break_stops_the_match() {
        let mut config = MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            PlayerSpec::Level(Level::new(1).expect("valid in this test")),
            PlayerSpec::Level(Level::new(1).expect("valid in this test")),
            20,
            "2+0.02".parse().expect("valid in this test"),
        );
        config.max_plies = 10;
        config.concurrency = 2;
        let mut seen = 0;
        let reports = run_match(&config, |_| {
            seen += 1;
            ControlFlow::Break(())
        })
        .expect("valid in this test");
        assert_eq!(seen, reports.len());
        // Only the game the other thread was playing when the break came may follow.
        assert!((1..=2).contains(&reports.len()), "{} games", reports.len());
    }

    #[test]
    fn a_short_match_swaps_colours_and_counts_every_game() {
        for (game, variant) in [
            (GameKind::Chess, Variant::Chess960),
            (
                GameKind::Draughts,
                Variant::Draughts(tablero_draughts::RuleSet::Russian),
            ),
        ] {
            let mut config = MatchConfig::new(
                game,
                variant,
                PlayerSpec::Level(Level::new(2).expect("valid in this test")),
                PlayerSpec::Level(Level::new(2).expect("valid in this test")),
                3,
                "2+0.02".parse().expect("valid in this test"),
            );
            config.max_plies = 30;
            config.concurrency = 2;
            let mut seen = 0;
            let reports = run_match(&config, |_| {
                seen += 1;
                ControlFlow::Continue(())
            })
            .expect("valid in this test");
            assert_eq!(seen, 3);
            let numbers: Vec<u32> = reports.iter().map(|r| r.number).collect();
            assert_eq!(numbers, [1, 2, 3]);
            assert_eq!(reports[0].a_side, reports[0].record.first_side());
            assert_eq!(reports[1].a_side, reports[0].a_side.other());
            assert_eq!(reports[0].record.start(), reports[1].record.start());
            for r in &reports {
                assert!(r.record.plies() <= 30, "{}", r.summary("a", "b"));
                assert!(r.record.plies() >= r.opening_plies);
            }
        }
    }

    fn tc(text: &str) -> TimeControl {
        text.parse().expect("valid in this test")
    }

    /// Two chess games of level 1 against itself at `clock`.
    fn level_one_pair(clock: &str) -> MatchConfig {
        let one = PlayerSpec::Level(Level::MIN);
        MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            one.clone(),
            one,
            2,
            tc(clock),
        )
    }

    #[test]
    fn with_time_odds_each_player_keeps_its_own_clock_in_either_colour() {
        let mut config = level_one_pair("10+0.1");
        let (ten, one) = (Duration::from_secs(10), Duration::from_secs(1));
        let (tenth, hundredth) = (Duration::from_millis(100), Duration::from_millis(10));
        assert_eq!(start_clocks(&config, Side::Black), ([ten; 2], [tenth; 2]));
        config.b_time_control = Some(tc("1+0.01"));
        assert_eq!(config.time_controls(), [tc("10+0.1"), tc("1+0.01")]);
        assert_eq!(
            start_clocks(&config, Side::White),
            ([ten, one], [tenth, hundredth])
        );
        assert_eq!(
            start_clocks(&config, Side::Black),
            ([one, ten], [hundredth, tenth])
        );
    }

    #[test]
    fn a_match_at_time_odds_names_each_sides_clock_in_its_records() {
        let mut config = level_one_pair("2+0.02");
        config.max_plies = 12;
        let reports =
            run_match(&config, |_| ControlFlow::Continue(())).expect("valid in this test");
        let even = reports[0].export("a", "b", config.time_controls());
        assert!(even.contains("[TimeControl \"2+0.02\"]"), "{even}");
        assert!(!even.contains("WhiteTimeControl"), "{even}");
        config.b_time_control = Some(tc("1+0.01"));
        let reports =
            run_match(&config, |_| ControlFlow::Continue(())).expect("valid in this test");
        let [first, second] = [0, 1].map(|n| reports[n].export("a", "b", config.time_controls()));
        // A has White in the first game and Black in the second.
        assert!(first.contains("[WhiteTimeControl \"2+0.02\"]"), "{first}");
        assert!(first.contains("[BlackTimeControl \"1+0.01\"]"), "{first}");
        assert!(second.contains("[WhiteTimeControl \"1+0.01\"]"), "{second}");
        assert!(second.contains("[BlackTimeControl \"2+0.02\"]"), "{second}");
        assert!(!first.contains("[TimeControl "), "{first}");
    }

    #[test]
    fn rejects_hub_and_uci_players_where_they_cannot_play() {
        let tc: TimeControl = "1+0".parse().expect("valid in this test");
        let level = PlayerSpec::Level(Level::MIN);
        let hub = MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            PlayerSpec::Hub("scan hub".into()),
            level.clone(),
            2,
            tc,
        );
        assert_eq!(
            run_match(&hub, |_| ControlFlow::Continue(()))
                .expect_err("refused")
                .to_string(),
            "player \"hub:scan hub\": Hub engines play draughts only, not chess"
        );
        let draughts = GameKind::Draughts.variant(None).expect("the default");
        let missing_hub = MatchConfig::new(
            GameKind::Draughts,
            draughts,
            PlayerSpec::Hub("/nonexistent/scan hub".into()),
            level.clone(),
            2,
            tc,
        );
        assert!(matches!(
            run_match(&missing_hub, |_| ControlFlow::Continue(())),
            Err(ArenaError::Player { .. })
        ));
        let uci = MatchConfig::new(
            GameKind::Draughts,
            draughts,
            level.clone(),
            PlayerSpec::Uci {
                command: "x".into(),
                nodes: None,
            },
            2,
            tc,
        );
        assert!(matches!(
            run_match(&uci, |_| ControlFlow::Continue(())),
            Err(ArenaError::UciGame { .. })
        ));
        let missing = MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            level.clone(),
            PlayerSpec::Uci {
                command: "/nonexistent/engine".into(),
                nodes: None,
            },
            2,
            tc,
        );
        assert!(matches!(
            run_match(&missing, |_| ControlFlow::Continue(())),
            Err(ArenaError::Player { .. })
        ));
        let not_its_variant = MatchConfig::new(
            GameKind::Xiangqi,
            Variant::Chess960,
            level.clone(),
            level.clone(),
            2,
            tc,
        );
        assert!(matches!(
            run_match(&not_its_variant, |_| ControlFlow::Continue(())),
            Err(ArenaError::Game(_))
        ));
        let none = MatchConfig::new(
            GameKind::Chess,
            Variant::Standard,
            level.clone(),
            level,
            0,
            tc,
        );
        assert_eq!(
            run_match(&none, |_| ControlFlow::Continue(())).expect_err("refused"),
            ArenaError::NoGames
        );
    }
}
