//! Analyses a draughts position to a depth and prints each iteration:
//! `draughts_analyse RULE_SET [FEN] DEPTH` (the start position without a FEN).

use std::sync::atomic::AtomicBool;

use tablero_draughts::{Draughts, RuleSet};
use tablero_engine::{DraughtsEvaluator, Engine, Limits, SearchOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule_set = match args.get(1).map_or(Ok(RuleSet::English), |s| s.parse()) {
        Ok(rule_set) => rule_set,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let (fen, depth) = match args.len() {
        0..=2 => (None, 12),
        3 => (None, args[2].parse().unwrap_or(12)),
        _ => (Some(args[2].as_str()), args[3].parse().unwrap_or(12)),
    };
    let pos = match fen.map_or(Ok(Draughts::new(rule_set)), |f| {
        Draughts::from_fen(f, rule_set)
    }) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return;
        }
    };
    let engine = Engine::new(DraughtsEvaluator, 64);
    let stop = AtomicBool::new(false);
    let result = engine.search(
        &pos,
        &[],
        &Limits::depth(depth),
        &SearchOptions::default(),
        &stop,
        |info| {
            let mut line = pos.clone();
            let pv: Vec<String> = info.lines[0]
                .pv
                .iter()
                .map(|&m| {
                    let text = line.move_text(m);
                    tablero_draughts::Position::play_unchecked(&mut line, m);
                    text
                })
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
        println!("bestmove {}", pos.move_text(best));
    }
}
