//! Differential test against Stockfish's move generator (`go perft`), on positions
//! reached by random playouts from the standard start and Chess960 starts.
//!
//! `scripts/test` installs Debian's `stockfish`; the test talks to it over pipes only.
//! Without the binary the test reports that it was skipped, except under CI, where a
//! missing reference is a failure.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tablero_chess::{CastlingMode, Chess};
use tablero_core::{SplitMix64, perft_divide};

struct Stockfish {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stockfish {
    fn start() -> Option<Stockfish> {
        let path = std::env::var("TABLERO_STOCKFISH")
            .unwrap_or_else(|_| "/usr/games/stockfish".to_owned());
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        Some(Stockfish {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("stockfish accepts input");
    }

    /// Per-move leaf counts of `go perft depth`, as UCI text.
    fn divide(&mut self, fen: &str, chess960: bool, depth: u32) -> BTreeMap<String, u64> {
        self.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let mut counts = BTreeMap::new();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.output.read_line(&mut line).expect("stockfish output") > 0,
                "stockfish exited"
            );
            let text = line.trim();
            if text.starts_with("Nodes searched") {
                return counts;
            }
            if let Some((m, n)) = text.split_once(": ")
                && let Ok(n) = n.parse()
            {
                counts.insert(m.to_owned(), n);
            }
        }
    }
}

impl Drop for Stockfish {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn random_playout_positions_match_stockfish() {
    let Some(mut stockfish) = Stockfish::start() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "stockfish is missing under CI: scripts/test installs it"
        );
        eprintln!(
            "SKIPPED: no stockfish binary (set TABLERO_STOCKFISH or install Debian's stockfish)"
        );
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
        let theirs = stockfish.divide(&fen, chess960, depth);
        assert_eq!(
            ours, theirs,
            "divide {depth} differs from Stockfish at {fen}"
        );
        compared += 1;
    }
    assert_eq!(compared, 300);
}
