//! `tablero play`'s options and the facts it shows and keeps: check, clocks, draw
//! offers and claims, players and the database, chess3d seeds, saved records. Every
//! test runs the real binary (through a pipe, or a pseudo-terminal where time matters).

mod common;
#[path = "common/play.rs"]
mod play_common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{stderr, stdout, tablero};
use play_common::play_with_input;

/// Runs `tablero play` with `script` as its standard input: (stdout, stderr, success).
fn scripted(args: &[&str], script: &str) -> (String, String, bool) {
    play_with_input(args, script, |command| command.env("NO_COLOR", "1"))
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

/// Runs `tablero play` with `script` and a data directory of its own (so that no
/// default database is touched): (stdout, stderr, success).
fn scripted_in(dir: &std::path::Path, args: &[&str], script: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .arg("play")
        .args(args)
        .env("NO_COLOR", "1")
        .env("XDG_DATA_HOME", dir)
        .env("HOME", dir)
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

/// Seconds any one expectation in a pseudo-terminal may wait.
const TIMEOUT_MS: u64 = 60_000;

/// A `tablero play` session in a pseudo-terminal, without colours.
fn spawn(args: &[&str]) -> rexpect::session::PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tablero"));
    command.arg("play").args(args).env("NO_COLOR", "1");
    rexpect::session::spawn_command(command, Some(TIMEOUT_MS)).expect("the pseudo-terminal starts")
}

/// Waits for `needle` (UTF-8) and returns what came before it.
fn expect(p: &mut rexpect::session::PtySession, needle: &str) -> String {
    let bytes: String = needle.bytes().map(char::from).collect();
    let before = p
        .exp_string(&bytes)
        .unwrap_or_else(|e| panic!("waiting for {needle:?}: {e}"));
    let raw: Vec<u8> = before
        .chars()
        .filter_map(|c| u8::try_from(c).ok())
        .collect();
    String::from_utf8_lossy(&raw).into_owned()
}

/// Types `line` once `prompt` is shown.
fn send(p: &mut rexpect::session::PtySession, prompt: &str, line: &str) {
    expect(p, prompt);
    p.send_line(line).expect("the terminal takes input");
}

fn quit(p: &mut rexpect::session::PtySession, prompt: &str) {
    send(p, prompt, "quit");
    expect(p, "Goodbye.");
    p.exp_eof().expect("tablero play ends after quit");
}

#[test]
fn terminal_flag_falls_while_a_person_thinks() {
    let mut p = spawn(&["chess", "--computer", "none", "--clock", "1+0"]);
    let intro = expect(&mut p, "white> ");
    assert!(
        intro.contains("Clock: 0:01.0 each, plus 0 s per move"),
        "{intro}"
    );
    assert!(
        intro.contains("Clock: White 0:01.0 · Black 0:01.0\r\n"),
        "{intro}"
    );
    // The first move starts Black's clock; Black types nothing and loses on time,
    // announced without a key being pressed.
    p.send_line("e4").expect("input");
    let after = expect(&mut p, "Black's time is up.");
    // Black's clock runs (how much is left when the board is drawn depends on the
    // machine's speed).
    assert!(after.contains("Clock: White 0:01.0 · Black 0:0"), "{after}");
    assert!(after.trim_end().contains(" ◂\r\n"), "{after}");
    expect(&mut p, "Game over: White wins by timeout (1-0).");
    send(&mut p, "black> ", "e5");
    expect(&mut p, "the game is over (White wins by timeout (1-0))");
    quit(&mut p, "black> ");
}

#[test]
fn terminal_flag_against_a_lone_king_is_a_draw() {
    // White's queen and king against a lone king: Black cannot mate, so White's
    // flag draws (AnyRecord::flag_outcome).
    let mut p = spawn(&[
        "chess",
        "--computer",
        "none",
        "--clock",
        "2+0",
        "--fen",
        "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1",
    ]);
    send(&mut p, "white> ", "Qa2");
    send(&mut p, "black> ", "Kd7");
    expect(&mut p, "White's time is up.");
    expect(
        &mut p,
        "Game over: draw by timeout insufficient material (1/2-1/2).",
    );
    quit(&mut p, "white> ");
}

#[test]
fn terminal_chess3d_timed_mode_counts_the_pieces() {
    // Black has a pawn fewer on level 0: when the game's time runs out, White wins.
    let fewer = "tca2act/pp3ppp/8/8/8/8/PPP2PPP/TCA2ACT|3dr3/3pp3/8/8/8/8/3PP3/3DR3|tca2act/ppp2ppp/8/8/8/8/PPP2PPP/TCA2ACT b 0 1 0000000000000007";
    let mut p = spawn(&[
        "chess3d",
        "--computer",
        "none",
        "--timed",
        "0.02",
        "--fen",
        fewer,
    ]);
    let intro = expect(&mut p, "black> ");
    assert!(
        intro.contains("Timed mode: 0:01.2 for the whole game from the first move"),
        "{intro}"
    );
    assert!(
        intro.contains("Game clock: 0:01.2 left for the game (not running)"),
        "{intro}"
    );
    p.send_line("P-0-F1").expect("input");
    expect(&mut p, "The game's time is up: the pieces are counted.");
    expect(&mut p, "Game over: White wins by piece count (1-0).");
    quit(&mut p, "white> ");
}

#[test]
fn piped_clock_line_follows_each_move_and_the_computer_keeps_to_its_time() {
    let (out, err, ok) = scripted(
        &[
            "chess",
            "--computer",
            "black",
            "--level",
            "1",
            "--clock",
            "30+1",
        ],
        "e4\nd4\n",
    );
    assert!(ok, "{err}");
    let clocks: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("Clock: White "))
        .collect();
    assert_eq!(clocks.len(), 3, "{out}");
    assert_eq!(clocks[0], "Clock: White 0:30.0 · Black 0:30.0");
    // After the computer's reply it is White's clock that runs, with the increment
    // added to Black's.
    assert!(
        clocks[1].contains("White 0:3") && clocks[1].contains(" ◂ · Black 0:3"),
        "{out}"
    );
    assert!(!out.contains("time is up"), "{out}");
    assert_eq!(out.matches("Black (computer) plays ").count(), 2, "{out}");
    let (_, err, ok) = scripted(&["chess", "--clock", "fast"], "");
    assert!(!ok);
    assert!(err.contains("--clock: time control \"fast\""), "{err}");
    let (_, err, ok) = scripted(&["xiangqi", "--timed", "5"], "");
    assert!(!ok);
    assert!(err.contains("chess3d's timed mode"), "{err}");
}

