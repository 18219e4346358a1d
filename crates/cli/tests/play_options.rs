//! `tablero play`'s options and the facts it shows and keeps: check, clocks, draw
//! offers and claims, players and the database, chess3d seeds, saved records. Every
//! test runs the real binary (through a pipe, or a pseudo-terminal where time matters).

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{stderr, stdout};

/// A file name under the temporary directory, unique to this test process.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "tablero-play-options-{}-{name}",
        std::process::id()
    ))
}

/// Runs `tablero play` with `script` as its standard input: (stdout, stderr, success).
fn scripted(args: &[&str], script: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .arg("play")
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tablero starts");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(script.as_bytes())
        .expect("the script is written");
    let output = child.wait_with_output().expect("tablero ends");
    (stdout(&output), stderr(&output), output.status.success())
}

#[test]
fn check_is_said_in_words_and_the_king_is_marked() {
    let (out, err, ok) = scripted(&["chess", "--computer", "none"], "e4\nf5\nQh5+\n");
    assert!(ok, "{err}");
    assert!(out.contains("8 ♜ ♞ ♝ ♛[♚]♝ ♞ ♜ 8"), "{out}");
    assert!(
        out.contains("Moves: 1. e4 f5 2. Qh5+\nCheck!\nBlack to move."),
        "{out}"
    );
    assert_eq!(out.matches("Check!").count(), 1, "{out}");
    // Xiangqi: the general in check, in words too.
    let (out, err, ok) = scripted(
        &[
            "xiangqi",
            "--computer",
            "none",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        ],
        "a0a9\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("9 俥 ＋ ＋ ＋[將]＋ ＋ ＋ ＋ 9"), "{out}");
    assert!(out.contains("Check!\nBlack to move."), "{out}");
}
