//! Unwinnability: the data file of constructed positions, witnesses, random playouts
//! and (on demand) the Chess Unwinnability Analyzer's published test vectors.

use std::path::Path;

use proptest::prelude::*;
use tablero_chess::{CastlingMode, Chess, Move, Side, Verdict};

/// Parses `XX FEN` lines (`WB`, `W-`, `-B`, `--`: which sides can mate; `#` comments);
/// a FEN with a Shredder/X-FEN castling field for Chess960 is marked by a `960` word
/// before it: `WB 960 <FEN>`.
fn cases(text: &str) -> Vec<(usize, [bool; 2], Chess, String)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (tag, rest) = line.split_once(' ').expect("tag and FEN");
        let (mode, fen) = match rest.strip_prefix("960 ") {
            Some(fen) => (CastlingMode::Chess960, fen),
            None => (CastlingMode::Standard, rest),
        };
        let expected = match tag {
            "WB" => [true, true],
            "W-" => [true, false],
            "-B" => [false, true],
            "--" => [false, false],
            other => panic!("line {}: bad tag {other:?}", index + 1),
        };
        let pos =
            Chess::from_fen(fen, mode).unwrap_or_else(|e| panic!("line {}: {fen}: {e}", index + 1));
        out.push((index + 1, expected, pos, fen.to_owned()));
    }
    out
}

/// Plays `line` from `pos`, checking every move is legal, and whether it ends in a
/// checkmate given by `side`.
fn ends_in_mate_by(pos: &Chess, line: &[Move], side: Side) -> bool {
    let mut pos = pos.clone();
    for &m in line {
        assert!(pos.is_legal(m), "witness move {m:?} illegal");
        pos.play_unchecked(m);
    }
    pos.turn() != side && pos.is_check() && pos.legal_moves().is_empty()
}

/// The node budget of the run over the Chess Unwinnability Analyzer's vectors: a
/// thorough one-off analysis, as a command-line ruling may afford (seconds for a side
/// left undecided, where [`tablero_chess::DEFAULT_BUDGET`] takes milliseconds); CHA's
/// own test runs with a limit of the same order. `CHA_BUDGET` overrides it.
use tablero_chess::THOROUGH_BUDGET;

/// Counts (wrong, decided, undetermined) over `cases` analysed with `budget` nodes,
/// checking every witness.
fn check(
    cases: &[(usize, [bool; 2], Chess, String)],
    budget: u64,
    verbose: bool,
) -> (usize, usize, usize) {
    let (mut wrong, mut decided, mut open) = (0, 0, 0);
    for (line, expected, pos, fen) in cases {
        for (side, can) in [Side::White, Side::Black].into_iter().zip(expected) {
            let analysis = pos.analyse_unwinnability(side, budget);
            let ok = match analysis.verdict {
                Verdict::Winnable => {
                    assert!(
                        ends_in_mate_by(pos, &analysis.witness, side),
                        "line {line}: {fen}: bad witness for {side}"
                    );
                    *can
                }
                Verdict::Unwinnable => !*can,
                Verdict::Undetermined => {
                    open += 1;
                    if verbose {
                        eprintln!("undetermined line {line} {side}: {fen}");
                    }
                    continue;
                }
            };
            if ok {
                decided += 1;
            } else {
                wrong += 1;
                eprintln!(
                    "WRONG line {line} {side}: {fen}: {:?}, expected can-mate {can}",
                    analysis.verdict
                );
            }
        }
    }
    (wrong, decided, open)
}

#[test]
fn the_constructed_positions_get_their_verdicts() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unwinnable.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/unwinnable.txt");
    let cases = cases(&text);
    assert!(cases.len() >= 20);
    let (wrong, _, open) = check(&cases, tablero_chess::DEFAULT_BUDGET, true);
    assert_eq!(
        (wrong, open),
        (0, 0),
        "every constructed position is decided"
    );
}

