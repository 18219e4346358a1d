//! The engine on chess: forced mates found with their exact distance, tactics, won
//! endings converted, draws by rule, levels, and legality over many fast self-play games.

use tablero_chess::{CastlingMode, Chess, Game, Outcome, Reason, UciMove};
use tablero_core::SplitMix64;
use tablero_engine::score::mate_in_moves;
use tablero_engine::{ChessEvaluator, Engine, Level, Limits};

fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen, CastlingMode::Standard).expect("test FEN is valid")
}

fn uci(m: tablero_chess::Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// Plays the principal variation and says whether it ends in checkmate.
fn pv_mates(pos: &Chess, pv: &[tablero_chess::Move]) -> bool {
    let mut pos = pos.clone();
    for &m in pv {
        assert!(pos.is_legal(m), "pv move {} is illegal", uci(m));
        pos.play_unchecked(m);
    }
    matches!(
        pos.outcome(),
        Some(Outcome::Win {
            reason: Reason::Checkmate,
            ..
        })
    )
}

/// Mates checked with Stockfish 15.1 (`go mate 4`): FEN, moves to mate.
const MATES: &[(&str, i32)] = &[
    (
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        2,
    ),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    (
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
    ),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 1", 3),
];

#[test]
fn finds_mates_in_two_and_three_at_their_distance() {
    for &(fen, moves) in MATES {
        let pos = chess(fen);
        let engine = Engine::new(ChessEvaluator, 16);
        let result = engine.go(&pos, &[], &Limits::depth(2 * moves as u32 + 1));
        assert_eq!(mate_in_moves(result.score()), Some(moves), "{fen}");
        assert!(
            pv_mates(&pos, &result.lines[0].pv),
            "{fen}: pv does not mate"
        );
    }
}

#[test]
fn the_mated_side_sees_its_fate() {
    // After Nf6+ in the first mate, Black is mated in one more move whatever it does.
    let pos = chess("r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1");
    let result = Engine::new(ChessEvaluator, 16).go(&pos, &[], &Limits::depth(4));
    assert_eq!(mate_in_moves(result.score()), Some(-1));
}

#[test]
fn wins_a_hanging_queen_and_avoids_a_poisoned_one() {
    let pos = chess("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3");
    let result = Engine::new(ChessEvaluator, 16).go(&pos, &[], &Limits::depth(4));
    assert_eq!(uci(result.best.expect("a move")), "c1g5");
    // Taking the pawn on f7, defended by the king, loses the queen.
    let pos = chess("rnbqkbnr/pppp1ppp/8/4p3/8/5Q2/PPPPPPPP/RNB1KBNR w KQkq - 0 2");
    let result = Engine::new(ChessEvaluator, 16).go(&pos, &[], &Limits::depth(5));
    assert_ne!(uci(result.best.expect("a move")), "f3f7");
}

#[test]
fn a_won_position_is_not_stalemated() {
    // Black, far behind, has a stalemate trick: the queen checks until taken.
    let pos = chess("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    let result = Engine::new(ChessEvaluator, 16).go(&pos, &[], &Limits::depth(5));
    let best = result.best.expect("a move");
    let mut after = pos.clone();
    after.play_unchecked(best);
    assert_ne!(
        after.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Stalemate
        }),
        "played the stalemating {}",
        uci(best)
    );
    assert!(mate_in_moves(result.score()).is_some_and(|m| m > 0));
}

#[test]
fn a_position_seen_before_is_scored_as_a_draw() {
    // Black has a queen, two rooks and a knight against a queen, but none of them can
    // block or take a check: 1.Qh5+ Kg8 2.Qe8+ Kh7 3.Qh5+ repeats for ever, and any
    // other first move loses (Stockfish 15.1 at depth 28: 0.00, the same line). Only
    // the repetition makes the score level.
    let pos = chess("8/6pk/8/8/8/1q6/rr2Q1PP/n5K1 w - - 0 1");
    let engine = Engine::new(ChessEvaluator, 16);
    for depth in [6, 10] {
        let result = engine.go(&pos, &[], &Limits::depth(depth));
        assert_eq!(uci(result.best.expect("a move")), "e2h5", "depth {depth}");
        assert!(
            result.score().abs() <= 10,
            "depth {depth}: score {}",
            result.score()
        );
    }
}

#[test]
fn searches_are_deterministic_for_a_node_limit() {
    let pos = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let run = || {
        let result = Engine::new(ChessEvaluator, 16).go(&pos, &[], &Limits::nodes(30_000));
        (result.best, result.nodes, result.score())
    };
    assert_eq!(run(), run());
}

#[test]
fn a_new_game_forgets_what_earlier_searches_learnt() {
    let pos = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let engine = Engine::new(ChessEvaluator, 16);
    let run = || {
        let result = engine.go(&pos, &[], &Limits::nodes(30_000));
        (result.best, result.nodes, result.score())
    };
    let first = run();
    // The second search starts from the first one's table and move statistics.
    let _ = run();
    engine.new_game();
    assert_eq!(run(), first);
}

