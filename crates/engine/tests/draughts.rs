//! The draughts evaluator with the search: shots found in every rule set family,
//! colour symmetry, compulsory captures, drawn endings, and legal self-play.

mod common;

use tablero_core::SplitMix64;
use tablero_draughts::{Draughts, Position, RuleSet, Setup, Side, SquareSet};
use tablero_engine::{DraughtsEvaluator, Engine, Evaluator, Limits};

fn pos(rule_set: RuleSet, fen: &str) -> Draughts {
    Draughts::from_fen(fen, rule_set).expect("test FENs are legal")
}

/// `side`'s material in men, a king counting as three.
fn material(pos: &Draughts, side: Side) -> i32 {
    let (men, kings) = pos.piece_counts(side);
    (men + 3 * kings) as i32
}

/// The same position with the colours swapped and the board turned round: square `n`
/// becomes `last + 1 - n` on every board, a1-light ones included.
fn mirror(pos: &Draughts) -> Draughts {
    let last = pos.rule_set().rules().board.squares();
    let turn = |set: SquareSet| -> SquareSet { set.iter().map(|n| last + 1 - n).collect() };
    let mut setup = Setup::empty(!pos.turn());
    for side in Side::ALL {
        setup.men[(!side).index()] = turn(pos.men(side));
        setup.kings[(!side).index()] = turn(pos.kings(side));
    }
    Draughts::from_setup(&setup, pos.rule_set()).expect("the mirror of a legal position is legal")
}

/// Positions along random games of `rule_set`.
fn playout_positions(rule_set: RuleSet, games: usize, seed: u64) -> Vec<Draughts> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Draughts::new(rule_set);
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
    out
}

/// The same two-for-one on every board: a man steps into a capture, the capturing
/// man lands where the man behind the sacrificed one jumps it and a second man.
/// Written in White's view of an a1-dark board; on a1-light boards (Spanish, Italian)
/// it is the mirror image, with the squares numbered the other way.
const SHOTS: [(RuleSet, &str, &str); 7] = [
    (
        RuleSet::English,
        "W:W22,23,25,29,31,32:B1,3,4,8,14,15",
        "22-18",
    ),
    (
        RuleSet::Russian,
        "W:W22,23,25,29,31,32:B1,3,4,8,14,15",
        "22-18",
    ),
    (
        RuleSet::Brazilian,
        "W:W22,23,25,29,31,32:B1,3,4,8,14,15",
        "22-18",
    ),
    (
        RuleSet::Spanish,
        "W:W22,23,28,29,30,32:B1,2,4,5,14,15",
        "23-19",
    ),
    (
        RuleSet::Italian,
        "W:W22,23,28,29,30,32:B1,2,4,5,14,15",
        "23-19",
    ),
    (
        RuleSet::International,
        "W:W37,38,41,46,48,50:B1,3,5,10,27,28",
        "37-32",
    ),
    // Black to move, the English shot turned round.
    (
        RuleSet::English,
        "B:W18,19,25,29,30,32:B1,2,4,8,10,11",
        "11-15",
    ),
];

