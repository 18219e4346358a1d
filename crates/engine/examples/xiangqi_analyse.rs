//! Analyses a xiangqi FEN to a depth and prints each iteration:
//! `xiangqi_analyse [FEN] [DEPTH]` (the start position and depth 8 by default).

use std::sync::atomic::AtomicBool;

use tablero_engine::{Engine, Evaluator, Limits, SearchOptions, XiangqiEvaluator};
use tablero_xiangqi::{START_FEN, Xiangqi};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args
        .get(1)
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(START_FEN);
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(8);
    let pos = match Xiangqi::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return;
        }
    };
    let engine = Engine::new(XiangqiEvaluator, 64);
    println!("static eval {}", engine.evaluator().evaluate(&pos));
    let stop = AtomicBool::new(false);
    let result = engine.search(
        &pos,
        &[],
        &Limits::depth(depth),
        &SearchOptions::default(),
        &stop,
        |info| {
            let pv: Vec<String> = info.lines[0].pv.iter().map(ToString::to_string).collect();
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
        println!("bestmove {best}");
    }
}
