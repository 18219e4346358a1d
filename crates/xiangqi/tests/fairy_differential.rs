//! Differential test against Fairy-Stockfish's xiangqi move generator (`go perft`),
//! on positions reached by random playouts from the start.
//!
//! `scripts/test` installs Debian's `fairy-stockfish`; the test talks to it over pipes
//! only. Without the binary the test reports that it was skipped, except under CI,
//! where a missing reference is a failure. Fairy-Stockfish numbers ranks 1–10 where
//! ICCS numbers them 0–9; moves are converted before comparing.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tablero_core::{SplitMix64, perft_divide};

mod common;
use common::{playout, random_setup};

struct FairyStockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl FairyStockfish {
    fn start() -> Option<FairyStockfish> {
        let path = std::env::var("TABLERO_FAIRY_STOCKFISH")
            .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_owned());
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut engine = FairyStockfish {
            child,
            input,
            output,
        };
        engine.send("setoption name UCI_Variant value xiangqi");
        Some(engine)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("fairy-stockfish accepts input");
    }

    /// Per-move leaf counts of `go perft depth`, with moves converted to ICCS.
    fn divide(&mut self, fen: &str, depth: u32) -> BTreeMap<String, u64> {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let mut counts = BTreeMap::new();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.output
                    .read_line(&mut line)
                    .expect("fairy-stockfish output")
                    > 0,
                "fairy-stockfish exited"
            );
            let text = line.trim();
            if text.starts_with("Nodes searched") {
                return counts;
            }
            if let Some((m, n)) = text.split_once(": ")
                && let (Some(m), Ok(n)) = (to_iccs(m), n.parse())
            {
                counts.insert(m, n);
            }
        }
    }
}

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

impl Drop for FairyStockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn random_playout_positions_match_fairy_stockfish() {
    let Some(mut engine) = FairyStockfish::start() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "fairy-stockfish is missing under CI: scripts/test installs it"
        );
        eprintln!(
            "SKIPPED: no fairy-stockfish binary (set TABLERO_FAIRY_STOCKFISH or install Debian's fairy-stockfish)"
        );
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
        let theirs = engine.divide(&fen, depth);
        assert_eq!(
            ours, theirs,
            "divide {depth} differs from Fairy-Stockfish at {fen}"
        );
        compared += 1;
    }
    assert_eq!(compared, 600);
}
