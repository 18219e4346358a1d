//! The load generator itself, shared by `examples/load/main.rs` and
//! `tests/load_smoke.rs`: creates hot-seat games over HTTP, holds one WebSocket per
//! game, plays random legal moves for both sides in the active games through their
//! sockets, and measures each move from the send to the arrival of the state with the
//! next version.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{CONTENT_TYPE, HOST};
use hyper_util::rt::TokioIo;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// File descriptors kept free besides one socket per game: HTTP connections, the
/// runtime's own descriptors, standard streams.
const SPARE_DESCRIPTORS: u64 = 256;

/// Consecutive refused moves after which a game is given up: the generator only sends
/// legal moves of the side to move, so a refusal means the server and the generator
/// disagree about the game.
const MAX_REFUSALS_IN_A_ROW: u32 = 3;

/// What to run.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The instances' base URLs, `http://HOST:PORT`: game `i` is created and played
    /// on instance `i` modulo their number.
    pub(crate) urls: Vec<String>,
    /// Each game is also watched on the next instance, and the latency is the time
    /// until that watcher has the new state (a move crossing instances).
    pub(crate) watch_elsewhere: bool,
    /// Games created and connected (one WebSocket each).
    pub(crate) games: usize,
    /// How many of them play moves; the others stay connected and idle.
    pub(crate) active: usize,
    /// How long the active games play.
    pub(crate) duration: Duration,
    /// The pause of an active game after each answered move.
    pub(crate) think: Duration,
    /// The game kind id (`chess`, `xiangqi`, `draughts`, `chess3d`).
    pub(crate) game: String,
    /// The variant id, or the game's default.
    pub(crate) variant: Option<String>,
    /// An active game whose record reaches this many plies resigns, and a new game
    /// replaces it (random games can be very long: every state carries every move).
    pub(crate) max_plies: Option<usize>,
    /// Games created and connected at once while setting up.
    pub(crate) setup_parallel: usize,
    /// Seeds the random move choice of every game.
    pub(crate) seed: u64,
    /// The server process, for its resident memory (`/proc/PID/status`).
    pub(crate) server_pid: Option<u32>,
    /// How long a move or a game creation may wait for its answer.
    pub(crate) timeout: Duration,
}

/// Why a run could not be made at all (failures of single games are counted in the
/// [`Report`] instead).
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    /// The URL is not `http://HOST:PORT[/]`.
    #[error("url {url:?}: {reason}")]
    Url { url: String, reason: &'static str },
    /// This process may not open a socket for every game.
    #[error(
        "{needed} file descriptors are needed for {games} games but this process may open \
         {limit} (hard limit {hard}): run `ulimit -n {needed}` (or more) in this shell first"
    )]
    FileLimit {
        games: usize,
        needed: u64,
        limit: u64,
        hard: u64,
    },
    /// The server process may not accept a socket for every game.
    #[error(
        "the server (pid {pid}) may open {limit} file descriptors, fewer than the {needed} \
         that {games} games need: start it from a shell with `ulimit -n {needed}` (or more)"
    )]
    ServerFileLimit {
        pid: u32,
        games: usize,
        needed: u64,
        limit: u64,
    },
    /// A file under `/proc` could not be read or understood.
    #[error("{path}: {reason}")]
    Proc { path: String, reason: String },
    /// `--active` is larger than `--games`, or a count is zero.
    #[error("{0}")]
    Counts(String),
    /// Not one game could be created and connected.
    #[error("no game could be set up: {0}")]
    NoGame(String),
}

/// Why one game's session failed.
#[derive(Debug, thiserror::Error)]
enum SessionError {
    #[error("connecting to {authority}: {source}")]
    Connect {
        authority: String,
        source: std::io::Error,
    },
    #[error("HTTP {path}: {source}")]
    Http {
        path: &'static str,
        source: hyper::Error,
    },
    #[error("POST /api/games answered {status}: {body}")]
    Refused { status: u16, body: String },
    #[error("WebSocket {url}: {source}")]
    Socket {
        url: String,
        source: tokio_tungstenite::tungstenite::Error,
    },
    #[error("unexpected answer ({what}): {text}")]
    Answer { what: &'static str, text: String },
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    #[error("the server closed the WebSocket")]
    Closed,
    #[error("the server refused {count} moves in a row, the last with {status}: {message}")]
    Refusals {
        count: u32,
        status: u16,
        message: String,
    },
    #[error("no seat token for the side to move {0:?}")]
    NoSeat(String),
}

/// The server's resident memory at three moments, in KiB.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory {
    /// Before the first game was created.
    pub(crate) before_kib: u64,
    /// Once every game was created, before any WebSocket.
    pub(crate) created_kib: u64,
    /// Once every game was connected, before any move.
    pub(crate) connected_kib: u64,
    /// At the end of the run, sockets still open.
    pub(crate) end_kib: u64,
}

