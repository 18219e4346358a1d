//! Third-party clients drive the built binary: python-chess's `chess.engine` plays full
//! chess and Chess960 games against `tablero uci`, pydraughts' `HubEngine` full
//! draughts games against `tablero hub`.
//!
//! `scripts/test` installs the Python packages into `target/pyenv`; without them the
//! test says it was skipped, except under CI where that is a failure.

use std::path::PathBuf;
use std::process::Command;

/// An interpreter that can import `module`.
fn python(module: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let venv = root.join("target/pyenv/bin/python");
    let candidates = [
        std::env::var_os("TABLERO_PYTHON").map(PathBuf::from),
        Some(venv),
    ];
    candidates.into_iter().flatten().find(|python| {
        Command::new(python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// The interpreter for a test that needs `module` from `package`, or `None` when the
/// test should say it was skipped. Under CI a missing package is a failure: the test
/// command installs it.
fn python_for_test(module: &str, package: &str) -> Option<PathBuf> {
    let python = python(module);
    if python.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{package} is missing under CI: scripts/test installs it into target/pyenv"
        );
        eprintln!("skipped: {package} not installed (scripts/test installs it)");
    }
    python
}

#[test]
fn python_chess_plays_full_games_against_tablero_uci() {
    let Some(python) = python_for_test("chess.engine", "python-chess") else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/uci_games.py");
    let out = Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    for line in stdout.lines() {
        assert!(
            ["1-0", "0-1", "1/2-1/2", "*"]
                .iter()
                .any(|r| line.contains(r)),
            "{line}"
        );
    }
}

#[test]
fn pydraughts_plays_full_games_against_tablero_hub() {
    let Some(python) = python_for_test("draughts.engine", "pydraughts") else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/hub_games.py");
    let out = Command::new(python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tablero"))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (line, variant) in lines.iter().zip(["standard", "russian", "english"]) {
        assert!(line.starts_with(variant), "{line}");
        assert!(
            ["1-0", "0-1", "1/2-1/2"].iter().any(|r| line.contains(r)),
            "{line}"
        );
    }
}

#[test]
fn epd_suite_counts_what_tablero_analyse_solves() {
    let Some(python) = python_for_test("chess", "python-chess") else {
        return;
    };
    // A back-rank mate in one, and the same position asking for a move that drops the
    // rook: the first is solved, the second is a miss.
    let dir = tempfile::tempdir().expect("temp dir");
    let suite = dir.path().join("suite.epd");
    std::fs::write(
        &suite,
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate\";\n\
         6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra7; id \"blunder\";\n",
    )
    .expect("suite written");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/epd-suite");
    let run = |suite: &std::path::Path| {
        Command::new(&python)
            .arg(&script)
            .arg(suite)
            .arg("200")
            .env("TABLERO", env!("CARGO_BIN_EXE_tablero"))
            .output()
            .expect("python runs")
    };
    let out = run(&suite);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("blunder: played a1a8, want a1a7"),
        "{stdout}"
    );
    assert!(!stdout.contains("mate:"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("solved 1 of 2"), "{stdout}");

    // A move that is not legal there: refused, naming the line, before any search.
    let broken = dir.path().join("broken.epd");
    std::fs::write(&broken, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Rb8;\n").expect("written");
    let out = run(&broken);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        stderr.contains("broken.epd:1: not an EPD record"),
        "{stderr}"
    );
}

#[test]
fn chess960_starts_are_the_ones_python_chess_numbers() {
    let Some(python) = python_for_test("chess", "python-chess") else {
        return;
    };
    let fens: String = (0..960)
        .map(|n| {
            let start = tablero_games::AnyPosition::chess960(n).expect("a start");
            assert_eq!(start.chess960_number(), Some(n));
            format!("{}\n", start.position_text())
        })
        .collect();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/chess960_starts.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), fens.as_bytes())
        .expect("the FENs are written");
    let out = child.wait_with_output().expect("python ends");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("960 starts agree"), "{stdout}");
    assert!(tablero_games::AnyPosition::chess960(960).is_err());
}

#[test]
fn pooled_elo_combines_matches_against_known_ratings() {
    let Some(python) = python_for_test("math", "python3") else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pooled-elo");
    let run = |args: &[&str]| {
        let out = Command::new(&python)
            .arg(&script)
            .args(args)
            .output()
            .expect("python runs");
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    // An even score against one opponent is the opponent's rating; 75 % is 191 above.
    assert_eq!(run(&["1500:40:20:40"]).1, "1500 ± 68 (100 games)\n");
    assert_eq!(run(&["1500:70:10:20"]).1.split(' ').next(), Some("1691"));
    // Level 5's two matches against Stockfish (docs/engine.md, "Levels and Elo").
    assert_eq!(
        run(&["1650:23:0:7", "1850:45:7:48"]).1,
        "1843 ± 62 (130 games)\n"
    );
    let (code, stdout, stderr) = run(&["1500:x:0:0"]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert!(
        stderr.contains("expected ELO:WINS:DRAWS:LOSSES, got '1500:x:0:0'"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["1500:-1:2:0"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("counts must be 0 or more"), "{stderr}");
    let (code, _, stderr) = run(&["1500:3:0:0", "1700:2:0:0"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("no finite rating"), "{stderr}");
}
