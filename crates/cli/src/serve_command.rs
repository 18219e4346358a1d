//! `tablero serve` (and `tablero` alone): the server and web interface.

use std::net::SocketAddr;

use tablero_server::{ConnectionLimits, RateLimit, RateLimits};
use tablero_store::Store;

/// Options of `tablero serve`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database URL (`sqlite://PATH` or `postgres://USER@HOST/DATABASE`); default:
    /// tablero.db in the user's data directory.
    #[arg(long, env = "TABLERO_DB", hide_env_values = true)]
    db: Option<String>,
    /// Computer searches at once (default: the number of cores).
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Open the database for reading only: games and players are shown, nothing can
    /// be changed (every change answers 503). Without it, a database that cannot be
    /// written stops the server at start.
    #[arg(long)]
    read_only: bool,
    /// The administrator's token: importing and deleting players needs it (as
    /// `Authorization: Bearer <token>`); without one those requests answer 403.
    #[arg(long, env = "TABLERO_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// An origin (`https://example.org`) whose pages may open game WebSockets besides
    /// the server's own; repeat for more.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
    /// Games one client address may create: N/s, N/min or N/h, or off.
    #[arg(long, default_value = "30/min")]
    limit_creates: Limit,
    /// Moves and seat actions one client address may send (HTTP and WebSocket).
    #[arg(long, default_value = "600/min")]
    limit_moves: Limit,
    /// Imports (games or player files) one client address may send.
    #[arg(long, default_value = "10/min")]
    limit_imports: Limit,
    /// Analyses (`POST /api/analyse`) one client address may ask for.
    #[arg(long, default_value = "60/min")]
    limit_analyses: Limit,
    /// Analysis searches at once (default: half of --engine-threads, at least 1).
    #[arg(long)]
    analysis_threads: Option<usize>,
    /// Hours after which a game that never got a move is deleted (an invitation
    /// nobody took, a board left at the start); 0 keeps them.
    #[arg(long, default_value_t = 24)]
    abandoned_after_hours: u64,
    /// Connections open at once, WebSockets included (default: 10000, or fewer if
    /// the open-files limit is lower); more are closed at once.
    #[arg(long)]
    max_connections: Option<usize>,
    /// The address of a load balancer in front (nginx, HAProxy): the client of a
    /// request it passes on is the last address of its X-Forwarded-For header, and
    /// its connections have no per-address limit. Repeat for more.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Connections open at once from one client address.
    #[arg(long, default_value_t = 256)]
    max_connections_per_ip: usize,
    /// Seconds a client has to send a request's headers (an idle connection is
    /// closed after this).
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
    /// Searches at once for games the computer plays against itself (default: half
    /// of --engine-threads, at least 1); games with a person have their own.
    #[arg(long)]
    computer_game_threads: Option<usize>,
    /// Computer-only games in progress on the server (0: no cap).
    #[arg(long, default_value_t = 20)]
    max_computer_games: usize,
    /// Computer-only games in progress created from one client address (0: no cap).
    #[arg(long, default_value_t = 2)]
    max_computer_games_per_ip: usize,
}

/// A rate limit as given: `N/s`, `N/min`, `N/h`, or `off`.
#[derive(Debug, Clone, Copy)]
struct Limit(Option<RateLimit>);

impl std::str::FromStr for Limit {
    type Err = String;

    fn from_str(text: &str) -> Result<Limit, String> {
        tablero_server::parse_limit(text).map(Limit)
    }
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            // `tablero` alone parses no options: the variable still names the database.
            db: std::env::var("TABLERO_DB").ok().filter(|db| !db.is_empty()),
            engine_threads: None,
            read_only: false,
            admin_token: None,
            allowed_origins: Vec::new(),
            limit_creates: Limit(RateLimits::default().creates),
            limit_moves: Limit(RateLimits::default().moves),
            limit_imports: Limit(RateLimits::default().imports),
            limit_analyses: Limit(RateLimits::default().analyses),
            analysis_threads: None,
            abandoned_after_hours: 24,
            max_connections: None,
            max_connections_per_ip: 256,
            trusted_proxies: Vec::new(),
            header_timeout: 10,
            computer_game_threads: None,
            max_computer_games: 20,
            max_computer_games_per_ip: 2,
        }
    }
}

pub(crate) fn run(args: ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
                tracing_subscriber::EnvFilter::new("info,sqlx::postgres::notice=warn")
            }),
        )
        .with_writer(std::io::stderr)
        .init();
    let db = match args.db {
        Some(url) => url,
        None => Store::url_for(&Store::default_path()),
    };
    let engine_threads = args
        .engine_threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let defaults = ConnectionLimits::default();
    let connections = ConnectionLimits {
        // What the open-files limit allows, keeping some for the database and engines.
        total: args.max_connections.unwrap_or_else(|| {
            tablero_server::open_files_soft_limit()
                .and_then(|soft| usize::try_from(soft.saturating_sub(64)).ok())
                .map_or(defaults.total, |fits| fits.clamp(16, defaults.total))
        }),
        per_address: args.max_connections_per_ip,
        header_read_timeout: std::time::Duration::from_secs(args.header_timeout.max(1)),
        trusted_proxies: args.trusted_proxies,
    };
    let config = tablero_server::ServeConfig {
        addr: args.addr,
        db: db.clone(),
        engine_threads,
        read_only: args.read_only,
        connections,
        options: tablero_server::ServerOptions {
            engine_threads,
            admin_token: args.admin_token.filter(|t| !t.is_empty()),
            allowed_origins: args.allowed_origins,
            rate_limits: RateLimits {
                creates: args.limit_creates.0,
                moves: args.limit_moves.0,
                imports: args.limit_imports.0,
                analyses: args.limit_analyses.0,
            },
            computer_game_threads: args.computer_game_threads.unwrap_or(0),
            max_computer_games: args.max_computer_games,
            max_computer_games_per_address: args.max_computer_games_per_ip,
            websocket_ping: std::time::Duration::ZERO,
            analysis_threads: args.analysis_threads.unwrap_or(0),
            abandoned_after: std::time::Duration::from_secs(
                args.abandoned_after_hours.saturating_mul(3600),
            ),
        },
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(tablero_server::serve(config, |addr| {
            // Tests and scripts wait for this line to know the port.
            println!("tablero listening on http://{addr}");
            println!("database: {}", Store::display_url(&db));
        }))
        .map_err(|e| e.to_string())
}
