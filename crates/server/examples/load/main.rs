//! `load`: a load generator for `tablero serve`.
//!
//! Creates `--games` hot-seat games over HTTP and connects one WebSocket to each;
//! `--active` of them then play random legal moves for both sides through their
//! sockets for `--duration` seconds (a finished game is replaced by a new one), the
//! others stay connected and idle. Prints moves per second, move latency percentiles
//! (send to the arrival of the next state), errors, the sockets still connected and,
//! with `--server-pid`, the server's resident memory before, with every game connected,
//! and at the end.
//!
//! ```text
//! cargo run --release -p tablero-server --example load -- \
//!     --url http://127.0.0.1:8080 --games 10000 --active 100 --duration 30
//! ```
//!
//! Exit status: 0 for a run without errors, 2 for a run with errors (the report says
//! which), 1 when the run could not be made.

mod generator;

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Parser;

use generator::{Config, Progress};

/// A load generator for `tablero serve`: many WebSockets, random legal moves, latency.
#[derive(Debug, Parser)]
#[command(name = "load")]
struct Args {
    /// The server's base URL; repeat it for several instances on one database (game
    /// `i` goes to instance `i` modulo their number).
    #[arg(long = "url", default_value = "http://127.0.0.1:8080")]
    urls: Vec<String>,
    /// Watch each game on the next instance too, and time each move until that
    /// watcher has it (the cross-instance latency).
    #[arg(long)]
    watch_elsewhere: bool,
    /// Games created and connected, one WebSocket each.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// How many of the games play moves at once (default: all); the rest stay idle.
    #[arg(long)]
    active: Option<usize>,
    /// Seconds of play.
    #[arg(long, default_value_t = 10.0)]
    duration: f64,
    /// Pause of each active game after each answered move, in milliseconds.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// The game: chess, xiangqi, draughts or chess3d.
    #[arg(long, default_value = "chess")]
    game: String,
    /// The variant (default: the game's default).
    #[arg(long)]
    variant: Option<String>,
    /// Resign and start a new game once a game has this many plies (random games are
    /// long, and every state carries the whole move list).
    #[arg(long)]
    max_plies: Option<usize>,
    /// Games created and connected at once while setting up.
    #[arg(long, default_value_t = 64)]
    setup_parallel: usize,
    /// Seed of the random move choice (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// The server's process id, to read its resident memory from /proc.
    #[arg(long)]
    server_pid: Option<u32>,
    /// How long a move or a game creation may wait for its answer, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// No progress lines on standard error.
    #[arg(long)]
    quiet: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let Some(duration) = Duration::try_from_secs_f64(args.duration)
        .ok()
        .filter(|d| !d.is_zero())
    else {
        eprintln!(
            "load: --duration {}: expected a positive number of seconds",
            args.duration
        );
        return ExitCode::from(1);
    };
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let config = Config {
        urls: args.urls,
        watch_elsewhere: args.watch_elsewhere,
        games: args.games,
        active: args.active.unwrap_or(args.games),
        duration,
        think: Duration::from_millis(args.think_ms),
        game: args.game,
        variant: args.variant,
        max_plies: args.max_plies,
        setup_parallel: args.setup_parallel,
        seed,
        server_pid: args.server_pid,
        timeout: Duration::from_millis(args.timeout_ms),
    };
    let quiet = args.quiet;
    let progress = move |p: Progress| {
        if quiet {
            return;
        }
        let line = match p {
            Progress::Setup {
                created,
                connected,
                failed,
            } => format!("setup: {created} created, {connected} connected, {failed} failed"),
            Progress::Second {
                second,
                moves,
                connected,
            } => format!("{second:>4} s: {moves} moves, {connected} connected"),
        };
        // Progress is best effort: a closed standard error does not stop the run.
        let _ = writeln!(std::io::stderr(), "{line}");
    };
    match generator::run(config, progress).await {
        Ok(report) => {
            print!("{report}");
            println!("seed          {seed}");
            if report.errors.total() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(2)
            }
        }
        Err(e) => {
            eprintln!("load: {e}");
            ExitCode::from(1)
        }
    }
}
