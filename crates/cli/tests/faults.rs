//! Fault injection against `tablero serve` as a process (docs/reliability.md): a disk
//! that fills up during a burst of changes, SIGKILL at random moments of bursts that
//! end games, take moves back and resign, SIGKILL while a clock runs, a database that
//! cannot be written, and secrets at rest. After each: every acknowledged change is in
//! the file, no game is half-ended, no clock gained more than a second.
//!
//! The disk tests mount a tmpfs (root only): where `mount` is refused they print why
//! and pass without testing.

#[path = "common/serve.rs"]
mod serve;

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use serve::{Server, moves, send};
use tablero_core::{Side, SplitMix64};
use tablero_games::{AnyPosition, AnyRecord};
use tablero_store::{GameStatus, Store};

/// A tmpfs of its own, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (e.g. `4m`), or says why it cannot.
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let output = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(dir.path())
            .output();
        match output {
            Ok(o) if o.status.success() => Some(Tmpfs { dir }),
            Ok(o) => {
                eprintln!(
                    "skipped: cannot mount a tmpfs (needs root): {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("skipped: cannot run mount: {e}");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Remounts read-only (`ro`) or read-write (`rw`).
    fn remount(&self, mode: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{mode}")])
            .arg(self.path())
            .status()
            .expect("mount runs");
        assert!(status.success(), "remount {mode}");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(self.path()).status();
    }
}

/// Fills the file system of `dir` to the last block; returns the filler's path.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = File::create(&path).expect("the filler is created");
    let block = vec![0xa5_u8; 4096];
    while file.write_all(&block).is_ok() {}
    // What is left is less than a block: fill it byte by byte.
    while file.write_all(&[0xa5]).is_ok() {}
    path
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn sqlite_url(db: &Path) -> String {
    format!("sqlite://{}", db.display())
}

fn create(server: &Server, request: Value) -> (u16, Value) {
    server.request("POST", "/api/games", None, Some(request))
}

fn seat(created: &Value, side: &str) -> String {
    created["seats"][side]
        .as_str()
        .unwrap_or_else(|| panic!("a {side} token in {created}"))
        .to_owned()
}

/// A line of 16 plies that every chess test game follows.
const LINE: [&str; 16] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8",
];

/// A hot-seat game of the disk test: the moves the server acknowledged.
struct LineGame {
    id: String,
    tokens: [String; 2],
    acknowledged: Vec<String>,
}

impl LineGame {
    fn new(created: &Value) -> LineGame {
        LineGame {
            id: created["id"].as_str().expect("an id").to_owned(),
            tokens: [seat(created, "white"), seat(created, "black")],
            acknowledged: Vec::new(),
        }
    }

    /// Plays the next move of the line; returns the status.
    fn play_next(&mut self, server: &Server) -> (u16, Value) {
        let ply = self.acknowledged.len();
        let mv = LINE[ply];
        let (status, body) = server.request(
            "POST",
            &format!("/api/games/{}/moves", self.id),
            Some(&self.tokens[ply % 2]),
            Some(json!({ "move": mv })),
        );
        if status == 200 {
            self.acknowledged.push(mv.to_owned());
        }
        (status, body)
    }
}

/// A refusal for a full disk: 503 naming the cause.
fn assert_full(status: u16, body: &Value) {
    assert_eq!(status, 503, "{body}");
    let error = body["error"].as_str().unwrap_or_default();
    assert!(error.contains("full"), "{error}");
}

#[test]
fn a_full_disk_refuses_changes_with_503_loses_nothing_and_recovers_at_once() {
    let Some(disk) = Tmpfs::mount("4m") else {
        return;
    };
    let db = disk.path().join("full.db");
    let server = Server::start(&db);
    let new_game = |i: usize| {
        json!({"game": "chess", "players": {"white": {"name": format!("full{i}w")},
                                            "black": {"name": format!("full{i}b")}}})
    };
    let mut games = Vec::new();
    for i in 0..6 {
        let (status, created) = create(&server, new_game(i));
        assert_eq!(status, 201, "{created}");
        games.push(LineGame::new(&created));
    }

    let filler = fill(disk.path());
    let (mut acknowledged, mut refused) = (0, 0);
    let mut saw_degraded = false;
    for step in 0..12 {
        for game in &mut games {
            let (status, body) = game.play_next(&server);
            if status == 200 {
                acknowledged += 1;
            } else {
                assert_full(status, &body);
                refused += 1;
            }
        }
        let (status, created) = create(&server, new_game(100 + step));
        if status == 201 {
            acknowledged += 1;
            games.push(LineGame::new(&created));
        } else {
            assert_full(status, &created);
            refused += 1;
        }
        if refused > 0 && !saw_degraded {
            let (_, health) = server.request("GET", "/api/health", None, None);
            // A heartbeat may have found room since the refusal: both are right.
            saw_degraded = health["status"] == "degraded";
            if saw_degraded {
                assert_eq!(health["cause"], "full", "{health}");
            }
        }
    }
    assert!(refused > 0, "the disk never filled up");
    assert!(
        saw_degraded,
        "/api/health never said the store was degraded"
    );

    std::fs::remove_file(&filler).expect("the filler goes");
    let freed = Instant::now();
    let recovered = loop {
        let (status, created) = create(&server, new_game(200));
        if status == 201 {
            games.push(LineGame::new(&created));
            break freed.elapsed();
        }
        assert_full(status, &created);
        assert!(
            freed.elapsed() < Duration::from_secs(1),
            "still refused a second after the space came back"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let (_, health) = server.request("GET", "/api/health", None, None);
    assert_eq!(health["status"], "ok", "{health}");
    for _ in 0..4 {
        for game in &mut games {
            if game.acknowledged.len() < LINE.len() {
                let (status, body) = game.play_next(&server);
                assert_eq!(status, 200, "with room again: {body}");
                acknowledged += 1;
            }
        }
    }
    server.kill();

    let server = Server::start(&db);
    for game in &games {
        let (status, state) = server.request("GET", &format!("/api/games/{}", game.id), None, None);
        assert_eq!(status, 200, "an acknowledged game is stored: {state}");
        assert_eq!(moves(&state), game.acknowledged, "game {}", game.id);
    }
    println!(
        "disk full: {acknowledged} changes acknowledged and kept, {refused} refused with 503, \
         0 lost; writes worked again {} ms after the space came back",
        recovered.as_millis()
    );
    server.kill();
}

/// One step of a game's script in the kill test.
#[derive(Debug, Clone, Copy)]
enum Step {
    Move(&'static str),
    TakeBack,
    Resign(Side),
}

/// A game of the kill test: its script, and how far the server acknowledged it.
#[derive(Debug)]
struct Script {
    id: String,
    tokens: [String; 2],
    steps: Vec<Step>,
    /// Steps acknowledged (each one answered 200).
    acknowledged: usize,
    /// Steps sent (one more than acknowledged when the server died on it).
    sent: usize,
    /// Unique player names, white first.
    names: [String; 2],
}

impl Script {
    /// The moves and whether the game is over after the first `done` steps.
    fn expected(&self, done: usize, mate: bool) -> (Vec<String>, bool) {
        let mut moves: Vec<String> = Vec::new();
        let mut over = false;
        for step in &self.steps[..done] {
            match step {
                Step::Move(m) => moves.push((*m).to_owned()),
                Step::TakeBack => {
                    moves.pop();
                }
                Step::Resign(_) => over = true,
            }
        }
        (moves.clone(), over || (mate && !moves.is_empty()))
    }

    fn token_for(&self, step: Step, plies: usize) -> &str {
        let side = match step {
            // The side to move; a hot-seat takeback is asked by the side that moved.
            Step::Move(_) => plies % 2,
            Step::TakeBack => (plies + 1) % 2,
            Step::Resign(side) => side.index(),
        };
        &self.tokens[side]
    }

    /// Runs the script until its end or the server's death; counts each answered step
    /// in `answered`.
    fn run(&mut self, addr: &str, answered: &AtomicUsize) {
        let mut plies = 0_usize;
        for &step in &self.steps.clone() {
            let (path, body) = match step {
                Step::Move(m) => ("moves", Some(json!({ "move": m }))),
                Step::TakeBack => ("takeback", None),
                Step::Resign(_) => ("resign", None),
            };
            let token = self.token_for(step, plies).to_owned();
            self.sent += 1;
            let answer = send(
                addr,
                "POST",
                &format!("/api/games/{}/{path}", self.id),
                Some(&token),
                body.as_ref(),
            );
            match answer {
                Ok((200, _)) => {
                    self.acknowledged += 1;
                    answered.fetch_add(1, Ordering::SeqCst);
                }
                Ok((status, body)) => panic!("game {}: {step:?} answered {status} {body}", self.id),
                // The server died: this step may or may not have been stored.
                Err(_) => return,
            }
            match step {
                Step::Move(_) => plies += 1,
                Step::TakeBack => plies -= 1,
                Step::Resign(_) => {}
            }
        }
    }
}

/// The mate of the issue: white's rook mates at h8.
const MATE_START: &str = "k7/8/1K6/8/8/8/8/7R w - - 0 1";

fn long_script() -> Vec<Step> {
    use Step::{Move, Resign, TakeBack};
    vec![
        Move("e2e4"),
        Move("e7e5"),
        TakeBack,
        Move("e7e6"),
        Move("g1f3"),
        TakeBack,
        Move("g1f3"),
        Move("d7d5"),
        Move("e4d5"),
        Move("e6d5"),
        TakeBack,
        Move("d8d5"),
        Resign(Side::White),
    ]
}

#[test]
fn sigkill_at_random_moments_loses_no_acknowledged_change_and_halves_no_game() {
    // Ten rounds of mates, takebacks and resignations, then the round: 150
    // mates played at once. The server dies at a random moment of each burst: after a
    // random number of answered changes.
    const ROUNDS: u64 = 11;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("kill.db");
    let mut rng = SplitMix64::new(20_261_127);
    let (mut acknowledged, mut unacknowledged_kept, mut mates_ended, mut mates) = (0, 0, 0, 0);
    let mut all = Vec::new();
    for round in 0..ROUNDS {
        let last = round == ROUNDS - 1;
        let (mates_now, long) = if last { (150, 0) } else { (15, 10) };
        let steps = mates_now + long * long_script().len();
        let kill_after = usize::try_from(rng.below(steps as u64)).expect("small");
        mates += mates_now;
        let server = Server::start(&db);
        let mut scripts = Vec::new();
        for i in 0..mates_now + long {
            let mate = i < mates_now;
            let names = [format!("k{round}g{i}w"), format!("k{round}g{i}b")];
            let mut request = json!({"game": "chess",
                "players": {"white": {"name": names[0]}, "black": {"name": names[1]}},
                "clock": {"initial_ms": 300_000, "increment_ms": 2_000}});
            if mate {
                request["position"] = json!(MATE_START);
            }
            let (status, created) = create(&server, request);
            assert_eq!(status, 201, "{created}");
            scripts.push(Script {
                id: created["id"].as_str().expect("an id").to_owned(),
                tokens: [seat(&created, "white"), seat(&created, "black")],
                steps: if mate {
                    vec![Step::Move("h1h8")]
                } else {
                    long_script()
                },
                acknowledged: 0,
                sent: 0,
                names,
            });
        }
        // Every game's thread starts at once.
        let start = Arc::new(Barrier::new(scripts.len() + 1));
        let answered = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = scripts
            .into_iter()
            .map(|mut script| {
                let (addr, start) = (server.addr.clone(), Arc::clone(&start));
                let answered = Arc::clone(&answered);
                std::thread::spawn(move || {
                    start.wait();
                    script.run(&addr, &answered);
                    script
                })
            })
            .collect();
        start.wait();
        let started = Instant::now();
        while answered.load(Ordering::SeqCst) < kill_after
            && started.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_micros(200));
        }
        server.kill();
        let scripts: Vec<Script> = threads
            .into_iter()
            .map(|t| t.join().expect("a script thread"))
            .collect();

        // The file as the dead server left it, before any repair at start-up.
        let rt = runtime();
        let store = rt
            .block_on(Store::open_read_only(&sqlite_url(&db)))
            .expect("the file opens");
        let players = rt.block_on(store.players()).expect("the players");
        for (i, script) in scripts.iter().enumerate() {
            let mate = i < mates_now;
            let record = rt
                .block_on(store.game(&script.id))
                .expect("a read")
                .expect("an acknowledged game is stored");
            let stored: Vec<String> = record.moves.iter().map(|m| m.text.clone()).collect();
            let finished = record.status == GameStatus::Finished;
            let matching = (script.acknowledged..=script.sent)
                .find(|&done| script.expected(done, mate) == (stored.clone(), finished));
            let Some(done) = matching else {
                panic!(
                    "round {round}, game {}: stored {stored:?} (finished: {finished}) is not the \
                     state after {} acknowledged steps (or the one sent after them) of {:?}",
                    script.id, script.acknowledged, script.steps
                );
            };
            if done > script.acknowledged {
                unacknowledged_kept += 1;
            }
            // No half-ended game: the moves and the row agree.
            let mut replay = AnyRecord::new(
                AnyPosition::new("chess", None, Some(&record.start_position)).expect("a start"),
            );
            for m in &stored {
                replay.play_text(m).expect("a stored move replays");
            }
            if replay.outcome().is_some() {
                assert!(finished, "round {round}, game {}: half-ended", script.id);
            }
            // The players' counts and ratings came with the result, or not at all.
            let won = |name: &str| {
                players
                    .iter()
                    .find(|p| p.name == name)
                    .map_or(0, |p| p.totals(Some("chess")).won)
            };
            let winner = usize::from(!mate); // the mate's winner is white; resigning white loses
            let counted = won(&script.names[winner]);
            assert_eq!(
                counted,
                u32::from(finished),
                "round {round}, game {}: counts say {counted} win(s), the row says finished: {finished}",
                script.id
            );
            if mate && finished {
                mates_ended += 1;
            }
            acknowledged += script.acknowledged + 1; // its steps and its creation
        }
        rt.block_on(store.close());
        all.extend(scripts.into_iter().map(|s| s.id));
    }

    // A last start: the server lists in progress exactly the games whose state is so.
    let server = Server::start(&db);
    let (_, list) = server.request("GET", "/api/games?status=playing&limit=500", None, None);
    let playing: Vec<&str> = list["games"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g["id"].as_str().expect("an id"))
        .collect();
    for id in &all {
        let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
        assert_eq!(
            state["status"] == "playing",
            playing.contains(&id.as_str()),
            "game {id}: {}",
            state["status"]
        );
    }
    server.kill();
    println!(
        "sigkill: {ROUNDS} rounds, {acknowledged} changes acknowledged, 0 lost, 0 half-ended; \
         {unacknowledged_kept} unanswered changes were committed; {mates_ended} of {mates} mates ended"
    );
}

fn remaining(state: &Value, side: &str) -> u64 {
    state["clock"]["remaining_ms"][side]
        .as_u64()
        .unwrap_or_else(|| panic!("a clock in {state}"))
}

#[test]
fn sigkill_while_a_side_thinks_gives_back_at_most_a_second() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("clock.db");
    let server = Server::start(&db);
    let clock = json!({"initial_ms": 60_000, "increment_ms": 0});
    // A person thinks in a hot-seat game; the computer thinks in the other.
    let (_, people) = create(
        &server,
        json!({"game": "chess", "clock": clock,
               "players": {"white": {"name": "ana"}, "black": {"name": "bo"}}}),
    );
    let (_, computer) = create(
        &server,
        json!({"game": "xiangqi", "clock": clock,
               "players": {"red": {"name": "li"}, "black": {"computer": 10}}}),
    );
    let games = [
        (
            people["id"].as_str().expect("an id"),
            seat(&people, "white"),
            "e2e4",
        ),
        (
            computer["id"].as_str().expect("an id"),
            seat(&computer, "red"),
            "h2e2",
        ),
    ];
    for (id, token, mv) in &games {
        let (status, body) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(json!({ "move": mv })),
        );
        assert_eq!(status, 200, "{body}");
    }
    std::thread::sleep(Duration::from_millis(1_500));
    let seen: Vec<(u64, Instant)> = games
        .iter()
        .map(|(id, _, _)| {
            let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
            (remaining(&state, "black"), Instant::now())
        })
        .collect();
    std::thread::sleep(Duration::from_millis(700));
    let killed = Instant::now();
    server.kill();
    std::thread::sleep(Duration::from_millis(1_500));

    let server = Server::start(&db);
    for ((id, _, _), (before, at)) in games.iter().zip(&seen) {
        // What black had left when the server died.
        let at_kill = before.saturating_sub(millis(killed.duration_since(*at)));
        let (_, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
        let after = remaining(&state, "black");
        assert!(
            after <= at_kill + 1_000,
            "game {id}: black had {at_kill} ms at the kill and {after} ms after the restart"
        );
        println!("clock: black had {at_kill} ms at the kill, {after} ms after the restart");
    }
    server.kill();
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[test]
fn a_database_that_cannot_be_written_stops_the_server_unless_read_only() {
    let Some(disk) = Tmpfs::mount("8m") else {
        return;
    };
    let db = disk.path().join("games.db");
    let server = Server::start(&db);
    let (_, created) = create(&server, json!({"game": "chess"}));
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = seat(&created, "white");
    let (status, _) = server.request(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&white),
        None,
    );
    assert_eq!(status, 200);
    server.kill();
    disk.remount("ro");

    for file in [db.clone(), disk.path().join("new.db")] {
        let output = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(sqlite_url(&file))
            .output()
            .expect("the binary runs");
        assert!(
            !output.status.success(),
            "it must not start on a read-only disk"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let line = stderr.lines().last().unwrap_or_default();
        assert!(
            line.contains(&file.display().to_string()) && line.contains("Read-only file system"),
            "one line naming the file and the cause: {stderr}"
        );
        assert!(output.stdout.is_empty(), "it never listened");
    }

    let server = Server::start_with(&db, &["--read-only"], &[], Stdio::null())
        .expect("--read-only starts on a read-only disk");
    let (status, state) = server.request("GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(
        (status, &state["status"]),
        (200, &json!("finished")),
        "{state}"
    );
    let (_, health) = server.request("GET", "/api/health", None, None);
    assert_eq!(health["store"], "read-only", "{health}");
    let (status, body) = create(&server, json!({"game": "chess"}));
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or_default()
            .contains("read-only"),
        "{body}"
    );
    server.kill();
    disk.remount("rw");
}

#[test]
fn seat_tokens_are_neither_stored_nor_logged_and_the_files_are_private() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("secrets.db");
    let log = dir.path().join("trace.log");
    let server = Server::start_with(
        &db,
        &[],
        &[("RUST_LOG", "trace")],
        Stdio::from(File::create(&log).expect("a log file")),
    )
    .expect("the server starts");
    let (_, created) = create(
        &server,
        json!({"game": "chess", "mode": "online", "players": {"white": {"name": "ana"}}}),
    );
    let id = created["id"].as_str().expect("an id").to_owned();
    let white = seat(&created, "white");
    let black = created["invite"]["token"]
        .as_str()
        .expect("an invitation")
        .to_owned();
    // A WebSocket URL with the token in its query, then moves with both tokens.
    let _ = send(
        &server.addr,
        "GET",
        &format!("/api/games/{id}/ws?token={black}"),
        None,
        None,
    );
    for (token, mv) in [(&white, "e2e4"), (&black, "e7e5")] {
        let (status, body) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(json!({ "move": mv })),
        );
        assert_eq!(status, 200, "{body}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let file = PathBuf::from(format!("{}{suffix}", db.display()));
            let mode = std::fs::metadata(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{}", file.display());
        }
    }
    server.kill();
    let mut stored = Vec::new();
    for suffix in ["", "-wal", "-shm"] {
        if let Ok(bytes) = std::fs::read(format!("{}{suffix}", db.display())) {
            stored.extend(bytes);
        }
    }
    let logged = std::fs::read_to_string(&log).expect("the log");
    assert!(logged.contains("/ws"), "the trace log has the requests");
    for token in [&white, &black] {
        let found = |haystack: &[u8]| haystack.windows(token.len()).any(|w| w == token.as_bytes());
        assert!(!found(&stored), "a token is stored in plain text");
        assert!(!found(logged.as_bytes()), "a token is in the log");
    }
}
