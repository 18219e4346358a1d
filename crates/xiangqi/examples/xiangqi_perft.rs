//! `cargo run --release -p tablero-xiangqi --example xiangqi_perft -- <depth> [FEN] [--divide]`
//!
//! Prints the leaf count (and with `--divide` one line per root move) and the speed.

use std::time::Instant;

use tablero_xiangqi::{Xiangqi, perft, perft_divide};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let args: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    let Some(depth) = args.first() else {
        return Err("usage: xiangqi_perft <depth> [FEN] [--divide]".into());
    };
    let depth: u32 = depth.parse()?;
    let pos = match args.get(1) {
        Some(fen) => Xiangqi::from_fen(fen)?,
        None => Xiangqi::new(),
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "{seconds:.3} s, {:.1} M leaves/s",
        nodes as f64 / seconds / 1e6
    );
    Ok(())
}
