//! The Ajedrez 3D evaluator inside the search: dama captures are found and the own dama
//! is kept, self-play only ever plays legal moves, and the evaluation stays finite and
//! colour-symmetric on random positions, and levels 7–9 keep to the chess3d table.

use tablero_chess3d::{
    Board, Chess3d, Game, Move, Outcome, Piece, Position, Reason, Setup, Side, SplitMix64, Square,
};
mod common;

use tablero_engine::{Chess3dEvaluator, Engine, Evaluator, Limits, MATE, MATE_BOUND};

/// White to move takes the black dama on 1H1 with the alfil from 1A1; the other alfil
/// could take the black rey on 1H8 instead, which is worth less than the game.
const CAPTURE_IN_ONE: &str =
    "8/8/8/8/8/8/8/8|d6r/8/8/8/8/8/8/A2DR2A|8/8/8/8/8/8/8/8 w 0 1 0000000000000000";

/// White takes the black dama (1A5) on its third move whatever Black does, and not
/// sooner: 1A2 drives the dama out, and every square it can run to is covered one move
/// later. Found and proved by exhaustive search; 1D2-1A2 is the only first move that
/// wins this fast.
const CAPTURE_IN_THREE: &str =
    "8/8/8/8/8/8/8/8|1D6/8/6A1/8/TA1R4/6p1/8/4d3|8/8/8/8/8/8/8/8 w 0 1 0000000000000000";

/// The white dama on 1D4 is attacked by the black torre on 1G7 (diagonally), while the
/// white alfil on 1A5 could take the black rey on 1A8: taking it loses the game.
const SAVE_THE_DAMA: &str =
    "8/8/8/8/8/8/8/R7|8/6t1/8/8/3D4/8/8/4A2r|d7/8/8/8/8/8/8/8 w 0 1 0000000000000000";

fn position(text: &str) -> Chess3d {
    Chess3d::from_position_string(text).expect("a valid position string")
}

fn mv(text: &str) -> Move {
    let (from, to) = text.split_once('-').expect("a coordinate move");
    Move::new(
        from.parse::<Square>().expect("a square"),
        to.parse::<Square>().expect("a square"),
    )
}

/// Whether the side to move takes the enemy dama within `plies` plies (odd) against
/// any defence: the slow reference the engine's mate scores are checked against.
fn wins_within(pos: &Chess3d, plies: u32) -> bool {
    let us = pos.turn();
    let moves = pos.legal_moves();
    let captures_dama = |m: &Move| {
        let mut next = pos.clone();
        next.play_unchecked(*m);
        !next.board().has_dama(!us)
    };
    if moves.iter().any(captures_dama) {
        return true;
    }
    plies >= 3
        && moves.iter().any(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let replies = next.legal_moves();
            // No reply at all is a draw, not a win.
            !replies.is_empty()
                && replies.iter().all(|&r| {
                    let mut after = next.clone();
                    after.play_unchecked(r);
                    after.board().has_dama(us) && wins_within(&after, plies - 2)
                })
        })
}

/// Plays `pv` from `pos`, checking every move, and returns the final position.
fn play_line(pos: &Chess3d, pv: &[Move]) -> Chess3d {
    let mut p = pos.clone();
    for &m in pv {
        assert!(p.is_legal(m), "illegal pv move {m} in {p}");
        p.play_unchecked(m);
    }
    p
}

fn white_wins_by_dama(pos: &Chess3d) -> bool {
    pos.outcome()
        == Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::DamaCaptured,
        })
}

#[test]
fn takes_the_dama_rather_than_the_rey() {
    let pos = position(CAPTURE_IN_ONE);
    let result = Engine::new(Chess3dEvaluator, 4).go(&pos, &[], &Limits::depth(3));
    assert_eq!(result.best, Some(mv("1A1-1H1")));
    assert_eq!(result.score(), MATE - 1);
    let end = play_line(&pos, &result.lines[0].pv);
    assert!(white_wins_by_dama(&end), "{end}");
}

