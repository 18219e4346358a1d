//! `tablero winnable`: the real binary on positions whose answer is known.

mod common;

use common::{stderr, stdout, tablero};

/// The last line of a successful run.
fn answer(args: &[&str]) -> String {
    let out = tablero(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out).lines().last().unwrap_or_default().to_owned()
}

#[test]
fn prints_which_sides_can_still_mate() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "white black",
        ),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "white"),
        ("3qk3/8/8/8/8/8/8/3NK3 w - - 0 1", "black"),
        ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", "none"),
        // Blocked pawns nobody can pass: dead.
        ("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", "none"),
    ];
    for (fen, expected) in cases {
        assert_eq!(
            answer(&["winnable", "chess", "--fen", fen]),
            expected,
            "{fen}"
        );
    }
    let chess960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    assert_eq!(
        answer(&[
            "winnable",
            "chess",
            "--variant",
            "chess960",
            "--fen",
            chess960
        ]),
        "white black"
    );
}

#[test]
fn a_small_budget_may_leave_the_answer_undetermined() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        answer(&["winnable", "chess", "--nodes", "100", "--fen", start]),
        "undetermined"
    );
    assert_eq!(
        answer(&["winnable", "chess", "--fen", start]),
        "white black"
    );
}

#[test]
fn bad_input_fails_with_one_line() {
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for args in [
        &["winnable", "chess", "--fen", "not a fen"][..],
        &["winnable", "xiangqi", "--fen", xiangqi][..],
        &[
            "winnable",
            "chess",
            "--variant",
            "atomic",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ][..],
    ] {
        let out = tablero(args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(
            stderr(&out).lines().count(),
            1,
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}
