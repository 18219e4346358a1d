//! `cargo run --release -p tablero-draughts --example perft -- <rule set> <depth> [FEN] [--divide]`
//!
//! Prints the leaf count (and with `--divide` one line per root move) and the speed.

use std::time::Instant;

use tablero_draughts::{Draughts, RuleSet, perft, perft_divide};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let (Some(rule_set), Some(depth)) = (args.first(), args.get(1)) else {
        return Err("usage: perft <rule set> <depth> [FEN] [--divide]".into());
    };
    let rule_set: RuleSet = rule_set.parse()?;
    let depth: u32 = depth.parse()?;
    let pos = match args.get(2) {
        Some(fen) => Draughts::from_fen(fen, rule_set)?,
        None => Draughts::new(rule_set),
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            println!("{}: {n}", pos.move_text(m));
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!("{:.3} s, {:.1} M leaves/s", secs, nodes as f64 / secs / 1e6);
    println!("{nodes}");
    Ok(())
}