#[test]
fn takes_the_dama_in_three() {
    let pos = position(CAPTURE_IN_THREE);
    // The reference says: not in two, but in three.
    assert!(!wins_within(&pos, 3));
    assert!(wins_within(&pos, 5));

    let result = Engine::new(Chess3dEvaluator, 8).go(&pos, &[], &Limits::depth(6));
    assert_eq!(result.best, Some(mv("1D2-1A2")));
    assert_eq!(result.score(), MATE - 5, "{:?}", result.lines[0]);
    let pv = &result.lines[0].pv;
    assert_eq!(pv.len(), 5, "{pv:?}");
    let end = play_line(&pos, pv);
    assert!(white_wins_by_dama(&end), "{end}");
    // Black's moves in the line are real defences: after each, White still needs the
    // rest of the line.
    let after_black = play_line(&pos, &pv[..2]);
    assert!(!wins_within(&after_black, 1));
    assert!(wins_within(&after_black, 3));
}

#[test]
fn keeps_its_attacked_dama_instead_of_grabbing_the_rey() {
    let pos = position(SAVE_THE_DAMA);
    // There is no check; the dama has squares to run to, so quiescence may stand pat.
    assert!(!Chess3dEvaluator.in_check(&pos));
    assert!(!Chess3dEvaluator.must_resolve(&pos));

    let result = Engine::new(Chess3dEvaluator, 4).go(&pos, &[], &Limits::depth(4));
    let best = result.best.expect("White has moves");
    assert_ne!(best, mv("1A5-1A8"), "took the rey and lost the dama");
    assert!(result.score() > -MATE_BOUND, "{:?}", result.lines[0]);
    let after = play_line(&pos, &[best]);
    for &reply in after.legal_moves().iter() {
        let end = play_line(&after, &[reply]);
        assert!(
            end.board().has_dama(Side::White),
            "{best} lets {reply} take the dama"
        );
    }
}

/// The white dama on 1A1 is attacked by the black alfil on 1H1 and every square it
/// could jump to is its own peón's or covered (B1, C1 by the alfil, C3 by the torre).
const TRAPPED_DAMA: &str =
    "7R/8/8/8/8/8/8/8|a7/8/8/4t3/8/8/1P6/DPP5|d7/8/8/8/8/8/8/8 w 0 1 0000000000000000";

#[test]
fn only_a_trapped_attacked_dama_must_be_resolved() {
    let trapped = position(TRAPPED_DAMA);
    assert!(Chess3dEvaluator.must_resolve(&trapped));
    assert!(Chess3dEvaluator.must_resolve(&mirrored(&trapped)));
    // Without the torre, C3 is free.
    let free = position(&TRAPPED_DAMA.replace("4t3", "8"));
    assert!(!Chess3dEvaluator.must_resolve(&free));
    // Without the peón on 1A2, the dama can step there.
    let open = position(&TRAPPED_DAMA.replace("DPP5", "D1P5"));
    assert!(!Chess3dEvaluator.must_resolve(&open));
}

#[test]
fn a_captured_dama_is_terminal_for_the_search() {
    use tablero_engine::Terminal;
    let pos = play_line(&position(CAPTURE_IN_ONE), &[mv("1A1-1H1")]);
    let evaluator = Chess3dEvaluator;
    assert_eq!(evaluator.terminal(&pos, false), Some(Terminal::Loss));
    assert_eq!(evaluator.terminal(&pos, true), Some(Terminal::Loss));
    assert!(evaluator.must_resolve(&pos));
    assert!(evaluator.evaluate(&pos) < -1_000);
    let start = Chess3d::start(0);
    assert_eq!(evaluator.terminal(&start, true), None);
    assert_eq!(evaluator.terminal(&start, false), Some(Terminal::Draw));
}

/// The same position with colours swapped and rows mirrored (A <-> H), the other side
/// to move. The rules are symmetric under this map, so the evaluation must be too.
fn mirrored(pos: &Chess3d) -> Chess3d {
    let mut board = Board::empty();
    for (sq, piece) in pos.board().iter() {
        let to = Square::new(sq.level() as u8, 7 - sq.row(), sq.column()).expect("on the board");
        board.set(
            to,
            Some(Piece {
                side: !piece.side,
                kind: piece.kind,
            }),
        );
    }
    let setup = Setup {
        board,
        turn: !pos.turn(),
        ..pos.to_setup()
    };
    Chess3d::from_setup(setup).expect("the move number is unchanged")
}