/// Counted failures.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Errors {
    /// Games that could not be created or connected.
    pub(crate) setup: u64,
    /// Moves the server refused (`{"error": ...}` over the socket).
    pub(crate) refused: u64,
    /// Moves or creations without an answer in time.
    pub(crate) timeouts: u64,
    /// Sockets closed or broken while in use.
    pub(crate) disconnects: u64,
}

impl Errors {
    /// Every failure.
    pub(crate) fn total(&self) -> u64 {
        self.setup + self.refused + self.timeouts + self.disconnects
    }
}

/// Move latency percentiles.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Latency {
    pub(crate) p50: Duration,
    pub(crate) p90: Duration,
    pub(crate) p99: Duration,
    pub(crate) max: Duration,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub(crate) struct Report {
    /// The configuration it ran.
    pub(crate) config: Config,
    /// Games created and connected before the moves began.
    pub(crate) set_up: usize,
    /// How long creating them took.
    pub(crate) create_time: Duration,
    /// How long connecting them took.
    pub(crate) connect_time: Duration,
    /// WebSockets open at the end of the run.
    pub(crate) connected_at_end: usize,
    /// Moves answered within the run's duration.
    pub(crate) moves: u64,
    /// The measured window (the configured duration).
    pub(crate) elapsed: Duration,
    /// Moves answered in each whole second of the run.
    pub(crate) per_second: Vec<u64>,
    /// Send-to-new-state latency of every answered move, if any.
    pub(crate) latency: Option<Latency>,
    /// Games that ended (by the rules or by `max_plies`) and were replaced.
    pub(crate) games_finished: u64,
    /// Failures.
    pub(crate) errors: Errors,
    /// The first failure's message.
    pub(crate) first_error: Option<String>,
    /// The server's memory, with `server_pid`.
    pub(crate) memory: Option<Memory>,
}

