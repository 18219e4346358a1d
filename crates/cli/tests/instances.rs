//! Several `tablero serve` processes on one PostgreSQL database, as behind a load
//! balancer without sticky sessions (docs/deploy.md): a watcher on one instance sees
//! the moves made through another, of two moves sent at once through two instances
//! exactly one is accepted, and when an instance is killed with SIGKILL the others
//! finish its computer's move and let its clocks fall on time.
//!
//! They run on the cluster that `scripts/test` starts (`TABLERO_TEST_POSTGRES`).

#[path = "../../store/tests/common/mod.rs"]
mod common;
#[path = "common/serve.rs"]
mod serve;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Backend, TestDb};
use futures_util::StreamExt;
use serde_json::{Value, json};
use serve::{Server, moves};
use tablero_store::{GameStatus, Store};

/// `count` instances on one new database; `None` when this run has no cluster.
fn instances(count: usize) -> Option<(String, Vec<Server>)> {
    instances_with(count, &[])
}

/// `count` instances with `args` on one new database.
fn instances_with(count: usize, args: &[&str]) -> Option<(String, Vec<Server>)> {
    let db = runtime().block_on(TestDb::new(Backend::Postgres))?;
    let servers = (0..count)
        .map(|_| {
            Server::start_on(&db.url, args, &[], Stdio::inherit())
                .unwrap_or_else(|e| panic!("an instance did not start: {e}"))
        })
        .collect();
    Some((db.url, servers))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn create(server: &Server, request: &Value) -> Value {
    let (status, created) = server.request("POST", "/api/games", None, Some(request.clone()));
    assert_eq!(status, 201, "{created}");
    created
}

fn token(created: &Value, side: &str) -> String {
    created["seats"][side]
        .as_str()
        .unwrap_or_else(|| panic!("a {side} token in {created}"))
        .to_owned()
}

fn play(server: &Server, id: &str, token: &str, mv: &str) -> (u16, Value) {
    server.request(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"move": mv})),
    )
}

/// The game as stored, read without any instance (reading through one would let it
/// end the game on time itself).
fn stored(url: &str, id: &str) -> tablero_store::GameRecord {
    runtime().block_on(async {
        let store = Store::open(url).await.expect("the database opens");
        let game = store.game(id).await.expect("a read").expect("the game");
        store.close().await;
        game
    })
}

#[test]
fn a_watcher_on_one_instance_sees_the_moves_made_through_another() {
    let Some((_, servers)) = instances(2) else {
        return;
    };
    let created = create(&servers[0], &json!({"game": "chess", "mode": "hotseat"}));
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = token(&created, "white");
    let black = token(&created, "black");
    let watcher_addr = servers[1].addr.clone();
    let path = format!("ws://{watcher_addr}/api/games/{id}/ws");
    // The socket's frames wait in the kernel while the blocking requests run.
    runtime().block_on(async {
        let (mut socket, _) = tokio_tungstenite::connect_async(path.as_str())
            .await
            .expect("the watcher connects to the second instance");
        let first = next_state(&mut socket).await;
        assert!(moves(&first).is_empty(), "{first}");
        for (ply, (token, mv)) in [(&white, "e2e4"), (&black, "e7e5"), (&white, "g1f3")]
            .into_iter()
            .enumerate()
        {
            let sent = Instant::now();
            let (status, answer) = play(&servers[0], &id, token, mv);
            assert_eq!(status, 200, "{answer}");
            let state = next_state(&mut socket).await;
            assert_eq!(moves(&state).len(), ply + 1, "{state}");
            assert!(
                sent.elapsed() < Duration::from_secs(2),
                "the move took {:?} to reach the other instance",
                sent.elapsed()
            );
        }
        // And the other way round: a move through the watcher's instance.
        let (status, answer) = play(&servers[1], &id, &black, "b8c6");
        assert_eq!(status, 200, "{answer}");
        assert_eq!(moves(&next_state(&mut socket).await).len(), 4);
        // An offer made through one instance stands on the other, and is accepted
        // there.
        let offer = format!("/api/games/{id}/draw/offer");
        let (status, answer) = servers[0].request("POST", &offer, Some(&white), None);
        assert_eq!(status, 200, "{answer}");
        let offered = next_state(&mut socket).await;
        assert_eq!(offered["draw_offer"], "white", "{offered}");
        let accept = format!("/api/games/{id}/draw/accept");
        let (status, answer) = servers[1].request("POST", &accept, Some(&black), None);
        assert_eq!(status, 200, "{answer}");
    });
    // Both instances tell the same state by the same version, the first once the
    // accept's announcement has reached it (a copy may lag by milliseconds:
    // docs/architecture.md, "A stale copy is never trusted").
    let path = format!("/api/games/{id}");
    let (_, on_second) = servers[1].request("GET", &path, None, None);
    let deadline = Instant::now() + Duration::from_secs(5);
    let on_first = loop {
        let (_, state) = servers[0].request("GET", &path, None, None);
        if state["version"] == on_second["version"] || Instant::now() > deadline {
            break state;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(moves(&on_first), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(on_first["status"], "finished", "{on_first}");
    assert_eq!(on_first["version"], on_second["version"]);
    assert_eq!(on_first["outcome"], on_second["outcome"]);
}

/// The next game state the socket sends (within 10 s).
async fn next_state<S>(socket: &mut S) -> Value
where
    S: futures_util::Stream<
            Item = Result<
                tokio_tungstenite::tungstenite::Message,
                tokio_tungstenite::tungstenite::Error,
            >,
        > + Unpin,
{
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), socket.next())
            .await
            .expect("a state within 10 s")
            .expect("the socket stays open")
            .expect("a message");
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).expect("JSON");
            // States come bare or under "state", as the socket protocol says.
            let state = if value.get("moves").is_some() {
                value
            } else {
                value["state"].clone()
            };
            if state.get("moves").is_some() {
                return state;
            }
        }
    }
}

