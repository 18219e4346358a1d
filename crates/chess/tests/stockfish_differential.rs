//! Differential test against Stockfish's move generator (`go perft`), on positions
//! reached by random playouts from the standard start and Chess960 starts.
//!
//! `scripts/test` installs Debian's `stockfish`; the test talks to it over pipes only.
//! Without the binary the test reports that it was skipped, except under CI, where a
//! missing reference is a failure.

use std::collections::BTreeMap;

use tablero_chess::{CastlingMode, Chess};
use tablero_core::{SplitMix64, perft_divide};
use tablero_testkit::reference_engine_or_skip;

#[test]
fn random_playout_positions_match_stockfish() {
    let Some(mut stockfish) =
        reference_engine_or_skip("TABLERO_STOCKFISH", "/usr/games/stockfish", &[])
    else {
        return;
    };
    let mut rng = SplitMix64::new(0x5EED_D1FF);
    let mut compared = 0;
    for game in 0..300 {
        let chess960 = game % 2 == 1;
        let mut pos = if chess960 {
            Chess::chess960((rng.next() % 960) as u32).expect("id in range")
        } else {
            Chess::new()
        };
        let plies = rng.next() % 160;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        let fen = pos.fen();
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        assert_eq!(Chess::from_fen(&fen, mode).as_ref(), Ok(&pos));
        let depth = 3;
        let ours: BTreeMap<String, u64> = perft_divide(&pos, depth)
            .into_iter()
            .map(|(m, n)| (pos.uci(m), n))
            .collect();
        stockfish.command(&format!("setoption name UCI_Chess960 value {chess960}"));
        let theirs = stockfish.divide(&fen, depth);
        assert_eq!(
            ours, theirs,
            "divide {depth} differs from Stockfish at {fen}"
        );
        compared += 1;
    }
    assert_eq!(compared, 300);
}
