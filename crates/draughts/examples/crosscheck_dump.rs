//! Writes positions for the pydraughts cross-check (`tests/pydraughts_crosscheck.py`):
//! one line per position, `FEN<TAB>depth<TAB>perft<TAB>moves`, the moves as
//! `from-to:captured,squares` sorted.
//!
//! `cargo run --release -p tablero-draughts --example crosscheck_dump -- <rule set> <count> <seed> <depth>`

use tablero_core::SplitMix64;
use tablero_draughts::{Draughts, Position, RuleSet, Setup, Side, SquareSet, perft};

fn random_setup(rule_set: RuleSet, rng: &mut SplitMix64) -> Option<Draughts> {
    let board = rule_set.rules().board;
    let squares = board.squares();
    let row = board.row_squares();
    let mut setup = Setup::empty(if rng.below(2) == 0 {
        Side::White
    } else {
        Side::Black
    });
    let mut taken = SquareSet::EMPTY;
    for side in Side::ALL {
        let men = rng.below(u64::from(board.pieces_per_side()) / 2 + 1) as u8;
        let kings = rng.below(3) as u8 + u8::from(side == setup.turn);
        for i in 0..men + kings {
            let king = i < kings;
            for _ in 0..100 {
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
    Draughts::from_setup(&setup, rule_set).ok()
}

fn playout(rule_set: RuleSet, rng: &mut SplitMix64) -> Draughts {
    let mut pos = Draughts::new(rule_set);
    let plies = 10 + rng.below(90);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        // Prefer captures and king moves a little, to reach kings and long captures.
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        let mut next = pos.clone();
        next.play_unchecked(m);
        if next.legal_moves().is_empty() {
            break;
        }
        pos = next;
    }
    pos
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: crosscheck_dump <rule set> <count> <seed> <depth>";
    let rule_set: RuleSet = args.first().ok_or(usage)?.parse()?;
    let count: usize = args.get(1).ok_or(usage)?.parse()?;
    let seed: u64 = args.get(2).ok_or(usage)?.parse()?;
    let depth: u32 = args.get(3).ok_or(usage)?.parse()?;
    let mut rng = SplitMix64::new(seed);
    let mut written = 0;
    while written < count {
        let pos = if rng.below(2) == 0 {
            playout(rule_set, &mut rng)
        } else {
            match random_setup(rule_set, &mut rng) {
                Some(p) => p,
                None => continue,
            }
        };
        let mut moves: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| format!("{}-{}:{}", m.from(), m.to(), m.captured()))
            .collect();
        moves.sort();
        println!(
            "{}\t{}\t{}\t{}",
            pos.fen(),
            depth,
            perft(&pos, depth),
            moves.join(" ")
        );
        written += 1;
    }
    Ok(())
}
