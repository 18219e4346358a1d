//! `tablero uci` driven through pipes as a GUI drives it: handshake, options,
//! every kind of `go`, Chess960 castling, xiangqi, bad input, `quit`, and a match
//! played by tablero's own UCI client against it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use tablero_games::AnyPosition;

const TIMEOUT: Duration = Duration::from_secs(10);

/// A running `tablero uci` with its output read line by line on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tablero"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tablero starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().expect("engine reads its input");
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        self.until_within(prefix, TIMEOUT)
    }

    fn until_within(&self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("waiting for {prefix:?} ({e}); got {seen:#?}"),
            }
        }
    }

    /// Asserts that nothing starting with `prefix` arrives for `time`.
    fn quiet(&self, prefix: &str, time: Duration) {
        let deadline = Instant::now() + time;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => assert!(!line.starts_with(prefix), "unexpected {line:?}"),
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited"),
            }
        }
    }

    /// The move of the `bestmove` line, after any `info` lines.
    fn best_move(&self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let last = lines.last().expect("a bestmove line");
        let best = last.split_whitespace().nth(1).expect("a move").to_owned();
        (best, lines)
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok");
    }

    fn exits_within(&mut self, time: Duration) -> bool {
        let deadline = Instant::now() + time;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "exit status {status}");
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_legal(game: &AnyPosition, best: &str) {
    let legal = game.legal_moves_text();
    assert!(legal.iter().any(|m| m == best), "{best} not in {legal:?}");
}

#[test]
fn handshake_names_the_engine_and_its_options() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines[0].starts_with("id name tablero "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Skill Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "Move Overhead",
        "Ponder",
        "UCI_Chess960",
        "UCI_Variant",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no option {name}"
        );
    }
    engine.send("setoption name Hash value 8");
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Skill Level value 12");
    let answer = engine.until("info string");
    assert!(answer[0].contains("Skill Level"), "{answer:?}");
    engine.ready();
    engine.send("quit");
    assert!(engine.exits_within(Duration::from_secs(5)));
}

#[test]
fn go_depth_reports_every_iteration() {
    let mut engine = Engine::start();
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go depth 5");
    let (best, lines) = engine.best_move();
    let mut game = AnyPosition::new("chess", None, None).expect("chess");
    game.play_texts(["e2e4", "c7c5"]).expect("legal moves");
    assert_legal(&game, &best);
    for depth in 1..=5 {
        let prefix = format!("info depth {depth} seldepth ");
        let line = lines
            .iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no depth {depth} in {lines:#?}"));
        for field in [
            " score cp ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(line.contains(field), "{field:?} missing in {line}");
        }
    }
    assert!(lines.last().expect("bestmove").contains(" ponder "));
}

#[test]
fn go_movetime_answers_on_time() {
    let mut engine = Engine::start();
    engine.ready();
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go movetime 300");
    let (best, _) = engine.best_move();
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(200), "{took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert_legal(
        &AnyPosition::new("chess", None, None).expect("chess"),
        &best,
    );
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.quiet("bestmove", Duration::from_millis(500));
    engine.ready();
    let start = Instant::now();
    engine.send("stop");
    let (best, _) = engine.best_move();
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_legal(
        &AnyPosition::new("chess", None, None).expect("chess"),
        &best,
    );
}

#[test]
fn go_with_clocks_budgets_the_side_to_move() {
    let mut engine = Engine::start();
    engine.ready();
    // Black to move with little time while White has plenty: Black's clock counts.
    engine.send("position startpos moves d2d4");
    let start = Instant::now();
    engine.send("go wtime 600000 btime 1000 winc 0 binc 10");
    let (best, _) = engine.best_move();
    assert!(
        start.elapsed() < Duration::from_millis(800),
        "{:?}",
        start.elapsed()
    );
    let mut game = AnyPosition::new("chess", None, None).expect("chess");
    game.play_text("d2d4").expect("legal");
    assert_legal(&game, &best);
}

#[test]
fn chess960_castles_king_takes_rook() {
    let mut engine = Engine::start();
    engine.send("setoption name UCI_Chess960 value true");
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 2 searchmoves e1h1 e1a1");
    let (best, _) = engine.best_move();
    assert!(best == "e1h1" || best == "e1a1", "{best}");
    // Castling given king-takes-rook is played as castling: the king is on g1.
    engine.send(&format!("position fen {fen} moves e1h1 e8a8"));
    engine.send("go depth 1 searchmoves g1h1");
    assert_eq!(engine.best_move().0, "g1h1");
    // A Chess960 start position: moves stay legal in the 960 rules.
    let fen960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    engine.send(&format!("position fen {fen960}"));
    engine.send("go depth 3");
    let (best, _) = engine.best_move();
    let game = AnyPosition::new("chess", Some("chess960"), Some(fen960)).expect("a 960 position");
    assert_legal(&game, &best);
}

