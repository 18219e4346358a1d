//! Repetition rulings (perpetual check and chase) on the published WXF/AXF cases in
//! `tests/data/repetition.cases`, plus `Game` behaviour: undo, the 60-move rule,
//! resignation and the ruling's explanation.

use std::fmt::Write as _;

use tablero_xiangqi::{
    COUNTED_CHECKS, Game, GameError, MOVE_LIMIT_PLIES, Move, Outcome, Reason, RepetitionRule, Role,
    Side, Xiangqi, repetition::judge_positions,
};

/// One record of `repetition.cases`.
#[derive(Debug, Default)]
struct Case {
    id: String,
    fen: String,
    moves: Vec<String>,
    expect: String,
    rule: String,
    confidence: String,
}

fn load_cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/repetition.cases");
    let text = std::fs::read_to_string(path).expect("the cases file is readable");
    let mut cases = Vec::new();
    let mut comments = String::new();
    let mut case = Case::default();
    let mut finish = |case: &mut Case, comments: &mut String| {
        if !case.id.is_empty() {
            // The confidence note may wrap onto the next comment line.
            case.confidence = comments
                .split("confidence:")
                .nth(1)
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or("unknown")
                .trim_end_matches(|c: char| !c.is_alphanumeric())
                .to_owned();
            cases.push(std::mem::take(case));
        }
        comments.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            finish(&mut case, &mut comments);
        } else if let Some(comment) = line.strip_prefix('#') {
            comments.push_str(comment);
            comments.push(' ');
        } else {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "id" => case.id = value.to_owned(),
                "fen" => case.fen = value.to_owned(),
                "moves" => case.moves = value.split_whitespace().map(str::to_owned).collect(),
                "expect" => case.expect = value.to_owned(),
                "rule" => case.rule = value.to_owned(),
                other => panic!("unknown key {other:?} in case {}", case.id),
            }
        }
    }
    finish(&mut case, &mut comments);
    cases
}

fn expect_text(outcome: Option<Outcome>) -> String {
    match outcome {
        None => "none".to_owned(),
        Some(Outcome::Draw { .. }) => "draw".to_owned(),
        Some(Outcome::Win {
            winner: Side::White,
            ..
        }) => "black-loses".to_owned(),
        Some(Outcome::Win {
            winner: Side::Black,
            ..
        }) => "red-loses".to_owned(),
    }
}

