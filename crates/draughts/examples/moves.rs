//! `cargo run -p tablero-draughts --example moves -- <rule set> [FEN]`: the board and
//! every legal move, in PDN and with every landing square.

use tablero_draughts::{Draughts, RuleSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let rule_set: RuleSet = args
        .next()
        .ok_or("usage: moves <rule set> [FEN]")?
        .parse()?;
    let pos = match args.next() {
        Some(fen) => Draughts::from_fen(&fen, rule_set)?,
        None => Draughts::new(rule_set),
    };
    println!("{pos}");
    for m in &pos.legal_moves() {
        println!(
            "{:<12} {:<24} captures {} crowns {}",
            pos.move_text(*m),
            m.full_text(),
            m.captured(),
            m.crowns()
        );
    }
    Ok(())
}