#[test]
fn xiangqi_through_uci_variant() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo")
                && l.contains("var xiangqi"))
    );
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.ready();
    engine.send("position startpos moves h2e2 h9g7");
    engine.send("go depth 3");
    let (best, lines) = engine.best_move();
    let mut game = AnyPosition::new("xiangqi", None, None).expect("xiangqi");
    game.play_texts(["h2e2", "h9g7"]).expect("legal");
    assert_legal(&game, &best);
    // Every move written is ICCS with ranks 0-9.
    let pv_line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .expect("a pv");
    let pv = pv_line.split(" pv ").nth(1).expect("moves after pv");
    for m in pv.split_whitespace() {
        let b = m.as_bytes();
        assert!(
            b.len() == 4
                && (b'a'..=b'i').contains(&b[0])
                && b[1].is_ascii_digit()
                && (b'a'..=b'i').contains(&b[2])
                && b[3].is_ascii_digit(),
            "not ICCS: {m}"
        );
    }
    // A position given as xiangqi FEN.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go movetime 200");
    let (best, _) = engine.best_move();
    assert_legal(
        &AnyPosition::new("xiangqi", None, Some(fen)).expect("fen"),
        &best,
    );
}

#[test]
fn malformed_input_keeps_it_alive() {
    let mut engine = Engine::start();
    engine.send("hello");
    assert!(engine.until("info string")[0].contains("unknown command"));
    engine.send_bytes(b"\xff\xfe garbage \x00\x01\n");
    engine.until("info string");
    engine.send(&"x".repeat(100_000));
    let answer = engine.until("info string");
    assert!(answer[0].len() < 1_000);
    for line in [
        "go depth -3",
        "position fen",
        "position fen 9/9/9 w",
        "setoption name",
        "setoption name Hash value lots",
        "go searchmoves",
    ] {
        engine.send(line);
    }
    // `go searchmoves` without moves is a bare `go`: every move, until `stop`.
    engine.quiet("bestmove", Duration::from_millis(300));
    engine.send("stop");
    engine.best_move();
    engine.send("position startpos moves e2e4 e7e5 e1e3");
    assert!(engine.until("info string")[0].contains("e1e3"));
    engine.send("go depth 1 searchmoves g1f3");
    assert_eq!(engine.best_move().0, "g1f3");
    engine.ready();
    engine.send("quit");
    assert!(engine.exits_within(Duration::from_secs(5)));
}

#[test]
fn quit_during_a_search_and_end_of_input_exit() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    engine.quiet("bestmove", Duration::from_millis(200));
    engine.send("quit");
    assert!(engine.exits_within(Duration::from_secs(5)));

    // At the end of the input a finite search still answers before the exit.
    let mut engine = Engine::start();
    engine.send("position startpos moves f2f3 e7e5 g2g4");
    engine.send("go depth 3");
    engine.stdin = None;
    assert_eq!(engine.best_move().0, "d8h4");
    assert!(engine.exits_within(Duration::from_secs(5)));
}

#[test]
fn ponderhit_switches_to_the_clock() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 3000 btime 3000");
    engine.quiet("bestmove", Duration::from_millis(400));
    let start = Instant::now();
    engine.send("ponderhit");
    let (best, _) = engine.best_move();
    // About a 25th of the clock after ponderhit.
    assert!(
        start.elapsed() < Duration::from_millis(1_000),
        "{:?}",
        start.elapsed()
    );
    let mut game = AnyPosition::new("chess", None, None).expect("chess");
    game.play_texts(["e2e4", "e7e5"]).expect("legal");
    assert_legal(&game, &best);
}

#[test]
fn match_against_the_built_binary_finishes() {
    let player = format!("uci:{} uci", env!("CARGO_BIN_EXE_tablero"));
    let output = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args([
            "match", "chess", "--a", "level:3", "--b", &player, "--games", "2", "--tc", "2+0.05",
        ])
        .output()
        .expect("tablero match runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let last = stdout.lines().last().expect("a result line");
    assert!(last.starts_with("level:3 vs "), "{last}");
    assert!(last.contains(", Elo "), "{last}");
    // Both games end without an illegal or missing move and without a crash (each would
    // end a game with its own reason). A flag may fall on a loaded machine: the engine
    // still answered, late, which the protocol allows.
    let games: Vec<&str> = stderr.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{stderr}");
    for game in games {
        assert!(
            !game.contains("illegal move") && !game.contains("engine failure"),
            "{game}"
        );
    }
}