/// Plays a case; `Ok(explanation)` if the ruling matches, else `Err(report line)`.
fn run_case(case: &Case) -> Result<String, String> {
    let start = Xiangqi::from_fen(&case.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut game = Game::new(start);
    let last = case.moves.len().saturating_sub(1);
    for (i, text) in case.moves.iter().enumerate() {
        game.play_iccs(text)
            .map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        if i < last
            && let Some(outcome) = game.outcome()
        {
            return Err(format!(
                "ended early after move {} ({text}): {outcome:?}",
                i + 1
            ));
        }
    }
    let got = expect_text(game.outcome());
    let explanation = game
        .repetition_ruling()
        .map_or_else(|| "no ruling".to_owned(), |r| r.explanation.clone());
    if got == case.expect {
        Ok(explanation)
    } else {
        Err(format!(
            "expected {}, got {got}\n    {explanation}",
            case.expect
        ))
    }
}

#[test]
fn published_and_constructed_repetition_cases() {
    let cases = load_cases();
    assert_eq!(cases.len(), 118, "the cases file holds 118 cases");
    let mut report = String::new();
    // (passed, total) per confidence level.
    let mut tally: Vec<(String, usize, usize)> = Vec::new();
    let mut high_failures = 0;
    for case in &cases {
        let result = run_case(case);
        let entry = match tally.iter_mut().position(|(c, ..)| *c == case.confidence) {
            Some(i) => &mut tally[i],
            None => {
                tally.push((case.confidence.clone(), 0, 0));
                tally.last_mut().expect("just pushed")
            }
        };
        entry.2 += 1;
        match result {
            Ok(_) => entry.1 += 1,
            Err(why) => {
                if case.confidence == "high" {
                    high_failures += 1;
                }
                let _ = writeln!(
                    report,
                    "MISMATCH {} [{}, rule {}]: {why}",
                    case.id, case.confidence, case.rule
                );
            }
        }
    }
    for (confidence, passed, total) in &tally {
        let _ = writeln!(report, "{confidence}: {passed}/{total} passed");
    }
    println!("{report}");
    assert_eq!(high_failures, 0, "high-confidence mismatches:\n{report}");
    let (passed, total) = tally
        .iter()
        .filter(|(c, ..)| c != "high")
        .fold((0, 0), |(p, t), (_, cp, ct)| (p + cp, t + ct));
    assert!(
        passed * 10 >= total * 9,
        "only {passed}/{total} medium/low-confidence cases pass:\n{report}"
    );
}

/// The search judges a repetition from the positions on its path, on the first
/// return (one cycle): `judge_positions` must rule as the game does on the moves,
/// over the case's two cycles and over its first cycle alone.
#[test]
fn judging_by_positions_agrees_with_the_game() {
    let mut judged = 0;
    for case in load_cases() {
        // A few medium- and low-confidence cases do not replay (see the test above).
        let Ok(start) = Xiangqi::from_fen(&case.fen) else {
            continue;
        };
        let mut game = Game::new(start);
        if case.moves.iter().any(|text| game.play_iccs(text).is_err()) {
            continue;
        }
        let Some(ruling) = game.repetition_ruling() else {
            continue;
        };
        let positions = game.positions();
        let both = judge_positions(positions);
        assert_eq!(both.outcome, ruling.outcome, "{}: two cycles", case.id);
        assert_eq!(both.rule, ruling.rule, "{}: two cycles", case.id);
        let middle = positions.len() / 2;
        assert_eq!(positions[middle].key(), positions[0].key(), "{}", case.id);
        let one = judge_positions(&positions[..=middle]);
        assert_eq!(one.outcome, ruling.outcome, "{}: one cycle", case.id);
        judged += 1;
    }
    assert!(judged >= 100, "only {judged} cases ended in a ruling");
    // Too few positions, or boards that no single move joins: a plain draw, no panic.
    let draw = judge_positions(&[]);
    assert!(matches!(draw.outcome, Outcome::Draw { .. }));
    let apart = [Xiangqi::new(), Xiangqi::new()];
    assert!(matches!(
        judge_positions(&apart).outcome,
        Outcome::Draw { .. }
    ));
}

fn play_all(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_iccs(m).expect("legal test move");
    }
}

#[test]
fn explanation_names_the_moves_and_the_rule() {
    let mut game = Game::new(
        Xiangqi::from_fen("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1").expect("valid FEN"),
    );
    play_all(&mut game, "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8");
    assert_eq!(game.outcome(), None);
    assert!(game.repetition_ruling().is_none());
    game.play_iccs("f8f9").expect("legal");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::Black,
            reason: Reason::PerpetualCheck
        })
    );
    let ruling = game.repetition_ruling().expect("a ruling");
    assert_eq!(ruling.rule, RepetitionRule::PerpetualCheck);
    assert_eq!(ruling.rule.id(), "perpetual-check");
    assert_eq!(ruling.cycle.len(), 8);
    let text = &ruling.explanation;
    for needle in [
        "h8h9",
        "f9f8",
        "R2+1",
        "perpetual check by red",
        "red loses",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from {text:?}");
    }
    // No more moves once the game is over; the error names the move.
    let err = game.play_iccs("h8h9").expect_err("game over");
    assert!(matches!(err, GameError::MoveAfterEnd { .. }));
    assert!(err.to_string().contains("h8h9"), "{err}");
}

#[test]
fn perpetual_chase_explanation_names_the_piece() {
    // WXF diagram 33: the red chariot chases the unprotected black cannon.
    let mut game = Game::new(
        Xiangqi::from_fen("4kab2/4a4/4b4/3rC2R1/9/9/4n4/4B4/4A4/4KAB1c w - - 0 1")
            .expect("valid FEN"),
    );
    play_all(&mut game, "h6i6 i0h0 i6h6 h0i0 h6i6 i0h0 i6h6 h0i0");
    let ruling = game.repetition_ruling().expect("a ruling");
    assert_eq!(ruling.rule, RepetitionRule::PerpetualChase);
    assert_eq!(ruling.outcome.winner(), Some(Side::Black));
    let text = &ruling.explanation;
    for needle in ["black cannon on i0", "perpetual chase by red", "red loses"] {
        assert!(text.contains(needle), "{needle:?} missing from {text:?}");
    }
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::default();
    let before = game.clone();
    let err = game
        .play_iccs("h2h8")
        .expect_err("a cannon cannot jump without a screen");
    match &err {
        GameError::IllegalMove { position, .. } => assert_eq!(**position, *before.position()),
        other => panic!("unexpected error {other:?}"),
    }
    assert!(err.to_string().contains("h2h8"), "{err}");
    assert!(matches!(game.play_iccs("h2"), Err(GameError::Notation(_))));
    assert_eq!(game, before);
}

