#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use std::fmt::Write as _;

mod reference;
pub mod transcript;

pub use reference::{ReferenceEngine, reference_engine_or_skip};

use tablero_core::{Position, SplitMix64, perft};

/// One position of a perft suite with its expected counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftCase {
    /// The case's name (`id` line).
    pub id: String,
    /// The position text (`epd` line), in the game's own position format.
    pub position: String,
    /// `(depth, leaf count)` pairs.
    pub checks: Vec<(u32, u64)>,
}

/// Parses a perft suite: blocks of `id`, `epd` and `perft <depth> <nodes>` lines;
/// blank lines and lines starting with `#` are ignored.
///
/// # Errors
///
/// A message naming the line number and the problem.
pub fn parse_perft_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(PerftCase {
                id: value.to_owned(),
                position: String::new(),
                checks: Vec::new(),
            }),
            "epd" => match cases.last_mut() {
                Some(case) if case.position.is_empty() => case.position = value.trim().to_owned(),
                _ => return Err(format!("line {number}: 'epd' without a preceding 'id'")),
            },
            "perft" => {
                let mut parts = value.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse().ok());
                let nodes = parts.next().and_then(|n| n.parse().ok());
                match (cases.last_mut(), depth, nodes) {
                    (Some(case), Some(d), Some(n)) => case.checks.push((d, n)),
                    _ => {
                        return Err(format!(
                            "line {number}: expected 'perft <depth> <nodes>' after an id"
                        ));
                    }
                }
            }
            other => return Err(format!("line {number}: unknown key {other:?}")),
        }
    }
    Ok(cases)
}

/// Checks every `(depth, nodes)` of `cases` whose expected count is at most
/// `max_nodes` (deeper checks belong to `--ignored` runs). Returns a description of
/// every mismatch or unparsable position; an empty string means all passed. Panics
/// are avoided so that one report lists every failure.
pub fn check_perft_suite<P: Position>(
    cases: &[PerftCase],
    parse: impl Fn(&str) -> Result<P, String>,
    max_nodes: u64,
) -> (String, u64) {
    let mut report = String::new();
    let mut checked = 0;
    for case in cases {
        let pos = match parse(&case.position) {
            Ok(pos) => pos,
            Err(e) => {
                let _ = writeln!(report, "{}: cannot parse {:?}: {e}", case.id, case.position);
                continue;
            }
        };
        for &(depth, expected) in case.checks.iter().filter(|(_, n)| *n <= max_nodes) {
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                let _ = writeln!(
                    report,
                    "{}: perft {depth} = {got}, expected {expected} ({})",
                    case.id, case.position
                );
            }
        }
    }
    (report, checked)
}

/// The position after up to `plies` random legal moves from `start` (fewer when a
/// side has no move), the moves drawn by a [`SplitMix64`] seeded with `seed`: the
/// positions property tests sweep.
pub fn random_playout<P: Position>(start: P, plies: u32, seed: u64) -> P {
    let mut rng = SplitMix64::new(seed);
    let mut pos = start;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    pos
}
