//! Writes a perft suite for one rule set: the start position and positions from random
//! playouts that have kings and long captures, each with perft counts up to a node
//! limit. How `tests/data/*.perft` was made.
//!
//! `cargo run --release -p tablero-draughts --example suite -- <rule set> <positions> <seed> <max nodes>`

use tablero_core::SplitMix64;
use tablero_draughts::{Draughts, Position, RuleSet, Side, perft};

fn interesting(pos: &Draughts) -> bool {
    let kings = pos.piece_counts(Side::White).1 + pos.piece_counts(Side::Black).1;
    let long = pos.legal_moves().iter().any(|m| m.capture_count() >= 2);
    let total = pos.piece_counts(Side::White).0 + pos.piece_counts(Side::Black).0 + kings;
    let enough = u32::from(pos.rule_set().rules().board.pieces_per_side()) * 2 / 3;
    kings >= 2 && long && total >= enough
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: suite <rule set> <positions> <seed> <max nodes> [FEN...]";
    let rule_set: RuleSet = args.first().ok_or(usage)?.parse()?;
    let count: usize = args.get(1).ok_or(usage)?.parse()?;
    let seed: u64 = args.get(2).ok_or(usage)?.parse()?;
    let max_nodes: u64 = args.get(3).ok_or(usage)?.parse()?;
    let mut positions = vec![("start".to_owned(), Draughts::new(rule_set))];
    for (i, fen) in args.iter().skip(4).enumerate() {
        positions.push((
            format!("hand-{}", i + 1),
            Draughts::from_fen(fen, rule_set)?,
        ));
    }
    let mut rng = SplitMix64::new(seed);
    let mut found = 0;
    while found < count {
        let mut pos = Draughts::new(rule_set);
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply > 16 && interesting(&pos) && rng.below(2) == 0 {
                found += 1;
                positions.push((format!("playout-{found}"), pos.clone()));
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
    for (id, pos) in positions {
        println!("id {id}");
        println!("epd {}", pos.fen());
        for depth in 1..=30 {
            let n = perft(&pos, depth);
            println!("perft {depth} {n}");
            if n > max_nodes / 8 || n == 0 {
                break;
            }
        }
        println!();
    }
    Ok(())
}