#[test]
fn shots_win_material_in_every_rule_set_family() {
    let engine = Engine::new(DraughtsEvaluator, 16);
    for (rule_set, fen, first) in SHOTS {
        engine.new_game();
        let root = pos(rule_set, fen);
        let us = root.turn();
        let expected = root
            .parse_move(first)
            .expect("the shot's first move is legal");
        let result = engine.go(&root, &[], &Limits::depth(8));
        assert_eq!(
            result.best,
            Some(expected),
            "{rule_set} {fen}: expected {first}, got {:?}",
            result.best.map(|m| root.move_text(m))
        );
        let mut line = root.clone();
        for &m in &result.lines[0].pv {
            assert!(
                line.is_legal(m),
                "{rule_set} {fen}: illegal {m:?} in the PV"
            );
            line.play_unchecked(m);
        }
        let before = material(&root, us) - material(&root, !us);
        let after = material(&line, us) - material(&line, !us);
        assert!(
            after > before,
            "{rule_set} {fen}: balance {before} -> {after} after the PV"
        );
        assert!(
            result.lines[0].score > 60,
            "{rule_set} {fen}: score {}",
            result.lines[0].score
        );
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    let eval = DraughtsEvaluator;
    for (i, rule_set) in RuleSet::ALL.into_iter().enumerate() {
        for p in playout_positions(rule_set, 20, 7 + i as u64) {
            let m = mirror(&p);
            assert_eq!(
                eval.evaluate(&p),
                eval.evaluate(&m),
                "{rule_set} {p:?} vs {m:?}"
            );
        }
    }
}

#[test]
fn must_resolve_exactly_when_captures_are_forced() {
    let eval = DraughtsEvaluator;
    for (i, rule_set) in RuleSet::ALL.into_iter().enumerate() {
        let mut forced = 0;
        for p in playout_positions(rule_set, 20, 100 + i as u64) {
            let moves = p.legal_moves();
            let captures = moves.first().is_some_and(|m| m.is_capture());
            assert_eq!(eval.must_resolve(&p), captures, "{rule_set} {p:?}");
            assert!(moves.iter().all(|m| m.is_capture() == captures));
            forced += usize::from(captures);
        }
        assert!(
            forced > 20,
            "{rule_set}: only {forced} positions with a capture"
        );
    }
}

#[test]
fn move_keys_stay_in_range() {
    let eval = DraughtsEvaluator;
    for rule_set in RuleSet::ALL {
        for p in playout_positions(rule_set, 5, 3) {
            for &m in &p.legal_moves() {
                assert!(
                    eval.history_slot(&p, m)
                        < <DraughtsEvaluator as Evaluator<Draughts>>::HISTORY_SLOTS
                );
                assert_eq!(eval.is_noisy(&p, m), m.is_capture() || m.crowns());
                if m.is_capture() {
                    assert!(eval.noisy_order(&p, m) >= 100 * m.capture_count() as i32);
                }
                assert_eq!(
                    eval.is_irreversible(&p, m),
                    m.is_capture() || p.moves_man(m)
                );
            }
        }
    }
}

#[test]
fn kings_are_worth_more_where_they_fly() {
    let eval = DraughtsEvaluator;
    // White's extra piece is a king or a man on the same square, all else equal.
    let extra = |rule_set: RuleSet, king: bool| {
        let fen = if king {
            "W:W24,K14:B5,6"
        } else {
            "W:W24,14:B5,6"
        };
        eval.evaluate(&pos(rule_set, fen))
    };
    let gain = |rule_set| extra(rule_set, true) - extra(rule_set, false);
    for short in [RuleSet::English, RuleSet::Italian] {
        for flying in [RuleSet::Russian, RuleSet::Brazilian, RuleSet::Spanish] {
            // Half as much again at least (the fitted weights give 109 against 62
            // for Brazilian against Italian, the closest pair).
            let (fly, step) = (gain(flying), gain(short));
            assert!(2 * fly > 3 * step, "{flying} {fly} vs {short} {step}");
        }
        assert!(gain(short) > 30, "{short}: a king gains {}", gain(short));
    }
}

#[test]
fn drawn_endings_are_scaled_down() {
    let eval = DraughtsEvaluator;
    for rule_set in RuleSet::ALL {
        let one_each = if rule_set == RuleSet::International {
            "W:WK46:BK5"
        } else {
            "W:WK29:BK4"
        };
        let score = eval.evaluate(&pos(rule_set, one_each));
        assert!(
            score.abs() <= 20,
            "{rule_set}: king against king scores {score}"
        );
    }
    // A side without pieces has lost, whatever the rule set.
    for rule_set in [RuleSet::Russian, RuleSet::International] {
        let score = eval.evaluate(&pos(rule_set, "W:WK1,K2:B"));
        assert!(
            score > 300,
            "{rule_set}: two kings against nothing score {score}"
        );
    }
    // Two short kings beat one; two flying kings do not.
    let english = eval.evaluate(&pos(RuleSet::English, "W:WK18,K19:BK1"));
    let russian = eval.evaluate(&pos(RuleSet::Russian, "W:WK18,K19:BK1"));
    assert!(english > 150, "English 2 kings v 1: {english}");
    assert!(russian.abs() < 40, "Russian 2 kings v 1: {russian}");
    // Three flying kings win against a king off the main road, not one on it.
    let off = eval.evaluate(&pos(RuleSet::Russian, "W:WK13,K14,K21:BK3"));
    let on = eval.evaluate(&pos(RuleSet::Russian, "W:WK13,K14,K21:BK4"));
    assert!(
        off > 2 * on,
        "Russian 3 v 1: off the road {off}, on it {on}"
    );
    // International: four kings win even against the main road.
    let four = eval.evaluate(&pos(RuleSet::International, "W:WK1,K2,K3,K4:BK46"));
    let three = eval.evaluate(&pos(RuleSet::International, "W:WK1,K2,K3:BK46"));
    assert!(
        four > 3 * three,
        "International 4 v 1 {four}, 3 v 1 {three}"
    );
}

#[test]
fn runaway_men_and_back_rank_guard_count() {
    let eval = DraughtsEvaluator;
    // White's man on 14 runs to the crown unless a black man stands in its way.
    let free = eval.evaluate(&pos(RuleSet::English, "W:W14,30:B4,12"));
    let stopped = eval.evaluate(&pos(RuleSet::English, "W:W14,30:B4,5"));
    assert!(free > stopped, "runaway {free}, stopped {stopped}");
    // Black to move keeping the bridge (1 and 3) against White's men is better than
    // having moved one of those men forward to no purpose.
    let bridge = eval.evaluate(&pos(RuleSet::English, "B:W21,22,23,24:B1,3,9,10"));
    let broken = eval.evaluate(&pos(RuleSet::English, "B:W21,22,23,24:B3,6,9,10"));
    assert!(bridge > broken, "bridge {bridge}, broken {broken}");
}

/// Games of `rule_set` with a few random opening moves, then the engine on 300 nodes
/// a move: every move it plays must be legal.
fn self_play(rule_set: RuleSet, seed: u64) {
    let engine = Engine::new(DraughtsEvaluator, 1);
    let mut rng = SplitMix64::new(seed);
    let mut decided = 0;
    for game in 0..100 {
        engine.new_game();
        let mut history: Vec<Draughts> = Vec::new();
        let mut pos = Draughts::new(rule_set);
        let random_plies = 2 + rng.below(5);
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                decided += 1;
                break;
            }
            let m = if ply < random_plies {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                let result = engine.go(&pos, &history, &Limits::nodes(300));
                let m = result.best.expect("a position with moves has a best move");
                assert!(pos.is_legal(m), "{rule_set} game {game}: {m:?} in {pos:?}");
                m
            };
            history.push(pos.clone());
            pos.play_unchecked(m);
        }
    }
    // The engine converts some of its games even at 300 nodes a move.
    assert!(decided > 0, "{rule_set}: no game was decided");
}

