//! The xiangqi evaluator under the search: forced mates, a tactic, colour symmetry,
//! the perpetual-check rule, and legal self-play.

use tablero_core::{Outcome, Position, Reason, SplitMix64};
use tablero_engine::{
    Engine, Evaluator, Limits, MATE, MATE_BOUND, SearchOptions, XiangqiEvaluator,
};
use tablero_xiangqi::{Move, Piece, Setup, Side, Square, Xiangqi};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).expect("valid FEN")
}

fn mv(pos: &Xiangqi, text: &str) -> Move {
    pos.parse_move(text).expect("legal move text")
}

fn played(pos: &Xiangqi, text: &str) -> Xiangqi {
    pos.clone().play(mv(pos, text)).expect("legal move")
}

/// Whether the side to move wins within `moves` of its own moves against every
/// defence (brute force, independent of the engine).
fn wins_within(pos: &Xiangqi, moves: u32) -> bool {
    let us = pos.turn();
    pos.legal_moves().into_iter().any(|m| {
        let mut child = pos.clone();
        child.play_unchecked(m);
        match child.outcome() {
            Some(outcome) => outcome.winner() == Some(us),
            None => {
                moves > 1
                    && child.legal_moves().into_iter().all(|reply| {
                        let mut next = child.clone();
                        next.play_unchecked(reply);
                        wins_within(&next, moves - 1)
                    })
            }
        }
    })
}

/// The engine finds the mate in `moves` at the matching depth, its line ends in
/// checkmate, and brute force agrees that no shorter mate exists.
fn assert_mate_in(root: &Xiangqi, moves: u32) {
    let fen = root.fen();
    let plies = 2 * moves - 1;
    let engine = Engine::new(XiangqiEvaluator, 16);
    let result = engine.go(root, &[], &Limits::depth(plies));
    assert_eq!(
        result.score(),
        MATE - plies as i32,
        "{fen}: {:?}",
        result.lines
    );
    let pv = &result.lines[0].pv;
    assert_eq!(pv.len(), plies as usize, "{fen}: {pv:?}");
    let mut end = root.clone();
    for &m in pv {
        assert!(end.is_legal(m), "{fen}: {m} in {pv:?}");
        end.play_unchecked(m);
    }
    assert_eq!(
        end.outcome(),
        Some(Outcome::Win {
            winner: root.turn(),
            reason: Reason::Checkmate
        }),
        "{fen}: {pv:?}"
    );
    assert!(wins_within(root, moves), "{fen}");
    assert!(moves == 1 || !wins_within(root, moves - 1), "{fen}");
}

#[test]
fn mate_in_one_horse_behind_cannon() {
    // The cannon comes to the e-file with the horse as its screen; the horse holds
    // d9 and f9, and e8 lies on the cannon's line.
    assert_mate_in(&pos("2b1k1b1r/9/4H4/9/9/9/9/C8/9/3K5 w - - 0 1"), 1);
}

#[test]
fn mate_in_two_pinned_advisor() {
    // The advisor on e8 shields black's general from the flying general and may not
    // step aside to f9: the chariot sacrifices itself on h9, then mates on the rank.
    assert_mate_in(&pos("1r1ak4/4a4/b6Rb/9/9/1p7/9/9/9/4K4 w - - 0 1"), 2);
}

#[test]
fn mate_in_three_chariot_horse_cannon() {
    assert_mate_in(&pos("6r2/4k4/3a1a3/1C1N5/R3p4/9/9/9/9/3K5 w - - 0 1"), 3);
}

#[test]
fn black_finds_the_mirrored_mate() {
    // The mate in two with colours and ranks swapped: black to move mates.
    let red = pos("1r1ak4/4a4/b6Rb/9/9/1p7/9/9/9/4K4 w - - 0 1");
    assert_mate_in(&mirrored(&red), 2);
}

#[test]
fn wins_a_chariot_with_a_horse_fork() {
    // Horse b6-c8 checks the general and attacks the undefended chariot on a7.
    let root = pos("3akab2/9/r3c1n2/1H4p2/2p6/9/P1P1P4/4C4/9/2BAKAB2 w - - 0 1");
    let engine = Engine::new(XiangqiEvaluator, 16);
    let before = engine.evaluator().evaluate(&root);
    let result = engine.go(&root, &[], &Limits::depth(6));
    let pv = &result.lines[0].pv;
    assert_eq!(result.best, Some(mv(&root, "b6c8")), "{pv:?}");
    assert!(
        pv.iter()
            .any(|m| m.to() == "a7".parse::<Square>().expect("a square")),
        "the line takes the chariot: {pv:?}"
    );
    assert!(
        result.score() > before + 700,
        "{before} -> {}: {pv:?}",
        result.score()
    );
}

/// The position with ranks flipped and colours swapped, the other side to move.
fn mirrored(pos: &Xiangqi) -> Xiangqi {
    let setup = pos.to_setup();
    let mut flipped = Setup::empty();
    for sq in Square::all() {
        let to = Square::from_coords(sq.file(), 9 - sq.rank()).expect("on the board");
        flipped.board[to.index()] = setup.board[sq.index()].map(|p| Piece::new(!p.side, p.role));
    }
    flipped.turn = !setup.turn;
    flipped.halfmoves = setup.halfmoves;
    Xiangqi::from_setup(flipped).expect("the mirror of a legal position is legal")
}