impl Report {
    /// Moves per second over the whole window.
    pub(crate) fn moves_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.moves as f64 / secs
        } else {
            0.0
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        writeln!(
            f,
            "game {}{} | games {} (active {}, idle {}) | think {} ms | duration {} s",
            c.game,
            c.variant
                .as_deref()
                .map(|v| format!(" {v}"))
                .unwrap_or_default(),
            c.games,
            c.active,
            c.games - c.active,
            c.think.as_millis(),
            c.duration.as_secs_f64(),
        )?;
        writeln!(
            f,
            "set up        {} games (created in {:.1} s, connected in {:.1} s); connected at the end {}",
            self.set_up,
            self.create_time.as_secs_f64(),
            self.connect_time.as_secs_f64(),
            self.connected_at_end
        )?;
        writeln!(
            f,
            "moves         {} ({:.0} moves/s); games finished and replaced {}",
            self.moves,
            self.moves_per_second(),
            self.games_finished
        )?;
        // The first second includes the start of every active game: the slowest of
        // the others says whether the rate was sustained.
        let steady = self.per_second.iter().skip(1);
        if let (Some(min), Some(max)) = (steady.clone().min(), steady.max()) {
            writeln!(
                f,
                "per second    min {min}, max {max} (after the first second)"
            )?;
        }
        match &self.latency {
            Some(l) => writeln!(
                f,
                "latency       p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                ms(l.p50),
                ms(l.p90),
                ms(l.p99),
                ms(l.max)
            )?,
            None => writeln!(f, "latency       (no move answered)")?,
        }
        let e = &self.errors;
        writeln!(
            f,
            "errors        {} (setup {}, refused moves {}, timeouts {}, disconnects {})",
            e.total(),
            e.setup,
            e.refused,
            e.timeouts,
            e.disconnects
        )?;
        if let Some(first) = &self.first_error {
            writeln!(f, "first error   {first}")?;
        }
        if let Some(m) = &self.memory {
            let games = self.set_up.max(1) as f64;
            let per_game = |from: u64, to: u64| (to as f64 - from as f64) / games;
            writeln!(
                f,
                "server RSS    before {} KiB; {} games created {} KiB; connected {} KiB; end {} KiB",
                m.before_kib, self.set_up, m.created_kib, m.connected_kib, m.end_kib
            )?;
            writeln!(
                f,
                "idle game     {:.1} KiB (game {:.1} KiB + WebSocket {:.1} KiB)",
                per_game(m.before_kib, m.connected_kib),
                per_game(m.before_kib, m.created_kib),
                per_game(m.created_kib, m.connected_kib)
            )?;
        }
        Ok(())
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Progress while running, for a terminal.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Progress {
    /// Setting up: games created and connected so far, and failures.
    Setup {
        created: usize,
        connected: usize,
        failed: usize,
    },
    /// Second `second` of the run answered `moves` moves.
    Second {
        second: usize,
        moves: u64,
        connected: usize,
    },
}

/// What every game task shares.
#[derive(Debug)]
struct Shared {
    config: Config,
    /// Per instance: its `host:port` and its HTTP connections.
    instances: Vec<(String, HttpPool)>,
    setup_gate: Semaphore,
    /// Games created during the setup.
    created: AtomicUsize,
    /// WebSockets open now.
    connected: AtomicUsize,
    /// Games whose creation is over, well or not.
    creation_settled: AtomicUsize,
    /// Games whose setup is over, well or not.
    settled: AtomicUsize,
    setup_failures: AtomicUsize,
    moves: AtomicU64,
    games_finished: AtomicU64,
    refused: AtomicU64,
    timeouts: AtomicU64,
    disconnects: AtomicU64,
    first_error: Mutex<Option<String>>,
}

impl Shared {
    fn note(&self, error: &SessionError) {
        let counter = match error {
            SessionError::Timeout(_) => &self.timeouts,
            SessionError::Refusals { .. } => &self.refused,
            _ => &self.disconnects,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        self.note_first(error);
    }

    fn note_first(&self, error: &SessionError) {
        let mut first = self
            .first_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if first.is_none() {
            *first = Some(error.to_string());
        }
    }
}

/// Runs the load described by `config`, calling `progress` about once a second.
///
/// # Errors
///
/// A malformed URL or counts, too low a file-descriptor limit (this process's, or the
/// server's with `server_pid`), an unreadable `/proc` file, or no game set up at all.
pub(crate) async fn run(config: Config, progress: impl Fn(Progress)) -> Result<Report, LoadError> {
    if config.games == 0 || config.active > config.games || config.setup_parallel == 0 {
        return Err(LoadError::Counts(format!(
            "games {} / active {} / setup parallel {}: need 1 ≤ games, active ≤ games, \
             1 ≤ setup parallel",
            config.games, config.active, config.setup_parallel
        )));
    }
    let authorities = config
        .urls
        .iter()
        .map(|url| authority_of(url))
        .collect::<Result<Vec<_>, _>>()?;
    let needed = config.games as u64 + config.setup_parallel as u64 + SPARE_DESCRIPTORS;
    ensure_own_file_limit(config.games, needed)?;
    if let Some(pid) = config.server_pid {
        let limit = open_files_limit(&format!("/proc/{pid}/limits"))?.0;
        if limit < needed {
            return Err(LoadError::ServerFileLimit {
                pid,
                games: config.games,
                needed,
                limit,
            });
        }
    }
    let before_kib = config.server_pid.map(rss_kib).transpose()?;

    let shared = Arc::new(Shared {
        instances: authorities
            .into_iter()
            .map(|authority| (authority.clone(), HttpPool::new(authority)))
            .collect(),
        setup_gate: Semaphore::new(config.setup_parallel),
        created: AtomicUsize::new(0),
        connected: AtomicUsize::new(0),
        creation_settled: AtomicUsize::new(0),
        settled: AtomicUsize::new(0),
        setup_failures: AtomicUsize::new(0),
        moves: AtomicU64::new(0),
        games_finished: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        timeouts: AtomicU64::new(0),
        disconnects: AtomicU64::new(0),
        first_error: Mutex::new(None),
        config: config.clone(),
    });

    // Create every game, then connect every socket (so that the server's memory can
    // be split between the two); the active games start together once all are connected.
    let setup_started = Instant::now();
    let (connect_tx, connect_rx) = watch::channel(false);
    let (start_tx, start_rx) = watch::channel(None::<Instant>);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = JoinSet::new();
    for index in 0..config.games {
        let shared = Arc::clone(&shared);
        let signals = Signals {
            connect: connect_rx.clone(),
            start: start_rx.clone(),
            stop: stop_rx.clone(),
        };
        tasks.spawn(async move { game_task(index, shared, signals).await });
    }
    let setup_progress = || {
        progress(Progress::Setup {
            created: shared.created.load(Ordering::Relaxed),
            connected: shared.connected.load(Ordering::Relaxed),
            failed: shared.setup_failures.load(Ordering::Relaxed),
        });
    };
    wait_for(&shared.creation_settled, config.games, setup_progress).await;
    let create_time = setup_started.elapsed();
    let created_kib = settled_rss(config.server_pid).await?;
    let connect_started = Instant::now();
    let _ = connect_tx.send(true);
    wait_for(&shared.settled, config.games, setup_progress).await;
    let connect_time = connect_started.elapsed();
    let set_up = shared.connected.load(Ordering::Acquire);
    if set_up == 0 {
        let first = shared
            .first_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .unwrap_or_default();
        let _ = stop_tx.send(true);
        tasks.join_all().await;
        return Err(LoadError::NoGame(first));
    }
    let connected_kib = settled_rss(config.server_pid).await?;

    let started = Instant::now();
    let deadline = started + config.duration;
    let _ = start_tx.send(Some(deadline));
    let mut per_second = Vec::new();
    let mut counted = 0;
    let mut next = started;
    loop {
        next += Duration::from_secs(1);
        if next > deadline {
            tokio::time::sleep_until(deadline.into()).await;
            break;
        }
        tokio::time::sleep_until(next.into()).await;
        let total = shared.moves.load(Ordering::Relaxed);
        per_second.push(total - counted);
        progress(Progress::Second {
            second: per_second.len(),
            moves: total - counted,
            connected: shared.connected.load(Ordering::Relaxed),
        });
        counted = total;
    }
    let moves = shared.moves.load(Ordering::Relaxed);
    let connected_at_end = shared.connected.load(Ordering::Acquire);
    let end_kib = config.server_pid.map(rss_kib).transpose()?;
    let _ = stop_tx.send(true);

    let mut latencies: Vec<u32> = Vec::new();
    while let Some(result) = tasks.join_next().await {
        // A game task does not panic; if one did, its moves are simply not counted.
        if let Ok(mut own) = result {
            latencies.append(&mut own);
        }
    }
    let memory = match (before_kib, created_kib, connected_kib, end_kib) {
        (Some(before_kib), Some(created_kib), Some(connected_kib), Some(end_kib)) => Some(Memory {
            before_kib,
            created_kib,
            connected_kib,
            end_kib,
        }),
        _ => None,
    };
    let first_error = shared
        .first_error
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    Ok(Report {
        set_up,
        create_time,
        connect_time,
        connected_at_end,
        moves,
        elapsed: config.duration,
        per_second,
        latency: percentiles(&mut latencies),
        games_finished: shared.games_finished.load(Ordering::Relaxed),
        errors: Errors {
            setup: shared.setup_failures.load(Ordering::Relaxed) as u64,
            refused: shared.refused.load(Ordering::Relaxed),
            timeouts: shared.timeouts.load(Ordering::Relaxed),
            disconnects: shared.disconnects.load(Ordering::Relaxed),
        },
        first_error,
        memory,
        config,
    })
}

/// Waits until `counter` reaches `target`, calling `progress` once a second.
async fn wait_for(counter: &AtomicUsize, target: usize, progress: impl Fn()) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    while counter.load(Ordering::Acquire) < target {
        tokio::select! {
            _ = tick.tick() => progress(),
            // The counter is polled: a short sleep keeps this loop cheap and simple.
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    }
}

/// The server's resident memory after a pause that lets it settle (closed setup
/// connections, finished tasks), if its pid is known.
async fn settled_rss(pid: Option<u32>) -> Result<Option<u64>, LoadError> {
    let Some(pid) = pid else {
        return Ok(None);
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    rss_kib(pid).map(Some)
}

/// p50, p90, p99 and max of latencies in microseconds (sorts them).
fn percentiles(micros: &mut [u32]) -> Option<Latency> {
    micros.sort_unstable();
    let last = micros.len().checked_sub(1)?;
    let at = |q: f64| {
        // Nearest rank: the smallest value with at least q of the values at or below it.
        let rank = ((q * micros.len() as f64).ceil() as usize).clamp(1, micros.len());
        Duration::from_micros(u64::from(micros[rank - 1]))
    };
    Some(Latency {
        p50: at(0.50),
        p90: at(0.90),
        p99: at(0.99),
        max: Duration::from_micros(u64::from(micros[last])),
    })
}

/// The phases of the run, as a game task hears of them.
struct Signals {
    /// Every game is created: connect.
    connect: watch::Receiver<bool>,
    /// Every game is connected: play until the deadline.
    start: watch::Receiver<Option<Instant>>,
    /// The end is measured: close.
    stop: watch::Receiver<bool>,
}

/// One game slot of the run: set up, then idle or play (replacing finished games)
/// until told to stop. Returns its move latencies in microseconds.
async fn game_task(index: usize, shared: Arc<Shared>, signals: Signals) -> Vec<u32> {
    let Signals {
        mut connect,
        mut start,
        mut stop,
    } = signals;
    let mut latencies = Vec::new();
    let seed = shared.config.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = SmallRng::seed_from_u64(seed);
    let failed = |e: &SessionError| {
        shared.setup_failures.fetch_add(1, Ordering::Relaxed);
        shared.note_first(e);
        shared.settled.fetch_add(1, Ordering::AcqRel);
    };
    let created = {
        // The semaphore is never closed, so acquiring only waits.
        let _permit = shared.setup_gate.acquire().await;
        create_game(&shared, index).await
    };
    shared.creation_settled.fetch_add(1, Ordering::AcqRel);
    let created = match created {
        Ok(created) => {
            shared.created.fetch_add(1, Ordering::Relaxed);
            created
        }
        Err(e) => {
            failed(&e);
            return latencies;
        }
    };
    // A closed channel means the run was abandoned: connecting then is harmless.
    let _ = connect.wait_for(|go| *go).await;
    let opened = {
        let _permit = shared.setup_gate.acquire().await;
        Session::connect(&shared, created, index).await
    };
    let mut session = match opened {
        Ok(session) => {
            shared.connected.fetch_add(1, Ordering::AcqRel);
            shared.settled.fetch_add(1, Ordering::AcqRel);
            session
        }
        Err(e) => {
            failed(&e);
            return latencies;
        }
    };

    let deadline = tokio::select! {
        started = start.wait_for(Option::is_some) => match started {
            Ok(deadline) => *deadline,
            Err(_) => None,
        },
        _ = stop.wait_for(|stop| *stop) => None,
    };
    let Some(deadline) = deadline else {
        session.close().await;
        return latencies;
    };
    if index < shared.config.active {
        loop {
            match session
                .play(&shared, &mut rng, deadline, &mut latencies)
                .await
            {
                Ok(Played::Deadline) => break,
                Ok(Played::Over) => {
                    shared.games_finished.fetch_add(1, Ordering::Relaxed);
                    session.close().await;
                    match Session::open(&shared, index).await {
                        Ok(next) => session = next,
                        Err(e) => {
                            shared.connected.fetch_sub(1, Ordering::AcqRel);
                            shared.note(&e);
                            return latencies;
                        }
                    }
                }
                Err(e) => {
                    shared.connected.fetch_sub(1, Ordering::AcqRel);
                    shared.note(&e);
                    return latencies;
                }
            }
        }
    }
    // Stay connected until the end has been measured.
    if let Err(e) = session.idle(&mut stop).await {
        shared.connected.fetch_sub(1, Ordering::AcqRel);
        shared.note(&e);
        return latencies;
    }
    shared.connected.fetch_sub(1, Ordering::AcqRel);
    session.close().await;
    latencies
}

enum Played {
    /// The run's time is up.
    Deadline,
    /// The game is over.
    Over,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The part of a state (or an error) the generator reads; other fields are skipped.
#[derive(Debug, Deserialize)]
struct Incoming {
    version: Option<u64>,
    turn: Option<String>,
    legal: Option<Vec<String>>,
    moves: Option<Vec<IgnoredAny>>,
    status: Option<StatusField>,
    error: Option<String>,
}

/// `status` is `"playing"`/`"finished"` in a state and the HTTP code in an error.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum StatusField {
    Text(String),
    Code(u16),
}

#[derive(Debug)]
struct State {
    version: u64,
    turn: String,
    legal: Vec<String>,
    plies: usize,
    finished: bool,
}

enum Answer {
    State(State),
    Refused { status: u16, message: String },
}

fn parse_answer(text: &str) -> Result<Answer, SessionError> {
    let bad = || SessionError::Answer {
        what: "neither a state nor an error",
        text: text.chars().take(200).collect(),
    };
    let incoming: Incoming = serde_json::from_str(text).map_err(|_| bad())?;
    if let Some(message) = incoming.error {
        let status = match incoming.status {
            Some(StatusField::Code(code)) => code,
            _ => 0,
        };
        return Ok(Answer::Refused { status, message });
    }
    match (incoming.version, incoming.turn, incoming.status) {
        (Some(version), Some(turn), Some(StatusField::Text(status))) => Ok(Answer::State(State {
            version,
            turn,
            legal: incoming.legal.unwrap_or_default(),
            plies: incoming.moves.map_or(0, |m| m.len()),
            finished: status == "finished",
        })),
        _ => Err(bad()),
    }
}

/// One game and its WebSocket.
struct Session {
    seats: HashMap<String, String>,
    socket: Socket,
    state: State,
    /// The same game's socket on the next instance (`--watch-elsewhere`).
    watcher: Option<Socket>,
}

#[derive(Debug, Deserialize)]
struct Created {
    id: String,
    seats: HashMap<String, String>,
}

/// Waits until `watcher` has a state of `version` or later; returns when.
async fn watched(
    watcher: &mut Socket,
    version: u64,
    timeout: Duration,
) -> Result<Instant, SessionError> {
    loop {
        if let Answer::State(state) = next_answer(watcher, timeout).await?
            && state.version >= version
        {
            return Ok(Instant::now());
        }
    }
}

impl Shared {
    /// Instance `index` modulo their number.
    fn instance(&self, index: usize) -> &(String, HttpPool) {
        &self.instances[index % self.instances.len()]
    }
}

/// Creates a hot-seat game over HTTP.
async fn create_game(shared: &Shared, index: usize) -> Result<Created, SessionError> {
    let config = &shared.config;
    // An id the catalog does not know is sent as it is: the server names the error.
    let sides = config
        .game
        .parse::<tablero_games::GameKind>()
        .map_or(["white", "black"], |kind| {
            [tablero_core::Side::White, tablero_core::Side::Black].map(|side| kind.side_name(side))
        });
    let mut body = json!({
        "game": config.game,
        "players": {
            sides[0]: {"name": "load-a"},
            sides[1]: {"name": "load-b"},
        },
    });
    if let Some(variant) = &config.variant {
        body["variant"] = json!(variant);
    }
    let created = tokio::time::timeout(
        config.timeout,
        shared
            .instance(index)
            .1
            .post_json("/api/games", body.to_string()),
    )
    .await
    .map_err(|_| SessionError::Timeout(config.timeout))??;
    let created: Created = match created {
        (201, text) => serde_json::from_slice(&text).map_err(|_| SessionError::Answer {
            what: "a created game without id or seats",
            text: String::from_utf8_lossy(&text).chars().take(200).collect(),
        })?,
        (status, text) => {
            return Err(SessionError::Refused {
                status,
                body: String::from_utf8_lossy(&text).chars().take(200).collect(),
            });
        }
    };
    Ok(created)
}

impl Session {
    /// Creates a hot-seat game and connects to it.
    async fn open(shared: &Shared, index: usize) -> Result<Session, SessionError> {
        let created = create_game(shared, index).await?;
        Session::connect(shared, created, index).await
    }

    /// Connects the WebSocket of a created game and reads the first state.
    async fn connect(
        shared: &Shared,
        created: Created,
        index: usize,
    ) -> Result<Session, SessionError> {
        let watcher = if shared.config.watch_elsewhere {
            let (socket, _) = open_socket(shared, &created.id, index + 1).await?;
            Some(socket)
        } else {
            None
        };
        let (socket, state) = open_socket(shared, &created.id, index).await?;
        Ok(Session {
            seats: created.seats,
            socket,
            state,
            watcher,
        })
    }
}

/// Opens the WebSocket of game `id` on instance `index` and reads the first state.
async fn open_socket(
    shared: &Shared,
    id: &str,
    index: usize,
) -> Result<(Socket, State), SessionError> {
    {
        let config = &shared.config;
        let url = format!("ws://{}/api/games/{}/ws", shared.instance(index).0, id);
        // Small buffers: thousands of mostly idle sockets, each message a few KiB.
        let ws_config = WebSocketConfig::default()
            .read_buffer_size(16 * 1024)
            .write_buffer_size(0);
        let connected = tokio::time::timeout(
            config.timeout,
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(ws_config), true),
        )
        .await
        .map_err(|_| SessionError::Timeout(config.timeout))?;
        let (mut socket, _) = connected.map_err(|source| SessionError::Socket {
            url: url.clone(),
            source,
        })?;
        // The server sends the state first thing.
        let state = match next_answer(&mut socket, config.timeout).await? {
            Answer::State(state) => state,
            Answer::Refused { status, message } => {
                return Err(SessionError::Refusals {
                    count: 1,
                    status,
                    message,
                });
            }
        };
        Ok((socket, state))
    }
}

impl Session {
    /// Plays random legal moves until the game is over or the deadline passes.
    async fn play(
        &mut self,
        shared: &Shared,
        rng: &mut SmallRng,
        deadline: Instant,
        latencies: &mut Vec<u32>,
    ) -> Result<Played, SessionError> {
        let config = &shared.config;
        let mut refusals = 0;
        // Games start at random moments of the first think time, and each pause is
        // drawn around the mean: moves arrive spread out, not in waves of every game
        // at once, as they do from people.
        if !config.think.is_zero() {
            let start = (Instant::now() + config.think.mul_f64(rng.random::<f64>())).min(deadline);
            tokio::time::sleep_until(start.into()).await;
        }
        loop {
            if Instant::now() >= deadline {
                return Ok(Played::Deadline);
            }
            if self.state.finished || self.state.legal.is_empty() {
                return Ok(Played::Over);
            }
            let token = self
                .seats
                .get(&self.state.turn)
                .ok_or_else(|| SessionError::NoSeat(self.state.turn.clone()))?;
            let resign = config.max_plies.is_some_and(|max| self.state.plies >= max);
            let message = if resign {
                json!({"action": "resign", "token": token})
            } else {
                let pick = rng.random_range(0..self.state.legal.len());
                json!({"move": self.state.legal[pick], "token": token})
            };
            let sent = Instant::now();
            self.socket
                .send(Message::text(message.to_string()))
                .await
                .map_err(|_| SessionError::Closed)?;
            loop {
                match next_answer(&mut self.socket, config.timeout).await? {
                    // A state of an older version (another watcher's change) is skipped.
                    Answer::State(state) if state.version <= self.state.version => {}
                    Answer::State(state) => {
                        let mut arrived = Instant::now();
                        if let Some(watcher) = &mut self.watcher {
                            arrived = watched(watcher, state.version, config.timeout).await?;
                        }
                        if !resign {
                            let micros = (arrived - sent).as_micros();
                            latencies.push(u32::try_from(micros).unwrap_or(u32::MAX));
                            if arrived <= deadline {
                                shared.moves.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        self.state = state;
                        refusals = 0;
                        break;
                    }
                    Answer::Refused { status, message } => {
                        refusals += 1;
                        shared.refused.fetch_add(1, Ordering::Relaxed);
                        if refusals >= MAX_REFUSALS_IN_A_ROW {
                            return Err(SessionError::Refusals {
                                count: refusals,
                                status,
                                message,
                            });
                        }
                        break;
                    }
                }
            }
            if !config.think.is_zero() {
                let pause = config.think.mul_f64(rng.random_range(0.5..1.5));
                let wake = (Instant::now() + pause).min(deadline);
                tokio::time::sleep_until(wake.into()).await;
            }
        }
    }

    /// Keeps the socket open, reading whatever comes, until `stop`.
    async fn idle(&mut self, stop: &mut watch::Receiver<bool>) -> Result<(), SessionError> {
        loop {
            tokio::select! {
                // A closed channel means the run is over as well.
                _ = stop.wait_for(|stop| *stop) => return Ok(()),
                incoming = self.socket.next() => match incoming {
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return Err(SessionError::Closed),
                    Some(Ok(_)) => {}
                },
            }
        }
    }

    async fn close(mut self) {
        // The server may already be gone at the end of a run: nothing to report then.
        let _ = self.socket.close(None).await;
        if let Some(mut watcher) = self.watcher {
            let _ = watcher.close(None).await;
        }
    }
}

/// The next text message of the socket, as a state or an error.
async fn next_answer(socket: &mut Socket, timeout: Duration) -> Result<Answer, SessionError> {
    let wait = async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(text))) => return parse_answer(&text),
                Some(Ok(Message::Close(_)) | Err(_)) | None => return Err(SessionError::Closed),
                // Pings are answered by the library; binary messages are not ours.
                Some(Ok(_)) => {}
            }
        }
    };
    tokio::time::timeout(timeout, wait)
        .await
        .map_err(|_| SessionError::Timeout(timeout))?
}

