#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod analysis;
mod error;
mod limits;
mod listen;
mod live;
mod openapi;
mod players_routes;
mod registry;
mod routes;
mod view;
mod web;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tablero_store::Store;

pub use error::{API_CODES, ApiError, ApiJson};
pub use limits::{RateLimit, RateLimits, parse_limit};
pub use listen::{ConnectionLimits, open_files_soft_limit};
pub use players_routes::player_lines;
pub use view::{
    BoardView, ClockView, GameView, MoveHintView, MoveView, OutcomeView, PieceView, PlayerView,
    PositionView, SpotView,
};

use crate::registry::{ComputerGameCaps, GameRegistry};

/// What every handler shares: the store, the loaded games and the operator's
/// settings. Cloning is cheap.
#[derive(Debug, Clone)]
pub struct AppState {
    games: Arc<GameRegistry>,
    options: Arc<Options>,
    analysts: Arc<analysis::Analysts>,
}

/// The operator's settings that handlers read, checked once.
#[derive(Debug)]
struct Options {
    /// The SHA-256 of the administrator token, if one was set.
    admin_token_hash: Option<String>,
    /// Origins, besides the server's own, whose pages may open WebSockets.
    allowed_origins: Vec<String>,
    limiters: limits::Limiters,
    /// See [`ServerOptions::websocket_ping`].
    websocket_ping: std::time::Duration,
}

/// What an operator may set (`tablero serve`'s flags).
#[derive(Debug, Clone, Default)]
pub struct ServerOptions {
    /// Computer searches at once.
    pub engine_threads: usize,
    /// The token that allows importing and deleting players (`--admin-token`). Without
    /// it those requests answer 403.
    pub admin_token: Option<String>,
    /// Origins (`https://example.org`), besides the server's own, whose pages may open
    /// a game's WebSocket (`--allow-origin`).
    pub allowed_origins: Vec<String>,
    /// Requests per client address (`--limit-*`).
    pub rate_limits: RateLimits,
    /// Searches at once for games the computer plays against itself (0: half of
    /// `engine_threads`, at least 1). Games with a person seat have `engine_threads`
    /// of their own.
    pub computer_game_threads: usize,
    /// Computer-only games in progress on the server (0: no cap).
    pub max_computer_games: usize,
    /// Computer-only games in progress created from one client address (0: no cap).
    pub max_computer_games_per_address: usize,
    /// How often a quiet WebSocket is pinged (zero: every 20 s); a peer silent for
    /// three of these is taken for dead and the socket closed.
    pub websocket_ping: std::time::Duration,
    /// Analysis searches at once (`POST /api/analyse`; 0: half of `engine_threads`,
    /// at least 1).
    pub analysis_threads: usize,
    /// Games that never got a move are deleted once idle this long (`tablero serve`
    /// checks every hour; zero: never).
    pub abandoned_after: std::time::Duration,
}

impl AppState {
    /// The state over `store`, with `engine_threads` computer searches at most at once,
    /// no administrator and no rate limits (for tests and embedding; `tablero serve`
    /// uses [`AppState::with_options`]).
    #[must_use]
    pub fn new(store: Store, engine_threads: usize) -> AppState {
        AppState::with_options(
            store,
            ServerOptions {
                engine_threads,
                rate_limits: RateLimits::off(),
                ..ServerOptions::default()
            },
        )
    }

    /// The state over `store` with the operator's `options`.
    #[must_use]
    pub fn with_options(store: Store, options: ServerOptions) -> AppState {
        AppState {
            analysts: Arc::new(analysis::Analysts::new(match options.analysis_threads {
                0 => options.engine_threads / 2,
                n => n,
            })),
            games: Arc::new(GameRegistry::new(
                store,
                options.engine_threads,
                match options.computer_game_threads {
                    0 => (options.engine_threads / 2).max(1),
                    n => n,
                },
                ComputerGameCaps {
                    total: options.max_computer_games,
                    per_address: options.max_computer_games_per_address,
                },
            )),
            options: Arc::new(Options {
                admin_token_hash: options
                    .admin_token
                    .as_deref()
                    .map(tablero_store::token_hash),
                allowed_origins: options
                    .allowed_origins
                    .iter()
                    .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                    .collect(),
                limiters: limits::Limiters::new(options.rate_limits),
                websocket_ping: if options.websocket_ping.is_zero() {
                    std::time::Duration::from_secs(20)
                } else {
                    options.websocket_ping
                },
            }),
        }
    }

    /// Loads the unfinished games from the store and lets them go on (their clocks
    /// run from now); returns how many.
    ///
    /// # Errors
    ///
    /// When the store cannot be read.
    pub async fn resume_games(&self) -> Result<usize, ApiError> {
        self.games.resume_all().await
    }

    /// Deletes the games in progress that never got a move and have been idle for
    /// `idle` (invitations nobody took, boards set up and left); returns how many.
    ///
    /// # Errors
    ///
    /// When the store cannot be written.
    pub async fn delete_abandoned_games(
        &self,
        idle: std::time::Duration,
    ) -> Result<usize, ApiError> {
        self.games.delete_abandoned(idle).await
    }
}

/// The whole HTTP API, the WebSocket endpoint and the web interface (every path
/// outside `/api`).
pub fn app(state: AppState) -> Router {
    routes::router(state)
}

/// Where and on what `tablero serve` runs.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The database URL (`sqlite://PATH`).
    pub db: String,
    /// Computer searches at once (default: the number of cores).
    pub engine_threads: usize,
    /// Open the store read-only ([`Store::open_read_only`]): nothing can be changed.
    pub read_only: bool,
    /// The rest of the operator's settings.
    pub options: ServerOptions,
    /// Connections at once and the time to send a request.
    pub connections: ConnectionLimits,
}

/// Opens the store, resumes unfinished games and serves until Ctrl-C. `on_ready` is
/// called with the bound address once the server accepts connections.
///
/// # Errors
///
/// When the database cannot be opened or the address cannot be bound.
pub async fn serve(
    config: ServeConfig,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let store = if config.read_only {
        Store::open_read_only(&config.db).await?
    } else {
        Store::open(&config.db).await?
    };
    let abandoned_after = config.options.abandoned_after;
    let state = AppState::with_options(
        store.clone(),
        ServerOptions {
            engine_threads: config.engine_threads,
            ..config.options
        },
    );
    let resumed = state.resume_games().await?;
    if resumed > 0 {
        tracing::info!(games = resumed, "unfinished games resumed");
    }
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    listen::check_descriptors(&config.connections);
    if !abandoned_after.is_zero() {
        tokio::spawn(delete_abandoned_games_hourly(
            state.clone(),
            abandoned_after,
        ));
    }
    on_ready(listener.local_addr()?);
    // Each request carries its client's address (the rate limits key on it).
    listen::serve(listener, app(state), config.connections, async {
        // Without a signal handler the server simply runs until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    })
    .await;
    store.close().await;
    Ok(())
}

/// Every hour, the games never begun that have been idle for `idle` are deleted, so
/// that invitations nobody took and boards left at the start do not pile up.
async fn delete_abandoned_games_hourly(state: AppState, idle: std::time::Duration) {
    let mut hourly = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        hourly.tick().await;
        if state.games.store().is_read_only() {
            continue;
        }
        match state.delete_abandoned_games(idle).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(games = n, "games never begun deleted"),
            Err(e) => tracing::warn!(error = %e, "games never begun could not be deleted"),
        }
    }
}