/// A deterministic pseudo-random legal move (a tiny LCG, so no dev-dependency).
fn random_move(pos: &Xiangqi, seed: &mut u64) -> Option<Move> {
    let moves = pos.legal_moves();
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let n = u64::try_from(moves.len()).ok()?;
    let i = usize::try_from((*seed >> 33) % n.max(1)).ok()?;
    moves.get(i).copied()
}

type Snapshot = (String, Vec<u64>, Option<Outcome>, u32, [u32; 2], usize);

fn snapshot(game: &Game) -> Snapshot {
    (
        game.position().fen(),
        game.keys().to_vec(),
        game.outcome(),
        game.plies_toward_move_limit(),
        [
            game.checks_since_capture(Side::White),
            game.checks_since_capture(Side::Black),
        ],
        game.repetitions(),
    )
}

#[test]
fn undo_restores_everything() {
    for seed in 1..=20u64 {
        let mut rng = seed;
        let mut game = Game::default();
        let mut snapshots = vec![snapshot(&game)];
        while game.outcome().is_none() && snapshots.len() <= 300 {
            let Some(m) = random_move(game.position(), &mut rng) else {
                break;
            };
            game.play(m).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            snapshots.push(snapshot(&game));
        }
        let full = game.clone();
        let played: Vec<Move> = game.moves().collect();
        assert_eq!(played.len() + 1, snapshots.len());
        snapshots.pop();
        while let Some(expected) = snapshots.pop() {
            assert!(game.undo().is_some());
            assert_eq!(snapshot(&game), expected, "seed {seed}");
            assert_eq!(game.position().key(), game.position().compute_key());
        }
        assert_eq!(game.undo(), None);
        assert_eq!(game, Game::default());
        for m in played {
            game.play(m).expect("replay");
        }
        assert_eq!(game, full, "seed {seed}");
    }
}

#[test]
fn undo_takes_back_a_repetition_ruling() {
    let mut game = Game::new(
        Xiangqi::from_fen("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1").expect("valid FEN"),
    );
    play_all(&mut game, "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9");
    assert!(game.outcome().is_some());
    let keys = game.keys().to_vec();
    assert_eq!(game.undo().map(|m| m.to_string()), Some("f8f9".to_owned()));
    assert_eq!(game.outcome(), None);
    assert!(game.repetition_ruling().is_none());
    assert_eq!(game.repetitions(), 2);
    game.play_iccs("f8f9").expect("legal again");
    assert_eq!(game.keys(), keys.as_slice());
    assert_eq!(
        game.repetition_ruling().map(|r| r.rule),
        Some(RepetitionRule::PerpetualCheck)
    );
}

#[test]
fn resignation_and_agreement() {
    let mut game = Game::default();
    game.play_iccs("h2e2").expect("legal");
    game.resign(Side::Black).expect("game in progress");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            reason: Reason::Resignation
        })
    );
    assert!(matches!(game.agree_draw(), Err(GameError::Over { .. })));
    assert!(matches!(
        game.play_iccs("h9g7"),
        Err(GameError::MoveAfterEnd { .. })
    ));
    // Taking back the move withdraws the resignation.
    game.undo();
    assert_eq!(game.outcome(), None);
    game.agree_draw().expect("game in progress");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Agreement
        })
    );
}

/// Two generals and a chariot each, far apart.
const QUIET_FEN: &str = "3k5/9/9/9/r8/9/9/9/8R/5K3 w - - 0 1";