/// HTTP/1.1 connections to the server, kept open between requests.
#[derive(Debug)]
struct HttpPool {
    authority: String,
    idle: Mutex<Vec<SendRequest<Full<Bytes>>>>,
}

impl HttpPool {
    fn new(authority: String) -> HttpPool {
        HttpPool {
            authority,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// POSTs `body` as JSON to `path`; answers the status and the body.
    async fn post_json(
        &self,
        path: &'static str,
        body: String,
    ) -> Result<(u16, Bytes), SessionError> {
        let kept = self
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut sender = match kept {
            Some(sender) if !sender.is_closed() => sender,
            _ => self.connect().await?,
        };
        let http = |source| SessionError::Http { path, source };
        sender.ready().await.map_err(http)?;
        let request = hyper::Request::post(path)
            .header(HOST, &self.authority)
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| SessionError::Answer {
                what: "a request that cannot be built",
                text: e.to_string(),
            })?;
        let response = sender.send_request(request).await.map_err(http)?;
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(http)?
            .to_bytes();
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(sender);
        Ok((status, body))
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, SessionError> {
        let stream = TcpStream::connect(&self.authority)
            .await
            .map_err(|source| SessionError::Connect {
                authority: self.authority.clone(),
                source,
            })?;
        // Small requests answered at once: do not let Nagle hold them.
        let _ = stream.set_nodelay(true);
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|source| SessionError::Http {
                path: "handshake",
                source,
            })?;
        tokio::spawn(async move {
            // The connection ends when the sender is dropped or the server closes it.
            let _ = connection.await;
        });
        Ok(sender)
    }
}

/// `HOST:PORT` of `http://HOST:PORT[/]`.
fn authority_of(url: &str) -> Result<String, LoadError> {
    let bad = |reason| LoadError::Url {
        url: url.to_owned(),
        reason,
    };
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| bad("expected http://HOST:PORT (https is not supported)"))?;
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.is_empty() || authority.contains('/') {
        return Err(bad("expected http://HOST:PORT with no path"));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
            Ok(authority.to_owned())
        }
        _ => Err(bad("expected an explicit port: http://HOST:PORT")),
    }
}

