//! `tablero play` driven through a real pseudo-terminal (as a person types) and
//! through a pipe (a script).

mod common;
#[path = "common/play.rs"]
mod play_common;

use std::path::PathBuf;
use std::process::Command;

use common::{stderr, tablero};
use play_common::play_with_input;
use rexpect::session::{PtySession, spawn_command};

/// Seconds any one expectation may wait: a computer move takes at most its movetime.
const TIMEOUT_MS: u64 = 60_000;

/// A `tablero play` session in a pseudo-terminal, without colours unless `colour`.
fn spawn(args: &[&str], colour: bool) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tablero"));
    command.arg("play").args(args);
    if colour {
        command.env("TERM", "xterm-256color").env_remove("NO_COLOR");
    } else {
        command.env("NO_COLOR", "1");
    }
    spawn_command(command, Some(TIMEOUT_MS)).expect("the pseudo-terminal starts")
}

/// rexpect reads the terminal byte by byte into `char`s: the needle as those chars.
fn as_bytes(text: &str) -> String {
    text.bytes().map(char::from).collect()
}

/// The bytes rexpect read, decoded as UTF-8 again.
fn decoded(read: &str) -> String {
    let bytes: Vec<u8> = read.chars().filter_map(|c| u8::try_from(c).ok()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Waits for `needle` and returns what came before it.
fn expect(p: &mut PtySession, needle: &str) -> String {
    let before = p
        .exp_string(&as_bytes(needle))
        .unwrap_or_else(|e| panic!("waiting for {needle:?}: {e}"));
    decoded(&before)
}

/// Types a line once the prompt `prompt` is shown.
fn send(p: &mut PtySession, prompt: &str, line: &str) {
    expect(p, prompt);
    p.send_line(line).expect("the terminal takes input");
}

/// Types `quit` at the prompt and waits for the program to end.
fn quit(p: &mut PtySession, prompt: &str) {
    expect(p, prompt);
    quit_now(p);
}

/// Types `quit` (the prompt was read already) and waits for the program to end.
fn quit_now(p: &mut PtySession) {
    p.send_line("quit").expect("the terminal takes input");
    expect(p, "Goodbye.");
    p.exp_eof().expect("tablero play ends after quit");
}

/// The position printed by the `position` command at the prompt.
fn position(p: &mut PtySession, prompt: &str) -> String {
    send(p, prompt, "position");
    // rexpect turns the terminal's echo off: the answer is the next line.
    expect(p, "\r\n").trim().to_owned()
}

#[test]
fn terminal_fools_mate_between_two_people() {
    let mut p = spawn(&["chess", "--computer", "none"], false);
    let intro = expect(&mut p, "white> ");
    assert!(
        intro.contains("White is a person; Black is a person."),
        "{intro}"
    );
    assert!(intro.contains("8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ 8"), "{intro}");
    assert!(!intro.contains('\x1b'), "NO_COLOR: no escapes\n{intro}");
    p.send_line("f3").expect("input");
    send(&mut p, "black> ", "e5");
    send(&mut p, "white> ", "g4");
    send(&mut p, "black> ", "Qh4#");
    let end = expect(&mut p, "Game over: Black wins by checkmate (0-1).");
    assert!(end.contains("Moves: 1. f3 e5 2. g4 Qh4#"), "{end}");
    assert!(end.contains("4 · · · · · · ♙ ♛ 4"), "{end}");
    // A move after the end is refused with the reason.
    send(&mut p, "white> ", "e4");
    expect(&mut p, "the game is over (Black wins by checkmate (0-1))");
    quit(&mut p, "white> ");
}

#[test]
fn terminal_game_against_the_computer_with_hints() {
    let mut p = spawn(
        &[
            "chess",
            "--black",
            "computer",
            "--white",
            "human",
            "--level",
            "2",
            "--movetime",
            "200",
        ],
        false,
    );
    let mut after_three = String::new();
    for round in 1..=4 {
        if round == 4 {
            after_three = position(&mut p, "white> ");
        }
        send(&mut p, "white> ", "hint");
        let (_, hint) = p
            .exp_regex(r"Hint: [^ ]+ \(([a-h][1-8][a-h][1-8][qrbn]?)\)\.")
            .expect("a hint");
        let best = hint
            .rsplit('(')
            .next()
            .and_then(|s| s.split(')').next())
            .expect("the hint names the move")
            .to_owned();
        send(&mut p, "white> ", &best);
        let reply = expect(&mut p, "White to move.");
        assert!(
            reply.contains("Black (computer) plays"),
            "round {round}: {reply}"
        );
        assert!(reply.contains("Moves: 1. "), "{reply}");
        assert!(
            reply.contains(&format!(" {round}. ")) || round == 1,
            "round {round}: {reply}"
        );
    }
    // undo takes back the computer's reply and the person's move.
    send(&mut p, "white> ", "undo");
    expect(&mut p, "Took back ");
    assert_eq!(position(&mut p, "white> "), after_three);
    quit(&mut p, "white> ");
}

#[test]
fn terminal_undo_save_and_load_restore_the_position() {
    let file = temp_file("terminal_save.pgn");
    let path = file.to_str().expect("a UTF-8 temp path");
    let mut p = spawn(&["chess", "--computer", "none"], false);
    send(&mut p, "white> ", "e4");
    send(&mut p, "black> ", "e7e5");
    send(&mut p, "white> ", "Nf3");
    send(&mut p, "black> ", "undo");
    expect(&mut p, "Took back Nf3.");
    let saved = position(&mut p, "white> ");
    assert_eq!(
        saved,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    send(&mut p, "white> ", &format!("save {path}"));
    expect(&mut p, "Saved 2 plies to ");
    send(&mut p, "white> ", "new");
    expect(&mut p, "New game.");
    send(&mut p, "white> ", &format!("load {path}"));
    let loaded = expect(&mut p, "White to move.");
    assert!(loaded.contains("Loaded 2 plies from"), "{loaded}");
    assert!(loaded.contains("Moves: 1. e4 e5"), "{loaded}");
    assert_eq!(position(&mut p, "white> "), saved);
    quit(&mut p, "white> ");
    let pgn = std::fs::read_to_string(&file).expect("the saved file");
    assert!(pgn.contains("1. e4 e5 *"), "{pgn}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn terminal_illegal_move_is_explained_and_changes_nothing() {
    let mut p = spawn(&["chess", "--computer", "none"], false);
    let start = position(&mut p, "white> ");
    send(&mut p, "white> ", "e2e5");
    let answer = expect(&mut p, "Nothing changed");
    assert!(
        answer.contains("illegal move e2e5: a pawn cannot move from e2 to e5"),
        "{answer}"
    );
    send(&mut p, "white> ", "Nf6");
    let answer = expect(&mut p, "Nothing changed");
    assert!(answer.contains("Nf6"), "{answer}");
    send(&mut p, "white> ", "level 11");
    expect(&mut p, "level \"11\": expected a whole number from 1 to 10");
    assert_eq!(position(&mut p, "white> "), start);
    quit(&mut p, "white> ");
}

#[test]
fn terminal_xiangqi_board_has_chinese_pieces() {
    let mut p = spawn(&["xiangqi", "--computer", "none"], false);
    let board = expect(&mut p, "red> ");
    assert!(board.contains("9 車 馬 象 士 將 士 象 馬 車 9"), "{board}");
    assert!(board.contains("0 俥 傌 相 仕 帥 仕 相 傌 俥 0"), "{board}");
    assert!(board.contains("楚 河"), "{board}");
    p.send_line("炮二平五").expect("input");
    let answer = expect(&mut p, "Black to move.");
    assert!(answer.contains("Red plays C2.5."), "{answer}");
    assert!(
        answer.contains("2 ＋ 炮 ＋ ＋ 炮 ＋ ＋ ＋ ＋ 2"),
        "{answer}"
    );
    quit(&mut p, "black> ");
}

#[test]
fn terminal_chess3d_board_has_three_levels() {
    let mut p = spawn(&["chess3d", "--computer", "none"], false);
    let board = expect(&mut p, "black> ");
    for level in ["level 0", "level 1", "level 2"] {
        assert!(board.contains(level), "{board}");
    }
    assert!(
        board.contains("H ♜ ♞ ♝ · · ♝ ♞ ♜ H    H · · · ♛ ♚ · · · H    H ♜ ♞ ♝ · · ♝ ♞ ♜ H"),
        "{board}"
    );
    p.send_line("P-0-F1").expect("input");
    let answer = expect(&mut p, "White to move.");
    assert!(answer.contains("Moves: 1. P-0-F1"), "{answer}");
    quit(&mut p, "white> ");
}

#[test]
fn terminal_draughts_boards_show_square_numbers() {
    let mut p = spawn(&["draughts", "--computer", "none"], false);
    let board = expect(&mut p, "black> ");
    assert!(
        board.contains("8     ⛂ 1     ⛂ 2     ⛂ 3     ⛂ 4 8"),
        "{board}"
    );
    assert!(
        board.contains("5  13      14      15      16     5"),
        "{board}"
    );
    quit_now(&mut p);
    let mut p = spawn(
        &[
            "draughts",
            "--variant",
            "international",
            "--computer",
            "none",
        ],
        false,
    );
    let board = expect(&mut p, "white> ");
    assert!(
        board.contains(" 1 ⛀46     ⛀47     ⛀48     ⛀49     ⛀50     1"),
        "{board}"
    );
    quit_now(&mut p);
}

#[test]
fn terminal_colours_unless_no_color() {
    let mut p = spawn(&["chess", "--computer", "none"], true);
    let board = expect(&mut p, "white> ");
    assert!(board.contains("\x1b[0;48;5;"), "{board:?}");
    quit_now(&mut p);
}

/// A file name under the temporary directory, unique to this test process.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tablero-play-{}-{name}", std::process::id()))
}

/// Runs `tablero play` with `script` as its standard input.
fn scripted(args: &[&str], script: &str) -> (String, String, bool) {
    play_with_input(args, script, |command| {
        command.env("TERM", "xterm-256color").env_remove("NO_COLOR")
    })
}

#[test]
fn piped_fools_mate_is_plain_text_without_prompts() {
    let (out, err, ok) = scripted(&["chess", "--computer", "none"], "f3\ne5\ng4\nQh4#\n");
    assert!(ok, "{err}");
    assert!(!out.contains('\x1b'), "no colour into a pipe:\n{out}");
    assert!(!out.contains("white> "), "no prompt into a pipe:\n{out}");
    assert!(out.contains("> Qh4#\nBlack plays Qh4#."), "{out}");
    assert!(
        out.contains("Moves: 1. f3 e5 2. g4 Qh4#\nGame over: Black wins by checkmate (0-1)."),
        "{out}"
    );
    assert!(out.ends_with("End of input: goodbye.\n"), "{out}");
}

#[test]
fn piped_game_against_the_computer() {
    let (out, err, ok) = scripted(
        &[
            "chess",
            "--computer",
            "black",
            "--level",
            "1",
            "--movetime",
            "100",
        ],
        "e4\nd4\nposition\n",
    );
    assert!(ok, "{err}");
    assert_eq!(out.matches("Black (computer) plays ").count(), 2, "{out}");
    assert!(out.contains("Moves: 1. e4 "), "{out}");
    assert!(out.contains(" 2. d4 "), "{out}");
    // After four plies it is White's move 3 again.
    assert!(out.contains(" w ") && out.contains(" 3\n"), "{out}");
}

#[test]
fn piped_computer_moves_first_when_it_plays_the_first_side() {
    let (out, err, ok) = scripted(
        &[
            "xiangqi",
            "--computer",
            "red",
            "--level",
            "1",
            "--movetime",
            "100",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Red (computer) plays "), "{out}");
    assert!(out.contains("Black to move."), "{out}");
    // A person playing black sees the board from black's side.
    assert!(
        out.contains("0 俥 傌 相 仕 帥 仕 相 傌 俥 0") && out.contains("  i  h  g"),
        "{out}"
    );
}

#[test]
fn piped_illegal_and_malformed_moves_change_nothing() {
    let (out, _, ok) = scripted(
        &["draughts", "--computer", "none"],
        "position\n21-17\n11-16x\nhello world\n11-15\nposition\n",
    );
    assert!(ok);
    let positions: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(":W") || l.contains(":B"))
        .collect();
    assert_eq!(positions.len(), 2, "{out}");
    assert!(
        out.contains(
            "illegal move 21-17: the piece on 21 belongs to the opponent. Nothing changed"
        ),
        "{out}"
    );
    assert!(
        out.contains("malformed move \"11-16x\": mixes '-' with 'x'. Nothing changed"),
        "{out}"
    );
    assert!(out.contains("\"hello world\": one move at a time"), "{out}");
    assert!(out.contains("Black plays 11-15."), "{out}");
    assert!(positions[0].starts_with("B:"), "{out}");
    assert!(positions[1].starts_with("W:"), "{out}");
}

#[test]
fn piped_save_and_load_round_trip_every_game() {
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "chess",
                "--variant",
                "chess960",
                "--fen",
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            ],
            "g2g3\nb7b6\n",
        ),
        (&["xiangqi"], "h2e2\nh9g7\n"),
        (&["draughts", "--variant", "russian"], "22-17\n11-15\n"),
        (&["chess3d"], "P-0-F1\nP-0-C1\n"),
    ];
    for (i, (args, moves)) in cases.iter().enumerate() {
        let file = temp_file(&format!("round_trip_{i}"));
        let path = file.display();
        let mut full: Vec<&str> = args.to_vec();
        full.extend(["--computer", "none"]);
        let script = format!("{moves}position\nsave {path}\nnew\nload {path}\nposition\nquit\n");
        let (out, err, ok) = scripted(&full, &script);
        assert!(ok, "{err}");
        assert!(out.contains("Loaded 2 plies from"), "{args:?}: {out}");
        let lines: Vec<&str> = out.lines().collect();
        let printed: Vec<&str> = lines
            .windows(2)
            .filter(|w| w[0] == "> position")
            .map(|w| w[1])
            .collect();
        assert_eq!(printed.len(), 2, "{out}");
        assert_eq!(printed[0], printed[1], "{args:?}");
        let _ = std::fs::remove_file(&file);
    }
}

#[test]
fn resign_and_undo_resume_and_a_saved_resignation_loads_as_over() {
    let file = temp_file("resigned.pgn");
    let path = file.display();
    let script = format!("e4\nresign\nd5\nundo\nd5\nresign\nsave {path}\nnew\nload {path}\n");
    let (out, err, ok) = scripted(&["chess", "--computer", "none"], &script);
    assert!(ok, "{err}");
    assert!(
        out.contains("Black resigns.\nGame over: White wins by resignation (1-0)."),
        "{out}"
    );
    assert!(out.contains("The game goes on."), "{out}");
    assert!(
        out.contains("White resigns.\nGame over: Black wins by resignation (0-1)."),
        "{out}"
    );
    assert!(
        out.trim_end().ends_with(
            "Moves: 1. e4 d5\nGame over: Black wins by resignation (0-1).\nEnd of input: goodbye."
        ),
        "{out}"
    );
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bad_arguments_fail_with_one_line() {
    for args in [
        &["play", "chesss"][..],
        &["play", "chess", "--level", "0"],
        &["play", "chess", "--computer", "green"],
        &["play", "chess", "--fen", "8/8 w"],
    ] {
        let output = tablero(args);
        assert!(!output.status.success(), "{args:?}");
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
