//! `tablero serve` as a process: killed with SIGKILL mid-game and restarted on the same
//! database file, it has every acknowledged move and the games go on.

mod common;

#[path = "common/serve.rs"]
mod serve;

use std::time::{Duration, Instant};

use serde_json::json;
use serve::{Server, moves};

#[test]
fn every_acknowledged_move_survives_sigkill() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("crash.db");
    let server = Server::start(&db);
    let (status, created) = server.request(
        "POST",
        "/api/games",
        None,
        Some(
            json!({"game": "chess", "players": {"white": {"name": "ana"}, "black": {"name": "bo"}},
                    "clock": {"initial_ms": 600000, "increment_ms": 2000}}),
        ),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_owned();
    let tokens = [
        created["seats"]["white"]
            .as_str()
            .expect("white")
            .to_owned(),
        created["seats"]["black"]
            .as_str()
            .expect("black")
            .to_owned(),
    ];
    // A computer game whose computer is to move when the server dies.
    let (_, vs) = server.request(
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "xiangqi", "players": {"red": {"name": "li"}, "black": {"computer": 1}}})),
    );
    let vs_id = vs["id"].as_str().expect("an id").to_owned();
    let red = vs["seats"]["red"].as_str().expect("red").to_owned();

    let plan = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1",
    ];
    let mut acknowledged = Vec::new();
    for (i, mv) in plan.iter().enumerate() {
        let (status, body) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&tokens[i % 2]),
            Some(json!({ "move": mv })),
        );
        assert_eq!(status, 200, "{mv}: {body}");
        acknowledged.push((*mv).to_owned());
    }
    let (status, _) = server.request(
        "POST",
        &format!("/api/games/{vs_id}/moves"),
        Some(&red),
        Some(json!({"move": "h2e2"})),
    );
    assert_eq!(status, 200);
    server.kill();

    let server = Server::start(&db);
    let (status, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state), acknowledged);
    assert_eq!(state["moves"][8]["notation"], "O-O");
    assert_eq!(state["status"], "playing");
    let remaining = state["clock"]["remaining_ms"]["white"]
        .as_u64()
        .expect("a clock");
    assert!(
        remaining > 590_000,
        "the clock did not run while the server was down: {remaining}"
    );

    // The tokens still work and the game goes on.
    let (status, body) = server.request(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&tokens[1]),
        Some(json!({"move": "Be7"})),
    );
    assert_eq!(status, 200, "{body}");
    // The computer resumes thinking and answers.
    let start = Instant::now();
    loop {
        let (_, state) = server.request("GET", &format!("/api/games/{vs_id}"), None, None);
        if moves(&state).len() == 2 {
            assert_eq!(state["turn"], "red");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the computer never moved: {state}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill();

    // A third start sees the move made after the first restart.
    let server = Server::start(&db);
    let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(moves(&state).len(), plan.len() + 1);
    let (_, list) = server.request("GET", "/api/games?status=playing", None, None);
    assert_eq!(list["games"].as_array().expect("a list").len(), 2);
    server.kill();
}

#[test]
fn serve_refuses_a_bad_database_url_and_address() {
    let output = common::tablero(&["serve", "--db", "mysql://localhost/x"]);
    assert!(!output.status.success());
    assert_eq!(common::stdout(&output), "", "it never listened");
    let said = common::stderr(&output);
    assert!(said.contains("sqlite://PATH or postgres://"), "{said}");
    // A PostgreSQL server that cannot be reached is named, without the password.
    let output = common::tablero(&["serve", "--db", "postgres://ana:secret@127.0.0.1:1/x"]);
    assert!(!output.status.success());
    assert_eq!(common::stdout(&output), "", "it never listened");
    let said = common::stderr(&output);
    assert!(said.contains("postgres://ana@127.0.0.1:1/x"), "{said}");
    assert!(
        said.contains("refused") && !said.contains("secret"),
        "{said}"
    );
    let output = common::tablero(&["serve", "--addr", "not-an-address"]);
    assert!(!output.status.success());
    assert!(
        common::stderr(&output).contains("not-an-address"),
        "{}",
        common::stderr(&output)
    );
}

#[test]
fn serve_limits_creates_per_address_and_guards_players() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("limits.db");
    let server = Server::start_with(
        &db,
        &[
            "--limit-creates",
            "3/min",
            "--max-computer-games-per-ip",
            "1",
        ],
        &[("TABLERO_ADMIN_TOKEN", "ops-secret")],
        std::process::Stdio::null(),
    )
    .expect("the server starts");
    let machines =
        json!({"game": "chess", "players": {"white": {"computer": 1}, "black": {"computer": 1}}});
    let (status, body) = server.request("POST", "/api/games", None, Some(machines.clone()));
    assert_eq!(status, 201, "{body}");
    let (status, body) = server.request("POST", "/api/games", None, Some(machines));
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or_default()
            .contains("computer-only"),
        "{body}"
    );
    let (status, body) = server.request("POST", "/api/games", None, Some(json!({"game": "chess"})));
    assert_eq!(status, 201, "{body}");
    let (status, body) = server.request("POST", "/api/games", None, Some(json!({"game": "chess"})));
    assert_eq!(status, 429, "{body}");
    assert!(
        body["error"].as_str().unwrap_or_default().contains("3/min"),
        "{body}"
    );
    let file = json!({"text": "alice_1_2;"});
    let (status, _) = server.request("POST", "/api/players/import", None, Some(file.clone()));
    assert_eq!(status, 401);
    let (status, body) = server.request(
        "POST",
        "/api/players/import",
        Some("ops-secret"),
        Some(file),
    );
    assert_eq!(status, 200, "{body}");
    server.kill();
}