#[test]
fn evaluation_is_finite_and_symmetric_on_random_playouts() {
    let evaluator = Chess3dEvaluator;
    let mut rng = SplitMix64::new(0x3d3d);
    let mut positions = 0;
    for game in 0..150 {
        let mut pos = Chess3d::start(game);
        for _ in 0..200 {
            let score = evaluator.evaluate(&pos);
            assert!(score.abs() <= 20_000, "{score} in {pos}");
            let both_damas = pos.board().has_dama(Side::White) && pos.board().has_dama(Side::Black);
            if both_damas {
                assert!(score.abs() <= 5_000, "{score} in {pos}");
            }
            assert_eq!(
                evaluator.evaluate(&mirrored(&pos)),
                score,
                "asymmetric in {pos}"
            );
            assert_eq!(
                evaluator.must_resolve(&mirrored(&pos)),
                evaluator.must_resolve(&pos)
            );
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            for &other in moves.iter() {
                assert!(evaluator.history_slot(&pos, other) < Chess3dEvaluator::HISTORY_SLOTS);
            }
            pos.play_unchecked(m);
        }
    }
    assert!(positions > 10_000);
}

#[test]
fn fast_self_play_only_plays_legal_moves() {
    let engine = Engine::new(Chess3dEvaluator, 2);
    let mut decided = 0;
    let mut total_plies = 0;
    for game_index in 0..100u64 {
        engine.new_game();
        let mut rng = SplitMix64::new(game_index);
        let mut game = Game::new(Chess3d::start(rng.next()));
        // A few random plies first, so that the hundred games differ.
        let opening = 2 + rng.below(5);
        let mut history: Vec<Chess3d> = Vec::new();
        for ply in 0..200 {
            if game.outcome().is_some() {
                break;
            }
            let pos = game.position().clone();
            let m = if ply < opening {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                let result = engine.go(&pos, &history, &Limits::nodes(300));
                let best = result.best.expect("a position that goes on has a move");
                if let Some(line) = result.lines.first() {
                    play_line(&pos, &line.pv);
                }
                best
            };
            assert!(pos.is_legal(m), "illegal {m} in {pos}");
            game.play(m).expect("legal and the game goes on");
            history.push(pos);
            total_plies += 1;
        }
        if matches!(
            game.outcome(),
            Some(Outcome::Win {
                reason: Reason::DamaCaptured,
                ..
            })
        ) {
            decided += 1;
        }
    }
    println!("100 games, {total_plies} plies, {decided} ended by a dama capture");
    assert!(total_plies > 1_000);
}

/// Ajedrez 3D levels follow `CHESS3D_LEVELS`: levels 8 and 9 stop at their own node
/// budgets, below the standard table's, and level 7 (depth 4) searches well under
/// level 8's budget, so the node levels are a real step up from the depth levels.
#[test]
fn levels_search_by_the_chess3d_table() {
    use tablero_engine::{CHESS3D_LEVELS, STANDARD_LEVELS};
    let engine = Engine::new(Chess3dEvaluator, 4);
    let mut rng = SplitMix64::new(5);
    let start = Chess3d::start(0);
    let level_8_budget = CHESS3D_LEVELS[7].nodes.expect("a node budget");
    let level_7_nodes = common::nodes_at_level(&engine, &start, 7, &mut rng);
    assert!(
        level_7_nodes < level_8_budget / 2,
        "level 7: {level_7_nodes}"
    );
    for n in [8, 9] {
        let i = usize::from(n) - 1;
        let budget = CHESS3D_LEVELS[i].nodes.expect("a node budget");
        assert!(STANDARD_LEVELS[i].nodes.expect("a node budget") > budget + budget / 10);
        let nodes = common::nodes_at_level(&engine, &start, n, &mut rng);
        assert!(nodes <= budget + budget / 10, "level {n}: {nodes}");
    }
}