#[test]
fn of_two_moves_sent_at_once_through_two_instances_exactly_one_is_accepted() {
    let Some((url, servers)) = instances(2) else {
        return;
    };
    for round in 0..10 {
        let created = create(
            &servers[round % 2],
            &json!({"game": "chess", "mode": "hotseat"}),
        );
        let id = created["id"].as_str().expect("an id").to_owned();
        let white = token(&created, "white");
        // Both instances hold the game before the race.
        for server in &servers {
            assert_eq!(
                server
                    .request("GET", &format!("/api/games/{id}"), None, None)
                    .0,
                200
            );
        }
        let (a, b) = std::thread::scope(|scope| {
            let a = scope.spawn(|| play(&servers[0], &id, &white, "e2e4"));
            let b = scope.spawn(|| play(&servers[1], &id, &white, "d2d4"));
            (a.join().expect("a"), b.join().expect("b"))
        });
        let statuses = [a.0, b.0];
        assert!(
            statuses == [200, 409] || statuses == [409, 200],
            "round {round}: {a:?} {b:?}"
        );
        let winner = if a.0 == 200 { "e2e4" } else { "d2d4" };
        let game = stored(&url, &id);
        assert_eq!(game.moves.len(), 1, "round {round}");
        assert_eq!(game.moves[0].text, winner);
        // The losing instance knows the stored move now: black answers through it.
        let loser = if a.0 == 200 { &servers[1] } else { &servers[0] };
        let black = token(&created, "black");
        let (status, answer) = play(loser, &id, &black, "g8f6");
        assert_eq!(status, 200, "{answer}");
    }
}

#[test]
fn the_computer_move_of_a_killed_instance_is_played_by_another() {
    let Some((url, mut servers)) = instances(2) else {
        return;
    };
    let created = create(
        &servers[0],
        &json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"computer": 10}}}),
    );
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = token(&created, "white");
    let (status, answer) = play(&servers[0], &id, &white, "e2e4");
    assert_eq!(status, 200, "{answer}");
    // The first instance is thinking for black: kill it mid-search.
    std::thread::sleep(Duration::from_millis(100));
    let first = servers.remove(0);
    assert!(
        stored(&url, &id).moves.len() < 2,
        "the search was not cut short"
    );
    first.kill();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let game = stored(&url, &id);
        if game.moves.len() == 2 {
            break;
        }
        assert_eq!(game.moves.len(), 1);
        assert!(Instant::now() < deadline, "no instance played black's move");
        std::thread::sleep(Duration::from_millis(200));
    }
    // Played once: the game goes on from it through the survivor.
    let (status, state) = servers[0].request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 200);
    assert_eq!(moves(&state).len(), 2, "{state}");
}

