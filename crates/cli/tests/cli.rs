//! Runs the built `tablero` binary as a user would.

use std::process::Output;

mod common;

use common::{stderr, stdout, tablero};

#[test]
fn perft_prints_the_count_last() {
    let out = tablero(&["perft", "chess", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("8902"));
    for args in [
        &["perft", "chess", "0"][..],
        &["perft", "chess", "0", "--divide"],
    ] {
        assert_eq!(stdout(&tablero(args)).lines().last(), Some("1"), "{args:?}");
    }

    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = tablero(&["perft", "chess", "--fen", kiwipete, "2", "--divide"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"2039"));
    assert!(lines.contains(&"e1g1: 43"), "{text}");
    let divided: u64 = lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().expect("count"))
        .sum();
    assert_eq!(divided, 2039);
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 48);
}

#[test]
fn chess960_uses_king_takes_rook() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let out = tablero(&["moves", "chess", "--variant", "chess960", "--fen", fen]);
    assert!(out.status.success(), "{}", stderr(&out));
    let moves = stdout(&out);
    assert_eq!(moves.lines().count(), 21);
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let out = tablero(&["moves", "chess", "--variant", "chess960", "--fen", corners]);
    let moves = stdout(&out);
    assert!(
        moves.lines().any(|m| m == "e1h1") && moves.lines().any(|m| m == "e1a1"),
        "{moves}"
    );
    let out = tablero(&["moves", "chess", "--fen", corners]);
    let moves = stdout(&out);
    assert!(
        moves.lines().any(|m| m == "e1g1") && moves.lines().any(|m| m == "e1c1"),
        "{moves}"
    );
    let out = tablero(&["perft", "chess", "--variant", "chess960", "--fen", fen, "3"]);
    assert_eq!(stdout(&out).lines().last(), Some("12189"));
}

#[test]
fn moves_lists_uci_one_per_line() {
    let out = tablero(&["moves", "chess"]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 20);
    assert!(text.lines().any(|l| l == "g1f3"));
}

