//! Property tests on random positions and random playouts of every rule set: legal
//! moves equal the slow reference generator's, counting equals listing, no move is
//! listed twice, incremental keys equal recomputed keys, copy-make leaves the original
//! untouched, FEN and move text round-trip, `piece_changes` turns one position's
//! pieces into another's.

mod common;

use proptest::prelude::*;
use tablero_core::SplitMix64;
use tablero_draughts::{Draughts, PdnMove, Position, Role, RuleSet, Setup, Side, SquareSet};

use common::{fast_moves, reference_moves};

/// A random legal setup: up to `max` men and kings per side, men off their crowning
/// rows.
fn random_position(rule_set: RuleSet, rng: &mut SplitMix64) -> Draughts {
    let board = rule_set.rules().board;
    let squares = board.squares();
    let row = board.row_squares();
    let max = board.pieces_per_side();
    let mut setup = Setup::empty(if rng.below(2) == 0 {
        Side::White
    } else {
        Side::Black
    });
    let mut taken = SquareSet::EMPTY;
    for side in Side::ALL {
        let men = rng.below(u64::from(max) + 1) as u8;
        let kings = rng.below(4) as u8;
        let total = (men + kings).min(max);
        for i in 0..total {
            let king = i < kings;
            loop {
                let n = rng.below(u64::from(squares)) as u8 + 1;
                let crown_row = match side {
                    Side::White => n <= row,
                    Side::Black => n > squares - row,
                };
                if taken.contains(n) || (!king && crown_row) {
                    continue;
                }
                taken.insert(n);
                if king {
                    setup.kings[side.index()].insert(n);
                } else {
                    setup.men[side.index()].insert(n);
                }
                break;
            }
        }
    }
    Draughts::from_setup(&setup, rule_set).expect("random setups respect the rules")
}

/// Applying `before.piece_changes(after)` to `before`'s men and kings gives
/// `after`'s: nothing removed that was not there, nothing added twice.
fn check_changes(before: &Draughts, after: &Draughts) {
    let pieces = |pos: &Draughts| Side::ALL.map(|side| [pos.men(side), pos.kings(side)]);
    let mut sets = pieces(before);
    before.piece_changes(after, |piece, square, added| {
        let set = &mut sets[piece.side.index()][usize::from(piece.role == Role::King)];
        assert_eq!(
            set.contains(square),
            !added,
            "{piece} on {square}: {before:?} to {after:?}"
        );
        if added {
            set.insert(square);
        } else {
            set.remove(square);
        }
    });
    assert_eq!(sets, pieces(after), "{before:?} to {after:?}");
}

fn check_position(pos: &Draughts) {
    let legal = pos.legal_moves();
    let fast = fast_moves(pos);
    assert_eq!(fast.len(), legal.len(), "a move listed twice at {pos:?}");
    assert_eq!(
        pos.count_legal_moves(),
        legal.len() as u64,
        "count vs list at {pos:?}"
    );
    let reference = reference_moves(pos);
    assert_eq!(
        fast,
        reference,
        "moves differ at {pos:?}: only fast {:?}, only reference {:?}",
        fast.difference(&reference).collect::<Vec<_>>(),
        reference.difference(&fast).collect::<Vec<_>>()
    );
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {pos:?}");
    let reparsed = Draughts::from_fen(&pos.fen(), pos.rule_set()).expect("printed FEN parses");
    assert_eq!(&reparsed, pos, "FEN round-trip");
    for &m in &legal {
        assert!(pos.is_legal(m));
        let text = pos.move_text(m);
        assert_eq!(pos.parse_move(&text), Ok(m), "{text} round-trip at {pos:?}");
        assert_eq!(
            pos.parse_move(&m.full_text()),
            Ok(m),
            "{} at {pos:?}",
            m.full_text()
        );
        let parsed: PdnMove = text.parse().expect("printed text parses");
        assert_eq!(parsed.to_string(), text);
        let before = pos.clone();
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert_eq!(&before, pos, "copy-make changed the original");
        check_changes(pos, &after);
        assert_eq!(
            after.key(),
            after.compute_key(),
            "key after {text} at {pos:?}"
        );
        assert_eq!(after.turn(), !pos.turn());
        assert_eq!(
            after.piece_counts(!pos.turn()).0 + after.piece_counts(!pos.turn()).1,
            pos.piece_counts(!pos.turn()).0 + pos.piece_counts(!pos.turn()).1 - m.capture_count(),
        );
    }
    if pos.rule_set().rules().board == tablero_draughts::BoardSize::Eight
        && pos.rule_set().rules().orientation == tablero_draughts::Orientation::A1Dark
    {
        for &m in &legal {
            let text = pos.algebraic(m);
            assert_eq!(pos.parse_move(&text), Ok(m), "{text} at {pos:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_positions_match_the_reference(rule in 0usize..6, seed in any::<u64>()) {
        let rule_set = RuleSet::ALL[rule];
        let mut rng = SplitMix64::new(seed);
        let mut earlier = Draughts::new(RuleSet::ALL[(rule + 1) % 6]);
        for _ in 0..8 {
            let pos = random_position(rule_set, &mut rng);
            check_position(&pos);
            // Unrelated positions, the first of another rule set.
            check_changes(&earlier, &pos);
            earlier = pos;
        }
    }

    #[test]
    fn random_playouts_keep_every_invariant(rule in 0usize..6, seed in any::<u64>()) {
        let rule_set = RuleSet::ALL[rule];
        let mut rng = SplitMix64::new(seed);
        let mut pos = Draughts::new(rule_set);
        for _ in 0..160 {
            check_position(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                prop_assert!(pos.outcome().is_some());
                break;
            }
            prop_assert!(pos.outcome().is_none());
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
}

/// Many more random positions than the proptest run: `cargo test -- --ignored`.
#[test]
#[ignore = "long: run with cargo test --release -- --ignored"]
fn many_random_positions_match_the_reference() {
    for rule_set in RuleSet::ALL {
        let mut rng = SplitMix64::new(0x5EED ^ rule_set.game_type() as u64);
        for _ in 0..20_000 {
            check_position(&random_position(rule_set, &mut rng));
        }
    }
}
