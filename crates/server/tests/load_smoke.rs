//! The load generator (`examples/load`) against an in-process server on a real socket:
//! a short run must set up every game, answer moves over the WebSockets and replace
//! finished games, without a single error. No timing is asserted.

#[path = "../examples/load/generator.rs"]
mod generator;

use std::net::SocketAddr;
use std::time::Duration;

use generator::{Config, Progress, Report};
use tablero_server::AppState;
use tablero_store::Store;

/// Serves the app over a new SQLite file in `dir` on a free port.
async fn server(dir: &tempfile::TempDir) -> SocketAddr {
    let url = format!("sqlite://{}", dir.path().join("load.db").display());
    let store = Store::open(&url).await.expect("a temporary database opens");
    let app = tablero_server::app(AppState::new(store, 1));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port on the loopback");
    let addr = listener
        .local_addr()
        .expect("a bound listener has an address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

fn config(addr: SocketAddr, game: &str, games: usize, active: usize, secs: u64) -> Config {
    Config {
        urls: vec![format!("http://{addr}")],
        watch_elsewhere: false,
        games,
        active,
        duration: Duration::from_secs(secs),
        think: Duration::ZERO,
        game: game.to_owned(),
        variant: None,
        // Short games, so that finished games are replaced during the run.
        max_plies: Some(12),
        setup_parallel: 8,
        seed: 7,
        server_pid: Some(std::process::id()),
        timeout: Duration::from_secs(20),
    }
}

fn check(report: &Report) {
    println!("{report}");
    let games = report.config.games;
    assert_eq!(report.errors.total(), 0, "{report}");
    assert_eq!(report.first_error, None);
    assert_eq!((report.set_up, report.connected_at_end), (games, games));
    assert!(report.moves > 0, "no move answered: {report}");
    assert!(report.games_finished > 0, "no game replaced: {report}");
    let latency = report.latency.expect("answered moves have latencies");
    assert!(latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max);
    assert_eq!(report.per_second.len() as u64, report.elapsed.as_secs());
    assert!(report.per_second.iter().sum::<u64>() <= report.moves);
    let memory = report.memory.expect("a server pid gives memory figures");
    assert!(
        memory.before_kib > 0
            && memory.created_kib > 0
            && memory.connected_kib > 0
            && memory.end_kib > 0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_chess_games_half_of_them_playing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let addr = server(&dir).await;
    let seconds = std::sync::Mutex::new(Vec::new());
    let report = generator::run(config(addr, "chess", 20, 10, 2), |p| match p {
        Progress::Setup {
            created,
            connected,
            failed,
        } => assert!(connected <= created && created <= 20 && failed == 0),
        Progress::Second {
            second,
            moves,
            connected,
        } => {
            assert_eq!(connected, 20);
            seconds.lock().expect("not poisoned").push((second, moves));
        }
    })
    .await
    .expect("the run is made");
    check(&report);
    let seconds = seconds.into_inner().expect("not poisoned");
    let expected: Vec<(usize, u64)> = report
        .per_second
        .iter()
        .copied()
        .enumerate()
        .map(|(i, m)| (i + 1, m))
        .collect();
    assert_eq!(seconds, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_and_draughts_seats_are_named_by_their_game() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let addr = server(&dir).await;
    for game in ["xiangqi", "draughts"] {
        let report = generator::run(config(addr, game, 4, 4, 1), |_| {})
            .await
            .expect("the run is made");
        check(&report);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_runs_are_refused_before_they_start() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let addr = server(&dir).await;
    let mut bad = config(addr, "chess", 2, 3, 1);
    assert!(matches!(
        generator::run(bad.clone(), |_| {}).await,
        Err(generator::LoadError::Counts(_))
    ));
    bad.active = 1;
    bad.urls = vec![format!("https://{addr}")];
    assert!(matches!(
        generator::run(bad.clone(), |_| {}).await,
        Err(generator::LoadError::Url { .. })
    ));
    bad.urls = vec![format!("http://{addr}")];
    bad.game = "go".to_owned();
    match generator::run(bad, |_| {}).await {
        Err(generator::LoadError::NoGame(why)) => assert!(why.contains("unknown game"), "{why}"),
        other => panic!("an unknown game gave {other:?}"),
    }
}