#[test]
fn evaluation_is_colour_symmetric() {
    let evaluator = XiangqiEvaluator;
    let mut rng = SplitMix64::new(2024);
    let mut checked = 0;
    for _ in 0..60 {
        let mut pos = Xiangqi::new();
        for _ in 0..160 {
            let flipped = mirrored(&pos);
            assert_eq!(
                evaluator.evaluate(&pos),
                evaluator.evaluate(&flipped),
                "{} vs {}",
                pos.fen(),
                flipped.fen()
            );
            assert_eq!(evaluator.in_check(&pos), evaluator.in_check(&flipped));
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn evaluation_sees_material_and_the_opening_is_level() {
    let evaluator = XiangqiEvaluator;
    let start = Xiangqi::new();
    // Every feature cancels at the start: what is left is the worth of having the move,
    // the same for either side.
    assert!(XiangqiEvaluator::trace(&start).counts.is_empty());
    let black_first = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(evaluator.evaluate(&start), evaluator.evaluate(&black_first));
    // Fairy-Stockfish gives the side to move 60–90 cp here (depths 6–14), about twice
    // that on this evaluation's scale (the fit's K is about half of ln 10): an edge,
    // well short of a horse.
    let tempo = evaluator.evaluate(&start);
    assert!((0..250).contains(&tempo), "start position {tempo}");
    // Red without its h-file chariot is clearly worse, from either side's view.
    let no_chariot = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1");
    assert!(evaluator.evaluate(&no_chariot) < -700);
    let black_to_move =
        pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 b - - 0 1");
    assert!(evaluator.evaluate(&black_to_move) > 700);
    // A soldier across the river is worth more than one at home.
    let home = pos("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1");
    let crossed = pos("4k4/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1");
    assert!(evaluator.evaluate(&crossed) > evaluator.evaluate(&home) + 50);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let evaluator = XiangqiEvaluator;
    // Red checks from i9 and i8 while black's general steps between e9 and e8.
    let checking = cycle(
        "4k4/8R/9/9/rr7/nn7/4P4/9/9/2BAKAB2 w - - 0 1",
        "i8i9 e9e8 i9i8 e8e9",
    );
    // Red, to move at the end, checked on every move of the cycle: red loses, in full
    // when red is the side searching.
    let score = evaluator.repetition_score(&checking, Side::White);
    assert!(score <= -10_000 && score > -MATE_BOUND, "{score}");
    // Black searching takes the ruling in its favour as an edge, not the game.
    let edge = -evaluator.repetition_score(&checking, Side::Black);
    assert!(edge > 0 && edge < 300, "{edge}");
    // From black's side (the cycle one move on), black wins: in full when red
    // searches, as an edge when black does.
    let on = cycle(
        "4k4/8R/9/9/rr7/nn7/4P4/9/9/2BAKAB2 w - - 0 1",
        "i8i9 e9e8 i9i8 e8e9 i8i9",
    );
    assert!(evaluator.repetition_score(&on[1..], Side::White) >= 10_000);
    assert_eq!(evaluator.repetition_score(&on[1..], Side::Black), edge);
    // Both sides shuffle without checks or chases: a draw.
    let idle = cycle(tablero_xiangqi::START_FEN, "h2e2 h7e7 e2h2 e7h7");
    assert_eq!(evaluator.repetition_score(&idle, Side::White), 0);
    assert_eq!(evaluator.repetition_score(&idle, Side::Black), 0);

    // Red, far behind in material, has checked from i9 and i8 while black's general went
    // back and forth between e9 and e8; checking from i9 again repeats the cycle.
    let fen = "4k4/8R/9/9/rr7/nn7/4P4/9/9/2BAKAB2 w - - 0 1";
    let history = cycle(fen, "i8i9 e9e8 i9i8 e8e9");
    assert_repeating_loses(&history, "i8i9");
}

/// `history` ends where it began; playing `repeating` from there (with the rest of
/// `history` before it) repeats the cycle, which the rules score as a loss for the
/// side that plays it. The search must see that only with the history, and avoid the
/// move when free to choose.
fn assert_repeating_loses(history: &[Xiangqi], repeating: &str) {
    let (root, before) = history.split_last().expect("a cycle");
    assert_eq!(root.key(), before[0].key());
    let repeat = mv(root, repeating);
    let engine = Engine::new(XiangqiEvaluator, 16);
    let stop = Default::default();
    let only_repeat = SearchOptions {
        root_moves: vec![repeat],
        ..SearchOptions::default()
    };
    let repeated = engine.search(root, before, &Limits::depth(3), &only_repeat, &stop, |_| {});
    assert!(
        repeated.score() <= -10_000 && repeated.score() > -MATE_BOUND,
        "{:?}",
        repeated.lines
    );
    // Without the history the move is an ordinary move.
    engine.new_game();
    let fresh = engine.search(root, &[], &Limits::depth(1), &only_repeat, &stop, |_| {});
    assert!(fresh.score() > -10_000, "{:?}", fresh.lines);
    // Free to choose, the side gives the cycle up.
    engine.new_game();
    let free = engine.go(root, before, &Limits::depth(4));
    assert_ne!(free.best, Some(repeat), "{:?}", free.lines);
    assert!(free.score() > -10_000, "{:?}", free.lines);
}

/// The positions from `fen` through each of `moves` (ICCS, space-separated).
fn cycle(fen: &str, moves: &str) -> Vec<Xiangqi> {
    let mut positions = vec![pos(fen)];
    for text in moves.split_whitespace() {
        let next = played(positions.last().expect("not empty"), text);
        positions.push(next);
    }
    positions
}

#[test]
fn perpetual_chase_loses_for_the_chaser() {
    // WXF diagram 33: red's chariot chases black's unprotected cannon between i0 and
    // h0 (h6i6 i0h0 i6h6 h0i0 brings the start back).
    let fen = "4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1";
    let history = cycle(fen, "h6i6 i0h0 i6h6 h0i0");
    assert_repeating_loses(&history, "h6i6");

    // Black, a horse up, whose cannon is chased: stepping back to h0 would repeat the
    // position after red's chases, red having chased on every move of that cycle. A
    // ruling in black's favour, but black counts it as an edge, not the game, and
    // plays on from a position it rates far higher.
    let root = history.last().expect("a cycle");
    let after_chase = played(root, "h6i6");
    let claim = mv(&after_chase, "i0h0");
    let engine = Engine::new(XiangqiEvaluator, 16);
    let black = engine.go(&after_chase, &history, &Limits::depth(4));
    assert_ne!(black.best, Some(claim), "{:?}", black.lines);
    assert!(
        black.score() > 300 && black.score() < 10_000,
        "{:?}",
        black.lines
    );

    // Without the horse black has nothing better than the cannon's square, and claims.
    let level = "4kab2/4a4/4b4/3rC2R1/9/9/9/4B4/4A4/4KAB1c w - - 0 1";
    let history = cycle(level, "h6i6 i0h0 i6h6 h0i0");
    let after_chase = played(history.last().expect("a cycle"), "h6i6");
    engine.new_game();
    let black = engine.go(&after_chase, &history, &Limits::depth(4));
    assert_eq!(
        black.best,
        Some(mv(&after_chase, "i0h0")),
        "{:?}",
        black.lines
    );
    assert!(
        black.score() > 0 && black.score() < 300,
        "{:?}",
        black.lines
    );
}

/// Red, a chariot and a pawn against two chariots and two horses, has checked from i9
/// and i8 while black's general stepped between e9 and e8, and checks from i9 again.
/// Stepping back to e8 repeats the cycle, which the rules score as red's loss; but
/// arbiters differ on the rulings (a match may call every repetition a draw), so
/// black, far ahead, blocks with its horse and plays on rather than claim it. With no
/// better move a side does claim it (`perpetual_chase_loses_for_the_chaser`).
#[test]
fn a_side_far_ahead_plays_on_rather_than_claim_a_repetition_ruling() {
    let fen = "4k4/8R/6n2/9/rr7/n8/4P4/9/9/2BAKAB2 w - - 0 1";
    let history = cycle(fen, "i8i9 e9e8 i9i8 e8e9");
    let root = played(history.last().expect("a cycle"), "i8i9");
    let repeat = mv(&root, "e9e8");
    let engine = Engine::new(XiangqiEvaluator, 16);
    let stop = Default::default();
    let only_repeat = SearchOptions {
        root_moves: vec![repeat],
        ..SearchOptions::default()
    };
    let repeated = engine.search(
        &root,
        &history,
        &Limits::depth(3),
        &only_repeat,
        &stop,
        |_| {},
    );
    assert!(
        repeated.score() > 0 && repeated.score() < 300,
        "{:?}",
        repeated.lines
    );
    engine.new_game();
    let free = engine.go(&root, &history, &Limits::depth(4));
    assert_ne!(free.best, Some(repeat), "{:?}", free.lines);
    assert!(
        free.score() > repeated.score() + 300 && free.score() < 10_000,
        "{:?}",
        free.lines
    );
}

/// 200 fast games (200 nodes a move, 150 plies at most): every move the engine
/// picks is legal.
#[test]
fn self_play_is_legal() {
    let engine = Engine::new(XiangqiEvaluator, 1);
    let mut rng = SplitMix64::new(99);
    let mut decided = 0;
    for game in 0..200 {
        engine.new_game();
        let mut pos = Xiangqi::new();
        let mut history = Vec::new();
        for ply in 0..150 {
            if pos.outcome().is_some() {
                decided += 1;
                break;
            }
            // Two random opening moves make the games differ.
            let m = if ply < 2 {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                engine
                    .go(&pos, &history, &Limits::nodes(200))
                    .best
                    .expect("a position without outcome has a move")
            };
            assert!(
                pos.is_legal(m),
                "game {game} ply {ply}: {m} in {}",
                pos.fen()
            );
            history.push(pos.clone());
            pos.play_unchecked(m);
        }
    }
    assert!(decided > 0);
}