#[test]
fn the_computer_takes_a_draw_only_when_it_stands_worse() {
    // A lone king against queen and king: the computer (Black) accepts.
    let (out, err, ok) = scripted(
        &[
            "chess",
            "--computer",
            "black",
            "--movetime",
            "200",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ],
        "draw\ne2\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("White offers a draw.\nBlack (computer) accepts.\nGame over: draw by agreement (1/2-1/2)."),
        "{out}"
    );
    // At the start it declines and the game goes on.
    let (out, err, ok) = scripted(
        &[
            "chess",
            "--computer",
            "black",
            "--movetime",
            "200",
            "--level",
            "1",
        ],
        "draw\ne4\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("White offers a draw.\nBlack (computer) declines: play on."),
        "{out}"
    );
    assert!(out.contains("Black (computer) plays "), "{out}");
}

#[test]
fn a_draw_offer_between_people_asks_the_other_side() {
    let (out, err, ok) = scripted(
        &["xiangqi", "--computer", "none"],
        "draw\nperhaps\nno\nh2e2\ndraw\nyes\nh9g7\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("Red offers a draw.\nBlack, do you accept the draw? Type yes or no."),
        "{out}"
    );
    assert!(
        out.contains("Please answer yes or no: does Black accept Red's draw offer?"),
        "{out}"
    );
    assert!(
        out.contains("Black declines: play on.\nRed to move."),
        "{out}"
    );
    assert!(out.contains("Red plays C2.5."), "{out}");
    assert!(
        out.contains("Black offers a draw.\nRed, do you accept the draw? Type yes or no.\n> yes\nRed accepts.\nGame over: draw by agreement (1/2-1/2)."),
        "{out}"
    );
    assert!(
        out.contains("\"h9g7\" not played: the game is over"),
        "{out}"
    );
}