#[test]
fn levels_answer_with_legal_moves_and_beginners_vary() {
    let pos = Chess::new();
    let engine = Engine::new(ChessEvaluator, 4);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut rng = SplitMix64::new(7);
    let mut first_moves = std::collections::HashSet::new();
    for _ in 0..30 {
        let result = engine.search_level(
            &pos,
            &[],
            Level::MIN,
            &Limits::default(),
            &stop,
            &mut rng,
            |_| {},
        );
        let best = result.best.expect("a move");
        assert!(pos.is_legal(best));
        first_moves.insert(uci(best));
    }
    assert!(first_moves.len() >= 4, "{first_moves:?}");
    for n in 1..=10 {
        let level = Level::new(n).expect("1 to 10");
        let result = engine.search_level(
            &pos,
            &[],
            level,
            &Limits::nodes(20_000),
            &stop,
            &mut rng,
            |_| {},
        );
        assert!(pos.is_legal(result.best.expect("a move")), "level {n}");
    }
}

/// Fast self-play from random openings: every move the engine chooses is legal and
/// every game ends by the rules or the ply cap.
#[test]
fn no_illegal_move_in_a_thousand_fast_games() {
    let engine = Engine::new(ChessEvaluator, 1);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut rng = SplitMix64::new(2026);
    for game_number in 0..1000 {
        let mut game = Game::new(if game_number % 10 == 9 {
            Chess::chess960((rng.next() % 960) as u32).expect("ids below 960 exist")
        } else {
            Chess::new()
        });
        engine.new_game();
        let mut history: Vec<Chess> = Vec::new();
        for _ in 0..160 {
            if game.outcome().is_some() || game.claimable_draw().is_some() {
                break;
            }
            let pos = game.position().clone();
            let level = Level::new(1 + (rng.next() % 10) as u8).expect("1 to 10");
            let result = engine.search_level(
                &pos,
                &history,
                level,
                &Limits::nodes(60),
                &stop,
                &mut rng,
                |_| {},
            );
            let best = result
                .best
                .expect("the game is not over, so there is a move");
            assert!(
                pos.is_legal(best),
                "game {game_number}: illegal {}",
                uci(best)
            );
            game.play(best).expect("legal");
            history.push(pos);
        }
    }
}

/// Plays `fen` out with the engine on both sides at `nodes` a move; the outcome, or
/// the draw the side behind could claim, and the plies played.
fn play_out(fen: &str, nodes: u64, max_plies: usize) -> (Option<Outcome>, usize) {
    let engine = Engine::new(ChessEvaluator, 16);
    let mut game = Game::new(chess(fen));
    let mut history: Vec<Chess> = Vec::new();
    for ply in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return (Some(outcome), ply);
        }
        if let Some(reason) = game.claimable_draw() {
            return (Some(Outcome::Draw { reason }), ply);
        }
        let pos = game.position().clone();
        let best = engine
            .go(&pos, &history, &Limits::nodes(nodes))
            .best
            .expect("the game is not over, so there is a move");
        game.play(best).expect("the engine plays legal moves");
        history.push(pos);
    }
    (None, max_plies)
}

#[test]
fn converts_queen_against_rook_before_the_fifty_move_rule() {
    // From a game against Stockfish that ended drawn by the fifty-move rule, queen
    // against rook: a win, but only for a side that drives the king to the edge.
    let (outcome, plies) = play_out("8/8/8/2Q2K2/8/1r6/2k5/8 b - - 0 1", 20_000, 200);
    assert!(
        matches!(
            outcome,
            Some(Outcome::Win {
                reason: Reason::Checkmate,
                ..
            })
        ),
        "queen against rook ended {outcome:?} after {plies} plies"
    );
}

/// Chess levels follow `CHESS_LEVELS`, not the standard table xiangqi keeps: each
/// strong level searches as many candidate lines as chess's table gives it (level 9
/// its one best line, where xiangqi's level 9 weighs two).
#[test]
fn levels_choose_among_the_chess_tables_candidates() {
    use std::sync::atomic::AtomicBool;
    use tablero_engine::{CHESS_LEVELS, STANDARD_LEVELS};
    let engine = Engine::new(ChessEvaluator, 4);
    let mut rng = SplitMix64::new(5);
    let start = Chess::default();
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::default()
    };
    for n in 5..=9u8 {
        let level = Level::new(n).expect("1 to 10");
        engine.new_game();
        let result = engine.search_level(
            &start,
            &[],
            level,
            &limits,
            &AtomicBool::new(false),
            &mut rng,
            |_| {},
        );
        let candidates = CHESS_LEVELS[usize::from(n) - 1].candidates;
        assert_eq!(result.lines.len(), candidates, "level {n}");
    }
    assert_ne!(CHESS_LEVELS[8].candidates, STANDARD_LEVELS[8].candidates);
}
