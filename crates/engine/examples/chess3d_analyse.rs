//! Analyses an Ajedrez 3D position string to a depth and prints each iteration:
//! `chess3d_analyse [POSITION] [DEPTH]` (default: the start position, depth 6).

use std::sync::atomic::AtomicBool;

use tablero_chess3d::{Chess3d, START_POSITION};
use tablero_engine::{Chess3dEvaluator, Engine, Limits, SearchOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = args.get(1).map_or(START_POSITION, String::as_str);
    let depth = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let pos = match Chess3d::from_position_string(text) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad position string: {e}");
            return;
        }
    };
    let engine = Engine::new(Chess3dEvaluator, 64);
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
