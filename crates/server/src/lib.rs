#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod error;
mod games;
mod live;
mod openapi;
mod players_routes;
mod routes;
mod view;
mod web;
mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use tablero_store::Store;

pub use error::{ApiError, ApiJson};
pub use players_routes::player_lines;
pub use view::{
    BoardView, ClockView, GameView, MoveHintView, MoveView, OutcomeView, PieceView, PlayerView,
    PositionView, SpotView,
};

use crate::games::Games;

/// What every handler shares: the store and the loaded games. Cloning is cheap.
#[derive(Debug, Clone)]
pub struct AppState {
    games: Arc<Games>,
}

impl AppState {
    /// The state over `store`, with `engine_threads` computer searches at most at once.
    #[must_use]
    pub fn new(store: Store, engine_threads: usize) -> AppState {
        AppState {
            games: Arc::new(Games::new(store, engine_threads)),
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
    let state = AppState::new(store.clone(), config.engine_threads);
    let resumed = state.resume_games().await?;
    if resumed > 0 {
        tracing::info!(games = resumed, "unfinished games resumed");
    }
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    on_ready(listener.local_addr()?);
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            // Without a signal handler the server simply runs until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await?;
    store.close().await;
    Ok(())
}