#[test]
fn a_clock_falls_on_time_when_its_instance_is_gone() {
    let Some((url, mut servers)) = instances(2) else {
        return;
    };
    let created = create(
        &servers[0],
        &json!({"game": "chess", "mode": "hotseat",
                "clock": {"kind": "fischer", "initial_ms": 5000, "increment_ms": 0}}),
    );
    let id = created["id"].as_str().expect("an id").to_owned();
    let (white, black) = (token(&created, "white"), token(&created, "black"));
    assert_eq!(play(&servers[0], &id, &white, "e2e4").0, 200);
    assert_eq!(play(&servers[0], &id, &black, "e7e5").0, 200);
    // White's clock runs (5 s); its instance dies at once.
    let white_to_move = Instant::now();
    servers.remove(0).kill();
    let deadline = white_to_move + Duration::from_secs(20);
    let game = loop {
        let game = stored(&url, &id);
        if game.status == GameStatus::Finished {
            break game;
        }
        assert!(Instant::now() < deadline, "the flag never fell");
        std::thread::sleep(Duration::from_millis(100));
    };
    let fell_after = white_to_move.elapsed();
    assert_eq!(game.reason.as_deref(), Some("timeout"), "{game:?}");
    assert_eq!(game.winner, Some(tablero_core::Side::Black));
    // The lease (3 s) and the search for orphans (1 s) may delay it past the 5 s.
    assert!(
        fell_after >= Duration::from_millis(4900) && fell_after < Duration::from_secs(10),
        "the flag fell after {fell_after:?}"
    );
}

/// A line of 16 plies that every burst game follows.
const LINE: [&str; 16] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8",
];

#[test]
fn sigkill_of_an_instance_in_a_burst_loses_no_acknowledged_move() {
    let Some((url, mut servers)) = instances(2) else {
        return;
    };
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let games: Vec<(String, [String; 2])> = (0..24)
        .map(|i| {
            let created = create(
                &servers[i % 2],
                &json!({"game": "chess", "mode": "hotseat"}),
            );
            let id = created["id"].as_str().expect("an id").to_owned();
            (id, [token(&created, "white"), token(&created, "black")])
        })
        .collect();
    let first = servers.remove(0);
    let played = std::sync::atomic::AtomicUsize::new(0);
    let acknowledged: Vec<usize> = std::thread::scope(|scope| {
        let players: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(g, (id, tokens))| {
                let (addrs, played) = (&addrs, &played);
                scope.spawn(move || {
                    // Each move goes to the instances in turn; when one is dead the
                    // client tries the other, as a load balancer would.
                    let mut acknowledged = 0;
                    let mut ply = 0;
                    let mut attempt = g;
                    while ply < LINE.len() {
                        attempt += 1;
                        let addr = &addrs[attempt % 2];
                        let path = format!("/api/games/{id}/moves");
                        let body = json!({"move": LINE[ply]});
                        match serve::send(addr, "POST", &path, Some(&tokens[ply % 2]), Some(&body))
                        {
                            Ok((200, _)) => {
                                ply += 1;
                                acknowledged = ply;
                                played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                            // Stored before its instance died, unacknowledged: the
                            // game says so.
                            Ok((409, _)) => {
                                let state = serve::send(
                                    &addrs[1],
                                    "GET",
                                    &format!("/api/games/{id}"),
                                    None,
                                    None,
                                );
                                if let Ok((200, state)) = state {
                                    ply = moves(&state).len();
                                }
                            }
                            Ok((status, answer)) => panic!("{status} {answer}"),
                            Err(_) => {}
                        }
                    }
                    acknowledged
                })
            })
            .collect();
        while played.load(std::sync::atomic::Ordering::Relaxed) < 100 {
            std::thread::sleep(Duration::from_millis(1));
        }
        first.kill();
        let at_kill = played.load(std::sync::atomic::Ordering::Relaxed);
        assert!(at_kill < games.len() * LINE.len(), "the burst was over");
        players
            .into_iter()
            .map(|p| p.join().expect("a player"))
            .collect()
    });
    for ((id, _), acknowledged) in games.iter().zip(acknowledged) {
        let game = stored(&url, id);
        let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(acknowledged, LINE.len(), "{id} was played to the end");
        assert_eq!(texts, LINE, "{id}: every acknowledged move once, in order");
    }
}