/// The soft and hard `Max open files` of a `/proc/*/limits` file.
fn open_files_limit(path: &str) -> Result<(u64, u64), LoadError> {
    let proc_error = |reason: String| LoadError::Proc {
        path: path.to_owned(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| proc_error(e.to_string()))?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Max open files"))
        .ok_or_else(|| proc_error("no \"Max open files\" line".to_owned()))?;
    let mut fields = line.split_whitespace();
    let mut limit = || -> Result<u64, LoadError> {
        match fields.next() {
            Some("unlimited") => Ok(u64::MAX),
            Some(n) => n
                .parse()
                .map_err(|_| proc_error(format!("open files limit {n:?} is not a number"))),
            None => Err(proc_error("the open files line has no limits".to_owned())),
        }
    };
    let soft = limit()?;
    let hard = limit()?;
    Ok((soft, hard))
}

/// Makes sure this process may open `needed` descriptors: raises its soft limit up to
/// the hard one with `prlimit` (util-linux) if needed, since the workspace forbids the
/// `unsafe` a direct `setrlimit` call would take.
fn ensure_own_file_limit(games: usize, needed: u64) -> Result<(), LoadError> {
    let (soft, hard) = open_files_limit("/proc/self/limits")?;
    if soft >= needed {
        return Ok(());
    }
    if hard >= needed {
        let raised = std::process::Command::new("prlimit")
            .arg(format!("--pid={}", std::process::id()))
            .arg(format!("--nofile={needed}:{hard}"))
            .status();
        if raised.is_ok_and(|s| s.success()) {
            let (soft, _) = open_files_limit("/proc/self/limits")?;
            if soft >= needed {
                return Ok(());
            }
        }
    }
    Err(LoadError::FileLimit {
        games,
        needed,
        limit: soft,
        hard,
    })
}

/// The resident memory of process `pid` in KiB (`VmRSS` of `/proc/PID/status`).
fn rss_kib(pid: u32) -> Result<u64, LoadError> {
    let path = format!("/proc/{pid}/status");
    let proc_error = |reason: String| LoadError::Proc {
        path: path.clone(),
        reason,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| proc_error(e.to_string()))?;
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .ok_or_else(|| proc_error("no VmRSS line".to_owned()))?;
    let number = line.trim().trim_end_matches("kB").trim();
    number
        .parse()
        .map_err(|_| proc_error(format!("VmRSS {number:?} is not a number of kB")))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test fails loudly where its set-up does
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(
            authority_of("http://127.0.0.1:8080").unwrap(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            authority_of("http://localhost:80/").unwrap(),
            "localhost:80"
        );
        for bad in [
            "127.0.0.1:8080",
            "https://a:1",
            "http://a",
            "http://a:1/x",
            "http://:1",
        ] {
            assert!(authority_of(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut values: Vec<u32> = (1..=100).rev().collect();
        let l = percentiles(&mut values).unwrap();
        assert_eq!(
            [l.p50, l.p90, l.p99, l.max],
            [50, 90, 99, 100].map(Duration::from_micros)
        );
        assert!(percentiles(&mut []).is_none());
        let one = percentiles(&mut [7]).unwrap();
        assert_eq!(
            (one.p50, one.max),
            (Duration::from_micros(7), Duration::from_micros(7))
        );
    }

    #[test]
    fn answers() {
        let state = r#"{"id":"x","version":3,"turn":"black","legal":["a","b"],
            "moves":[{"move":"e2e4","notation":"e4"}],"status":"playing","outcome":null}"#;
        match parse_answer(state).unwrap() {
            Answer::State(s) => {
                assert_eq!(
                    (s.version, s.turn.as_str(), s.plies, s.finished),
                    (3, "black", 1, false)
                );
                assert_eq!(s.legal, ["a", "b"]);
            }
            Answer::Refused { .. } => panic!("a state read as an error"),
        }
        match parse_answer(r#"{"error":"not your turn","status":409}"#).unwrap() {
            Answer::Refused { status, message } => {
                assert_eq!((status, message.as_str()), (409, "not your turn"))
            }
            Answer::State(_) => panic!("an error read as a state"),
        }
        assert!(parse_answer("[1]").is_err());
        assert!(parse_answer(r#"{"version":1}"#).is_err());
    }

    #[test]
    fn proc_files() {
        let (soft, hard) = open_files_limit("/proc/self/limits").unwrap();
        assert!(soft <= hard);
        assert!(rss_kib(std::process::id()).unwrap() > 0);
        assert!(matches!(rss_kib(u32::MAX), Err(LoadError::Proc { .. })));
    }
}