#[test]
fn claimable_draws_are_announced_after_the_move_and_claimed() {
    let moves = "Nf3\nNf6\nNg1\nNg8\n".repeat(2);
    let (out, err, ok) = scripted(&["chess", "--computer", "none"], &format!("{moves}claim\n"));
    assert!(ok, "{err}");
    let notice = "White may claim a draw by threefold repetition (the same position for the third time): type `claim`.";
    assert!(
        out.contains("> Ng8\nBlack plays Ng8.") && out.contains(notice),
        "{out}"
    );
    // The notice comes after the move that makes the claim possible, not before.
    let before = out.split(notice).next().expect("split");
    assert_eq!(before.matches("> Ng8").count(), 2, "{out}");
    assert!(
        out.contains("White claims a draw by threefold repetition (the same position for the third time).\nGame over: draw by threefold repetition (1/2-1/2)."),
        "{out}"
    );
    // The fifty-move rule, for Black after White's hundredth quiet ply.
    let (out, err, ok) = scripted(
        &[
            "chess",
            "--computer",
            "none",
            "--fen",
            "4k3/8/8/8/8/8/8/R3K3 w - - 99 80",
        ],
        "Ra2\nclaim\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("Black may claim a draw by the fifty-move rule (fifty moves each without a capture or pawn move): type `claim`."),
        "{out}"
    );
    assert!(
        out.contains("Game over: draw by fifty moves (1/2-1/2)."),
        "{out}"
    );
}

