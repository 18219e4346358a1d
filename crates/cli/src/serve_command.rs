//! `tablero serve` (and `tablero` alone): the server and web interface.

use std::net::SocketAddr;

use tablero_store::Store;

/// Options of `tablero serve`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database URL (`sqlite://PATH`); default: tablero.db in the user's data directory.
    #[arg(long)]
    db: Option<String>,
    /// Computer searches at once (default: the number of cores).
    #[arg(long)]
    engine_threads: Option<usize>,
    /// Open the database for reading only: games and players are shown, nothing can
    /// be changed (every change answers 503). Without it, a database that cannot be
    /// written stops the server at start.
    #[arg(long)]
    read_only: bool,
}

impl Default for ServeArgs {
    fn default() -> ServeArgs {
        ServeArgs {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: None,
            engine_threads: None,
            read_only: false,
        }
    }
}

pub(crate) fn run(args: ServeArgs) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
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
    let config = tablero_server::ServeConfig {
        addr: args.addr,
        db: db.clone(),
        engine_threads,
        read_only: args.read_only,
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    runtime
        .block_on(tablero_server::serve(config, |addr| {
            // Tests and scripts wait for this line to know the port.
            println!("tablero listening on http://{addr}");
            println!("database: {db}");
        }))
        .map_err(|e| e.to_string())
}