/// Plays `n` plies without captures, each the first legal move (in generation order)
/// that leads to a position not seen before in the game (or, failing that, seen only
/// once, so never a third time). Only `checker` may give check; on its turns it
/// alternates between checking and advancing a soldier (an irreversible move, so the
/// walk never runs out of new positions). Returns whether each ply checked.
fn walk(game: &mut Game, n: usize, checker: Option<Side>) -> Vec<bool> {
    let mut checks = Vec::new();
    for ply in 0..n {
        let pos = game.position().clone();
        let ours = checker == Some(pos.turn());
        let want_check = ours && (ply / 2) % 2 == 0;
        let seen = |key: u64| game.keys().iter().filter(|&&k| k == key).count();
        // Lower is better: (times seen, not what this turn wants).
        let score = |m: &Move| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            let usable = !pos.is_capture(*m)
                && (ours || !after.is_check())
                && after.outcome().is_none()
                && after.legal_moves().iter().any(|r| !after.is_capture(*r))
                && seen(after.key()) < 2;
            let advance = pos
                .piece_at(m.from())
                .is_some_and(|p| p.role == Role::Soldier)
                && m.from().file() == m.to().file();
            let wanted = if want_check {
                after.is_check()
            } else {
                !ours || (advance && !after.is_check())
            };
            usable.then(|| (seen(after.key()), !wanted))
        };
        // The walks were tuned on this order (general, chariots, cannons, horses,
        // soldiers, elephants, advisors; then by from and to point); fixing it keeps
        // them independent of the generator's order, which ties are broken by.
        let mut legal = pos.legal_moves();
        let role_rank = |m: &Move| {
            let role = pos.piece_at(m.from()).map(|p| p.role);
            [
                Role::General,
                Role::Chariot,
                Role::Cannon,
                Role::Horse,
                Role::Soldier,
                Role::Elephant,
                Role::Advisor,
            ]
            .iter()
            .position(|r| Some(*r) == role)
        };
        legal.sort_by_key(|m| (role_rank(m), m.from(), m.to()));
        let m = legal
            .iter()
            .filter_map(|m| score(m).map(|key| (key, *m)))
            .min_by_key(|(key, _)| *key)
            .map(|(_, m)| m)
            .unwrap_or_else(|| panic!("no usable move at ply {ply}: {}", pos.fen()));
        game.play(m).expect("legal");
        checks.push(game.position().is_check());
    }
    checks
}

#[test]
fn sixty_move_rule_draws_at_120_counted_plies() {
    let mut game = Game::new(Xiangqi::from_fen(QUIET_FEN).expect("valid FEN"));
    walk(&mut game, 119, None);
    assert_eq!(game.plies_toward_move_limit(), 119);
    assert_eq!(game.outcome(), None);
    walk(&mut game, 1, None);
    assert_eq!(game.plies_toward_move_limit(), MOVE_LIMIT_PLIES);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: Reason::MoveLimit
        })
    );
    game.undo();
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_capture_resets_the_move_limit() {
    let mut game =
        Game::new(Xiangqi::from_fen("3k5/9/9/9/r8/9/9/9/8R/5K3 w - - 37 1").expect("valid FEN"));
    assert_eq!(game.plies_toward_move_limit(), 37);
    play_all(&mut game, "i1a1 a5a1");
    assert_eq!(game.plies_toward_move_limit(), 0);
    assert_eq!(game.checks_since_capture(Side::White), 0);
}

#[test]
fn checks_beyond_the_tenth_and_their_replies_do_not_count() {
    // Red checks on every other move; black, without attackers, never can.
    let mut game = Game::new(
        Xiangqi::from_fen("3akab2/9/9/9/9/P1P1P1P1P/9/9/R8/3K5 w - - 0 1").expect("valid FEN"),
    );
    let checks = walk(&mut game, 80, Some(Side::White));
    let red_checks = checks.iter().step_by(2).filter(|&&c| c).count();
    assert!(red_checks > 12, "the walk should check often: {checks:?}");
    assert_eq!(game.checks_since_capture(Side::White) as usize, red_checks);
    // Every red check after the tenth costs two plies: itself and black's reply.
    let excess = red_checks - COUNTED_CHECKS as usize;
    assert_eq!(
        game.plies_toward_move_limit() as usize,
        checks.len() - 2 * excess
    );
}

#[test]
fn mate_on_the_limit_move_wins() {
    // 119 counted plies, then red mates: mate takes precedence over the draw.
    let mut game =
        Game::new(Xiangqi::from_fen("3k5/9/3P5/9/9/9/9/9/8R/4K4 w - - 119 1").expect("valid FEN"));
    assert_eq!(game.plies_toward_move_limit(), 119);
    // The chariot checks along rank 9; the soldier covers d8, the open file e8.
    game.play_iccs("i1i9").expect("legal");
    let outcome = game.outcome().expect("game over");
    assert_eq!(game.plies_toward_move_limit(), MOVE_LIMIT_PLIES);
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Side::White,
            reason: Reason::Checkmate
        }
    );
}