/// nginx with `deploy/nginx.conf`, in front of `upstreams`; stopped when dropped.
struct Nginx {
    child: std::process::Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Nginx {
    /// Starts it, or says why it cannot (no nginx here: CI installs it).
    fn start(upstreams: &[String]) -> Option<Nginx> {
        let binary = std::path::Path::new("/usr/sbin/nginx");
        if !binary.exists() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "nginx is missing: scripts/test installs it"
            );
            eprintln!("skipped: nginx is not installed (scripts/test installs it)");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let shipped = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../deploy/nginx.conf"
        ))
        .expect("deploy/nginx.conf");
        let config = shipped
            .replace("127.0.0.1:8081", &upstreams[0])
            .replace("127.0.0.1:8082", &upstreams[1])
            .replace("listen 127.0.0.1:8080", &format!("listen 127.0.0.1:{port}"));
        assert_ne!(
            config, shipped,
            "the ports to replace are in deploy/nginx.conf"
        );
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::create_dir_all(dir.path().join("tmp")).expect("tmp");
        std::fs::write(dir.path().join("nginx.conf"), config).expect("written");
        let child = std::process::Command::new(binary)
            .arg("-p")
            .arg(dir.path())
            .args(["-c", "nginx.conf", "-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx runs");
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "nginx did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Nginx {
            child,
            addr,
            _dir: dir,
        })
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers too (SIGKILL would orphan them).
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

#[test]
fn behind_nginx_any_instance_serves_any_request_and_one_may_die() {
    let Some((url, mut servers)) = instances_with(2, &["--trusted-proxy", "127.0.0.1"]) else {
        return;
    };
    let upstreams: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let Some(nginx) = Nginx::start(&upstreams) else {
        return;
    };
    let front = nginx.addr.clone();
    let post = |path: &str, token: Option<&str>, body: Value| {
        serve::send(&front, "POST", path, token, Some(&body)).expect("an answer through nginx")
    };
    let (status, created) = post(
        "/api/games",
        None,
        json!({"game": "chess", "mode": "hotseat"}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    let tokens = [token(&created, "white"), token(&created, "black")];
    // The socket's frames wait in the kernel while the blocking requests run.
    runtime().block_on(async {
        let (mut socket, _) =
            tokio_tungstenite::connect_async(format!("ws://{front}/api/games/{id}/ws").as_str())
                .await
                .expect("a WebSocket through nginx");
        assert!(moves(&next_state(&mut socket).await).is_empty());
        // Round robin sends the moves to both instances in turn; the watcher sees each.
        for ply in 0..8 {
            let path = format!("/api/games/{id}/moves");
            let (status, answer) = post(&path, Some(&tokens[ply % 2]), json!({"move": LINE[ply]}));
            assert_eq!(status, 200, "ply {ply}: {answer}");
            let state = next_state(&mut socket).await;
            assert_eq!(moves(&state).len(), ply + 1, "{state}");
        }
    });
    // One instance dies: nginx sends everything to the other.
    servers.remove(0).kill();
    for ply in 8..LINE.len() {
        let path = format!("/api/games/{id}/moves");
        let (status, answer) = post(&path, Some(&tokens[ply % 2]), json!({"move": LINE[ply]}));
        assert_eq!(status, 200, "ply {ply}: {answer}");
    }
    let texts: Vec<String> = stored(&url, &id)
        .moves
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(texts, LINE);
}

/// A PostgreSQL cluster of one test's own (`scripts/postgres` with `TABLERO_PG_DIR`),
/// for the tests that stop its server or fill its disk; deleted when dropped.
struct OwnCluster {
    dir: std::path::PathBuf,
    url: String,
}

impl OwnCluster {
    fn start(dir: std::path::PathBuf) -> OwnCluster {
        let mut cluster = OwnCluster {
            dir,
            url: String::new(),
        };
        cluster.url = cluster.run("start");
        cluster
    }

    /// Runs `scripts/postgres COMMAND` on it; returns what it printed.
    fn run(&self, command: &str) -> String {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/postgres");
        let output = std::process::Command::new(script)
            .arg(command)
            .env("TABLERO_PG_DIR", &self.dir)
            .env_remove("TABLERO_PG_PORT")
            .output()
            .expect("scripts/postgres runs");
        assert!(output.status.success(), "{command}: {output:?}");
        String::from_utf8(output.stdout)
            .expect("text")
            .trim()
            .to_owned()
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        // No assertion here: a drop while a failed test unwinds must not panic.
        let _ = std::process::Command::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/postgres"
        ))
        .arg("stop")
        .env("TABLERO_PG_DIR", &self.dir)
        .output();
    }
}