#[test]
fn self_play_english() {
    self_play(RuleSet::English, 1);
}

#[test]
fn self_play_international() {
    self_play(RuleSet::International, 2);
}

#[test]
fn self_play_brazilian() {
    self_play(RuleSet::Brazilian, 3);
}

#[test]
fn self_play_russian() {
    self_play(RuleSet::Russian, 4);
}

#[test]
fn self_play_spanish() {
    self_play(RuleSet::Spanish, 5);
}

#[test]
fn self_play_italian() {
    self_play(RuleSet::Italian, 6);
}

/// Draughts levels follow `DRAUGHTS_LEVELS`: level 7 stops at its own node budget,
/// far below the standard table's, and each strong level searches more than the one
/// below it.
#[test]
fn levels_search_by_the_draughts_table() {
    use tablero_engine::{DRAUGHTS_LEVELS, STANDARD_LEVELS};
    let engine = Engine::new(DraughtsEvaluator, 4);
    let mut rng = SplitMix64::new(11);
    let start = Draughts::new(RuleSet::English);
    let mut nodes = Vec::new();
    for n in 7..=9 {
        let searched = common::nodes_at_level(&engine, &start, n, &mut rng);
        let budget = DRAUGHTS_LEVELS[usize::from(n) - 1]
            .nodes
            .expect("a node budget");
        assert!(searched <= budget + budget / 10, "level {n}: {searched}");
        nodes.push(searched);
    }
    assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
    assert!(STANDARD_LEVELS[6].nodes > DRAUGHTS_LEVELS[6].nodes);
}