#[test]
fn position_plays_uci_and_san() {
    let out = tablero(&[
        "position", "chess", "e2e4", "e5", "Nf3", "b8c6", "Bb5", "a6", "O-O",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4"
    );
}

#[test]
fn bad_input_fails_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "perft",
                "chess",
                "--fen",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                "2",
            ],
            "board field",
        ),
        (
            &["perft", "chess", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "1"],
            "has no king",
        ),
        (&["perft", "chess", "-1"], "depth"),
        // A missing argument is named, not only said to be missing.
        (&["perft", "chess"], "not provided: <DEPTH>"),
        (&["winnable", "chess"], "not provided: --fen <FEN>"),
        (&["perft", "chess", "abc"], "depth"),
        (&["perft", "chess", "99"], "out of range"),
        (&["perft", "checkers", "2"], "unknown game \"checkers\""),
        (
            &["moves", "chess", "--variant", "crazyhouse"],
            "unknown variant \"crazyhouse\"",
        ),
        (
            &["position", "chess", "e4", "e5", "Ke3"],
            "move 3 (\"Ke3\")",
        ),
        (&["position", "chess", "e2e5"], "move 1 (\"e2e5\")"),
        // The reason names the rule (issue #36).
        (
            &["position", "chess", "e2e5"],
            "illegal move e2e5: a pawn cannot move from e2 to e5",
        ),
        (
            &["position", "chess", "e4", "e5", "Ke3"],
            "no king of yours can make the move Ke3",
        ),
        (
            &[
                "position",
                "draughts",
                "--variant",
                "spanish",
                "--fen",
                "W:W22,30:B18",
                "30-26",
            ],
            "move 1 (\"30-26\"): illegal move 30-26: a capture is compulsory: you must capture",
        ),
        (
            &[
                "position",
                "draughts",
                "--variant",
                "international",
                "--fen",
                "W:W28:B23,14,33",
                "28x39",
            ],
            "the majority rule: you must take the most pieces (2)",
        ),
        (
            &[
                "position",
                "chess",
                "--fen",
                "4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1",
                "e1g1",
            ],
            "castling would move the king through or into check on f1",
        ),
        (
            &["position", "xiangqi", "b0d1"],
            "ICCS move b0d1: the horse's leg on c0 is blocked",
        ),
        (&["perft"], "required"),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, expected) in cases {
        let out = tablero(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn bench_is_deterministic() {
    let first = tablero(&["bench"]);
    let second = tablero(&["bench"]);
    let nodes = |o: &Output| {
        stdout(o)
            .lines()
            .last()
            .and_then(|l| l.split(' ').next().map(str::to_owned))
    };
    assert!(first.status.success());
    assert_eq!(nodes(&first), nodes(&second));
    // The bench signature: a change here must be explained in the commit ("Bench: N").
    assert_eq!(nodes(&first).as_deref(), Some("291479"));
    assert!(
        stdout(&first)
            .lines()
            .last()
            .is_some_and(|l| l.ends_with(" nps"))
    );
}

#[test]
fn draughts_commands() {
    let out = tablero(&["perft", "draughts", "6"]);
    assert_eq!(
        stdout(&out).lines().last(),
        Some("36768"),
        "{}",
        stderr(&out)
    );
    let out = tablero(&["perft", "draughts", "--variant", "international", "4"]);
    assert_eq!(stdout(&out).lines().last(), Some("4265"));
    let out = tablero(&["perft", "draughts", "--variant", "russian", "5", "--divide"]);
    assert_eq!(stdout(&out).lines().last(), Some("7482"));
    let out = tablero(&["moves", "draughts", "--variant", "spanish"]);
    assert_eq!(stdout(&out).lines().count(), 7);
    // English: Black moves first.
    let out = tablero(&["position", "draughts", "11-15", "23-19"]);
    assert!(stdout(&out).starts_with("B:W19,21,22,"), "{}", stdout(&out));
    let out = tablero(&["position", "draughts", "11-15", "11-16"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("move 2 (\"11-16\")"));
    let out = tablero(&["perft", "draughts", "--fen", "W:W21,x:B1", "1"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("\"x\""));
}

#[test]
fn chess3d_commands() {
    let out = tablero(&["perft", "chess3d", "3"]);
    assert_eq!(
        stdout(&out).lines().last(),
        Some("86919"),
        "{}",
        stderr(&out)
    );
    let out = tablero(&["moves", "chess3d"]);
    assert_eq!(stdout(&out).lines().count(), 43);
    assert!(stdout(&out).lines().any(|m| m == "0G1-0F1"));
    // Black moves first; short form and coordinate form, any case.
    let out = tablero(&["position", "chess3d", "p-0-f1", "1b5-1c5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(" b 0 2 "), "{}", stdout(&out));
    let out = tablero(&["position", "chess3d", "P-0-F9"]);
    assert!(stderr(&out).contains("move 1 (\"P-0-F9\")") && stderr(&out).contains("F9"));
    let out = tablero(&["perft", "chess3d", "--fen", "x", "1"]);
    assert!(!out.status.success() && stderr(&out).contains("fields"));
}

#[test]
fn xiangqi_commands() {
    let out = tablero(&["perft", "xiangqi", "3"]);
    assert_eq!(
        stdout(&out).lines().last(),
        Some("79666"),
        "{}",
        stderr(&out)
    );
    let out = tablero(&["perft", "xiangqi", "2", "--divide"]);
    assert!(
        stdout(&out).lines().any(|l| l == "h2e2: 45"),
        "{}",
        stdout(&out)
    );
    let out = tablero(&["moves", "xiangqi"]);
    assert_eq!(stdout(&out).lines().count(), 44);
    assert!(stdout(&out).lines().any(|m| m == "b0c2"));
    let out = tablero(&["position", "xiangqi", "h2e2", "h9g7"]);
    assert_eq!(
        stdout(&out).trim(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    // The display notations: WXF and Chinese, mixed with ICCS.
    let out = tablero(&["position", "xiangqi", "C2.5", "马８进７"]);
    assert_eq!(
        stdout(&out).trim(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        "{}",
        stderr(&out)
    );
    let out = tablero(&["position", "xiangqi", "C2.5", "Q8+7"]);
    assert!(
        stderr(&out).contains("move 2 (\"Q8+7\")"),
        "{}",
        stderr(&out)
    );
    let out = tablero(&["position", "xiangqi", "h2e2", "h9g8"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("move 2 (\"h9g8\")"),
        "{}",
        stderr(&out)
    );
    // Flying general: the soldier on e5 may go forward but not leave the file.
    let fen = "4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1";
    let out = tablero(&["moves", "xiangqi", "--fen", fen]);
    let listed = stdout(&out);
    let moves: Vec<&str> = listed.lines().collect();
    assert!(
        moves.contains(&"e5e6") && !moves.contains(&"e5d5"),
        "{moves:?}"
    );
    let out = tablero(&[
        "perft",
        "xiangqi",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("general is attacked"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn analyse_prints_info_lines_then_the_best_move() {
    // Mate in two (Stockfish agrees): 1.Nf6+ gxf6 2.Bxf7#.
    let out = tablero(&[
        "analyse",
        "chess",
        "--fen",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "--depth",
        "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last().copied(), Some("bestmove d5f6"));
    let last_info = lines[lines.len() - 2];
    for field in [
        "info depth 5 ",
        " score mate 2 ",
        " nodes ",
        " nps ",
        " pv d5f6 ",
    ] {
        assert!(
            last_info.contains(field),
            "{field:?} missing in {last_info}"
        );
    }
}

#[test]
fn analyse_works_in_every_game_with_every_limit() {
    let cases: &[&[&str]] = &[
        &[
            "analyse",
            "chess",
            "--variant",
            "chess960",
            "--nodes",
            "2000",
        ],
        &["analyse", "xiangqi", "--depth", "3"],
        &[
            "analyse",
            "draughts",
            "--variant",
            "international",
            "--movetime",
            "100",
        ],
        &["analyse", "chess3d", "--depth", "2"],
        &["analyse", "chess", "--level", "1"],
        &["analyse", "draughts", "--level", "3", "--depth", "4"],
        &["analyse", "chess", "--depth", "4", "--eval", "nnue"],
        &["analyse", "xiangqi", "--depth", "3", "--eval", "nnue"],
        &["analyse", "chess3d", "--depth", "2", "--eval", "nnue"],
    ];
    for args in cases {
        let out = tablero(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        let best = text
            .lines()
            .last()
            .and_then(|l| l.strip_prefix("bestmove "));
        let game = args[1];
        let variant: Vec<&str> = args
            .windows(2)
            .filter(|w| w[0] == "--variant")
            .flat_map(|w| [w[0], w[1]])
            .collect();
        let mut moves_args = vec!["moves", game];
        moves_args.extend(variant);
        let legal = stdout(&tablero(&moves_args));
        assert!(
            best.is_some_and(|m| legal.lines().any(|l| l == m)),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn analyse_rejects_bad_requests() {
    let cases: &[(&[&str], &str)] = &[
        (&["analyse", "chess"], "give a limit"),
        (&["analyse", "chess", "--depth", "0"], "depth 0"),
        (
            &["analyse", "chess", "--level", "11", "--depth", "2"],
            "level \"11\"",
        ),
        (
            &["analyse", "chess", "--depth", "2", "--nodes", "5"],
            "cannot be used with",
        ),
        (&["analyse", "go", "--depth", "2"], "unknown game"),
        (
            &[
                "analyse",
                "chess",
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "--depth",
                "2",
            ],
            "bad position",
        ),
    ];
    for (args, expected) in cases {
        let out = tablero(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?} printed to stdout");
    }
}

#[test]
fn analyse_of_a_finished_game_says_there_is_no_move() {
    // Black is mated: no info line, and `bestmove (none)` as Stockfish answers.
    let out = tablero(&[
        "analyse",
        "chess",
        "--fen",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        "--depth",
        "3",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "bestmove (none)\n");
}

/// The commands of the README's table ("What works today") are those of `tablero
/// --help`: a new command is documented, a removed one leaves the README.
#[test]
fn the_readme_lists_every_command_of_the_help() {
    let readme = include_str!("../../../README.md");
    let mut documented: Vec<String> = readme
        .lines()
        .filter_map(|line| line.strip_prefix("| `tablero"))
        .map(|rest| {
            // `tablero` alone is the server: its row names `tablero serve` too.
            let rest = rest.trim_start_matches("` or `tablero");
            rest.split(|c: char| !c.is_ascii_alphanumeric())
                .find(|w| !w.is_empty())
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    documented.sort();
    let help = common::stdout(&common::tablero(&["--help"]));
    let mut commands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect();
    commands.sort();
    assert!(!commands.is_empty(), "{help}");
    assert_eq!(documented, commands, "README table vs tablero --help");
    assert!(
        !help.contains("later"),
        "the help's first line describes what the command does today: {help}"
    );
}

#[test]
fn the_evaluation_is_chosen_by_name_and_the_bench_names_the_networks() {
    let out = tablero(&["analyse", "chess", "--depth", "2", "--eval", "neural"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("neural"), "{}", stderr(&out));
    // The network and the hand evaluation judge the start differently; without
    // --eval the network judges.
    let score = |eval: &[&str]| {
        let mut args = vec!["analyse", "chess", "--depth", "1"];
        args.extend(eval);
        let out = tablero(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out).lines().find_map(|l| {
            l.split(" score cp ")
                .nth(1)
                .map(|r| r.split(' ').next().unwrap_or("").to_owned())
        })
    };
    let network = score(&["--eval", "nnue"]);
    assert_ne!(score(&["--eval", "hand"]), network);
    assert_eq!(score(&[]), network);
    let bench = stdout(&tablero(&["bench"]));
    for game in ["chess", "xiangqi", "draughts"] {
        assert!(
            bench
                .lines()
                .any(|l| l.starts_with(&format!("{game} network tablero-{game}-"))),
            "{bench}"
        );
    }
}