/// The Chess Unwinnability Analyzer's test vectors (github.com/miguel-ambrona/D3-Chess,
/// `tests/test-vector.txt`), not kept in this repository: run with
/// `CHA_VECTORS=/tmp/cha-vectors.txt cargo test -p tablero-chess --release --test
/// unwinnable -- --ignored --nocapture` (`VERBOSE=1` lists the undetermined sides),
/// with [`THOROUGH_BUDGET`] nodes a side.
#[test]
#[ignore = "needs CHA's test-vector file, see the doc comment"]
fn the_cha_test_vectors_are_never_contradicted() {
    let path = std::env::var("CHA_VECTORS").unwrap_or_else(|_| "/tmp/cha-vectors.txt".into());
    let text = std::fs::read_to_string(&path).expect("the CHA test vectors");
    // Positions already checkmate on the board by a double check of two bishops, which
    // no game can reach: CHA answers "--", tablero reports the mate that is there.
    let unreachable = [
        "8/8/8/8/8/2b1k1b1/8/3RKR2 w - -",
        "8/8/8/8/8/1k6/b1b5/RKR5 w - -",
    ];
    let text: String = text
        .lines()
        .filter(|l| !unreachable.iter().any(|u| l.ends_with(u)))
        .map(|l| format!("{l}\n"))
        .collect();
    let cases = cases(&text);
    let verbose = std::env::var_os("VERBOSE").is_some();
    let budget = std::env::var("CHA_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(THOROUGH_BUDGET);
    let (wrong, decided, open) = check(&cases, budget, verbose);
    eprintln!(
        "{} positions, {} verdicts: {wrong} wrong, {decided} decided, {open} undetermined",
        cases.len(),
        2 * cases.len()
    );
    assert_eq!(wrong, 0);
}

/// Positions the random playouts start from: walls, low material, a full board.
const PLAYOUT_STARTS: [&str; 6] = [
    "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1",
    "4kb2/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 b - - 0 1",
    "4k3/8/8/p1p1p3/P1P1P3/8/8/4K3 w - - 0 1",
    "3qk3/8/8/8/8/8/8/3NK3 w - - 0 1",
    "4k3/8/8/8/8/8/p7/2N1K3 w - - 0 1",
    "3k4/1b6/8/1p1p1p1p/1P1P1P1P/4B3/b4B2/3K4 b - - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Along random games, a side once proved unable to mate never mates and is never
    /// later found able to (the verdict never flips from Unwinnable to Winnable).
    #[test]
    fn unwinnable_stays_unwinnable_along_random_games(start in 0..PLAYOUT_STARTS.len(), seed: u64) {
        let mut pos = Chess::from_fen(PLAYOUT_STARTS[start], CastlingMode::Standard)
            .expect("valid FEN");
        let mut state = seed | 1;
        let mut hopeless = [false; 2];
        for _ in 0..60 {
            for side in [Side::White, Side::Black] {
                let verdict = pos.analyse_unwinnability(side, 300).verdict;
                if hopeless[side.index()] {
                    prop_assert_ne!(verdict, Verdict::Winnable, "{} flipped", side);
                }
                hopeless[side.index()] |= verdict == Verdict::Unwinnable;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                if pos.is_check() {
                    prop_assert!(!hopeless[(!pos.turn()).index()], "mate by a hopeless side");
                }
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves[(state % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
}

#[test]
fn witnesses_end_in_mate_by_the_claimed_side() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Side::White,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Side::Black,
        ),
        ("4k3/8/8/8/8/8/p7/2N1K3 w - - 0 1", Side::White),
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", Side::White),
    ];
    for (fen, side) in cases {
        let pos = Chess::from_fen(fen, CastlingMode::Standard).expect("valid FEN");
        let analysis = pos.analyse_unwinnability(side, tablero_chess::DEFAULT_BUDGET);
        assert_eq!(analysis.verdict, Verdict::Winnable, "{fen}");
        assert!(!analysis.witness.is_empty());
        assert!(ends_in_mate_by(&pos, &analysis.witness, side), "{fen}");
    }
    // The knight can only mate a piece that blocks its king's flight: the pawn has to
    // promote, and not to a queen (which could always take the knight).
    let pos = Chess::from_fen("4k3/8/8/8/8/8/p7/2N1K3 w - - 0 1", CastlingMode::Standard)
        .expect("valid FEN");
    let line = pos
        .analyse_unwinnability(Side::White, tablero_chess::DEFAULT_BUDGET)
        .witness;
    assert!(line.iter().any(|m| matches!(
        m.promotion_role(),
        Some(tablero_chess::Role::Rook | tablero_chess::Role::Bishop | tablero_chess::Role::Knight)
    )));
}

/// Families from CHA's test vectors that the thorough budget used to leave open, each
/// settled at the default budget: pawns facing each other on files that can never
/// meet (no capture can ever happen, so no pawn passes the one facing it), bishops of
/// one colour shuffling behind a wall (the walk that leaves them out), and a pawn
/// ending where the winner's pawns are all blocked, so that the loser must feed it a
/// piece (the starved plan).
#[test]
fn formerly_open_families_are_decided() {
    let cases = [
        (
            "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
            [Verdict::Unwinnable, Verdict::Unwinnable],
        ),
        (
            "1b1k4/p1p1pBp1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1",
            [Verdict::Unwinnable, Verdict::Unwinnable],
        ),
        (
            "8/2b5/1b5p/b4p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1",
            [Verdict::Unwinnable, Verdict::Unwinnable],
        ),
        (
            "8/8/7p/5p1P/5p1K/4bPp1/5bPb/4bkb1 b - - 0 1",
            [Verdict::Unwinnable, Verdict::Unwinnable],
        ),
        (
            "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
            [Verdict::Unwinnable, Verdict::Unwinnable],
        ),
        (
            "8/p1p1p3/8/8/8/6p1/P1P1PkPp/7K w - - 0 1",
            [Verdict::Winnable, Verdict::Winnable],
        ),
    ];
    for (fen, verdicts) in cases {
        let pos = Chess::from_fen(fen, CastlingMode::Standard).expect("valid FEN");
        for (side, verdict) in [Side::White, Side::Black].into_iter().zip(verdicts) {
            let analysis = pos.analyse_unwinnability(side, tablero_chess::DEFAULT_BUDGET);
            assert_eq!(analysis.verdict, verdict, "{fen} {side}");
            if verdict == Verdict::Winnable {
                assert!(ends_in_mate_by(&pos, &analysis.witness, side), "{fen}");
            }
        }
    }
}

/// Prints the analysis of the FEN in `PROBE_FEN` for both sides, with the budget in
/// `PROBE_BUDGET` (default [`tablero_chess::DEFAULT_BUDGET`]): a tool for studying
/// one position, `cargo test --release --test unwinnable probe -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a tool: needs PROBE_FEN"]
fn probe() {
    let Ok(fen) = std::env::var("PROBE_FEN") else {
        return;
    };
    let budget = std::env::var("PROBE_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(tablero_chess::DEFAULT_BUDGET);
    let pos = Chess::from_fen(&fen, CastlingMode::Standard).expect("valid FEN");
    for side in [Side::White, Side::Black] {
        let start = std::time::Instant::now();
        let analysis = pos.analyse_unwinnability(side, budget);
        eprintln!(
            "{side}: {:?} in {} nodes, {:?}, witness {:?}",
            analysis.verdict,
            analysis.nodes,
            start.elapsed(),
            analysis.witness
        );
    }
}
