//! Differential test against Fairy-Stockfish's xiangqi move generator (`go perft`),
//! on positions reached by random playouts from the start.
//!
//! `scripts/test` installs Debian's `fairy-stockfish`; the test talks to it over pipes
//! only. Without the binary the test reports that it was skipped, except under CI,
//! where a missing reference is a failure. Fairy-Stockfish numbers ranks 1–10 where
//! ICCS numbers them 0–9; moves are converted before comparing.

use std::collections::BTreeMap;

use tablero_core::{SplitMix64, perft_divide};
use tablero_testkit::reference_engine_or_skip;

mod common;
use common::{playout, random_setup};

/// `h3e3` (ranks 1–10) to `h2e2` (ranks 0–9).
fn to_iccs(fsf: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = fsf.chars().peekable();
    for _ in 0..2 {
        let file = chars.next().filter(|c| ('a'..='i').contains(c))?;
        let mut digits = String::new();
        while let Some(d) = chars.next_if(char::is_ascii_digit) {
            digits.push(d);
        }
        let rank: u32 = digits.parse().ok()?;
        out.push(file);
        out.push_str(&rank.checked_sub(1)?.to_string());
    }
    chars.next().is_none().then_some(out)
}

#[test]
fn random_playout_positions_match_fairy_stockfish() {
    let Some(mut engine) = reference_engine_or_skip(
        "TABLERO_FAIRY_STOCKFISH",
        "/usr/games/fairy-stockfish",
        &["setoption name UCI_Variant value xiangqi"],
    ) else {
        return;
    };
    // Playouts from the start, and random sparse setups (line-ups of cannons,
    // chariots and generals that games rarely reach).
    let mut rng = SplitMix64::new(0x0C4E_55D1_FF00);
    let playouts = (0..300).filter_map(|_| {
        let (seed, plies) = (rng.next(), rng.next() % 150);
        playout(seed, plies).pop()
    });
    let setups = (0..20_000u64).filter_map(random_setup).take(300);
    let mut compared = 0;
    for pos in playouts.collect::<Vec<_>>().into_iter().chain(setups) {
        let fen = pos.fen();
        let depth = 3;
        let ours: BTreeMap<String, u64> = perft_divide(&pos, depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        let theirs: BTreeMap<String, u64> = engine
            .divide(&fen, depth)
            .into_iter()
            .map(|(m, n)| (to_iccs(&m).unwrap_or(m), n))
            .collect();
        assert_eq!(
            ours, theirs,
            "divide {depth} differs from Fairy-Stockfish at {fen}"
        );
        compared += 1;
    }
    assert_eq!(compared, 600);
}