#[test]
fn named_players_and_the_database_count_finished_games() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("play.db");
    let db = db.to_str().expect("a UTF-8 path");
    // Two named people, one keyboard: a hot-seat game, counted as on the server.
    let (out, err, ok) = scripted_in(
        dir.path(),
        &["chess", "--white", "ann", "--black", "bob", "--db", db],
        "f3\ne5\ng4\nQh4#\nundo\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("White is ann; Black is bob."), "{out}");
    assert!(
        out.contains("Game over: Black wins by checkmate (0-1).\nRecorded in "),
        "{out}"
    );
    assert!(out.contains("nothing to take back"), "{out}");
    // Against the computer: the person's result counts.
    let (out, err, ok) = scripted_in(
        dir.path(),
        &[
            "chess",
            "--black",
            "cleo",
            "--db",
            db,
            "--level",
            "1",
            "--movetime",
            "50",
        ],
        "resign\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("White is the computer (level 1); Black is cleo."),
        "{out}"
    );
    assert!(out.contains("Recorded in "), "{out}");
    let listed = Command::new(env!("CARGO_BIN_EXE_tablero"))
        .args(["players", "list", "--db", &format!("sqlite://{db}")])
        .output()
        .expect("tablero players runs");
    let list = stdout(&listed);
    let counts = |name: &str| -> Vec<String> {
        list.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .map(|l| {
                l.split_whitespace()
                    .skip(2)
                    .take(3)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(counts("ann"), ["0", "1", "0"], "{list}");
    assert_eq!(counts("bob"), ["1", "0", "0"], "{list}");
    assert_eq!(counts("cleo"), ["0", "1", "0"], "{list}");
    // Without --db nothing is stored, not even in the default database.
    let (out, err, ok) = scripted_in(
        dir.path(),
        &["chess", "--white", "ann", "--black", "bob"],
        "f3\ne5\ng4\nQh4#\n",
    );
    assert!(ok, "{err}");
    assert!(!out.contains("Recorded"), "{out}");
    assert!(!dir.path().join("tablero").join("tablero.db").exists());
    // Names follow the registry's rules; xiangqi's first side is red.
    let (_, err, ok) = scripted_in(dir.path(), &["chess", "--white", "ann smith"], "");
    assert!(!ok);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("' ' is not allowed"), "{err}");
    let (out, _, ok) = scripted_in(
        dir.path(),
        &["xiangqi", "--red", "mei", "--black", "li"],
        "",
    );
    assert!(ok);
    assert!(out.contains("Red is mei; Black is li."), "{out}");
}

#[test]
fn chess3d_games_get_fresh_seeds_unless_one_is_given() {
    let seed_of = |out: &str| -> Vec<String> {
        out.lines()
            .filter_map(|l| l.strip_prefix("Generator seed "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_owned)
            .collect()
    };
    let (out, err, ok) = scripted(&["chess3d", "--computer", "none"], "new\n");
    assert!(ok, "{err}");
    let seeds = seed_of(&out);
    assert_eq!(seeds.len(), 2, "{out}");
    assert_ne!(seeds[0], seeds[1], "a new game draws a new seed");
    let (again, _, _) = scripted(&["chess3d", "--computer", "none"], "");
    assert_ne!(seed_of(&again)[0], seeds[0]);
    let (out, err, ok) = scripted(
        &["chess3d", "--computer", "none", "--seed", "42"],
        "position\nnew\nposition\n",
    );
    assert!(ok, "{err}");
    assert_eq!(seed_of(&out), ["42", "42"], "{out}");
    assert!(out.contains("(the same game again: --seed 42)"), "{out}");
    assert_eq!(out.matches(" b 0 1 000000000000002a\n").count(), 2, "{out}");
}

#[test]
fn saves_keep_the_facts_and_finished_records_load_finished() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let loaded = dir.path().join("club.pgn");
    std::fs::write(
        &loaded,
        "[Event \"Club championship\"]\n[Site \"Lima\"]\n[Date \"2024.05.06\"]\n[Round \"3\"]\n[White \"ann\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n",
    )
    .expect("written");
    let saved = dir.path().join("again.pgn");
    let script = format!(
        "load {}\nBc4\nundo\nposition\nsave {}\nnew\ne4\n",
        loaded.display(),
        saved.display()
    );
    let (out, err, ok) = scripted(&["chess", "--computer", "none"], &script);
    assert!(ok, "{err}");
    assert!(out.contains("Loaded 4 plies from"), "{out}");
    assert!(
        out.contains("The game is over (White wins by recorded result (1-0)): you can look at it, save it or type new."),
        "{out}"
    );
    assert!(
        out.contains("\"Bc4\" not played: the game is over"),
        "{out}"
    );
    assert!(out.contains("The loaded game is over"), "{out}");
    assert!(
        out.contains("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3"),
        "{out}"
    );
    assert!(
        out.contains("New game.") && out.contains("White plays e4."),
        "{out}"
    );
    let pgn = std::fs::read_to_string(&saved).expect("saved");
    for tag in [
        "[Event \"Club championship\"]",
        "[Site \"Lima\"]",
        "[Date \"2024.05.06\"]",
        "[Round \"3\"]",
        "[White \"ann\"]",
        "[Black \"bob\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(pgn.contains(tag), "{tag}: {pgn}");
    }
    // A new game is dated today and names its players.
    let fresh = dir.path().join("fresh.pgn");
    let (_, err, ok) = scripted(
        &["chess", "--white", "ann", "--black", "bob"],
        &format!("e4\nsave {}\n", fresh.display()),
    );
    assert!(ok, "{err}");
    let pgn = std::fs::read_to_string(&fresh).expect("saved");
    let date = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[Date \""))
        .expect("a Date tag");
    assert!(
        date.len() == 12
            && date[..4].parse::<u32>().is_ok_and(|y| y >= 2024)
            && !date.contains('?'),
        "{pgn}"
    );
    assert!(
        pgn.contains("[White \"ann\"]") && pgn.contains("[Black \"bob\"]"),
        "{pgn}"
    );
    // Draughts (PDN) and chess3d records with a result load finished too.
    for (args, moves, file) in [
        (&["draughts"][..], "11-15\nresign\n", "d.pdn"),
        (&["chess3d", "--seed", "5"][..], "P-0-F1\nresign\n", "c.txt"),
    ] {
        let path = dir.path().join(file);
        let mut full = args.to_vec();
        full.extend(["--computer", "none"]);
        let script = format!("{moves}save {0}\nnew\nload {0}\nundo\n", path.display());
        let (out, err, ok) = scripted(&full, &script);
        assert!(ok, "{err}");
        assert!(
            out.contains("The game is over (Black wins by resignation (0-1)): you can look at it"),
            "{args:?}: {out}"
        );
        assert!(out.contains("The loaded game is over"), "{args:?}: {out}");
    }
}

#[test]
fn help_names_the_new_options() {
    let output = tablero(&["play", "--help"]);
    let help = stdout(&output);
    for option in [
        "--clock <SECS+INC>",
        "--timed <MINUTES>",
        "--seed <N>",
        "--db <PATH>",
        "--white <WHO>",
    ] {
        assert!(help.contains(option), "{option}: {help}");
    }
}