/// A connection to `addr` from the loopback address `from` (e.g. 127.0.0.2).
async fn connect_from(from: [u8; 4], addr: &str) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(std::net::SocketAddr::from((from, 0)))?;
    socket.connect(addr.parse().expect("an address")).await
}

/// Whether the server closed `stream` within `wait` (it reads end of file or an error).
async fn closed_within(stream: &mut tokio::net::TcpStream, wait: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut byte = [0_u8; 1];
    matches!(
        tokio::time::timeout(wait, stream.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// `GET /api/health` from `from`: the status line's code.
async fn health_from(from: [u8; 4], addr: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = connect_from(from, addr).await.expect("connects");
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("sends");
    let mut answer = String::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer));
    read.await.expect("an answer in time").expect("reads");
    answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// `tablero serve` on `db` with `args`, under an open-files limit of `nofile`: the
/// child and the address it listens on, or `None` (said why) without `prlimit`.
fn serve_under_prlimit(
    nofile: u32,
    db: &std::path::Path,
    args: &[&str],
    stderr: std::process::Stdio,
) -> Option<(std::process::Child, String)> {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: prlimit (util-linux) is not installed");
        return None;
    }
    let mut child = std::process::Command::new("prlimit")
        .arg(format!("--nofile={nofile}:{nofile}"))
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(format!("sqlite://{}", db.display()))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("prlimit runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stdout));
    let first = lines.next().expect("a line").expect("text");
    // Both start-up lines are read before the pipe closes.
    let second = lines.next().expect("a second line").expect("text");
    assert!(second.starts_with("database: "), "{second}");
    let addr = first
        .strip_prefix("tablero listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
        .to_owned();
    Some((child, addr))
}

#[test]
fn idle_connections_are_capped_per_address_and_closed_after_the_header_timeout() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // As the issue found it: a low open-files limit (here 512) for the server.
    let Some((mut child, addr)) = serve_under_prlimit(
        512,
        &dir.path().join("idle.db"),
        &["--header-timeout", "2", "--max-connections-per-ip", "100"],
        std::process::Stdio::null(),
    ) else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        // 600 idle connections from one address: more than the server's descriptors.
        let mut idle = Vec::new();
        for _ in 0..600 {
            if let Ok(stream) = connect_from([127, 0, 0, 1], &addr).await {
                idle.push(stream);
            }
        }
        let mut kept = 0;
        for stream in &mut idle {
            if !closed_within(stream, Duration::from_millis(20)).await {
                kept += 1;
            }
        }
        assert!(kept <= 100, "{kept} idle connections kept from one address");
        // Another address is served meanwhile.
        for _ in 0..20 {
            assert_eq!(health_from([127, 0, 0, 2], &addr).await, 200);
        }
        // A keep-alive connection that has had its answer and then says nothing.
        let mut kept_alive = connect_from([127, 0, 0, 4], &addr).await.expect("connects");
        {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            kept_alive
                .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .expect("sends");
            let mut buffer = [0_u8; 1024];
            let n = kept_alive.read(&mut buffer).await.expect("an answer");
            assert!(buffer[..n].starts_with(b"HTTP/1.1 200"), "answered");
        }
        // The idle ones are closed once the header timeout has passed.
        tokio::time::sleep(Duration::from_millis(2_500)).await;
        for stream in &mut idle {
            assert!(
                closed_within(stream, Duration::from_millis(200)).await,
                "still open"
            );
        }
        assert!(
            closed_within(&mut kept_alive, Duration::from_millis(200)).await,
            "an idle keep-alive connection is closed too"
        );
        assert_eq!(health_from([127, 0, 0, 1], &addr).await, 200);
    });
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_low_open_files_limit_is_named_at_start() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // It starts anyway, and says what the limit should be.
    let Some((child, _)) = serve_under_prlimit(
        256,
        &dir.path().join("fd.db"),
        &["--max-connections", "5000"],
        std::process::Stdio::piped(),
    ) else {
        return;
    };
    let mut child = child;
    let _ = child.kill();
    let output = child.wait_with_output().expect("reaped");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("open-files limit") && stderr.contains("5064"),
        "the warning names what is needed: {stderr}"
    );
}