#[test]
fn while_the_database_server_is_down_or_read_only_changes_are_refused_and_then_work_again() {
    if common::postgres_cluster().is_none() {
        return;
    }
    // A cluster of its own: the others' tests go on on the shared one.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("postgres-down-{}", std::process::id()));
    let cluster = OwnCluster::start(dir);
    let url = cluster.url.clone();
    let server = Server::start_on(&url, &[], &[], Stdio::inherit()).expect("an instance");
    let created = create(&server, &json!({"game": "chess", "mode": "hotseat"}));
    let id = created["id"].as_str().expect("an id").to_owned();
    let tokens = [token(&created, "white"), token(&created, "black")];
    assert_eq!(play(&server, &id, &tokens[0], "e2e4").0, 200);

    cluster.run("halt");
    let (status, answer) = play(&server, &id, &tokens[1], "e7e5");
    assert_eq!(status, 503, "{answer}");
    let (_, health) = server.request("GET", "/api/health", None, None);
    assert_eq!(health["store"], "degraded", "{health}");
    assert_eq!(health["cause"], "unreachable", "{health}");

    cluster.run("start");
    // The pool connects again by itself: the refused move was not stored.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, answer) = play(&server, &id, &tokens[1], "e7e5");
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "{answer}");
        assert!(Instant::now() < deadline, "the instance did not recover");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(moves(&state), ["e2e4", "e7e5"]);

    // A server that turns read-only (as a standby would): refused as read-only,
    // nothing stored, and writes work again once it takes them.
    let read_only = |on: bool| {
        runtime().block_on(async {
            use sqlx::Connection;
            let mut admin = sqlx::PgConnection::connect(&url).await.expect("admin");
            let value = if on { "on" } else { "off" };
            sqlx::query(&format!(
                "ALTER SYSTEM SET default_transaction_read_only = {value}"
            ))
            .execute(&mut admin)
            .await
            .expect("set");
            sqlx::query("SELECT pg_reload_conf()")
                .execute(&mut admin)
                .await
                .expect("reload");
        });
        // The configuration reaches every session at its next statement.
        std::thread::sleep(Duration::from_millis(300));
    };
    read_only(true);
    let (status, answer) = play(&server, &id, &tokens[0], "g1f3");
    assert_eq!(status, 503, "{answer}");
    let (_, health) = server.request("GET", "/api/health", None, None);
    assert_eq!(health["cause"], "read-only", "{health}");
    read_only(false);
    let (status, answer) = play(&server, &id, &tokens[0], "g1f3");
    assert_eq!(status, 200, "{answer}");
    let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(moves(&state), ["e2e4", "e7e5", "g1f3"]);
}

#[test]
fn a_full_disk_under_postgresql_refuses_the_move_and_loses_nothing() {
    if common::postgres_cluster().is_none() {
        return;
    }
    // The database server's own disk: a tmpfs (root only; elsewhere skipped, as the
    // SQLite disk tests are).
    let mount_point = tempfile::tempdir().expect("a folder");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=128m,mode=0755", "tmpfs"])
        .arg(mount_point.path())
        .output();
    match mounted {
        Ok(o) if o.status.success() => {}
        other => {
            eprintln!("skipped: cannot mount a tmpfs (needs root): {other:?}");
            return;
        }
    }
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(&self.0)
                .status();
        }
    }
    let _unmount = Unmount(mount_point.path().to_owned());
    let dir = mount_point.path().join("pg");
    let cluster = OwnCluster::start(dir);
    let url = cluster.url.clone();
    let server = Server::start_on(&url, &[], &[], Stdio::inherit()).expect("an instance");
    let created = create(&server, &json!({"game": "chess", "mode": "hotseat"}));
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = token(&created, "white");

    // The disk fills up: the first move needs the moves table's first page.
    let filler = mount_point.path().join("filler");
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&filler).expect("a filler");
        let block = vec![0_u8; 1 << 16];
        while file.write_all(&block).is_ok() {}
        while file.write_all(&[0]).is_ok() {}
    }
    let (status, answer) = play(&server, &id, &white, "e2e4");
    assert_eq!(status, 503, "{answer}");
    assert!(
        answer["error"].as_str().is_some_and(|e| e.contains("full")),
        "{answer}"
    );
    std::fs::remove_file(&filler).expect("space again");
    let (status, answer) = play(&server, &id, &white, "e2e4");
    assert_eq!(status, 200, "{answer}");
    let game = stored(&url, &id);
    let texts: Vec<&str> = game.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        ["e2e4"],
        "the refused move was not stored, the next one once"
    );
}
