//! Analyses a chess FEN to a depth and prints each iteration: `chess_analyse FEN DEPTH`.

use std::sync::atomic::AtomicBool;

use tablero_chess::{CastlingMode, Chess, UciMove};
use tablero_engine::{ChessEvaluator, Engine, Limits, SearchOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args.get(1).map_or(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        String::as_str,
    );
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(10);
    let pos = match Chess::from_fen(fen, CastlingMode::Standard) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return;
        }
    };
    let engine = Engine::new(ChessEvaluator, 64);
    let stop = AtomicBool::new(false);
    let result = engine.search(
        &pos,
        &[],
        &Limits::depth(depth),
        &SearchOptions::default(),
        &stop,
        |info| {
            let pv: Vec<String> = info.lines[0]
                .pv
                .iter()
                .map(|m| UciMove::from_move(*m, CastlingMode::Standard).to_string())
                .collect();
            println!(
                "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.lines[0].score,
                info.nodes,
                info.nps(),
                info.elapsed.as_millis(),
                pv.join(" ")
            );
        },
    );
    if let Some(best) = result.best {
        println!(
            "bestmove {}",
            UciMove::from_move(best, CastlingMode::Standard)
        );
    }
}
