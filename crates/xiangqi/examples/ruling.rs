//! `cargo run -p tablero-xiangqi --example ruling -- <FEN> <ICCS move>...`
//!
//! Plays the moves and prints the game's outcome and, if a repetition was ruled, the
//! ruling's explanation: a quick way to see how tablero rules a repeated line.

use tablero_xiangqi::{Game, Xiangqi};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let fen = args.next().ok_or("usage: ruling <FEN> <ICCS move>...")?;
    let mut game = Game::new(Xiangqi::from_fen(&fen)?);
    for text in args {
        game.play_iccs(&text)?;
    }
    match game.outcome() {
        Some(outcome) => println!("outcome: {outcome}"),
        None => println!("the game goes on"),
    }
    if let Some(ruling) = game.repetition_ruling() {
        println!("{}", ruling.explanation);
    }
    Ok(())
}
